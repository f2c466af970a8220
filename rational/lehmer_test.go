package rational

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestGCDIsMathBigGCD: gcd, with every set of tiers, is math/big's GCD of
// the absolute values, on operands built to meet each branch of Lehmer's
// algorithm: equal lengths and lengths one and more apart, a common factor
// of several words, one operand a multiple of the other, words of all ones
// and powers of two (leading words that prove no quotient), zero and signs.
func TestGCDIsMathBigGCD(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	randWords := func(n int) *big.Int {
		z := new(big.Int)
		for range n {
			var w uint64
			switch r.IntN(6) {
			case 0:
				w = ^uint64(0)
			case 1:
				w = 0
			case 2:
				w = 1 << r.IntN(64)
			default:
				w = r.Uint64()
			}
			z.Lsh(z, 64).Or(z, new(big.Int).SetUint64(w))
		}
		return z
	}
	type pair struct {
		a, b *big.Int
		why  string
	}
	var pairs []pair
	for range testutil.Size(1_000, 30_000) {
		na := r.IntN(12)
		nb := na
		switch r.IntN(3) {
		case 0:
			nb = max(0, na-1)
		case 1:
			nb = r.IntN(12)
		}
		a, b := randWords(na), randWords(nb)
		why := "random words"
		switch r.IntN(4) {
		case 0:
			g := randWords(r.IntN(6) + 1)
			a.Mul(a, g)
			b.Mul(b, g)
			why = "a common factor"
		case 1:
			b.Mul(a, randWords(r.IntN(3)+1))
			why = "one a multiple of the other"
		}
		if r.IntN(2) == 0 {
			a.Neg(a)
		}
		if r.IntN(3) == 0 {
			b.Neg(b)
		}
		pairs = append(pairs, pair{a, b, why})
	}
	two := new(big.Int).Lsh(big.NewInt(1), 400)
	fib := func(n int) *big.Int { // consecutive Fibonacci numbers: the most steps
		x, y := big.NewInt(0), big.NewInt(1)
		for range n {
			x.Add(x, y)
			x, y = y, x
		}
		return x
	}
	pairs = append(pairs,
		pair{new(big.Int), new(big.Int), "both zero"},
		pair{new(big.Int), two, "zero and a power of two"},
		pair{two, new(big.Int).Sub(two, big.NewInt(1)), "2^400 and 2^400 - 1"},
		pair{two, new(big.Int).Rsh(two, 200), "powers of two"},
		pair{fib(700), fib(701), "consecutive Fibonacci numbers"},
		pair{fib(700), fib(700), "equal"},
		pair{fib(5000), fib(5001), "1,045 digits, past the default digit limit"},
	)
	for _, ts := range tierSets {
		withTiers(ts.set, func() {
			var z, x, y apd.BigInt
			var s scratch  // its g: a result of every size into one BigInt
			var zs scratch // z's temporaries
			for _, p := range pairs {
				x.SetMathBigInt(p.a)
				y.SetMathBigInt(p.b)
				want := new(big.Int).GCD(nil, nil, new(big.Int).Abs(p.a), new(big.Int).Abs(p.b))
				for _, o := range [][2]*apd.BigInt{{&x, &y}, {&y, &x}} {
					gcd(&z, o[0], o[1], &zs)
					gcd(&s.g, o[0], o[1], &s)
					if z.MathBigInt().Cmp(want) != 0 || s.g.MathBigInt().Cmp(want) != 0 {
						t.Fatalf("tiers=%s, %s: gcd(%v, %v) = %v, %v, want %v", ts.name, p.why, o[0], o[1], &z, &s.g, want)
					}
				}
			}
		})
	}
}

// TestGCDKeepsItsOperands: gcd reads its operands in place (gcdLehmer's
// views) and never writes them, nor shares storage with its result.
func TestGCDKeepsItsOperands(t *testing.T) {
	a, _ := new(big.Int).SetString("123456789012345678901234567890123456789012345678901234567890", 10)
	b, _ := new(big.Int).SetString("987654321098765432109876543210987654321098765432109876543210", 10)
	var x, y, z apd.BigInt
	x.SetMathBigInt(a)
	y.SetMathBigInt(b)
	gcd(&z, &x, &y, new(scratch))
	z.Add(&z, &z)
	if x.MathBigInt().Cmp(a) != 0 || y.MathBigInt().Cmp(b) != 0 {
		t.Fatalf("operands changed: %v, %v", &x, &y)
	}
}

// BenchmarkGCD compares gcd past the word tiers with math/big's.
func BenchmarkGCD(b *testing.B) {
	x, _ := new(big.Int).SetString("14466636279520351160221518043104131447711"+"123456789012345678901234567890123456789", 10)
	y, _ := new(big.Int).SetString("27888150091884990865813523574124921422720"+"987654321098765432109876543210987654321", 10)
	var ax, ay, z apd.BigInt
	ax.SetMathBigInt(x)
	ay.SetMathBigInt(y)
	b.Run("lehmer", func(b *testing.B) {
		b.ReportAllocs()
		var l lehmer
		for b.Loop() {
			gcdLehmer(&z, &ax, &ay, &l)
		}
	})
	b.Run("math-big", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			z.GCD(nil, nil, &ax, &ay)
		}
	})
}

