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
// [ParseArray] reads a JSON array of scalars from its text with the strict
// reader of the JSON tools, for an answer that should not go through
// encoding/json first: that decodes 1e400 to an error and a nil, and invalid
// UTF-8 or a lone surrogate to U+FFFD, where ParseArray names the element at
// fault by its JSON Pointer path.
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
package canon
