package jsonwire

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"pgregory.net/rapid"
)

// changesIntegerOracle is ChangesInteger computed in math/big.Rat: the
// literal's exact value against the double's.
func changesIntegerOracle(t interface{ Fatalf(string, ...any) }, lit string, f float64) bool {
	v, ok := new(big.Rat).SetString(lit)
	if !ok {
		t.Fatalf("big.Rat cannot read %q", lit)
	}
	d := new(big.Rat).SetFloat64(f)
	return (v.IsInt() || d.IsInt()) && v.Cmp(d) != 0
}

func TestChangesInteger(t *testing.T) {
	type row struct {
		lit     string
		changes bool
		reason  string
	}
	rows := []row{
		{"9007199254740993", true, "2^53+1 is no double: it becomes 2^53"},
		{"-9007199254740993", true, "the sign does not matter"},
		{"9007199254740993.0", true, "the same integer with a fraction of zeros"},
		{"9.007199254740993e15", true, "the same integer in exponent form"},
		{"90071992547409930e-1", true, "the same integer with more digits and a negative exponent"},
		{"9007199254740992", false, "2^53 is a double"},
		{"9007199254740994", false, "2^53+2 is a double"},
		{"1152921504606846976", false, "2^60: one significant bit"},
		{"1152921504606846977", true, "2^60+1"},
		{"18446744073709551616", false, "2^64, twenty digits: the long path"},
		{"18446744073709551617", true, "2^64+1, twenty digits"},
		{"36893488147419103232.000", false, "2^65 with a fraction of zeros, long"},
		{"1e22", false, "10^22 = 2^22·5^22, 5^22 < 2^53"},
		{"1e23", true, "5^23 > 2^53: no double is 10^23"},
		{"100000000000000000000000", true, "10^23 written out"},
		{"1e-400", true, "not zero, but becomes 0"},
		{"-1e-400", true, "becomes -0, an integer"},
		{"0e-400", false, "zero is zero"},
		{"-0", false, "minus zero is zero"},
		{"0.000", false, "zeros"},
		{"9007199254740992.5", true, "a fraction that becomes the integer 2^53"},
		{"0.99999999999999999", true, "a fraction that becomes 1"},
		{"0.1", false, "a fraction that stays a fraction"},
		{"1e-7", false, "a small fraction"},
		{"5e-324", false, "the least subnormal is no integer"},
		{"2.5", false, "an exact fraction"},
		{"1.7976931348623157e308", true, "the largest double's shortest form names an integer it is not"},
		{"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368", false, "the largest double written out"},
		{"0." + strings.Repeat("0", 30) + "1", false, "a long fraction"},
		{"1" + strings.Repeat("0", 30) + ".5e-31", false, "1.0…05: a long fraction"},
		{"1" + strings.Repeat("0", 400) + "e-400", false, "1, in 401 digits"},
		{"3" + strings.Repeat("0", 400) + "1e-402", false, "0.30…01 in 402 digits: a fraction that stays one"},
		{"9007199254740993" + strings.Repeat("0", 300) + "e-300", true, "2^53+1 in 316 digits"},
		{"3" + strings.Repeat("0", 400) + "1e-401", true, "3.00…01 in 402 digits: a fraction that becomes 3"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		f, err := strconv.ParseFloat(r.lit, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			t.Fatal(err)
		}
		got := ChangesInteger(r.lit, f)
		if want := changesIntegerOracle(t, r.lit, f); want != r.changes {
			t.Fatalf("the oracle says %v; the row %v", want, r.changes)
		}
		if got != r.changes {
			t.Errorf("ChangesInteger(%s, %v) = %v, want %v", r.lit, f, got, r.changes)
		}
	})
}

// TestChangesIntegerIsTheOracle: for literals of every form (short and
// long significands, fractions, exponents, zeros), ChangesInteger agrees
// with the exact comparison of math/big.
func TestChangesIntegerIsTheOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lit := rapid.Custom(genLiteral).Draw(t, "lit")
		f, err := strconv.ParseFloat(lit, 64)
		if math.IsInf(f, 0) {
			t.Skip("out of range")
		}
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ChangesInteger(lit, f), changesIntegerOracle(t, lit, f); got != want {
			t.Fatalf("ChangesInteger(%s, %v) = %v, the oracle %v", lit, f, got, want)
		}
	})
}

