package canon

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// Kind is the JSON type of a [Scalar].
type Kind uint8

// The kinds of JSON scalar. The zero Scalar is of kind Null.
const (
	Null Kind = iota
	Bool
	Number
	String
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// A Scalar is a validated JSON scalar in canonical form: a number is a finite
// double with -0 folded into 0, a string is valid UTF-8. Scalars are
// comparable, and == on two Scalars is exactly the equality of their RFC 8785
// serializations (see the package documentation for why). The zero Scalar is
// JSON null.
type Scalar struct {
	kind Kind
	num  float64 // Number: the value (never -0, NaN or ±Inf); Bool: 0 or 1; else 0 (see canonhook.NumOffset)
	str  string  // String: the value
}

// NullScalar returns the Scalar null (the zero Scalar).
func NullScalar() Scalar { return Scalar{} }

// BoolScalar returns the Scalar true or false.
func BoolScalar(b bool) Scalar {
	if b {
		return Scalar{kind: Bool, num: 1}
	}
	return Scalar{kind: Bool}
}

// NumberScalar returns the Scalar of a finite double; -0 becomes 0. NaN and
// ±Inf are an *[claimcheck.Error].
func NumberScalar(f float64) (Scalar, error) {
	if f-f != 0 { // NaN or ±Inf; kept small so that the compiler inlines the function
		return Scalar{}, notFinite(f)
	}
	return Scalar{kind: Number, num: f + 0}, nil // f + 0 turns -0 into +0
}

func notFinite(f float64) error {
	return errs.Invalid("", "number "+strconv.FormatFloat(f, 'g', -1, 64)+" is not finite")
}

// IntScalar returns the Scalar of a Go integer. An integer that a double
// holds exactly (every one of magnitude at most 2^53, and larger ones such as
// 2^60) is that double; any other (such as 2^53+1) is an *[claimcheck.Error]:
// as a JSON number it would round to a different value, so two different
// integers could compare equal. Pass such a value as a string instead.
func IntScalar(i int64) (Scalar, error) {
	u := uint64(i)
	if i < 0 {
		u = -u // two's complement: right for math.MinInt64 too
	}
	if !exactUint(u) {
		return Scalar{}, inexactInt(strconv.FormatInt(i, 10))
	}
	return Scalar{kind: Number, num: float64(i)}, nil
}

// UintScalar is [IntScalar] for unsigned integers: math.MaxUint64 is refused,
// 1<<63 is accepted.
func UintScalar(u uint64) (Scalar, error) {
	if !exactUint(u) {
		return Scalar{}, inexactInt(strconv.FormatUint(u, 10))
	}
	return Scalar{kind: Number, num: float64(u)}, nil
}

// exactUint reports whether float64(u) == u exactly: the bits between the
// highest and lowest set bit fit in a double's 53-bit significand.
func exactUint(u uint64) bool { return jsonwire.ExactUint(u) }

func inexactInt(text string) error {
	return errs.Invalid("", "integer "+text+" is not exactly a double; pass it as a string")
}

// Float32Scalar returns the Scalar of a float32: the number encoding/json
// writes for it (the shortest decimal that reads back as the same float32),
// read as a double. So float32(0.1) is the JSON number 0.1, not the double
// nearest the float32 (0.10000000149011612). NaN and ±Inf are an
// *[claimcheck.Error].
func Float32Scalar(f float32) (Scalar, error) {
	if f != f || math.IsInf(float64(f), 0) {
		return NumberScalar(float64(f)) // the same refusal as for a double
	}
	var buf [32]byte
	d, _ := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], float64(f), 'g', -1, 32)), 64)
	return Scalar{kind: Number, num: d + 0}, nil
}

// StringScalar returns the Scalar of a string. A string that is not valid
// UTF-8 (including a surrogate code point written as three bytes) is an
// *[claimcheck.Error]; it is never repaired.
func StringScalar(s string) (Scalar, error) {
	if err := checkUTF8(s); err != nil {
		return Scalar{}, err
	}
	return Scalar{kind: String, str: s}, nil
}

