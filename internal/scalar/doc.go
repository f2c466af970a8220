// Package scalar owns claimcheck's one definition of equality: the
// representation of a JSON scalar, the rules a value must meet to be one,
// and the key that identifies it. Package canon is its public face
// (canon.Scalar is a [Scalar] under canon's name, with canon's methods);
// the multiset engine (internal/bag) keys every element through this
// package, whatever form it comes in, and copies none of its rules.
//
// # Equality
//
// Two scalars are equal exactly when their RFC 8785 serializations are
// equal. Number serialization is injective on finite doubles but for -0
// and 0, and string serialization is injective on valid UTF-8, so two
// scalars are equal exactly when they have the same kind and the same
// double (-0 folded into 0) or the same string. A [Scalar] holds exactly
// that, so == on Scalars is equality.
//
// # The rules
//
// Each rule is written once, and every conversion, checked or trusted,
// calls it:
//
//   - a number is a finite double, and -0 is 0 (finite, fold);
//   - a Go integer is a number only where a double holds it exactly
//     ([IntWord], [UintWord]);
//   - a float32 is the shortest decimal that reads back as it, read as a
//     double ([Float32]);
//   - a string is valid UTF-8, never repaired (validString);
//   - a document element the reader vouches for is converted without a
//     second check ([FromElem]): a number whose double the reader computed,
//     a string of printable ASCII without an escape.
//
// # Keys
//
// A key is two words and a tag ([Scalar.Key]): a null, a boolean or a
// number is the bits of the double a Scalar holds for it (0 for null and
// false, 1 for true, the value for a number) and its kind's tag; a string
// of at most [MaxShort] bytes is its bytes, little-endian, and the tag
// [TagStr] plus its length; a longer string has the tag [TagLong] and is
// keyed by its text, which the caller interns. Two scalars are equal
// exactly when their keys are. The one-word keys ([Scalar.Word],
// [ElemWord], [NumWord], [StrWord], ...) are the same keys, made for the
// engine's fused loops without a branch on the kind where the kinds vary
// at random; all but ElemWord are small enough for the compiler to inline.
package scalar
