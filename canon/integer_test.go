package canon_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestIntegersAreExact: an integer of any Go type, and an ExactNumber, is
// that integer: the RFC 8785 key of its double where a double holds it,
// else its digits and "n"; String, the form reports show, is its digits.
// A json.Number rounds as before.
func TestIntegersAreExact(t *testing.T) {
	two60 := new(big.Int).Lsh(big.NewInt(1), 60)
	big2p53p1 := big.NewInt(1<<53 + 1)
	huge, _ := new(big.Int).SetString("-1"+strings.Repeat("0", 400), 10)
	type row struct {
		in     any
		key    string
		str    string // "" when it is key
		reason string
	}
	testutil.Run(t, []row{
		{int64(1<<53 + 1), "9007199254740993n", "9007199254740993", "2^53+1: no double holds it (refused before)"},
		{int64(-(1<<53 + 1)), "-9007199254740993n", "-9007199254740993", "the same below zero"},
		{int64(1 << 53), "9007199254740992", "", "2^53 is a double: its RFC 8785 key, as before"},
		{testutil.Int(math.MaxInt64), "9223372036854775807n", "9223372036854775807", "math.MaxInt64 as an int"},
		{int64(math.MinInt64), "-9223372036854776000", "", "-2^63 is a double: RFC 8785's form of it, as before"},
		{uint64(math.MaxUint64), "18446744073709551615n", "18446744073709551615", "math.MaxUint64 (refused before)"},
		{uint64(math.MaxUint64 - 1), "18446744073709551614n", "18446744073709551614", "a neighbour: another integer, another key"},
		{uint64(1 << 63), "9223372036854776000", "", "2^63 is a double: its RFC 8785 key, as before"},
		{namedUint64(math.MaxUint64), "18446744073709551615n", "18446744073709551615", "a named uint64"},
		{testutil.Uintptr(1<<53 + 1), "9007199254740993n", "9007199254740993", "uintptr too"},
		{int64(1 << 60), "1152921504606847000", "", "2^60 is a double: RFC 8785 writes it 1152921504606847000"},
		{two60, "1152921504606847000", "", "a *big.Int 2^60: the same key as int64(1<<60) (a *big.Int was refused before)"},
		{*two60, "1152921504606847000", "", "a big.Int value too (refused before)"},
		{big2p53p1, "9007199254740993n", "9007199254740993", "a *big.Int no double holds"},
		{*big2p53p1, "9007199254740993n", "9007199254740993", "a big.Int no double holds"},
		{big.NewInt(0), "0", "", "a *big.Int zero"},
		{huge, "-1" + strings.Repeat("0", 400) + "n", "-1" + strings.Repeat("0", 400), "a *big.Int beyond every double: exact still"},
		{canon.ExactNumber("9007199254740993"), "9007199254740993n", "9007199254740993", "an ExactNumber is read as ExactNumbers reads a literal"},
		{canon.ExactNumber("1152921504606847000"), "1152921504606847000n", "1152921504606847000", "the integer RFC 8785's text of 2^60 names, not 2^60"},
		{canon.ExactNumber("1.152921504606846976e18"), "1152921504606847000", "", "2^60 in exponent form: the double"},
		{canon.ExactNumber("0.5"), "0.5", "", "a fraction a double holds"},
		{json.Number("9007199254740993"), "9007199254740992", "", "a json.Number rounds, as a document's literal does by default"},
	}, func(t *testing.T, r row) {
		s, err := canon.Of(r.in)
		if err != nil {
			t.Fatal(err)
		}
		want := r.str
		if want == "" {
			want = r.key
		}
		if s.Key() != r.key || s.String() != want || s.Kind() != canon.Number {
			t.Errorf("key %s, string %s, kind %v; want %s, %s, number", s.Key(), s.String(), s.Kind(), r.key, want)
		}
		if k, err := canon.Key(r.in); err != nil || k != r.key {
			t.Errorf("Key: %q, %v", k, err)
		}
		if b, _ := s.MarshalJSON(); string(b) != want || !json.Valid(b) {
			t.Errorf("MarshalJSON: %s; want %s, valid JSON", b, want)
		}
		if back, err := canon.Of(s.Value()); err != nil || back != s {
			t.Errorf("Of(Value()) = %v, %v; want %v", back, err, s)
		}
	})
}

