package canon

import (
	"math/big"

	"github.com/claimcheck/claimcheck/internal/scalar"
)

// Kind is the JSON type of a [Scalar].
type Kind uint8

// The kinds of JSON scalar. The zero Scalar is of kind Null.
const (
	Null   = Kind(scalar.Null)
	Bool   = Kind(scalar.Bool)
	Number = Kind(scalar.Number)
	String = Kind(scalar.String)
)

func (k Kind) String() string { return scalar.Kind(k).String() }

// A Scalar is a validated JSON scalar in canonical form: a number is a finite
// double with -0 folded into 0, or an integer that no double holds (see
// the package documentation, "Integers"), a string is valid UTF-8. Scalars
// are comparable, and == on two Scalars is exactly the equality of their
// keys (see the package documentation for why). The zero Scalar is JSON
// null. Its fields are unexported: a Scalar is made only by this
// package's constructors, which check what they are given.
type Scalar scalar.Scalar

// v is s as the representation's owner has it.
func (s *Scalar) v() *scalar.Scalar { return (*scalar.Scalar)(s) }

// of converts the owner's result.
func of(s scalar.Scalar, err error) (Scalar, error) { return Scalar(s), err }

// NullScalar returns the Scalar null (the zero Scalar).
func NullScalar() Scalar { return Scalar{} }

// BoolScalar returns the Scalar true or false.
func BoolScalar(b bool) Scalar { return Scalar(scalar.BoolOf(b)) }

// NumberScalar returns the Scalar of a finite double; -0 becomes 0. NaN and
// ±Inf are an *[github.com/claimcheck/claimcheck.Error].
func NumberScalar(f float64) (Scalar, error) { return of(scalar.NumberOf(f)) }

// IntScalar returns the Scalar of a Go integer: the integer i exactly. One
// that a double holds exactly (every one of magnitude at most 2^53, and
// larger ones such as 2^60) is that double, the Scalar of the same number
// in every other form; any other (such as 2^53+1) is an exact integer (see
// the package documentation, "Integers"). The error is always nil.
func IntScalar(i int64) (Scalar, error) { return of(scalar.IntOf(i)) }

// UintScalar is [IntScalar] for unsigned integers (math.MaxUint64 is an
// exact integer, 1<<63 a double). The error is always nil.
func UintScalar(u uint64) (Scalar, error) { return of(scalar.UintOf(u)) }

// BigIntScalar is [IntScalar] for an integer of any size: x's value when
// the call is made (x is not kept). A nil x is an
// *[github.com/claimcheck/claimcheck.Error].
func BigIntScalar(x *big.Int) (Scalar, error) { return of(scalar.BigIntOf(x)) }

// Float32Scalar returns the Scalar of a float32: the number encoding/json
// writes for it (the shortest decimal that reads back as the same float32),
// read as a double. So float32(0.1) is the JSON number 0.1, not the double
// nearest the float32 (0.10000000149011612). NaN and ±Inf are an
// *[github.com/claimcheck/claimcheck.Error].
func Float32Scalar(f float32) (Scalar, error) { return of(scalar.Float32Of(f)) }

// StringScalar returns the Scalar of a string. A string that is not valid
// UTF-8 (including a surrogate code point written as three bytes) is an
// *[github.com/claimcheck/claimcheck.Error]; it is never repaired.
func StringScalar(s string) (Scalar, error) { return of(scalar.StringOf(s)) }

// ParseNumber returns the Scalar of a JSON number literal (RFC 8259 section
// 6 grammar exactly: no sign '+', no leading zeros, no bare '.', no
// surrounding space). The literal is rounded to the nearest double, ties to
// even; one that rounds to ±Inf (such as 1e400) is an
// *[github.com/claimcheck/claimcheck.Error], one that underflows (such as
// 1e-400) is 0. With [ExactNumbers], the literal is read as that option
// says: an integer is exact (9007199254740993), and a fraction that would
// round to an integer (1e-400) is an error.
func ParseNumber(lit string, opts ...Option) (Scalar, error) {
	s, err := of(scalar.ParseNumber(lit))
	if err == nil && newOptions(opts).exact {
		err = exactNumber(lit, &s)
	}
	return s, err
}

