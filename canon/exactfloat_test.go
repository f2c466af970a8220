package canon_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"pgregory.net/rapid"
)

// parsesLikeStrconv fails unless ParseNumber(lit) is the double
// strconv.ParseFloat gives (the correctly rounded one), -0 folded.
func parsesLikeStrconv(t testutil.TB, lit string) {
	t.Helper()
	want, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(want, 0) {
		if _, got := canon.ParseNumber(lit); got == nil {
			t.Fatalf("ParseNumber(%q) accepted a literal strconv refuses (%v)", lit, err)
		}
		return
	}
	s, err := canon.ParseNumber(lit)
	if err != nil {
		t.Fatalf("ParseNumber(%q): %v", lit, err)
	}
	if got := s.Float(); math.Float64bits(got) != math.Float64bits(want+0) {
		t.Fatalf("ParseNumber(%q) = %v (%#x), strconv says %v (%#x)", lit, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

// TestParseNumberExactRows: the edges of the direct digit loop (at most 19
// significant digits making at most 2^53, a decimal exponent within ±22)
// and just past them, where strconv takes over.
func TestParseNumberExactRows(t *testing.T) {
	rows := []struct{ lit, reason string }{
		{"0", "zero"},
		{"-0", "negative zero folds into 0"},
		{"-0.0e-5", "a negative zero with a fraction and exponent"},
		{"0e999999999999", "zero with an exponent far out of range"},
		{"0.0000000000000000000000000", "more zero digits than fit the mantissa"},
		{"9007199254740992", "2^53, the largest mantissa read directly"},
		{"9007199254740993", "2^53+1: not a double, rounds to even"},
		{"9007199254740995", "2^53+3: rounds up"},
		{"-9007199254740993", "negative, past 2^53"},
		{"1e22", "the largest exact power of ten"},
		{"1e23", "the first power of ten that is not a double"},
		{"1e-22", "the smallest exact power of ten as a divisor"},
		{"1e-23", "past it"},
		{"9007199254740992e22", "the largest mantissa times the largest power"},
		{"9007199254740992e-22", "the largest mantissa over the largest power"},
		{"1234567890123456789", "19 digits, above 2^53"},
		{"12345678901234567890", "20 digits"},
		{"0.1", "the classic inexact decimal"},
		{"0.30000000000000004", "17 significant digits"},
		{"15624.984375", "a sixty-fourth, as encoding/json writes one"},
		{"1.50000000000000000000", "trailing zeros beyond 19 digits"},
		{"100e-2", "an exponent that cancels the zeros"},
		{"1E+2", "capital E, plus sign"},
		{"1e0005", "an exponent with leading zeros"},
		{"123.456e-7", "fraction and negative exponent add up"},
		{"4.9e-324", "the smallest subnormal"},
		{"2.2250738585072011e-308", "the subnormal boundary, a famous hard case"},
		{"1.7976931348623157e308", "the largest double"},
		{"0.000000000000000000001", "leading zeros in the fraction are not significant digits"},
		{"8.98846567431158e307", "a large exponent with a short mantissa"},
		{"3.0000000000000004", "17 digits just above 3"},
		{"7.2057594037927933e16", "2^56 written in 17 digits"},
		{"-0.1" + strings.Repeat("0", 774) + "e-1", "781 bytes with the sign, 780 without: the sign is kept"},
		{"-1" + strings.Repeat("0", 774) + "e-770", "781 bytes, a long negative mantissa"},
	}
	for _, r := range rows {
		if r.reason == "" {
			t.Fatalf("%q: a row without a reason", r.lit)
		}
		t.Run(r.reason, func(t *testing.T) { parsesLikeStrconv(t, r.lit) })
	}
}

// TestParseNumberMatchesStrconv: literals built from parts around the
// direct path's limits (up to 21 integer and fraction digits, exponents to
// ±40 in every written form) parse to strconv's correctly rounded double.
func TestParseNumberMatchesStrconv(t *testing.T) {
	digits := func(min, max int) *rapid.Generator[string] {
		return rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), min, max, -1)
	}
	rapid.Check(t, func(rt *rapid.T) {
		var b strings.Builder
		if rapid.Bool().Draw(rt, "neg") {
			b.WriteByte('-')
		}
		ip := digits(1, 21).Draw(rt, "int")
		if ip = strings.TrimLeft(ip, "0"); ip == "" {
			ip = "0"
		}
		b.WriteString(ip)
		if rapid.Bool().Draw(rt, "frac?") {
			b.WriteString("." + digits(1, 21).Draw(rt, "frac"))
		}
		if rapid.Bool().Draw(rt, "exp?") {
			b.WriteString(rapid.SampledFrom([]string{"e", "E", "e+", "E-", "e-", "e0"}).Draw(rt, "marker"))
			b.WriteString(strconv.Itoa(rapid.IntRange(0, 40).Draw(rt, "exp")))
		}
		parsesLikeStrconv(rt, b.String())
	})
}

// TestParseNumberMatchesStrconvOnDoubles: the shortest and the 17-digit
// forms of random doubles, in 'e' and 'f' notation, read back as
// strconv reads them.
func TestParseNumberMatchesStrconvOnDoubles(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		f := rapid.Float64().Draw(rt, "f")
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return
		}
		for _, lit := range []string{
			strconv.FormatFloat(f, 'e', -1, 64), strconv.FormatFloat(f, 'e', 16, 64),
			strconv.FormatFloat(f, 'e', 5, 64), strconv.FormatFloat(f, 'f', -1, 64),
		} {
			parsesLikeStrconv(rt, lit)
		}
	})
}