// TestBigPathsAllocateNothing: in steady state, gcd past the word tiers
// (its temporaries in the scratch) and the exact division by a divisor of
// several words (its remainder kept in the scratch, which apd would
// otherwise move inline and so drop) allocate nothing.
func TestBigPathsAllocateNothing(t *testing.T) {
	if testutil.RaceEnabled {
		t.Skip("under the race detector math/big's division allocates (quoExact: one allocation per call)")
	}
	x, _ := new(big.Int).SetString("1446663627952035116022151804310413144771112345678901234567890", 10)
	y, _ := new(big.Int).SetString("2788815009188499086581352357412492142272098765432109876543210", 10)
	g := new(big.Int).GCD(nil, nil, x, y)
	g.Mul(g, new(big.Int).Lsh(big.NewInt(3), 200)) // a divisor of several words, past 2^128
	var ax, ay, ag, z apd.BigInt
	ax.SetMathBigInt(x)
	ay.SetMathBigInt(y)
	ag.SetMathBigInt(g)
	var p apd.BigInt
	p.Mul(&ax, &ag) // divisible by g
	var s scratch
	var six, three, bigA, bigB apd.BigInt
	six.SetInt64(6)
	three.SetInt64(3)
	// Operands of a lazy sum's reduction at the default digit limit: two
	// products of values of about 500 digits.
	a1000, b1000 := new(big.Int).Exp(big.NewInt(7), big.NewInt(1180), nil), new(big.Int).Exp(big.NewInt(11), big.NewInt(955), nil)
	bigA.SetMathBigInt(a1000.Mul(a1000, big.NewInt(6)))
	bigB.SetMathBigInt(b1000.Mul(b1000, big.NewInt(10)))
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"gcd", func() { gcd(&z, &ax, &ay, &s) }},
		// keepSet: the word result does not cost g its heap storage.
		{"gcd of words, then past them, into the scratch", func() { gcd(&s.g, &ax, &six, &s); gcd(&s.g, &p, &ag, &s) }},
		{"quoExact", func() { quoExact(&s.n, &p, &ag, &s) }},
		// apd's QuoRem of two words moves its remainder inline: the small
		// division must not cost the large one its remainder's storage.
		{"quoExact of words, then past them", func() { quoExact(&s.q, &six, &three, &s); quoExact(&s.n, &p, &ag, &s) }},
		{"gcd of two 1,000-digit products", func() { gcd(&z, &bigA, &bigB, &s) }},
	} {
		c.f()
		if n := testing.AllocsPerRun(100, c.f); n != 0 {
			t.Errorf("%s: %v allocations per call", c.name, n)
		}
	}
	if s.n.Cmp(&ax) != 0 {
		t.Fatalf("quoExact: %v, want %v", &s.n, &ax)
	}
}

// TestWorkspaceKeep: a workspace goes back to the pool after the largest
// checks within DefaultLimits (500-digit values, a lazy sum's unreduced
// parts past the limit, the deepest stack of operands), and not after a
// check whose raised limits grew its operands or its big temporaries past
// what the default limits need.
func TestWorkspaceKeep(t *testing.T) {
	// 1/(f*3) + 1/(f*5) for a 498-digit f: unreduced parts of up to 997
	// digits, whose GCD reduces them to 8/(15f), within the limit.
	f := "1" + strings.Repeat("0", 496) + "3"
	lazy := "1/(" + f + "*3) + 1/(" + f + "*5)"
	deep := strings.Repeat("1-(", 64) + "1" + strings.Repeat(")", 64)
	literal := strings.Repeat("9", 5000)
	for _, c := range []struct {
		src  string
		lim  Limits
		keep bool
		why  string
	}{
		{digits500(), Limits{}, true, "500-digit literals and their GCD"},
		{bigSum(), Limits{}, true, "a sum past 128 bits over 70 terms"},
		{lazy, Limits{}, true, "a lazy sum's parts past the digit limit, then reduced"},
		{deep, Limits{}, true, "the deepest nesting of operands"},
		{literal + "*" + literal, Limits{MaxValueDigits: 20_000}, false, "10,000-digit products"},
		{strings.Repeat("1-(", 4000) + "1" + strings.Repeat(")", 4000), Limits{MaxDepth: 4096, MaxTokens: 20_000, MaxExpressionBytes: 50_000},
			false, "4,000 nested operands"},
	} {
		var m machine
		if _, _, _, err := m.evaluate(c.lim.norm(), c.src); err != nil {
			t.Fatalf("%s: %v", c.why, err)
		}
		if m.ws == nil {
			t.Fatalf("%s: no workspace taken", c.why)
		}
		if got := m.ws.keep(); got != c.keep {
			t.Errorf("%s: keep = %v, want %v", c.why, got, c.keep)
		}
		m.release()
	}
}