// checkUTF8 returns the error for a string that is not valid UTF-8. It is
// one call, so that StringScalar is small enough for the compiler to inline
// into the readers' loops.
//
//go:noinline
func checkUTF8(s string) error {
	if len(s) <= 16 && ascii16(s) || utf8.ValidString(s) {
		return nil
	}
	return notUTF8(s)
}

// ascii16 reports whether s, of at most 16 bytes, holds no byte >= 0x80
// (so is valid UTF-8), testing it in two overlapping loads: most strings
// are short and ASCII, and utf8.ValidString reads one byte at a time below
// eight.
func ascii16(s string) bool {
	var w uint64
	switch n := len(s); {
	case n >= 8:
		w = jsonwire.LE64(s) | jsonwire.LE64(s[n-8:])
	case n >= 4:
		w = uint64(jsonwire.LE32(s) | jsonwire.LE32(s[n-4:]))
	default:
		for i := range n {
			w |= uint64(s[i])
		}
	}
	return w&0x8080808080808080 == 0
}

func notUTF8(s string) error {
	return errs.Invalid("", fmt.Sprintf("string is not valid UTF-8 (byte offset %d)", invalidOffset(s)))
}

func invalidOffset(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

// ParseNumber returns the Scalar of a JSON number literal (RFC 8259 section
// 6 grammar exactly: no sign '+', no leading zeros, no bare '.', no
// surrounding space). The literal is rounded to the nearest double, ties to
// even; one that rounds to ±Inf (such as 1e400) is an *[claimcheck.Error], one that
// underflows (such as 1e-400) is 0.
func ParseNumber(lit string) (Scalar, error) {
	n, fault := jsonwire.ParseNumber(lit)
	if fault != jsonwire.OK || n.Len != len(lit) {
		return Scalar{}, errs.Invalid("", "not a JSON number: "+strconv.Quote(lit))
	}
	f, ok := n.Exact() // the commonest literals, without a call
	if !ok {
		f, ok = n.Float()
	}
	if ok {
		return Scalar{kind: Number, num: f + 0}, nil
	}
	f, err := parseFloat(lit)
	if err != nil || math.IsInf(f, 0) {
		return Scalar{}, errs.Invalid("", "number "+truncate(lit)+" is out of the range of a double")
	}
	return Scalar{kind: Number, num: f + 0}, nil
}

// maxDigits is how many significant digits parseFloat hands to strconv.
// Every decimal halfway point between two doubles has at most 768
// significant digits, so a longer mantissa can be cut to maxDigits digits
// plus one non-zero "sticky" digit standing for the rest without changing
// which side of any halfway point it lies on.
const maxDigits = 780

// parseFloat is strconv.ParseFloat for a grammatical JSON number literal,
// correct for mantissas of any length: strconv's slow path keeps at most 800
// digits and, past that, misplaces the decimal point (1 followed by 900
// zeros and e-900 reads as 1e-101). Long mantissas are rewritten to
// 0.DDD…e±X with at most maxDigits+1 digits first.
func parseFloat(lit string) (float64, error) {
	if len(lit) <= maxDigits {
		return strconv.ParseFloat(lit, 64)
	}
	whole := lit
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, exp = lit[:i], lit[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := intPart + frac
	point := len(intPart) // the value is 0.digits × 10^(point+exp)
	z := len(digits) - len(strings.TrimLeft(digits, "0"))
	digits, point = digits[z:], point-z
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, nil
	}
	if len(digits) <= maxDigits && len(whole) <= maxDigits {
		return strconv.ParseFloat(whole, 64)
	}
	if len(digits) > maxDigits {
		digits = digits[:maxDigits] + "1" // the rest is non-zero: TrimRight removed trailing zeros
	}
	e, ok := exponent(exp)
	if !ok { // |exp| of 10^18 or more: no literal in memory brings it back
		if strings.HasPrefix(exp, "-") {
			return 0, nil
		}
		return math.Inf(1), strconv.ErrRange
	}
	text := "0." + digits + "e" + strconv.FormatInt(int64(point)+e, 10)
	if neg {
		text = "-" + text
	}
	return strconv.ParseFloat(text, 64)
}

// exponent reads an exponent [+-]?[0-9]+ ("" is 0), refusing magnitudes of
// 10^18 or more. (Not 10^9: the point of 0.000…01e1000000005, a billion
// zeros on, brings it back to 10^5.)
func exponent(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > 18 {
		return 0, false
	}
	var e int64
	for i := 0; i < len(s); i++ {
		e = e*10 + int64(s[i]-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

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
// invalid UTF-8 and inexact integers are an *[claimcheck.Error] saying what
// and why.
func Of(v any) (Scalar, error) {
	switch x := v.(type) {
	case nil:
		return Scalar{}, nil
	case bool:
		return BoolScalar(x), nil
	case string:
		return StringScalar(x)
	case float64:
		return NumberScalar(x)
	case int:
		return IntScalar(int64(x))
	case int64:
		return IntScalar(x)
	case json.Number:
		return ParseNumber(string(x))
	case float32:
		return Float32Scalar(x)
	case int8:
		return Scalar{kind: Number, num: float64(x)}, nil
	case int16:
		return Scalar{kind: Number, num: float64(x)}, nil
	case int32:
		return Scalar{kind: Number, num: float64(x)}, nil
	case uint:
		return UintScalar(uint64(x))
	case uint8:
		return Scalar{kind: Number, num: float64(x)}, nil
	case uint16:
		return Scalar{kind: Number, num: float64(x)}, nil
	case uint32:
		return Scalar{kind: Number, num: float64(x)}, nil
	case uint64:
		return UintScalar(x)
	case uintptr:
		return UintScalar(uint64(x))
	case Scalar:
		return x, nil
	}
	return ofReflect(v)
}

// ofReflect handles named types of the accepted kinds.
func ofReflect(v any) (Scalar, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return BoolScalar(rv.Bool()), nil
	case reflect.String:
		return StringScalar(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return IntScalar(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return UintScalar(rv.Uint())
	case reflect.Float32:
		return Float32Scalar(float32(rv.Float()))
	case reflect.Float64:
		return NumberScalar(rv.Float())
	}
	return Scalar{}, notScalar(v)
}

// notScalar returns the error for a Go value of a type that is not a JSON
// scalar. The message names what the value would be in JSON, never its Go
// type, since it may reach someone who wrote JSON, not Go: a map or struct
// is an object; a slice or array (a []byte too) an array. A pointer is not
// followed, and the other kinds (complex, func, chan) have no JSON form.
// It is worded for an array's element, where the tools read a value, in the
// words the JSON tools use for the same fault.
func notScalar(v any) error {
	var msg string
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Struct:
		msg = "element is an object, not a scalar"
	case reflect.Slice, reflect.Array:
		if _, raw := v.(json.RawMessage); raw {
			msg = "element is undecoded JSON text, not a scalar: decode it first"
		} else {
			msg = "element is an array, not a scalar"
		}
	case reflect.Pointer, reflect.UnsafePointer:
		msg = "element is a reference to a value, not a scalar: pass the value itself"
	default:
		msg = "element has no JSON form: want null, a boolean, a number or a string"
	}
	return errs.Invalid("", msg)
}

// Kind returns the JSON type of s.
func (s Scalar) Kind() Kind { return s.kind }

// Float returns the value of a Number scalar (0 for other kinds).
func (s Scalar) Float() float64 {
	if s.kind != Number {
		return 0
	}
	return s.num
}

// Bool returns the value of a Bool scalar (false for other kinds).
func (s Scalar) Bool() bool { return s.kind == Bool && s.num != 0 }

// Str returns the value of a String scalar ("" for other kinds).
func (s Scalar) Str() string { return s.str }

// Value returns s as the Go value encoding/json would decode it to: nil,
// bool, float64 or string.
func (s Scalar) Value() any {
	switch s.kind {
	case Bool:
		return s.num != 0
	case Number:
		return s.num
	case String:
		return s.str
	}
	return nil
}

// AppendKey appends the RFC 8785 serialization of s to dst.
func (s Scalar) AppendKey(dst []byte) []byte {
	switch s.kind {
	case Bool:
		if s.num != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		return appendNumber(dst, s.num)
	case String:
		return jsonwire.AppendString(dst, s.str)
	}
	return append(dst, "null"...)
}

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
// the same scalar exactly when their keys are equal. The error is an *[claimcheck.Error].
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