// TestExactReaders: ParseSubmission and ParseNumber with ExactNumbers keep
// 9007199254740993 as that integer, unequal to 9007199254740992, in an
// array and as an answer.
func TestExactReaders(t *testing.T) {
	sub, err := canon.ParseSubmission([]byte(`{"q1":[1, 9007199254740993, 9007199254740992],"q2":9007199254740993}`), canon.ExactNumbers())
	if err != nil {
		t.Fatal(err)
	}
	q1, err := sub.Array("q1")
	if err != nil || keys(q1) != "1,9007199254740993n,9007199254740992" || q1[1] == q1[2] {
		t.Errorf("q1 = %s, %v", keys(q1), err)
	}
	q2, err := sub.Scalar("q2")
	if err != nil || q2 != q1[1] {
		t.Errorf("q2 = %v, %v; want the exact integer", q2, err)
	}
	if lit := sub.Literal("q1", 1); lit != "9007199254740993" {
		t.Errorf("Literal = %q", lit)
	}
	n, err := canon.ParseNumber("9007199254740993", canon.ExactNumbers())
	if err != nil || n != q2 {
		t.Errorf("ParseNumber = %v, %v; want %v", n, err, q2)
	}
	if n, _ := canon.ParseNumber("9007199254740993"); n.Key() != "9007199254740992" {
		t.Errorf("ParseNumber without the option = %v; want it rounded", n)
	}
}

// anchors are integers around which keys change form or Go types end.
var anchors = func() []*big.Int {
	var out []*big.Int
	for _, e := range []uint{0, 53, 54, 60, 63, 64, 65, 100, 1023} {
		out = append(out, new(big.Int).Lsh(big.NewInt(1), e))
	}
	for _, e := range []int64{15, 16, 21, 22, 23, 300} {
		out = append(out, new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
	}
	return out
}()

// genInt draws integers near the anchors (within 2^12, or a double's
// spacing there, either side, of either sign), and doubles' integers.
var genInt = rapid.Custom(func(t *rapid.T) *big.Int {
	x := new(big.Int).Set(rapid.SampledFrom(anchors).Draw(t, "anchor"))
	switch rapid.IntRange(0, 2).Draw(t, "how") {
	case 0:
		x.Add(x, big.NewInt(rapid.Int64Range(-1<<12, 1<<12).Draw(t, "offset")))
	case 1: // a double's neighbours: a multiple of its spacing there
		f, _ := new(big.Float).SetInt(x).Float64()
		ulp := math.Nextafter(f, math.Inf(1)) - f
		d, _ := big.NewFloat(ulp).Int(nil)
		x.Add(x, d.Mul(d, big.NewInt(rapid.Int64Range(-4, 4).Draw(t, "ulps"))))
	default:
		x.Mul(x, big.NewInt(rapid.Int64Range(1, 1<<20).Draw(t, "times")))
	}
	if rapid.Bool().Draw(t, "negative") {
		x.Neg(x)
	}
	return x
})

// heldBy returns the double that holds x exactly, if one does.
func heldBy(x *big.Int) (float64, bool) {
	f, acc := x.Float64()
	return f, acc == big.Exact
}

// TestPropertyExactKeyIsRFC8785WhereADoubleHolds: an integer a double
// holds has, in every form, jcs.NumberToJSON's key of that double; one no
// double holds has its digits and "n", which no RFC 8785 number key is.
func TestPropertyExactKeyIsRFC8785WhereADoubleHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := genInt.Draw(t, "x")
		s, err := canon.BigIntScalar(x)
		if err != nil {
			t.Fatal(err)
		}
		f, held := heldBy(x)
		if !held {
			if s.Key() != x.String()+"n" {
				t.Fatalf("%v: key %s; want its digits and n", x, s.Key())
			}
			return
		}
		want, err := jcs.NumberToJSON(f)
		if err != nil || s.Key() != want {
			t.Fatalf("%v: key %s; jcs %s (%v)", x, s.Key(), want, err)
		}
		if n, err := canon.NumberScalar(f); err != nil || n != s {
			t.Fatalf("%v: the double's Scalar %v (%v) is not %v", x, n, err, s)
		}
	})
}

