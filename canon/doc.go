// Package canon defines when two JSON scalars are the same value: exactly when
// their RFC 8785 (JSON Canonicalization Scheme) serializations are equal.
// It is the one place in claimcheck that defines equality; the multiset tools
// compare elements through it.
//
// # Scalars
//
// A scalar is JSON null, true, false, a string, or a finite number. [Of]
// converts a Go value (nil, bool, string, float64, float32, any integer type,
// json.Number) into a [Scalar]; [NullScalar], [BoolScalar], [NumberScalar],
// [IntScalar], [UintScalar], [Float32Scalar], [StringScalar] and
// [ParseNumber] (a JSON number literal) build one directly. Everything else — maps,
// slices, structs, pointers, NaN, ±Inf, invalid UTF-8 — is an *[claimcheck.Error].
//
// # Reading a student's JSON
//
// [ParseArray] reads a JSON array of scalars from its text with the strict
// reader of the JSON tools, and [ParseSubmission] a whole submission, an
// object of answers, with the same strictness at every level ([Submission]
// gives each answer by name). Use them for an answer that should not go
// through encoding/json first: that decodes 1e400 to an error and a nil,
// invalid UTF-8 or a lone surrogate to U+FFFD, and a repeated member to
// the last one's value, where these readers name the value at fault by
// its JSON Pointer path in the student's document ("/q1/3").
//
// By default a number is the double nearest its literal, as the JSON tools
// compare it: 9007199254740993 reads as 9007199254740992, 1e-400 as 0.
// With [ExactNumbers] a reader refuses, at its path, a number whose
// rounding changes an integer (those two among them), saying what it
// would have become, so that no answer is graded as a number its writer
// did not write. (See also the contract's §1, [docs/contract.md].)
//
// # Keys
//
// [Key] and [AppendKey] return a scalar's canonical key, its RFC 8785
// serialization:
//
//   - numbers: the double nearest the literal (ties to even), written as
//     ECMAScript's Number.prototype.toString writes it, so -0 and 0 are both
//     "0", 1.0 and 100e-2 are "1", 1e21 is "1e+21" and 1e-7 is "1e-7";
//     a literal that rounds to ±Inf is refused, one that underflows is 0;
//   - strings: '"' and '\\' escaped, U+0000–U+001F as \b \t \n \f \r or
//     lower-case \u00xx, every other code point literal UTF-8;
//   - null, true, false as themselves.
//
// The number form is tested against the published ES6 number corpus and
// against github.com/gowebpki/jcs.NumberToJSON.
//
// # Comparing without formatting
//
// RFC 8785 number serialization is injective on finite doubles apart from -0
// and 0, and string serialization is injective on valid UTF-8 strings, so two
// scalars have equal keys exactly when they have the same kind and equal
// doubles (with -0 folded into 0) or equal strings. A [Scalar] stores exactly
// that, so == on Scalars is key equality and needs no formatting; the key is
// only written for what an output shows. Property tests check the equivalence
// against jcs.Transform.
//
// # Guarantees
//
// Exact: no value is rounded beyond the one rounding of a JSON literal to a
// double, and nothing invalid is repaired. Deterministic: a key depends only on
// the value. AppendKey does not allocate for null, booleans, integral numbers
// and strings that need no escapes.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package canon
