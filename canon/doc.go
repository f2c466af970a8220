// Package canon defines when two JSON scalars are the same value: exactly when
// their canonical keys, their RFC 8785 (JSON Canonicalization Scheme)
// serializations, are equal, an integer no double holds being compared as
// that integer (see Integers). It is the one place in claimcheck that
// defines equality; the multiset tools compare elements through it.
//
// # Scalars
//
// A scalar is JSON null, true, false, a string, or a finite number. [Of]
// converts a Go value (nil, bool, string, float64, float32, any integer type,
// *big.Int, big.Int, json.Number, [ExactNumber]) into a [Scalar];
// [NullScalar], [BoolScalar], [NumberScalar], [IntScalar], [UintScalar],
// [BigIntScalar], [Float32Scalar], [StringScalar] and [ParseNumber] (a JSON
// number literal) build one directly. Everything else — maps, slices,
// structs, other pointers, NaN, ±Inf, invalid UTF-8 — is an
// *[claimcheck.Error].
//
// # Integers
//
// Numbers whose values are integers are equal exactly when they are the
// same integer, at any size. A double holds every integer up to 2^53 and
// some beyond (2^60, 10^22); such an integer is that double, whatever form
// it comes in: int64(1<<60), float64(1<<60), a *big.Int 2^60 and the
// literals 1152921504606846976 and 1.152921504606846976e18 are one
// Scalar. An integer no double holds (2^53+1, math.MaxUint64, 10^23) is
// an exact integer, equal only to itself. It comes from a Go integer of
// any width or a *big.Int or big.Int, with no option, or from JSON text
// read exactly:
//
//   - a document read with [ExactNumbers] by [ParseArray] or
//     [ParseSubmission]: a grader who reads a student's JSON;
//   - an [ExactNumber] (a json.Number converted), or [ParseNumber] with
//     ExactNumbers: a grader whose answer is already decoded with
//     json.Decoder.UseNumber.
//
// A json.Number, and a document read by default, is JSON text read as the
// JSON tools read it: 9007199254740993 is the double 9007199254740992.
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
// With [ExactNumbers] a reader keeps an integer as the integer written
// (9007199254740993 exactly) and refuses, at its path, a fraction whose
// rounding makes it an integer (1e-400), saying what it would have become,
// so that no answer is graded as a number its writer did not write. (See
// also the contract's §1, [docs/contract.md].)
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
//   - an exact integer: its decimal digits followed by "n", as an
//     ECMAScript BigInt literal is written ("9007199254740993n"), a form
//     no RFC 8785 key takes. Its digits alone could be a double's key:
//     RFC 8785 writes the double 2^60 as 1152921504606847000, which is
//     another integer. [Scalar.String], [Scalar.MarshalJSON] and every
//     report show the digits alone;
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
// doubles (with -0 folded into 0), equal exact integers' digits, or equal
// strings. A [Scalar] stores exactly that, so == on Scalars is key equality
// and needs no formatting; the key is only written for what an output
// shows. Property tests check the equivalence against jcs.Transform, and
// the exact keys against jcs.NumberToJSON wherever a double holds the
// integer.
//
// # Guarantees
//
// Exact: no value is rounded beyond the one rounding of a JSON literal read
// by default to a double, and nothing invalid is repaired. Deterministic: a key depends only on
// the value. AppendKey does not allocate for null, booleans, integral numbers
// and strings that need no escapes.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package canon