// An ExactNumber is a JSON number literal, as a json.Number is, that
// [Of] reads exactly, as [ParseNumber] does with [ExactNumbers]: where a
// json.Number "9007199254740993" is 9007199254740992, the double nearest
// it, ExactNumber("9007199254740993") is that integer. Convert a
// json.Number to an ExactNumber for a grader who must compare integers
// beyond 2^53 as written: the multiset tools and package claimchecktest
// read a []ExactNumber, or an ExactNumber in a []any, this way.
type ExactNumber string

// Of returns the Scalar of a Go value: nil, bool, string, float64, float32,
// any integer type, *big.Int or big.Int, json.Number, an [ExactNumber], or
// a Scalar. Values of named types whose underlying kind is one of these are
// accepted too (a named string type is a string; json.Number and
// ExactNumber are the exceptions, read as JSON number literals).
//
// Go values are exact, so none is rounded silently: an integer of any type
// is that integer ([IntScalar], [BigIntScalar]); a float32 is the number
// encoding/json writes for it ([Float32Scalar]); a json.Number is JSON text
// and rounds as the same literal in a document does ([ParseNumber]), an
// ExactNumber as the literal does with [ExactNumbers]. Anything else
// (maps, slices, structs, pointers other than *big.Int), NaN, ±Inf and
// invalid UTF-8 are an *[github.com/claimcheck/claimcheck.Error] saying
// what and why.
func Of(v any) (Scalar, error) {
	switch x := v.(type) {
	case Scalar:
		return x, nil
	case ExactNumber:
		return ParseNumber(string(x), ExactNumbers())
	}
	return of(scalar.Of(v))
}

// Kind returns the JSON type of s.
func (s Scalar) Kind() Kind { return Kind(s.v().Kind()) }

// Float returns the value of a Number scalar (0 for other kinds): for an
// exact integer, the double nearest it (±Inf beyond a double's range).
func (s Scalar) Float() float64 { return s.v().Float() }

// Bool returns the value of a Bool scalar (false for other kinds).
func (s Scalar) Bool() bool { return s.v().Bool() }

// Str returns the value of a String scalar ("" for other kinds).
func (s Scalar) Str() string { return s.v().Str() }

// Value returns s as the Go value encoding/json would decode it to: nil,
// bool, float64 or string; an exact integer is a new *big.Int, which [Of]
// reads back as s.
func (s Scalar) Value() any { return s.v().Value() }

// AppendKey appends the canonical key of s to dst: its RFC 8785
// serialization, or for an exact integer its decimal digits followed by
// "n" (see the package documentation, "Keys").
func (s Scalar) AppendKey(dst []byte) []byte { return s.v().AppendKey(dst) }

// Key returns the canonical key of s (see [Scalar.AppendKey]).
func (s Scalar) Key() string {
	var buf [32]byte
	return string(s.AppendKey(buf[:0]))
}

// String returns s as JSON text, the form reports show: s.Key(), but an
// exact integer's decimal digits without the "n".
func (s Scalar) String() string {
	var buf [32]byte
	return string(s.v().AppendJSON(buf[:0]))
}

// MarshalJSON returns s.String(): a Scalar marshals to its canonical form,
// an exact integer to its digits.
func (s Scalar) MarshalJSON() ([]byte, error) { return s.v().AppendJSON(nil), nil }

// Key returns the canonical key of one JSON scalar given as a Go value (see
// [Of] for the accepted types): its RFC 8785 serialization, or an exact
// integer's digits and "n" ([Scalar.Key]). Two values are the same scalar
// exactly when their keys are equal. The error is an
// *[github.com/claimcheck/claimcheck.Error].
func Key(v any) (string, error) {
	s, err := Of(v)
	if err != nil {
		return "", err
	}
	return s.Key(), nil
}

// AppendKey appends the canonical key of v (see [Key]) to dst. It does not
// allocate for nil, booleans, integral numbers, escape-free strings, or any
// value when dst has room.
func AppendKey(dst []byte, v any) ([]byte, error) {
	s, err := Of(v)
	if err != nil {
		return dst, err
	}
	return s.AppendKey(dst), nil
}
