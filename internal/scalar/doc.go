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
// equal, and an integer no double holds (an exact integer) equals only
// itself. Number serialization is injective on finite doubles but for -0
// and 0, and string serialization is injective on valid UTF-8, so two
// scalars are equal exactly when they have the same kind and the same
// double (-0 folded into 0), the same exact integer's text, or the same
// string. A [Scalar] holds exactly that (an exact integer's text beside
// its nearest double, a double's text empty), so == on Scalars is
// equality.
//
// # The rules
//
// Each rule is written once, and every conversion, checked or trusted,
// calls it:
//
//   - a number is a finite double, and -0 is 0 (finite, fold);
//   - a Go integer is the double of its value where a double holds it
//     exactly ([IntWord], [UintWord]), and otherwise an exact integer
//     ([IntOf], [BigIntOf], [ExactInt]): one Scalar per integer;
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
// [TagStr] plus its length; a longer string has the tag [TagLong], and an
// exact integer the tag [TagBig], and each is keyed by its text
// ([Scalar.Text]), which the caller interns. Two scalars are equal
// exactly when their keys are. The one-word keys ([Scalar.Word],
// [ElemWord], [NumWord], [StrWord], ...) are the same keys, made for the
// engine's fused loops without a branch on the kind where the kinds vary
// at random; all but ElemWord are small enough for the compiler to inline.
package scalar