// genLiteral draws a grammatical literal whose value is near a double's
// integers often: digit strings around powers of two and ten, with
// fractions of zeros and exponents that move the point.
func genLiteral(t *rapid.T) string {
	var b strings.Builder
	if rapid.Bool().Draw(t, "neg") {
		b.WriteByte('-')
	}
	var digits string
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		digits = rapid.StringMatching(`0|[1-9][0-9]{0,40}`).Draw(t, "int")
	case 1: // a power of two, off by a little
		p := new(big.Int).Lsh(big.NewInt(1), uint(rapid.IntRange(0, 200).Draw(t, "pow2")))
		p.Add(p, big.NewInt(int64(rapid.IntRange(-2, 2).Draw(t, "off"))))
		digits = strings.TrimPrefix(p.String(), "-")
	case 2:
		digits = "1" + strings.Repeat("0", rapid.IntRange(0, 40).Draw(t, "zeros"))
	default:
		digits = "0"
	}
	if digits == "" || len(digits) > 1 && digits[0] == '0' {
		digits = "0"
	}
	b.WriteString(digits)
	if rapid.Bool().Draw(t, "frac") {
		b.WriteByte('.')
		b.WriteString(rapid.StringMatching(`[0-9]{1,30}`).Draw(t, "fraction"))
	}
	if rapid.Bool().Draw(t, "exp") {
		b.WriteString(rapid.SampledFrom([]string{"e", "E", "e+", "e-"}).Draw(t, "marker"))
		b.WriteString(strconv.Itoa(rapid.IntRange(0, 340).Draw(t, "exponent")))
	}
	return b.String()
}

// TestExactUint: every integer whose odd part is below 2^53, and no other.
func TestExactUint(t *testing.T) {
	for _, tc := range []struct {
		u     uint64
		exact bool
	}{
		{0, true}, {1, true}, {1 << 53, true}, {1<<53 + 1, false}, {1<<53 + 2, true},
		{1 << 63, true}, {math.MaxUint64, false}, {(1<<53 - 1) << 11, true}, {(1<<53 + 1) << 10, false},
	} {
		if got := ExactUint(tc.u); got != tc.exact || got != (float64(tc.u) < 1<<64 && uint64(float64(tc.u)) == tc.u) {
			t.Errorf("ExactUint(%d) = %v, want %v", tc.u, got, tc.exact)
		}
	}
}

func TestIntegerText(t *testing.T) {
	type row struct {
		lit, text string // text "" for a fraction or an integer past 309 digits
		reason    string
	}
	testutil.Run(t, []row{
		{"9007199254740993", "9007199254740993", "an integer as it is"},
		{"-9007199254740993.000", "-9007199254740993", "a fraction of zeros"},
		{"9.007199254740993e15", "9007199254740993", "exponent form"},
		{"90071992547409930e-1", "9007199254740993", "a negative exponent that leaves an integer"},
		{"0.9007199254740993E16", "9007199254740993", "a leading zero and E"},
		{"1e23", "100000000000000000000000", "the exponent's zeros written out"},
		{"-0.0e5", "0", "zero, without a sign"},
		{"123456789012345678901234567890.000e-1", "12345678901234567890123456789", "more than 19 digits"},
		{"1" + strings.Repeat("0", 308), "1" + strings.Repeat("0", 308), "309 digits: the largest a double's range holds"},
		{"1e309", "", "310 digits: beyond every double"},
		{"0.5", "", "a fraction"},
		{"9007199254740992.5", "", "a fraction above 2^53"},
		{"1e-400", "", "a tiny fraction"},
		{"12345678901234567890.1", "", "a fraction of more than 19 digits"},
	}, func(t *testing.T, r row) {
		text, ok := IntegerText(r.lit)
		if text != r.text || ok != (r.text != "") {
			t.Errorf("IntegerText(%s) = %q, %v; want %q", r.lit, text, ok, r.text)
		}
	})
}

// TestIntegerTextIsTheOracle: IntegerText is the integer math/big.Rat reads
// from the literal, and false for exactly the fractions.
func TestIntegerTextIsTheOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lit := rapid.Custom(genLiteral).Draw(t, "lit")
		v, ok := new(big.Rat).SetString(lit)
		if !ok {
			t.Fatalf("big.Rat cannot read %q", lit)
		}
		text, isInt := IntegerText(lit)
		if v.IsInt() && len(v.Num().String()) <= 309 {
			if !isInt || text != v.Num().String() {
				t.Fatalf("IntegerText(%s) = %q, %v; want %s", lit, text, isInt, v.Num())
			}
		} else if isInt && v.IsInt() {
			t.Fatalf("IntegerText(%s) = %q for an integer past 309 digits", lit, text)
		} else if isInt {
			t.Fatalf("IntegerText(%s) = %q for a fraction", lit, text)
		}
	})
}
