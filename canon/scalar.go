package canon

import "github.com/claimcheck/claimcheck/internal/scalar"

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
// double with -0 folded into 0, a string is valid UTF-8. Scalars are
// comparable, and == on two Scalars is exactly the equality of their RFC 8785
// serializations (see the package documentation for why). The zero Scalar is
// JSON null. Its fields are unexported: a Scalar is made only by this
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

// IntScalar returns the Scalar of a Go integer. An integer that a double
// holds exactly (every one of magnitude at most 2^53, and larger ones such as
// 2^60) is that double; any other (such as 2^53+1) is an
// *[github.com/claimcheck/claimcheck.Error]: as a JSON number it would round
// to a different value, so two different integers could compare equal. Pass
// such a value as a string instead.
func IntScalar(i int64) (Scalar, error) { return of(scalar.IntOf(i)) }

// UintScalar is [IntScalar] for unsigned integers: math.MaxUint64 is refused,
// 1<<63 is accepted.
func UintScalar(u uint64) (Scalar, error) { return of(scalar.UintOf(u)) }

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
// 1e-400) is 0.
func ParseNumber(lit string) (Scalar, error) { return of(scalar.ParseNumber(lit)) }

// Of returns the Scalar of a Go value: nil, bool, string, float64, float32,
// any integer type, json.Number, or a Scalar. Values of named types whose
// underlying kind is one of these are accepted too (a named string type is a
// string; json.Number is the one exception, read as a JSON number literal).
//
// Go values are exact, so none is rounded silently: an integer is the double
// of the same value and refused when no double is ([IntScalar]); a float32
// is the number encoding/json writes for it ([Float32Scalar]); a json.Number
// is JSON text and rounds as the same literal in a document does
// ([ParseNumber]). Anything else (maps, slices, structs, pointers), NaN, ±Inf,
// invalid UTF-8 and inexact integers are an
// *[github.com/claimcheck/claimcheck.Error] saying what and why.
func Of(v any) (Scalar, error) {
	if s, ok := v.(Scalar); ok {
		return s, nil
	}
	return of(scalar.Of(v))
}

// Kind returns the JSON type of s.
func (s Scalar) Kind() Kind { return Kind(s.v().Kind()) }

// Float returns the value of a Number scalar (0 for other kinds).
func (s Scalar) Float() float64 { return s.v().Float() }

// Bool returns the value of a Bool scalar (false for other kinds).
func (s Scalar) Bool() bool { return s.v().Bool() }

// Str returns the value of a String scalar ("" for other kinds).
func (s Scalar) Str() string { return s.v().Str() }

// Value returns s as the Go value encoding/json would decode it to: nil,
// bool, float64 or string.
func (s Scalar) Value() any { return s.v().Value() }

// AppendKey appends the RFC 8785 serialization of s to dst.
func (s Scalar) AppendKey(dst []byte) []byte { return s.v().AppendJSON(dst) }

// Key returns the RFC 8785 serialization of s.
func (s Scalar) Key() string {
	var buf [32]byte
	return string(s.AppendKey(buf[:0]))
}

// String returns s.Key().
func (s Scalar) String() string { return s.Key() }

// MarshalJSON returns s.Key(): a Scalar marshals to its canonical form.
func (s Scalar) MarshalJSON() ([]byte, error) { return s.AppendKey(nil), nil }

// Key returns the canonical key of one JSON scalar given as a Go value (see
// [Of] for the accepted types): its RFC 8785 serialization. Two values are
// the same scalar exactly when their keys are equal. The error is an
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
