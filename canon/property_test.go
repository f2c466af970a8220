package canon_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/gowebpki/jcs"
	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
)

// Property tests, each named after the law it checks. The oracle is
// github.com/gowebpki/jcs: NumberToJSON for numbers, Transform for whole
// JSON texts.

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// splitmix64 spreads a drawn seed over all 64 bits. rapid's integer
// generators favour small values and boundaries; mixing a drawn seed gives
// uniformly distributed bit patterns (at the cost of useless shrinking).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// edgeDoubles are where ECMAScript's number form changes shape or where
// canon takes a different path.
var edgeDoubles = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 0.5,
	1 << 53, -(1 << 53), 1<<53 - 1, -(1<<53 - 1), 1<<53 + 2, -(1<<53 + 2),
	1e15, 1e16, 1e17, 1e20, 1e21, -1e21, 1e22, 1e23,
	1e-6, -1e-6, 1e-7, -1e-7, 1e-5,
	5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
	math.MaxFloat64, -math.MaxFloat64, math.MaxInt64, math.MinInt64, 1 << 63, 1 << 64,
	math.MaxFloat32, math.SmallestNonzeroFloat32,
}

// genDouble draws finite doubles: uniform bit patterns, patterns built from
// a drawn sign/exponent/mantissa, edges and their neighbours, integers near
// 2^53, short decimals and rapid's own float generator.
var genDouble = rapid.OneOf(
	rapid.Custom(func(t *rapid.T) float64 {
		return math.Float64frombits(splitmix64(rapid.Uint64().Draw(t, "seed")))
	}).Filter(isFinite),
	rapid.Custom(func(t *rapid.T) float64 {
		sign := uint64(0)
		if rapid.Bool().Draw(t, "negative") {
			sign = 1 << 63
		}
		exp := rapid.Uint64Range(0, 2046).Draw(t, "exponent")
		mant := rapid.Uint64Range(0, 1<<52-1).Draw(t, "mantissa")
		return math.Float64frombits(sign | exp<<52 | mant)
	}),
	rapid.SampledFrom(edgeDoubles),
	rapid.Custom(func(t *rapid.T) float64 {
		e := rapid.SampledFrom(edgeDoubles).Draw(t, "edge")
		d := rapid.Int64Range(-64, 64).Draw(t, "ulps")
		return math.Float64frombits(uint64(int64(math.Float64bits(e)) + d))
	}).Filter(isFinite),
	rapid.Custom(func(t *rapid.T) float64 {
		return float64(rapid.Int64Range(-(1<<53)-4096, 1<<53+4096).Draw(t, "integer"))
	}),
	rapid.Custom(func(t *rapid.T) float64 {
		return float64(1<<53 + rapid.Int64Range(-4096, 4096).Draw(t, "offset"))
	}),
	rapid.Custom(func(t *rapid.T) float64 {
		lit := rapid.StringMatching(`-?[1-9][0-9]{0,17}e-?[0-9]{1,3}`).Draw(t, "decimal")
		f, _ := strconv.ParseFloat(lit, 64)
		return f
	}).Filter(isFinite),
	rapid.Float64().Filter(isFinite),
)

func numberKey(t *rapid.T, f float64) string {
	s, err := canon.NumberScalar(f)
	if err != nil {
		t.Fatalf("NumberScalar(%v): %v", f, err)
	}
	return s.Key()
}

func TestNumberKeyEqualsJCSNumberToJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := genDouble.Draw(t, "f")
		want, err := jcs.NumberToJSON(f)
		if err != nil {
			t.Fatalf("jcs.NumberToJSON(%v): %v", f, err)
		}
		if got := numberKey(t, f); got != want {
			t.Fatalf("key of %v (%016x) = %q, jcs.NumberToJSON = %q", f, math.Float64bits(f), got, want)
		}
	})
}

