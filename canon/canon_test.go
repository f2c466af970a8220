package canon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/gowebpki/jcs"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// wantInvalid asserts that err is canon's *claimcheck.Error with code invalid_input,
// reachable with errors.As and errors.Is, and that its message contains msg.
func wantInvalid(t *testing.T, err error, msg string) {
	t.Helper()
	if err == nil {
		t.Fatal("accepted, want an invalid_input error")
	}
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %q is not a *claimcheck.Error", err, err)
	}
	if e.Code != claimcheck.InvalidInput {
		t.Errorf("code %q, want %q", e.Code, claimcheck.InvalidInput)
	}
	if !errors.Is(err, claimcheck.ErrInvalidInput) {
		t.Errorf("errors.Is(err, ErrInvalidInput) is false for %v", err)
	}
	// canon does not know where a value sits; callers set the path.
	if e.Path != "" || e.Position != claimcheck.NoPosition || e.Limit != "" {
		t.Errorf("path %q, position %d, limit %q: want \"\", -1, \"\"", e.Path, e.Position, e.Limit)
	}
	if e.Message == "" || strings.ContainsAny(e.Message, "\n\r") {
		t.Errorf("message %q is not one non-empty line", e.Message)
	}
	if !strings.Contains(e.Message, msg) {
		t.Errorf("message %q does not mention %q", e.Message, msg)
	}
}

// RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical forms.
type appendixBRow struct {
	bits   uint64
	want   string
	reason string
}

