package scalar

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
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

// A Scalar is a validated JSON scalar: a number is a finite double with -0
// folded into 0, or an integer no double holds, a string is valid UTF-8.
// == on Scalars is equality (see the package documentation). The zero
// Scalar is null.
type Scalar struct {
	kind Kind
	// Number: the value, or an exact integer's nearest double (±Inf past
	// a double's range); Bool: 1 or 0; Null and String: 0.
	num float64
	// String: the value; Number: an exact integer's decimal text (a "-"
	// and at least 16 digits, no leading zero), "" for a double.
	str string
}

// finite reports whether f is neither NaN nor ±Inf. It is kept small so
// that every caller inlines it.
func finite(f float64) bool { return f-f == 0 }

// fold turns -0 into 0 and leaves every other double as it is: the one
// double of a number's two zeros.
func fold(f float64) float64 { return f + 0 }

// validString reports whether s is valid UTF-8. Most strings are short and
// ASCII, which two overlapping loads decide (ascii16): utf8.ValidString
// reads one byte at a time below eight.
func validString(s string) bool {
	return len(s) <= 16 && ascii16(s) || utf8.ValidString(s)
}

// exactInt reports whether a double holds x exactly (jsonwire.ExactUint,
// the rule's owner, which canon.ExactNumbers' rule for literals shares),
// and gives it.
func exactInt(x int64) (float64, bool) {
	u := uint64(x)
	if x < 0 {
		u = -u // two's complement: right for math.MinInt64 too
	}
	return float64(x), jsonwire.ExactUint(u)
}

// exactUint is exactInt for unsigned integers.
func exactUint(x uint64) (float64, bool) { return float64(x), jsonwire.ExactUint(x) }

// NullOf returns null.
func NullOf() Scalar { return Scalar{} }

// BoolOf returns true or false.
func BoolOf(b bool) Scalar {
	if b {
		return Scalar{kind: Bool, num: 1}
	}
	return Scalar{kind: Bool}
}

// NumberOf returns the number f; -0 becomes 0. NaN and ±Inf are an error.
func NumberOf(f float64) (Scalar, error) {
	if !finite(f) {
		return Scalar{}, notFinite(f)
	}
	return Scalar{kind: Number, num: fold(f)}, nil
}

func notFinite(f float64) error {
	return errs.Invalid("", "number "+strconv.FormatFloat(f, 'g', -1, 64)+" is not finite")
}

// IntOf returns the number i: the double of the same value where a double
// holds it exactly, else the exact integer ([ExactInt]). It never fails;
// the error is nil, for the shape of the other constructors.
func IntOf(i int64) (Scalar, error) {
	f, ok := exactInt(i)
	if !ok {
		var buf [20]byte
		return ExactInt(string(AppendIntText(buf[:0], i)), f), nil
	}
	return Scalar{kind: Number, num: f}, nil
}

// AppendIntText appends the text of the integer x as an exact integer's
// key is made of ([Scalar.Text]; its tag is [TagBig] where no double holds
// x): for a caller that keys x without a Scalar.
func AppendIntText(dst []byte, x int64) []byte { return strconv.AppendInt(dst, x, 10) }

// UintOf is [IntOf] for unsigned integers.
func UintOf(u uint64) (Scalar, error) {
	f, ok := exactUint(u)
	if !ok {
		return ExactInt(strconv.FormatUint(u, 10), f), nil
	}
	return Scalar{kind: Number, num: f}, nil
}

// BigIntOf is [IntOf] for a *big.Int of any size; nil is an error.
func BigIntOf(x *big.Int) (Scalar, error) {
	if x == nil {
		return Scalar{}, errs.Invalid("", "element is a nil *big.Int, not a number")
	}
	f, acc := x.Float64()
	if acc != big.Exact {
		return ExactInt(x.String(), f), nil
	}
	return Scalar{kind: Number, num: fold(f)}, nil
}

// ExactInt returns the exact integer whose decimal text is text and whose
// nearest double is f. text must be an integer that no double holds, in
// decimal without a leading zero or a "+" (strconv.FormatInt's form): the rule that an integer a double holds is that double is
// the callers' ([IntOf], [BigIntOf], canon's ExactNumbers), so that every
// integer has one Scalar.
func ExactInt(text string, f float64) Scalar { return Scalar{kind: Number, num: f, str: text} }

// IsExactInt reports whether s is an integer no double holds.
func (s *Scalar) IsExactInt() bool { return s.kind == Number && s.str != "" }

// Float32Of returns the number encoding/json writes for f (the shortest
// decimal that reads back as the same float32), read as a double: so
// float32(0.1) is the JSON number 0.1. NaN and ±Inf are an error.
func Float32Of(f float32) (Scalar, error) {
	if !finite(float64(f)) {
		return NumberOf(float64(f)) // the same refusal as for a double
	}
	var buf [32]byte
	d, _ := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], float64(f), 'g', -1, 32)), 64)
	return Scalar{kind: Number, num: fold(d)}, nil
}

// StringOf returns the string s. A string that is not valid UTF-8
// (including a surrogate code point written as three bytes) is an error; it
// is never repaired.
func StringOf(s string) (Scalar, error) {
	if !validString(s) {
		return Scalar{}, notUTF8(s)
	}
	return Scalar{kind: String, str: s}, nil
}

