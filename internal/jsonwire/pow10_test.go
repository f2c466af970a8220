package jsonwire

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// pow10Mant is the generator of pow10Tab: the 128-bit mantissa of 10^e,
// rounded down (the high 128 bits of its binary expansion, the highest bit
// set), as {high word, low word}.
func pow10Mant(e int) [2]uint64 {
	var x big.Int
	if e >= 0 {
		x.Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
		if n := x.BitLen(); n > 128 {
			x.Rsh(&x, uint(n-128))
		} else {
			x.Lsh(&x, uint(128-n))
		}
	} else {
		var d big.Int
		d.Exp(big.NewInt(10), big.NewInt(int64(-e)), nil)
		x.Lsh(big.NewInt(1), uint(d.BitLen()+130)) // a quotient of at least 129 bits
		x.Quo(&x, &d)
		x.Rsh(&x, uint(x.BitLen()-128))
	}
	lo := new(big.Int).And(&x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	return [2]uint64{new(big.Int).Rsh(&x, 64).Uint64(), lo}
}

// TestPow10Table: every entry of pow10Tab is its power of ten's mantissa,
// computed exactly.
func TestPow10Table(t *testing.T) {
	if len(pow10Tab) != pow10Max-pow10Min+1 {
		t.Fatalf("%d entries for 10^%d to 10^%d", len(pow10Tab), pow10Min, pow10Max)
	}
	for e := pow10Min; e <= pow10Max; e++ {
		if got, want := pow10Tab[e-pow10Min], pow10Mant(e); got != want {
			t.Fatalf("1e%d: %#x, want %#x", e, got, want)
		}
	}
}

// floatOf returns Float's reading of lit, which must be a literal.
func floatOf(t testutil.TB, lit string) (float64, bool) {
	t.Helper()
	n, fault := ParseNumber(lit)
	if fault != OK || n.Len != len(lit) {
		t.Fatalf("ParseNumber(%q): %+v, fault %d", lit, n, fault)
	}
	return n.Float()
}

// TestFloatIsStrconv: for any mantissa of at most 19 digits and any
// exponent, a value Float gives is strconv's, bit for bit (but that a zero
// is 0, never -0).
func TestFloatIsStrconv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.IntRange(1, 19).Draw(t, "digits")
		m := rapid.Uint64Range(1, 1<<63).Draw(t, "m") % pow10u(digits)
		e := rapid.IntRange(-400, 400).Draw(t, "e")
		lit := strconv.FormatUint(m, 10) + "e" + strconv.Itoa(e)
		if rapid.Bool().Draw(t, "neg") {
			lit = "-" + lit
		}
		want, err := strconv.ParseFloat(lit, 64)
		f, ok := floatOf(t, lit)
		if ok && (err != nil || f != want || m != 0 && math.Float64bits(f) != math.Float64bits(want)) { // -0 reads as 0
			t.Fatalf("Float(%s) = %v (%#x); strconv %v (%#x), %v", lit, f, math.Float64bits(f), want, math.Float64bits(want), err)
		}
	})
}

// TestFloatDeclinesRarely: of the shortest 17-digit forms of 10,000
// doubles, the literals a document holds when a program wrote its doubles,
// Float reads every one (those Eisel-Lemire declines, near a halfway
// point, are exact dyadic values here), and each as strconv does.
func TestFloatDeclinesRarely(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	declined := 0
	for range 10000 {
		lit := strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(60)-30)), 'g', -1, 64)
		want, _ := strconv.ParseFloat(lit, 64)
		f, ok := floatOf(t, lit)
		if !ok {
			declined++
		} else if f != want {
			t.Fatalf("Float(%s) = %v, strconv %v", lit, f, want)
		}
	}
	if declined > 0 {
		t.Errorf("Float declined %d of 10000 literals", declined)
	}
}

func pow10u(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// TestFloatEdges pins down where Float decides and where it declines.
func TestFloatEdges(t *testing.T) {
	type row struct {
		lit    string
		ok     bool
		reason string
	}
	rows := []row{
		{"9007199254740992", true, "2^53: Clinger's path"},
		{"9007199254740993", true, "2^53+1, a halfway point Eisel-Lemire declines: exact, one rounding"},
		{"9007199254740994", true, "2^53+2: Eisel-Lemire"},
		{"9007199254740995", true, "a halfway point that rounds up to even: decided"},
		{"1e22", true, "the largest exact power of ten"},
		{"1e23", true, "halfway between two doubles: 5^23 rounded once, times 2^23"},
		{"1.8292641010127975e+14", true, "an exact double Eisel-Lemire declines: divided by 5^2, rounded once"},
		{"1e28", true, "5^28 is past the powers of five, but Eisel-Lemire decides"},
		{"1e127", true, "the table's largest power"},
		{"1e128", false, "past the table, above"},
		{"1e-128", true, "the table's smallest power"},
		{"1e-129", false, "past the table, below"},
		{"9999999999999999999e127", true, "the largest value the table reaches"},
		{"0.1", true, "Clinger's division"},
		{"0.30000000000000004", true, "seventeen digits"},
		{"1.7976931348623157e308", false, "the largest double: past the table"},
		{"2.2250738585072014e-308", false, "the smallest normal double: past the table"},
		{"-1234567.8901234567", true, "a negative seventeen-digit double"},
		{"12345678901234567890", false, "twenty digits: the mantissa wraps"},
		{"0e999", true, "no significant digit: 0"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		f, ok := floatOf(t, r.lit)
		if ok != r.ok {
			t.Fatalf("Float(%s) ok %v, want %v", r.lit, ok, r.ok)
		}
		if want, _ := strconv.ParseFloat(r.lit, 64); ok && math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("Float(%s) = %v, strconv %v", r.lit, f, want)
		}
	})
}

// TestDyadicIsStrconv: dyadic, whenever it gives a value, gives strconv's,
// bit for bit, and it gives one for every m × 10^e it is for: an integer
// times 5^k, read with exponent -k, or an integer whose product with 5^e
// fits a word.
func TestDyadicIsStrconv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := rapid.IntRange(-27, 27).Draw(t, "e")
		m := rapid.Uint64Range(1, 1<<63).Draw(t, "m") >> rapid.IntRange(0, 63).Draw(t, "shift")
		exact := false
		if e < 0 && rapid.Bool().Draw(t, "multiple") {
			if hi, lo := bits.Mul64(m>>8, pow5[-e]); hi == 0 && lo != 0 {
				m, exact = lo, true // divisible by 5^-e
			}
		}
		if m == 0 || m >= 1e19 {
			return
		}
		if e >= 0 {
			hi, _ := bits.Mul64(m, pow5[e])
			exact = hi == 0
		}
		neg := rapid.Bool().Draw(t, "neg")
		f, ok := dyadic(m, e, neg)
		lit := strconv.FormatUint(m, 10) + "e" + strconv.Itoa(e)
		if neg {
			lit = "-" + lit
		}
		want, _ := strconv.ParseFloat(lit, 64)
		if exact && !ok {
			t.Fatalf("dyadic(%s) declined", lit)
		}
		if ok && math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("dyadic(%s) = %v, strconv %v", lit, f, want)
		}
	})
}