var appendixB = []appendixBRow{
	{0x0000000000000000, "0", "zero"},
	{0x8000000000000000, "0", "minus zero serializes as 0"},
	{0x0000000000000001, "5e-324", "smallest subnormal: exponent form, one digit"},
	{0x8000000000000001, "-5e-324", "negative smallest subnormal keeps its sign"},
	{0x7fefffffffffffff, "1.7976931348623157e+308", "largest double: 17 digits, explicit '+' exponent"},
	{0xffefffffffffffff, "-1.7976931348623157e+308", "most negative double"},
	{0x4340000000000000, "9007199254740992", "2^53, first integer past the strconv.AppendInt fast path"},
	{0xc340000000000000, "-9007199254740992", "-2^53, just outside the fast path's open interval"},
	{0x4430000000000000, "295147905179352830000", "2^68: integer below 1e21 padded with zeros after the shortest digits"},
	{0x44b52d02c7e14af5, "9.999999999999997e+22", "just below 1e23: shortest digits, exponent form"},
	{0x44b52d02c7e14af6, "1e+23", "the double nearest 1e23 prints as 1e+23"},
	{0x44b52d02c7e14af7, "1.0000000000000001e+23", "just above 1e23 needs 17 digits"},
	{0x444b1ae4d6e2ef4e, "999999999999999700000", "below 1e21: still fixed notation"},
	{0x444b1ae4d6e2ef4f, "999999999999999900000", "largest double below 1e21: fixed notation"},
	{0x444b1ae4d6e2ef50, "1e+21", "1e21 switches to exponent form"},
	{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7", "just below 1e-6: exponent form"},
	{0x3eb0c6f7a0b5ed8d, "0.000001", "1e-6 is still fixed notation"},
	{0x41b3de4355555553, "333333333.3333332", "fraction with 16 digits"},
	{0x41b3de4355555554, "333333333.33333325", "17 digits: shortest round trip needs them"},
	{0x41b3de4355555555, "333333333.3333333", "the double nearest 1e9/3, below it"},
	{0x41b3de4355555556, "333333333.3333334", "the neighbour of 1e9/3 above it"},
	{0x41b3de4355555557, "333333333.33333343", "17 digits again"},
	{0xbecbf647612f3696, "-0.0000033333333333333333", "negative, five zeros after the point, fixed notation"},
	{0x43143ff3c1cb0959, "1424953923781206.2", "large non-integer below 2^53"},
}

func TestNumberAppendixB(t *testing.T) {
	testutil.Run(t, appendixB, func(t *testing.T, tc appendixBRow) {
		f := math.Float64frombits(tc.bits)
		s, err := canon.NumberScalar(f)
		if err != nil {
			t.Fatalf("NumberScalar: %v", err)
		}
		if got := s.Key(); got != tc.want {
			t.Errorf("Key = %q, want %q (%s)", got, tc.want, tc.reason)
		}
		if got, err := canon.Key(f); err != nil || got != tc.want {
			t.Errorf("canon.Key(float64) = %q, %v; want %q", got, err, tc.want)
		}
		if ref, err := jcs.NumberToJSON(f); err != nil || ref != tc.want {
			t.Errorf("the table disagrees with jcs.NumberToJSON: %q, %v", ref, err)
		}
		// The canonical form reads back as the same double.
		if back, err := canon.ParseNumber(tc.want); err != nil || back != s {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", tc.want, back, err, s)
		}
	})
}

func TestNumberNotFiniteRefused(t *testing.T) {
	type row struct {
		bits   uint64
		msg    string
		reason string
	}
	tests := []row{
		{0x7fffffffffffffff, "NaN", "NaN from RFC 8785 Appendix B"},
		{0x7ff8000000000000, "NaN", "the quiet NaN math.NaN returns"},
		{0xfff0000000000001, "NaN", "a negative signalling NaN"},
		{0x7ff0000000000000, "+Inf", "Infinity from RFC 8785 Appendix B"},
		{0xfff0000000000000, "-Inf", "minus Infinity"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		f := math.Float64frombits(tc.bits)
		_, err := canon.NumberScalar(f)
		wantInvalid(t, err, tc.msg)
		_, err = canon.Of(f)
		wantInvalid(t, err, tc.msg)
		_, err = canon.Key(f)
		wantInvalid(t, err, tc.msg)
		_, err = canon.Of(float32(f))
		wantInvalid(t, err, tc.msg)
	})
}

type (
	namedBool    bool
	namedString  string
	namedInt     int
	namedInt8    int8
	namedUint16  uint16
	namedUint64  uint64
	namedUintptr uintptr
	namedFloat32 float32
	namedFloat64 float64
)

// TestOfAcceptedTypes covers every Go type docs/contract.md §1 accepts.
func TestOfAcceptedTypes(t *testing.T) {
	negZero := math.Copysign(0, -1)
	type row struct {
		in     any
		want   string
		kind   canon.Kind
		reason string
	}
	tests := []row{
		{nil, "null", canon.Null, "nil is JSON null"},
		{true, "true", canon.Bool, "bool true"},
		{false, "false", canon.Bool, "bool false"},
		{"", `""`, canon.String, "the empty string is a string, not null"},
		{"héllo", `"héllo"`, canon.String, "non-ASCII is literal UTF-8"},
		{0.0, "0", canon.Number, "float64 zero"},
		{negZero, "0", canon.Number, "float64 -0 folds into 0"},
		{1.5, "1.5", canon.Number, "float64 fraction"},
		{0.1, "0.1", canon.Number, "float64 shortest round-trip digits"},
		{1e21, "1e+21", canon.Number, "float64 1e21 in exponent form"},
		{1e-7, "1e-7", canon.Number, "float64 1e-7 in exponent form"},
		{math.MaxFloat64, "1.7976931348623157e+308", canon.Number, "float64 maximum"},
		{math.SmallestNonzeroFloat64, "5e-324", canon.Number, "float64 smallest subnormal"},
		{float32(1.5), "1.5", canon.Number, "float32 exactly representable"},
		{float32(0.1), "0.1", canon.Number, "float32 is the number encoding/json writes for it: 0.1, not the double 0.10000000149011612"},
		{float32(negZero), "0", canon.Number, "float32 -0 folds into 0"},
		{float32(math.MaxFloat32), "3.4028235e+38", canon.Number, "float32 maximum, as encoding/json writes it"},
		{float32(math.SmallestNonzeroFloat32), "1e-45", canon.Number, "float32 smallest subnormal, as encoding/json writes it"},
		{float32(16777217), "16777216", canon.Number, "a float32 holds 2^24, not 2^24+1: the conversion happened before Of"},
		{0, "0", canon.Number, "int zero"},
		{-1, "-1", canon.Number, "int negative"},
		{testutil.Int(1 << 53), "9007199254740992", canon.Number, "int 2^53 is exact"},
		{int64(1) << 60, "1152921504606847000", canon.Number, "int64 2^60 is exact although above 2^53"},
		{int8(math.MinInt8), "-128", canon.Number, "int8 minimum"},
		{int8(math.MaxInt8), "127", canon.Number, "int8 maximum"},
		{int16(math.MinInt16), "-32768", canon.Number, "int16 minimum"},
		{int32(math.MinInt32), "-2147483648", canon.Number, "int32 minimum"},
		{int64(math.MinInt64), "-9223372036854776000", canon.Number, "int64 minimum is exactly -2^63"},
		{int64(-(1 << 53)), "-9007199254740992", canon.Number, "-2^53 is exact"},
		{int64(3) << 55, "108086391056891900", canon.Number, "3·2^55: two significant bits, exact"},
		{uint(7), "7", canon.Number, "uint"},
		{uint8(math.MaxUint8), "255", canon.Number, "uint8 maximum (byte)"},
		{uint16(math.MaxUint16), "65535", canon.Number, "uint16 maximum"},
		{uint32(math.MaxUint32), "4294967295", canon.Number, "uint32 maximum"},
		{uint64(1 << 63), "9223372036854776000", canon.Number, "uint64 2^63, above the int64 range, is exact"},
		{uintptr(42), "42", canon.Number, "uintptr is an integer kind"},
		{json.Number("1.0"), "1", canon.Number, "json.Number is read as a JSON literal"},
		{namedBool(true), "true", canon.Bool, "named bool"},
		{namedString("x"), `"x"`, canon.String, "named string"},
		{namedInt(-3), "-3", canon.Number, "named int"},
		{namedInt8(-8), "-8", canon.Number, "named int8"},
		{namedUint16(16), "16", canon.Number, "named uint16"},
		{namedUint64(1 << 40), "1099511627776", canon.Number, "named uint64"},
		{namedUintptr(1), "1", canon.Number, "named uintptr"},
		{namedFloat32(0.1), "0.1", canon.Number, "named float32 converts like float32"},
		{namedFloat64(2.5), "2.5", canon.Number, "named float64"},
		{canon.BoolScalar(true), "true", canon.Bool, "a Scalar is already canonical"},
		{canon.NullScalar(), "null", canon.Null, "the null Scalar"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		s, err := canon.Of(tc.in)
		if err != nil {
			t.Fatalf("Of(%#v): %v (%s)", tc.in, err, tc.reason)
		}
		if got := s.Key(); got != tc.want {
			t.Errorf("Of(%#v).Key() = %q, want %q (%s)", tc.in, got, tc.want, tc.reason)
		}
		if s.Kind() != tc.kind {
			t.Errorf("Kind = %v, want %v", s.Kind(), tc.kind)
		}
		if got, err := canon.Key(tc.in); err != nil || got != tc.want {
			t.Errorf("canon.Key = %q, %v; want %q", got, err, tc.want)
		}
		got, err := canon.AppendKey([]byte("prefix:"), tc.in)
		if err != nil || string(got) != "prefix:"+tc.want {
			t.Errorf("canon.AppendKey = %q, %v; want %q", got, err, "prefix:"+tc.want)
		}
		// The key is the RFC 8785 form of itself.
		if out, err := jcs.Transform([]byte(tc.want)); err != nil || string(out) != tc.want {
			t.Errorf("jcs.Transform(%q) = %q, %v", tc.want, out, err)
		}
	})
}

// TestOfRefused covers values docs/contract.md §1 refuses, each with the word
// its message must contain (for a non-scalar, its JSON kind, never its Go
// type: TestOfRefusedNamesNoGoType).
func TestOfRefused(t *testing.T) {
	x := 1
	var nilPtr *int
	scalar := canon.BoolScalar(true)
	type row struct {
		in     any
		msg    string
		reason string
	}
	tests := []row{
		{map[string]any{}, "element is an object, not a scalar", "an object is not a scalar"},
		{map[string]int{"a": 1}, "element is an object, not a scalar", "a typed map is not a scalar"},
		{[]any{1}, "element is an array, not a scalar", "an array is not a scalar"},
		{[]int{}, "element is an array, not a scalar", "an empty slice is still not a scalar"},
		{[]byte("x"), "element is an array, not a scalar", "[]byte is not a string (encoding/json would write base64)"},
		{json.RawMessage("1"), "element is undecoded JSON text", "raw JSON is not parsed"},
		{[2]int{1, 2}, "element is an array, not a scalar", "an array type is not a scalar"},
		{struct{}{}, "element is an object, not a scalar", "an empty struct is not a scalar"},
		{struct{ X int }{1}, "element is an object, not a scalar", "a struct is not a scalar"},
		{&x, "element is a reference to a value", "a pointer is not followed"},
		{nilPtr, "element is a reference to a value", "a nil pointer is not null"},
		{&scalar, "element is a reference to a value", "even a pointer to a Scalar is refused"},
		{complex(1, 0), "element has no JSON form", "complex numbers are not JSON numbers"},
		{func() {}, "element has no JSON form", "a func is not a scalar"},
		{make(chan int), "element has no JSON form", "a channel is not a scalar"},
		{errors.New("x"), "element is a reference to a value", "an error value is not a scalar"},
		{math.NaN(), "NaN", "NaN is not finite"},
		{math.Inf(1), "+Inf", "+Inf is not finite"},
		{math.Inf(-1), "-Inf", "-Inf is not finite"},
		{float32(math.Inf(1)), "+Inf", "float32 +Inf is not finite"},
		{namedFloat64(math.NaN()), "NaN", "a named float NaN is refused too"},
		{namedFloat32(math.Inf(-1)), "-Inf", "a named float32 -Inf is refused too"},
		{"\xff", "UTF-8", "invalid UTF-8 is never repaired"},
		{namedString("a\xed\xa0\x80"), "UTF-8", "a named string with a WTF-8 surrogate"},
		{json.Number("1e400"), "1e400", "json.Number rounding to +Inf"},
		{json.Number("-1e400"), "-1e400", "json.Number rounding to -Inf"},
		{json.Number("+1"), `"+1"`, "json.Number outside the JSON grammar"},
		{json.Number(""), `""`, "an empty json.Number is no number"},
		{(*big.Int)(nil), "nil *big.Int", "a nil *big.Int is no integer (nor null)"},
		{canon.ExactNumber("1e-400"), "not exact as a double: it would become 0", "an ExactNumber that would round to an integer is refused as ExactNumbers refuses it"},
		{canon.ExactNumber("1e400"), "out of the range of a double", "an ExactNumber out of range"},
		{canon.ExactNumber("0x10"), "not a JSON number", "an ExactNumber outside the JSON grammar"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		_, err := canon.Of(tc.in)
		wantInvalid(t, err, tc.msg)
		key, err := canon.Key(tc.in)
		wantInvalid(t, err, tc.msg)
		if key != "" {
			t.Errorf("Key returned %q with an error", key)
		}
		dst := []byte("prefix")
		out, err := canon.AppendKey(dst, tc.in)
		wantInvalid(t, err, tc.msg)
		if string(out) != "prefix" {
			t.Errorf("AppendKey with an error returned %q, want dst unchanged", out)
		}
	})
}

// TestOfRefusedNamesNoGoType: the message for a value that is not a scalar
// names no Go type (the words %T would print), whatever the value's type: a
// student who wrote JSON reads it.
func TestOfRefusedNamesNoGoType(t *testing.T) {
	type named map[string]int
	type row struct {
		in     any
		reason string
	}
	testutil.Run(t, []row{
		{map[string]any{}, "encoding/json's object"},
		{[]any{1}, "encoding/json's array"},
		{named{}, "a named map type"},
		{[]int{1}, "a typed slice"},
		{struct{ X int }{}, "an anonymous struct"},
		{new(int), "a pointer"},
		{func() {}, "a func"},
		{json.RawMessage("[1]"), "raw JSON text"},
	}, func(t *testing.T, r row) {
		_, err := canon.Of(r.in)
		if err == nil {
			t.Fatal("accepted")
		}
		for _, goWord := range []string{fmt.Sprintf("%T", r.in), "interface", "map[", "[]", "struct", "*", "func", "json."} {
			if strings.Contains(err.Error(), goWord) {
				t.Errorf("message %q names the Go type (%q)", err, goWord)
			}
		}
	})
}

// TestParseNumber runs JSON number literals through ParseNumber and through
// Of(json.Number); want "" means refused.
func TestParseNumber(t *testing.T) {
	long := "1" + strings.Repeat("0", 400) + "e-400"
	type row struct {
		lit    string
		want   string
		reason string
	}
	tests := []row{
		{"0", "0", "zero"},
		{"-0", "0", "-0 equals 0"},
		{"-0.0", "0", "-0.0 equals 0"},
		{"0.0", "0", "a zero fraction"},
		{"0e0", "0", "zero with an exponent"},
		{"-0E+5", "0", "upper-case E, explicit '+', minus zero"},
		{"0e99999999999", "0", "zero times a huge power of ten is still zero"},
		{"1", "1", "one"},
		{"-1", "-1", "minus one"},
		{"1.0", "1", "1.0 == 1"},
		{"1e0", "1", "1e0 == 1"},
		{"100e-2", "1", "100e-2 == 1"},
		{"10E-1", "1", "upper-case E and a negative exponent"},
		{long, "1", "401 significant digits scaled back to 1"},
		{"0.1", "0.1", "a fraction"},
		{"4.50", "4.5", "trailing zeros of a fraction drop"},
		{"2e-3", "0.002", "small exponents print in fixed notation"},
		{"1e21", "1e+21", "1e21 serializes as 1e+21"},
		{"1E+21", "1e+21", "the exponent is written lower-case with '+'"},
		{"999999999999999999999", "1e+21", "21 nines round to 1e21"},
		{"1e20", "100000000000000000000", "1e20 stays in fixed notation"},
		{"1E30", "1e+30", "from the JCS values vector: an upper-case exponent past 1e21"},
		{"1e-7", "1e-7", "1e-7 serializes as 1e-7"},
		{"0.0000001", "1e-7", "0.0000001 is 1e-7"},
		{"1e-6", "0.000001", "1e-6 stays in fixed notation"},
		{"0.000000000000000000000000001", "1e-27", "from the JCS values vector: a long fraction to exponent form"},
		{"333333333.33333329", "333333333.3333333", "from the JCS values vector: 17 digits to the shortest 16"},
		{"123456789012345", "123456789012345", "15 digits: ParseNumber's integer fast path"},
		{"-999999999999999", "-999999999999999", "the largest negative fast-path integer"},
		{"1234567890123456", "1234567890123456", "16 digits: past the fast path"},
		{"9007199254740992", "9007199254740992", "2^53 exactly"},
		{"9007199254740993", "9007199254740992", "2^53+1 is a tie and rounds to even, down"},
		{"9007199254740995", "9007199254740996", "2^53+3 is a tie and rounds to even, up"},
		{"-9007199254740993", "-9007199254740992", "ties to even below zero too"},
		{"1e-400", "0", "underflow is the double 0, which equals 0"},
		{"-1e-400", "0", "underflow to -0 still equals 0"},
		{"1e-99999999999999999999", "0", "an exponent past int64 underflows"},
		{"4.9e-324", "5e-324", "rounds to the smallest subnormal"},
		{"2.4703282292062328e-324", "5e-324", "just above half the smallest subnormal rounds up"},
		{"2.4703282292062327e-324", "0", "just below half the smallest subnormal rounds to 0"},
		{"1.7976931348623157e308", "1.7976931348623157e+308", "the largest double"},
		{"1.7976931348623158e308", "1.7976931348623157e+308", "below the overflow threshold rounds to the largest double"},
		{"1.7976931348623159e308", "", "above the overflow threshold rounds to +Inf"},
		{"1e400", "", "1e400 is not finite"},
		{"-1e400", "", "-1e400 is not finite"},
		{"1e999999999999999999999", "", "an exponent past int64 overflows"},
		{"", "", "empty"},
		{"-", "", "a sign alone"},
		{"+1", "", "JSON has no '+' sign"},
		{"+0", "", "JSON has no '+' sign, even for zero"},
		{"01", "", "leading zero"},
		{"-01", "", "leading zero after the sign"},
		{"00", "", "two zeros"},
		{"000000000000001", "", "leading zeros within the integer fast path's length"},
		{" 1", "", "leading space"},
		{"1 ", "", "trailing space"},
		{"\t1", "", "leading tab"},
		{"1\n", "", "trailing newline"},
		{".5", "", "no digit before the point"},
		{"-.5", "", "no digit between sign and point"},
		{"1.", "", "no digit after the point"},
		{"1.e5", "", "no digit between point and exponent"},
		{"1e", "", "exponent without digits"},
		{"1e+", "", "signed exponent without digits"},
		{"1E-", "", "signed upper-case exponent without digits"},
		{"e5", "", "exponent without a mantissa"},
		{"--1", "", "two signs"},
		{"1.5.5", "", "two points"},
		{"1e5e5", "", "two exponents"},
		{"1,5", "", "a decimal comma"},
		{"0x10", "", "hex literals are Go syntax, not JSON"},
		{"0x1p-2", "", "hex floats are Go syntax, not JSON"},
		{"1_000", "", "digit separators are Go syntax, not JSON"},
		{"Infinity", "", "Infinity is not a JSON literal"},
		{"-Infinity", "", "neither is -Infinity"},
		{"NaN", "", "nor NaN"},
		{"inf", "", "nor strconv's inf"},
		{"1\x00", "", "a trailing NUL"},
		{"١", "", "Arabic-Indic digits are not JSON digits"},
		{"true", "", "a literal is not a number"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		s, err := canon.ParseNumber(tc.lit)
		viaOf, errOf := canon.Of(json.Number(tc.lit))
		if tc.want == "" {
			wantInvalid(t, err, "")
			wantInvalid(t, errOf, "")
			return
		}
		if err != nil {
			t.Fatalf("ParseNumber(%q): %v (%s)", tc.lit, err, tc.reason)
		}
		if got := s.Key(); got != tc.want {
			t.Errorf("ParseNumber(%q).Key() = %q, want %q (%s)", tc.lit, got, tc.want, tc.reason)
		}
		if s.Kind() != canon.Number {
			t.Errorf("Kind = %v, want number", s.Kind())
		}
		if errOf != nil || viaOf != s {
			t.Errorf("Of(json.Number) = %v, %v; want %v", viaOf, errOf, s)
		}
		// jcs reads the same literal to the same canonical text.
		if ref, err := jcs.Transform([]byte(tc.lit)); err != nil || string(ref) != tc.want {
			t.Errorf("jcs.Transform(%q) = %q, %v; want %q", tc.lit, ref, err, tc.want)
		}
	})
}

// TestStringKey covers the JCS string form, including every control
// character, and the strings it leaves literal.
func TestStringKey(t *testing.T) {
	type row struct {
		in     string
		want   string
		reason string
	}
	tests := []row{
		{"", `""`, "the empty string"},
		{"a", `"a"`, "plain ASCII"},
		{`"`, `"\""`, "a quote is escaped"},
		{`\`, `"\\"`, "a backslash is escaped"},
		{`a"b\c`, `"a\"b\\c"`, "escapes mid-string keep the text around them"},
		{"/", `"/"`, "'/' is not escaped"},
		{"</script>", `"</script>"`, "no HTML escaping (encoding/json would write \\u003c)"},
		{"&", `"&"`, "no HTML escaping of '&'"},
		{"\x7f", "\"\x7f\"", "U+007F DEL is literal"},
		{"\u0080", "\"\u0080\"", "U+0080, a C1 control, is literal"},
		{"é", `"é"`, "two-byte UTF-8 is literal"},
		{"€", `"€"`, "three-byte UTF-8 is literal"},
		{"😂", `"😂"`, "four-byte UTF-8 (a surrogate pair in UTF-16) is literal"},
		{"\u2028", "\"\u2028\"", "U+2028 LINE SEPARATOR is literal"},
		{"\u2029", "\"\u2029\"", "U+2029 PARAGRAPH SEPARATOR is literal"},
		{"\ufeff", "\"\ufeff\"", "a BOM inside a string is literal"},
		{"\ufffd", "\"\ufffd\"", "U+FFFD itself is a valid character"},
		{"\uffff", "\"\uffff\"", "the noncharacter U+FFFF is valid UTF-8"},
		{"\U0010ffff", "\"\U0010ffff\"", "the last code point"},
		{"A\u030a", "\"A\u030a\"", "no Unicode normalization (JCS unicode vector)"},
		{"€$\x0f\nA'B\"\\\\\"/", `"€$\u000f\nA'B\"\\\\\"/"`, "the JCS values vector's string"},
		{"\x00a\x1fb", `"\u0000a\u001fb"`, "control characters mid-string"},
	}
	short := map[byte]string{'\b': `\b`, '\t': `\t`, '\n': `\n`, '\f': `\f`, '\r': `\r`}
	for c := byte(0); c < 0x20; c++ {
		want, reason := short[c], fmt.Sprintf("U+%04X, a control character with a two-character escape", c)
		if want == "" {
			want, reason = fmt.Sprintf(`\u%04x`, c), fmt.Sprintf("U+%04X, a control character without a short escape: lower-case \\u00xx", c)
		}
		tests = append(tests, row{string(c), `"` + want + `"`, reason})
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		s, err := canon.StringScalar(tc.in)
		if err != nil {
			t.Fatalf("StringScalar: %v", err)
		}
		if got := s.Key(); got != tc.want {
			t.Errorf("Key = %q, want %q (%s)", got, tc.want, tc.reason)
		}
		if s.Kind() != canon.String || s.Str() != tc.in {
			t.Errorf("Kind %v, Str %q: want string %q", s.Kind(), s.Str(), tc.in)
		}
		if got, err := canon.Key(tc.in); err != nil || got != tc.want {
			t.Errorf("canon.Key = %q, %v", got, err)
		}
		if out, err := jcs.Transform([]byte(tc.want)); err != nil || string(out) != tc.want {
			t.Errorf("jcs.Transform(%q) = %q, %v: not canonical", tc.want, out, err)
		}
		var back string
		if err := json.Unmarshal([]byte(tc.want), &back); err != nil || back != tc.in {
			t.Errorf("encoding/json reads %q back as %q, %v", tc.want, back, err)
		}
	})
}

func TestStringInvalidUTF8Refused(t *testing.T) {
	type row struct {
		in     string
		offset int
		reason string
	}
	tests := []row{
		{"\xff", 0, "0xFF never occurs in UTF-8"},
		{"\x80", 0, "a lone continuation byte"},
		{"ab\x80", 2, "a continuation byte after ASCII"},
		{"\xc0\x80", 0, "overlong NUL (Modified UTF-8)"},
		{"\xc1\xbf", 0, "overlong two-byte form"},
		{"\xe0\x80\xaf", 0, "overlong three-byte '/'"},
		{"\xf0\x80\x80\xaf", 0, "overlong four-byte '/'"},
		{"\xed\xa0\x80", 0, "WTF-8 high surrogate U+D800 (JSON \"\\ud800\")"},
		{"x\xed\xbf\xbf", 1, "WTF-8 low surrogate U+DFFF"},
		{"\xed\xa0\xbd\xed\xb8\x82", 0, "CESU-8 surrogate pair: must be four-byte UTF-8 instead"},
		{"\xf4\x90\x80\x80", 0, "above U+10FFFF"},
		{"\xe2\x82", 0, "truncated three-byte sequence"},
		{"ok\xf0\x9f\x98", 2, "truncated four-byte sequence at the end"},
		{"\xef\xbf\xbd\xff", 3, "a real U+FFFD followed by a bad byte: only the bad byte counts"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		msg := fmt.Sprintf("byte offset %d", tc.offset)
		_, err := canon.StringScalar(tc.in)
		wantInvalid(t, err, msg)
		_, err = canon.Of(tc.in)
		wantInvalid(t, err, msg)
		_, err = canon.Key(tc.in)
		wantInvalid(t, err, msg)
		// jcs refuses the same bytes inside a JSON string.
		if out, err := jcs.Transform([]byte(`"` + tc.in + `"`)); err == nil {
			t.Errorf("jcs.Transform accepted it as %q", out)
		}
	})
}

// TestJCSVectors rebuilds the canonical form of gowebpki/jcs's test documents
// (copied into testdata/canon/jcs) with canon's key for every scalar and every
// member name, and compares it with the expected output byte for byte.
func TestJCSVectors(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/canon/jcs/input/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 10 {
		t.Fatalf("found %d JCS vectors, want 10", len(inputs))
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("../testdata/canon/jcs/output", name))
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(src))
			dec.UseNumber()
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			if _, err := dec.Token(); err != io.EOF {
				t.Fatalf("trailing data after the document: %v", err)
			}
			got, err := appendCanonical(nil, doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("canonical form\n got %s\nwant %s", got, want)
			}
			// The copied data agrees with the library it came from.
			if ref, err := jcs.Transform(src); err != nil || !bytes.Equal(ref, want) {
				t.Errorf("jcs.Transform disagrees with the copied output: %s, %v", ref, err)
			}
		})
	}
}

// appendCanonical is a minimal RFC 8785 serializer over encoding/json's
// decoded values: canon writes the scalars and member names; members are
// sorted by their UTF-16 code units.
func appendCanonical(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendCanonical(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		slices.SortFunc(names, func(a, b string) int {
			return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		})
		dst = append(dst, '{')
		for i, k := range names {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = canon.AppendKey(dst, k); err != nil {
				return nil, err
			}
			dst = append(dst, ':')
			if dst, err = appendCanonical(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return canon.AppendKey(dst, v)
}

// TestScalarEquality: == on Scalars is key equality, across kinds and the Go
// types a value arrives as.
func TestScalarEquality(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: the constant 0.1 + 0.2 is exactly 0.3
	type row struct {
		a, b   any
		equal  bool
		reason string
	}
	tests := []row{
		{math.Copysign(0, -1), 0, true, "-0 == 0"},
		{json.Number("-0"), json.Number("0"), true, "-0 == 0 as literals"},
		{json.Number("1.0"), 1, true, "1.0 == 1"},
		{json.Number("100e-2"), json.Number("1e0"), true, "100e-2 == 1e0"},
		{json.Number("1e21"), 1e21, true, "a literal and a float64 of the same double"},
		{json.Number("9007199254740993"), json.Number("9007199254740992"), true, "both literals round to 2^53"},
		{int64(1 << 60), float64(1 << 60), true, "an int64 that a double holds is that double"},
		{uint8(1), 1.0, true, "integer kinds do not matter"},
		{float32(0.5), 0.5, true, "float32 0.5 is the double 0.5"},
		{float32(0.1), 0.1, true, "float32 0.1 is the JSON number 0.1 that encoding/json writes for it"},
		{float32(0.1), 0.10000000149011612, false, "and not the double the float32 holds"},
		{json.Number("1e-400"), 0, true, "underflow equals 0"},
		{"1", 1, false, `"1" != 1`},
		{"true", true, false, `"true" != true`},
		{"null", nil, false, `"null" != null`},
		{"", nil, false, `"" != null`},
		{false, 0, false, "false != 0"},
		{true, 1, false, "true != 1"},
		{false, nil, false, "false != null"},
		{true, false, false, "true != false"},
		{"a", namedString("a"), true, "a named string equals its value"},
		{"A\u030a", "\u00c5", false, "no Unicode normalization"},
		{nil, canon.NullScalar(), true, "nil is the null Scalar"},
		{tenth + fifth, 0.3, false, "0.1+0.2 in doubles is 0.30000000000000004, not 0.3"},
		{math.Nextafter(1, 2), 1, false, "neighbouring doubles are distinct"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		a, err := canon.Of(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := canon.Of(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if (a == b) != tc.equal {
			t.Errorf("%v == %v is %v, want %v (%s)", a, b, a == b, tc.equal, tc.reason)
		}
		if (a.Key() == b.Key()) != tc.equal {
			t.Errorf("keys %q and %q: equal %v, want %v (%s)", a.Key(), b.Key(), a.Key() == b.Key(), tc.equal, tc.reason)
		}
	})
	var zero canon.Scalar
	if zero != canon.NullScalar() || zero.Key() != "null" {
		t.Errorf("the zero Scalar is %v, want null", zero)
	}
}

func TestScalarAccessors(t *testing.T) {
	num, _ := canon.NumberScalar(math.Copysign(0, -1))
	str, _ := canon.StringScalar("s")
	type row struct {
		s      canon.Scalar
		kind   string
		float  float64
		bool   bool
		str    string
		value  any
		reason string
	}
	tests := []row{
		{canon.NullScalar(), "null", 0, false, "", nil, "null has no value"},
		{canon.BoolScalar(true), "boolean", 0, true, "", true, "true"},
		{canon.BoolScalar(false), "boolean", 0, false, "", false, "false"},
		{num, "number", 0, false, "", 0.0, "-0 is stored as +0"},
		{str, "string", 0, false, "s", "s", "a string"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		if got := tc.s.Kind().String(); got != tc.kind {
			t.Errorf("Kind %q, want %q", got, tc.kind)
		}
		if f := tc.s.Float(); f != tc.float || math.Signbit(f) {
			t.Errorf("Float %v, want %v", f, tc.float)
		}
		if tc.s.Bool() != tc.bool || tc.s.Str() != tc.str || tc.s.Value() != tc.value {
			t.Errorf("Bool %v Str %q Value %#v", tc.s.Bool(), tc.s.Str(), tc.s.Value())
		}
		if tc.s.String() != tc.s.Key() {
			t.Errorf("String %q != Key %q", tc.s.String(), tc.s.Key())
		}
	})
	if got := canon.Kind(9).String(); got != "Kind(9)" {
		t.Errorf("Kind(9).String() = %q", got)
	}
	// A Scalar marshals to its canonical form, also inside other values.
	one, _ := canon.ParseNumber("1.0")
	out, err := json.Marshal([]canon.Scalar{one, str, canon.NullScalar(), canon.BoolScalar(true)})
	if err != nil || string(out) != `[1,"s",null,true]` {
		t.Errorf("json.Marshal = %s, %v", out, err)
	}
}