// ascii16 reports whether s, of at most 16 bytes, holds no byte >= 0x80,
// in two overlapping loads.
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
	return ascii(w)
}

// highBits has the high bit of every byte of a word set.
const highBits = 0x8080808080808080

// ascii reports whether the bytes of w are ASCII, so valid UTF-8.
func ascii(w uint64) bool { return w&highBits == 0 }

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

// Of returns the Scalar of a Go value: nil, bool, string, float64, float32,
// any integer type, *big.Int or big.Int, json.Number, or a named type of
// one of these kinds (json.Number excepted, which is a JSON number
// literal, read by [ParseNumber]). Anything else, NaN, ±Inf and invalid
// UTF-8 are an error saying what and why.
func Of(v any) (Scalar, error) {
	switch x := v.(type) {
	case nil:
		return Scalar{}, nil
	case bool:
		return BoolOf(x), nil
	case string:
		return StringOf(x)
	case float64:
		return NumberOf(x)
	case int:
		return IntOf(int64(x))
	case int64:
		return IntOf(x)
	case json.Number:
		return ParseNumber(string(x))
	case float32:
		return Float32Of(x)
	case int8:
		return IntOf(int64(x))
	case int16:
		return IntOf(int64(x))
	case int32:
		return IntOf(int64(x))
	case uint:
		return UintOf(uint64(x))
	case uint8:
		return UintOf(uint64(x))
	case uint16:
		return UintOf(uint64(x))
	case uint32:
		return UintOf(uint64(x))
	case uint64:
		return UintOf(x)
	case uintptr:
		return UintOf(uint64(x))
	case *big.Int:
		return BigIntOf(x)
	case big.Int:
		return BigIntOf(&x)
	}
	return OfValue(reflect.ValueOf(v))
}

// OfValue is [Of] for a value read through reflect: a value of a named type
// of an accepted kind is read as that kind (a named json.Number too: it is
// a string type).
func OfValue(rv reflect.Value) (Scalar, error) {
	switch rv.Kind() {
	case reflect.Bool:
		return BoolOf(rv.Bool()), nil
	case reflect.String:
		return StringOf(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return IntOf(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return UintOf(rv.Uint())
	case reflect.Float32:
		return Float32Of(float32(rv.Float()))
	case reflect.Float64:
		return NumberOf(rv.Float())
	}
	return Scalar{}, notScalar(rv)
}

// notScalar returns the error for a value of a type that is not a JSON
// scalar. The message names what the value would be in JSON, never its Go
// type, since it may reach someone who wrote JSON, not Go: a map or struct
// is an object; a slice or array (a []byte too) an array. A pointer is not
// followed, and the other kinds (complex, func, chan) have no JSON form.
// It is worded for an array's element, where the tools read a value, in
// the words the JSON tools use for the same fault.
func notScalar(rv reflect.Value) error {
	var msg string
	switch rv.Kind() {
	case reflect.Map, reflect.Struct:
		msg = "element is an object, not a scalar"
	case reflect.Slice, reflect.Array:
		if rv.Type() == reflect.TypeFor[json.RawMessage]() {
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
func (s *Scalar) Kind() Kind { return s.kind }

// Float returns the value of a Number (0 for other kinds).
func (s *Scalar) Float() float64 {
	if s.kind != Number {
		return 0
	}
	return s.num
}

// Bool returns the value of a Bool (false for other kinds).
func (s *Scalar) Bool() bool { return s.kind == Bool && s.num != 0 }

// Str returns the value of a String ("" for other kinds).
func (s *Scalar) Str() string {
	if s.kind != String {
		return ""
	}
	return s.str
}

// Text returns the text a key of tag [TagLong] or [TagBig] is: a string's
// value, an exact integer's decimal text ("" for the other scalars).
func (s *Scalar) Text() string { return s.str }

// Value returns s as the Go value encoding/json decodes it to: nil, bool,
// float64 or string; an exact integer is a new *big.Int.
func (s *Scalar) Value() any {
	switch s.kind {
	case Bool:
		return s.num != 0
	case Number:
		if s.str != "" {
			x, _ := new(big.Int).SetString(s.str, 10)
			return x
		}
		return s.num
	case String:
		return s.str
	}
	return nil
}

// AppendKey appends the key of s as text to dst: its RFC 8785
// serialization ([Scalar.AppendJSON]), but for an exact integer, its
// decimal text followed by 'n' (ECMAScript's BigInt literal), a form no
// RFC 8785 serialization takes, since that text may be a double's:
// RFC 8785 writes the double 2^60 as 1152921504606847000, which is
// another integer than 2^60.
func (s *Scalar) AppendKey(dst []byte) []byte {
	dst = s.AppendJSON(dst)
	if s.IsExactInt() {
		dst = append(dst, 'n')
	}
	return dst
}

// AppendJSON appends s as JSON text to dst: its RFC 8785 serialization,
// and an exact integer's decimal text.
func (s *Scalar) AppendJSON(dst []byte) []byte {
	switch s.kind {
	case Bool:
		if s.num != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		if s.str != "" {
			return append(dst, s.str...)
		}
		return appendNumber(dst, s.num)
	case String:
		return jsonwire.AppendString(dst, s.str)
	}
	return append(dst, "null"...)
}