// TestNumberKeyInjectiveOnDistinctDoubles: distinct doubles (as values, so -0
// and 0 are one) have distinct keys, and equal ones equal keys. The second
// double is often a near neighbour of the first.
func TestNumberKeyInjectiveOnDistinctDoubles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genDouble.Draw(t, "a")
		var b float64
		switch rapid.IntRange(0, 3).Draw(t, "how") {
		case 0:
			b = genDouble.Draw(t, "b")
		case 1:
			d := rapid.Int64Range(-3, 3).Draw(t, "ulps")
			b = math.Float64frombits(uint64(int64(math.Float64bits(a)) + d))
		case 2:
			b = -a
		case 3:
			b = a
		}
		if !isFinite(b) {
			t.Skip("neighbour is not finite")
		}
		ka, kb := numberKey(t, a), numberKey(t, b)
		if (a == b) != (ka == kb) {
			t.Fatalf("%v == %v is %v but keys %q, %q", a, b, a == b, ka, kb)
		}
		// The key reads back as the same double.
		if back, err := strconv.ParseFloat(ka, 64); err != nil || back != a {
			t.Fatalf("key %q of %v reads back as %v, %v", ka, a, back, err)
		}
	})
}

// specialRunes are the runes where the JCS string form has a rule.
var specialRunes = []rune{
	'"', '\\', '/', 0, '\b', '\t', '\n', '\f', '\r', 0x0b, 0x1f, 0x7f, 0x80,
	'a', 'é', 'ü', '€', 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, '😂', 0x10ffff, '<', '&',
}

// genString draws valid UTF-8 strings: rapid's strings, and strings of the
// runes the string form treats specially.
var genString = rapid.OneOf(
	rapid.String(),
	rapid.StringOfN(rapid.SampledFrom(specialRunes), 0, 8, -1),
	rapid.StringOfN(rapid.RuneFrom(nil, asciiTable), 0, 16, -1),
)

// asciiTable is U+0000–U+007F: controls, quote and backslash come up often.
var asciiTable = &unicode.RangeTable{R16: []unicode.Range16{{Lo: 0, Hi: 0x7f, Stride: 1}}}

func TestStringKeyInjectiveOnDistinctStrings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genString.Draw(t, "a")
		var b string
		switch rapid.IntRange(0, 3).Draw(t, "how") {
		case 0:
			b = genString.Draw(t, "b")
		case 1: // one rune appended
			b = a + string(rapid.SampledFrom(specialRunes).Draw(t, "r"))
		case 2: // one rune replaced
			rs := []rune(a)
			if len(rs) == 0 {
				t.Skip("nothing to replace")
			}
			rs[rapid.IntRange(0, len(rs)-1).Draw(t, "i")] = rapid.SampledFrom(specialRunes).Draw(t, "r")
			b = string(rs)
		case 3:
			b = strings.Clone(a)
		}
		ka, err := canon.Key(a)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := canon.Key(b)
		if err != nil {
			t.Fatal(err)
		}
		if (a == b) != (ka == kb) {
			t.Fatalf("%q == %q is %v but keys %q, %q", a, b, a == b, ka, kb)
		}
		var back string
		if err := json.Unmarshal([]byte(ka), &back); err != nil || back != a {
			t.Fatalf("key %q reads back as %q, %v", ka, back, err)
		}
	})
}

// A scalar drawn with its Go value and a JSON text for it (not canonical).
type scalarCase struct {
	v    any
	text string
}

func (c scalarCase) String() string { return fmt.Sprintf("%T(%#v) as %s", c.v, c.v, c.text) }

