package canon_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gowebpki/jcs"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// Benchmark inputs: a fixed, varied set per case so that neither branch
// prediction nor a single value's digit count decides the result.
var (
	benchSmallInts = func() []any {
		v := make([]any, 1024)
		for i := range v {
			v[i] = float64(i*37%100000 - 50000) // |n| < 50000
		}
		return v
	}()
	benchDoubles = func() []any {
		r := rand.New(rand.NewPCG(1, 2))
		v := make([]any, 1024)
		for i := range v {
			v[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
		}
		return v
	}()
	benchASCII = func() []any {
		v := make([]any, 1024)
		for i := range v {
			v[i] = "item-" + strconv.Itoa(i) + "-name"
		}
		return v
	}()
	benchEscapes = func() []any {
		v := make([]any, 1024)
		for i := range v {
			v[i] = "line " + strconv.Itoa(i) + "\n\t\"quoted\" \\ \x01"
		}
		return v
	}()
	benchLiterals = []any{nil, true, false, nil, false, true, true, nil}
)

var benchCases = []struct {
	name string
	vals []any
}{
	{"small-int", benchSmallInts},
	{"double", benchDoubles},
	{"ascii", benchASCII},
	{"escapes", benchEscapes},
	{"null-bool", benchLiterals},
}

var benchSink int

func scalarsOf(b *testing.B, vals []any) []canon.Scalar {
	out := make([]canon.Scalar, len(vals))
	for i, v := range vals {
		s, err := canon.Of(v)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = s
	}
	return out
}

// BenchmarkAppendKey: Scalar.AppendKey on a reused dst, and the package
// function AppendKey, which also converts the Go value (Of).
func BenchmarkAppendKey(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			ss := scalarsOf(b, bc.vals)
			dst := make([]byte, 0, 128)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				dst = ss[i%len(ss)].AppendKey(dst[:0])
			}
			benchSink += len(dst)
		})
		b.Run("any/"+bc.name, func(b *testing.B) {
			dst := make([]byte, 0, 128)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				var err error
				dst, err = canon.AppendKey(dst[:0], bc.vals[i%len(bc.vals)])
				if err != nil {
					b.Fatal(err)
				}
			}
			benchSink += len(dst)
		})
	}
}

// BenchmarkJCSNumberToJSON is the reference serializer on the same small
// integers, for comparison with BenchmarkAppendKey/small-int.
func BenchmarkJCSNumberToJSON(b *testing.B) {
	fs := make([]float64, len(benchSmallInts))
	for i, v := range benchSmallInts {
		fs[i] = v.(float64)
	}
	b.Run("small-int", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			s, err := jcs.NumberToJSON(fs[i%len(fs)])
			if err != nil {
				b.Fatal(err)
			}
			benchSink += len(s)
		}
	})
}

// TestAppendKeyZeroAllocs holds canon to its documented promise: AppendKey
// does not allocate for null, booleans, integral numbers and escape-free
// strings, nor for any value when dst has room.
func TestAppendKeyZeroAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes allocation counts")
	}
	// Values are boxed once here: boxing at a call site is the caller's cost.
	type row struct {
		v      any
		reason string
	}
	tests := []row{
		{nil, "null"},
		{true, "true"},
		{false, "false"},
		{0.0, "zero"},
		{-7.0, "small negative integer"},
		{123456789.0, "integer on the strconv.AppendInt path"},
		{float64(1<<53 - 1), "largest integer of the fast path"},
		{float64(1 << 53), "integral double beyond the fast path"},
		{1e20, "integral double printed with trailing zeros"},
		{1e300, "integral double in exponent form"},
		{int64(-42), "int64"},
		{uint8(200), "uint8"},
		{"", "empty string"},
		{"plain ascii text", "escape-free ASCII"},
		{"héllo wörld €😂", "escape-free non-ASCII"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		s, err := canon.Of(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, 0, 64)
		if n := testing.AllocsPerRun(100, func() { dst = s.AppendKey(dst[:0]) }); n != 0 {
			t.Errorf("Scalar.AppendKey(%#v): %v allocs, want 0", tc.v, n)
		}
		if n := testing.AllocsPerRun(100, func() { dst, _ = canon.AppendKey(dst[:0], tc.v) }); n != 0 {
			t.Errorf("canon.AppendKey(%#v): %v allocs, want 0", tc.v, n)
		}
	})
	// With room in dst, nothing allocates: not escapes, not general doubles.
	for _, bc := range benchCases {
		dst := make([]byte, 0, 128)
		for _, v := range bc.vals[:min(64, len(bc.vals))] {
			if n := testing.AllocsPerRun(20, func() { dst, _ = canon.AppendKey(dst[:0], v) }); n != 0 {
				t.Errorf("canon.AppendKey(%#v) with room in dst: %v allocs, want 0", v, n)
			}
		}
	}
}

// numberLiterals are number literals as tool documents hold them. short:
// integers and sixty-fourths, as encoding/json writes them; mixed: a third
// of them shortest 17-digit doubles and small exponents.
func numberLiterals(mixed bool) []string {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, 1000)
	for i := range out {
		k := r.IntN(10)
		if !mixed {
			k %= 7
		}
		switch {
		case k < 5:
			out[i] = strconv.Itoa(r.IntN(100000) - 50000)
		case k < 7:
			out[i] = strconv.FormatFloat(float64(r.IntN(1e6))/64, 'g', -1, 64)
		case k < 9:
			out[i] = strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64)
		default:
			out[i] = strconv.FormatFloat(r.ExpFloat64()*1e-9, 'g', -1, 64)
		}
	}
	return out
}

func BenchmarkParseNumber(b *testing.B) {
	for _, mix := range []string{"short", "mixed"} {
		lits := numberLiterals(mix == "mixed")
		b.Run(mix+"/canon", func(b *testing.B) {
			for b.Loop() {
				for _, l := range lits {
					if _, err := canon.ParseNumber(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(mix+"/strconv", func(b *testing.B) {
			for b.Loop() {
				for _, l := range lits {
					if _, err := strconv.ParseFloat(l, 64); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