// TestPropertyDistinctIntegersDistinctKeys: two integers have equal keys,
// and equal Scalars, exactly when they are the same integer, near the
// anchors where a double's text could pass for another integer's.
func TestPropertyDistinctIntegersDistinctKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := genInt.Draw(t, "x"), genInt.Draw(t, "y")
		if rapid.Bool().Draw(t, "near") { // y a close neighbour of x
			y = new(big.Int).Add(x, big.NewInt(rapid.Int64Range(-2, 2).Draw(t, "d")))
		}
		if rapid.Bool().Draw(t, "rfc text") { // y the integer x's RFC 8785 text names
			if f, held := heldBy(x); held {
				k, _ := jcs.NumberToJSON(f)
				if !strings.ContainsAny(k, "e.") {
					y, _ = new(big.Int).SetString(k, 10)
				}
			}
		}
		sx, _ := canon.BigIntScalar(x)
		sy, _ := canon.BigIntScalar(y)
		same := x.Cmp(y) == 0
		if (sx.Key() == sy.Key()) != same || (sx == sy) != same {
			t.Fatalf("%v and %v: keys %s and %s, == %v", x, y, sx.Key(), sy.Key(), sx == sy)
		}
	})
}

// TestPropertyOneIntegerOneScalarInEveryForm: an integer is the same
// Scalar through every Go type that holds it (int64, uint64, *big.Int,
// big.Int, float64 where a double holds it) and every JSON notation of it
// read exactly (ExactNumber, ParseNumber and ParseArray with ExactNumbers:
// 123, 1.23e2, 123.0, 12300e-2).
func TestPropertyOneIntegerOneScalarInEveryForm(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := genInt.Draw(t, "x")
		if x.BitLen() > 1000 { // a literal must be in a double's range
			return
		}
		want, _ := canon.BigIntScalar(x)
		forms := []any{x, *x}
		if x.IsInt64() {
			forms = append(forms, x.Int64())
		}
		if x.IsUint64() {
			forms = append(forms, x.Uint64())
		}
		if f, held := heldBy(x); held {
			forms = append(forms, f)
		}
		digits := x.String()
		sign, mag := "", digits
		if x.Sign() < 0 {
			sign, mag = "-", digits[1:]
		}
		sci := mag[:1]
		if len(mag) > 1 {
			sci += "." + mag[1:]
		}
		lits := []string{digits, digits + ".0", sign + sci + "e" + itoa(len(mag)-1), sign + "0." + mag + "E+" + itoa(len(mag))}
		if x.Sign() != 0 { // 000e-2 is no JSON number
			lits = append(lits, digits+"00e-2")
		}
		for _, lit := range lits {
			forms = append(forms, canon.ExactNumber(lit))
			if s, err := canon.ParseNumber(lit, canon.ExactNumbers()); err != nil || s != want {
				t.Fatalf("ParseNumber(%s, ExactNumbers) = %v, %v; want %v", lit, s, err, want)
			}
		}
		for _, v := range forms {
			if s, err := canon.Of(v); err != nil || s != want || s.Key() != want.Key() {
				t.Fatalf("Of(%T %v) = %v, %v; want %v", v, v, s, err, want)
			}
		}
		arr, err := canon.ParseArray([]byte("["+strings.Join(lits, ",")+"]"), canon.ExactNumbers())
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range arr {
			if s != want {
				t.Fatalf("ParseArray: %s is %v; want %v", lits[i], s, want)
			}
		}
	})
}