// collidingScalars are values whose keys often coincide, written in
// different texts, so equal keys come up often in pairs.
var collidingScalars = []scalarCase{
	{nil, "null"}, {"null", `"null"`},
	{true, "true"}, {"true", `"true"`}, {false, "false"},
	{1, "1"}, {1.0, "1.0"}, {json.Number("1e0"), "1e0"}, {uint8(1), "100e-2"}, {"1", `"1"`},
	{0, "0"}, {math.Copysign(0, -1), "-0"}, {json.Number("-0.0"), "-0.0"}, {float32(0), "0e5"}, {"0", `"0"`},
	{json.Number("9007199254740993"), "9007199254740993"}, {int64(1 << 53), "9007199254740992"},
	{1e21, "1e21"}, {json.Number("1000000000000000000000"), "1000000000000000000000"},
	{"é", `"é"`}, {"é", `"\u00e9"`}, {"e\u0301", `"e\u0301"`},
	{"/", `"\/"`}, {"\u2028", `"\u2028"`}, {"😂", `"\ud83d\ude02"`}, {"\x00", `"\u0000"`},
}

// escapeAll writes s as a JSON string with every rune as a \u escape
// (upper-case hex, surrogate pairs above U+FFFF).
func escapeAll(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04X`, u)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func marshal(t *rapid.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(b)
}

// genScalar draws scalars of every kind and Go type, each with a JSON text
// made by encoding/json or by hand.
var genScalar = rapid.Custom(func(t *rapid.T) scalarCase {
	switch rapid.IntRange(0, 8).Draw(t, "kind") {
	case 0:
		return rapid.SampledFrom(collidingScalars).Draw(t, "colliding")
	case 1:
		return scalarCase{nil, "null"}
	case 2:
		b := rapid.Bool().Draw(t, "bool")
		return scalarCase{b, strconv.FormatBool(b)}
	case 3:
		s := genString.Draw(t, "string")
		if rapid.Bool().Draw(t, "escapeAll") {
			return scalarCase{s, escapeAll(s)}
		}
		return scalarCase{s, marshal(t, s)}
	case 4:
		f := genDouble.Draw(t, "float64")
		switch rapid.IntRange(0, 2).Draw(t, "format") {
		case 0:
			return scalarCase{f, strconv.FormatFloat(f, 'g', -1, 64)}
		case 1:
			return scalarCase{f, strconv.FormatFloat(f, 'e', 16, 64)}
		}
		return scalarCase{f, marshal(t, f)}
	case 5:
		f := rapid.Float32().Filter(func(f float32) bool { return isFinite(float64(f)) }).Draw(t, "float32")
		// A float32 is the number encoding/json writes for it.
		return scalarCase{f, strconv.FormatFloat(float64(f), 'g', -1, 32)}
	case 6:
		// Go integers that a double holds exactly: up to 53 significant bits.
		n := rapid.Int64Range(-(1<<53), 1<<53).Draw(t, "int64") << rapid.IntRange(0, 9).Draw(t, "shift")
		text := strconv.FormatInt(n, 10)
		switch {
		case n == int64(int8(n)) && rapid.Bool().Draw(t, "int8"):
			return scalarCase{int8(n), text}
		case n == int64(int32(n)) && rapid.Bool().Draw(t, "int32"):
			return scalarCase{int32(n), text}
		case n >= 0 && rapid.Bool().Draw(t, "uint64"):
			return scalarCase{uint64(n), text}
		}
		return scalarCase{n, text}
	case 7:
		n := rapid.Uint64Range(1<<52, 1<<53).Draw(t, "uint64") << 11 // at least 2^63, exact
		// Where a uint has 32 bits, the same number as a uint64.
		if uint64(uint(n)) != n {
			return scalarCase{n, strconv.FormatUint(n, 10)}
		}
		return scalarCase{uint(n), strconv.FormatUint(n, 10)}
	}
	lit := rapid.StringMatching(`-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?`).Draw(t, "literal")
	if _, err := canon.ParseNumber(lit); err != nil {
		// Out of range: jcs refuses it too.
		if _, jerr := jcs.Transform([]byte(lit)); jerr == nil {
			t.Fatalf("canon refuses %q (%v), jcs accepts it", lit, err)
		}
		return scalarCase{json.Number("0"), "0"}
	}
	return scalarCase{json.Number(lit), lit}
})

func mustScalar(t *rapid.T, c scalarCase) canon.Scalar {
	s, err := canon.Of(c.v)
	if err != nil {
		t.Fatalf("Of(%v): %v", c, err)
	}
	return s
}

// drawPair draws two scalars; the second is often from the colliding pool so
// that equal keys are common.
func drawPair(t *rapid.T) (scalarCase, scalarCase) {
	x := genScalar.Draw(t, "x")
	if rapid.Bool().Draw(t, "colliding") {
		return x, rapid.SampledFrom(collidingScalars).Draw(t, "y")
	}
	return x, genScalar.Draw(t, "y")
}

func TestKeyEqualIffJCSTransformEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := drawPair(t)
		kx, ky := mustScalar(t, x).Key(), mustScalar(t, y).Key()
		tx, err := jcs.Transform([]byte("[" + x.text + "]"))
		if err != nil {
			t.Fatalf("jcs.Transform([%s]): %v", x.text, err)
		}
		ty, err := jcs.Transform([]byte("[" + y.text + "]"))
		if err != nil {
			t.Fatalf("jcs.Transform([%s]): %v", y.text, err)
		}
		if (kx == ky) != bytes.Equal(tx, ty) {
			t.Fatalf("keys %q, %q (equal %v) but jcs gives %s, %s", kx, ky, kx == ky, tx, ty)
		}
		// Stronger: the key is exactly what jcs writes for the element.
		if string(tx) != "["+kx+"]" {
			t.Fatalf("key of %v is %q, jcs.Transform gives %s", x, kx, tx)
		}
	})
}

func TestScalarEqualIffKeyEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := drawPair(t)
		sx, sy := mustScalar(t, x), mustScalar(t, y)
		if (sx == sy) != (sx.Key() == sy.Key()) {
			t.Fatalf("%v == %v is %v but keys %q, %q", x, y, sx == sy, sx.Key(), sy.Key())
		}
	})
}

// TestAppendKeyOnlyAppends: AppendKey(dst) returns dst followed by the key
// and never writes into dst's bytes, whatever dst's spare capacity.
func TestAppendKeyOnlyAppends(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genScalar.Draw(t, "x")
		s := mustScalar(t, c)
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "prefix")
		spare := rapid.IntRange(0, 64).Draw(t, "spare")
		for _, viaAny := range []bool{false, true} {
			dst := make([]byte, len(prefix), len(prefix)+spare)
			copy(dst, prefix)
			var out []byte
			if viaAny {
				var err error
				if out, err = canon.AppendKey(dst, c.v); err != nil {
					t.Fatal(err)
				}
			} else {
				out = s.AppendKey(dst)
			}
			if !bytes.Equal(dst, prefix) {
				t.Fatalf("dst changed to %q, was %q", dst, prefix)
			}
			if !bytes.Equal(out[:len(prefix)], prefix) || string(out[len(prefix):]) != s.Key() {
				t.Fatalf("AppendKey(%q) = %q, want the prefix then %q", prefix, out, s.Key())
			}
		}
	})
}

// TestParseNumberAcceptsWhatJCSAccepts: on literals without whitespace or
// structural characters, ParseNumber accepts exactly what jcs.Transform
// accepts as a number, with the same canonical text.
func TestParseNumberAcceptsWhatJCSAccepts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lit := rapid.OneOf(
			rapid.StringMatching(`-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][+-]?[0-9]{1,4})?`),
			rapid.StringOfN(rapid.SampledFrom([]rune("0123456789-+.eE")), 1, 12, -1),
		).Draw(t, "literal")
		s, err := canon.ParseNumber(lit)
		ref, jerr := jcs.Transform([]byte(lit))
		if (err == nil) != (jerr == nil) {
			t.Fatalf("ParseNumber(%q) error %v, jcs.Transform error %v", lit, err, jerr)
		}
		if err == nil && s.Key() != string(ref) {
			t.Fatalf("ParseNumber(%q) = %q, jcs.Transform = %q", lit, s.Key(), ref)
		}
	})
}
