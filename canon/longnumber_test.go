package canon_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// nearest is the oracle: the double nearest a decimal literal, ties to even,
// by exact rational arithmetic.
func nearest(t *rapid.T, lit string) (float64, bool) {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		t.Fatalf("oracle cannot read %q", lit)
	}
	f, _ := r.Float64()
	return f, !math.IsInf(f, 0)
}

// TestParseNumberLongLiteralsRoundToNearest: literals with mantissas far
// beyond strconv's 800 stored digits still read as the nearest double, and
// out-of-range ones are still refused.
func TestParseNumberLongLiteralsRoundToNearest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lead := rapid.StringMatching(`[1-9][0-9]{0,20}`).Draw(t, "lead")
		zeros := rapid.IntRange(0, 1200).Draw(t, "zeros")
		tail := rapid.StringMatching(`[0-9]{0,30}`).Draw(t, "tail")
		point := rapid.IntRange(-1, len(lead)+zeros+len(tail)).Draw(t, "point")
		exp := rapid.IntRange(-1500, 1500).Draw(t, "exp")
		digits := lead + strings.Repeat("0", zeros) + tail
		lit := digits
		if point > 0 && point < len(digits) {
			lit = digits[:point] + "." + digits[point:]
		} else if point == 0 {
			lit = "0." + digits
		}
		lit += "e" + itoa(exp)
		if rapid.Bool().Draw(t, "neg") {
			lit = "-" + lit
		}
		want, finite := nearest(t, lit)
		s, err := canon.ParseNumber(lit)
		if !finite {
			if err == nil {
				t.Fatalf("ParseNumber(%.60s…) = %v, want an out-of-range error", lit, s)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseNumber(%.60s…): %v", lit, err)
		}
		if got := s.Float(); got != want+0 {
			t.Fatalf("ParseNumber(%.60s…) = %v, want %v", lit, got, want)
		}
	})
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// TestParseNumberLongLiteralRows pins the cases that strconv.ParseFloat
// alone gets wrong.
func TestParseNumberLongLiteralRows(t *testing.T) {
	type row struct {
		lit    string
		want   float64
		err    bool
		reason string
	}
	testutil.Run(t, []row{
		{"1" + strings.Repeat("0", 900) + "e-900", 1, false, "900 zeros then e-900 is exactly 1"},
		{"5" + strings.Repeat("0", 900) + "e-900", 5, false, "the same for 5"},
		{"1" + strings.Repeat("0", 900) + "e-500", 0, true, "1e400 written long is out of range"},
		{"-1" + strings.Repeat("0", 1000) + "e-600", 0, true, "-1e400 written long is out of range"},
		{"0." + strings.Repeat("0", 900) + "1e901", 1, false, "a long run of fraction zeros"},
		{"1" + strings.Repeat("0", 900) + "e-99999999999", 0, false, "a huge negative exponent underflows to 0"},
		{"1" + strings.Repeat("0", 900) + "e99999999999", 0, true, "a huge positive exponent is out of range"},
		{strings.Repeat("0", 0) + "0." + strings.Repeat("0", 1000), 0, false, "zero written long"},
	}, func(t *testing.T, tc row) {
		s, err := canon.ParseNumber(tc.lit)
		if (err != nil) != tc.err || err == nil && s.Float() != tc.want {
			t.Errorf("ParseNumber = %v, %v; want %v (error %v)", s, err, tc.want, tc.err)
		}
	})
}
