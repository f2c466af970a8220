package rational

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

func bigOf(a u128) *big.Int {
	z := new(big.Int).SetUint64(a.hi)
	z.Lsh(z, 64)
	return z.Or(z, new(big.Int).SetUint64(a.lo))
}

// rand128 draws values of every bit length, with runs of ones and zeros.
func rand128(r *rand.Rand) u128 {
	v := u128{r.Uint64(), r.Uint64()}
	switch n := r.IntN(130); {
	case n >= 128:
		v = u128{^uint64(0), ^uint64(0) - uint64(r.IntN(3))}
	case n >= 64:
		v.hi >>= 127 - n
	default:
		v.hi, v.lo = 0, v.lo>>(63-n)
	}
	return v
}

func TestU128(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	limit := new(big.Int).Lsh(big.NewInt(1), 128)
	for i := range testutil.Size(20_000, 200_000) {
		a, b := rand128(r), rand128(r)
		ba, bb := bigOf(a), bigOf(b)
		if s, ok := a.add(b); ok != (new(big.Int).Add(ba, bb).Cmp(limit) < 0) || ok && bigOf(s).Cmp(new(big.Int).Add(ba, bb)) != 0 {
			t.Fatalf("add(%v, %v) = %v, %v", ba, bb, bigOf(s), ok)
		}
		want := new(big.Int).Mul(ba, bb)
		if p, ok := a.mul(b); ok != (want.Cmp(limit) < 0) || ok && bigOf(p).Cmp(want) != 0 {
			t.Fatalf("mul(%v, %v) = %v, %v", ba, bb, bigOf(p), ok)
		}
		if want := new(big.Int).GCD(nil, nil, ba, bb); bigOf(gcd128(a, b)).Cmp(want) != 0 {
			t.Fatalf("gcd128(%v, %v) = %v, want %v", ba, bb, bigOf(gcd128(a, b)), want)
		}
		if b.isZero() {
			continue
		}
		q, rem := a.quoRem(b)
		wq, wr := new(big.Int).QuoRem(ba, bb, new(big.Int))
		if bigOf(q).Cmp(wq) != 0 || bigOf(rem).Cmp(wr) != 0 {
			t.Fatalf("quoRem(%v, %v) = %v, %v", ba, bb, bigOf(q), bigOf(rem))
		}
		if bigOf(a.quo(b)).Cmp(wq) != 0 {
			t.Fatalf("quo(%v, %v) = %v", ba, bb, bigOf(a.quo(b)))
		}
		if b.hi == 0 && new(big.Int).SetUint64(a.mod64(b.lo)).Cmp(wr) != 0 {
			t.Fatalf("mod64(%v, %v) = %v", ba, bb, a.mod64(b.lo))
		}
		var z apd.BigInt
		setU128(&z, a, i%2 == 0)
		v, neg, ok := parts128(&z)
		// Where a word has 32 bits, parts128 takes what parts takes (below
		// 2^64, and not below -2^63) and apd's inline storage holds 64 bits.
		fits := bits.UintSize == 64 || a.hi == 0 && (i%2 != 0 || a.lo <= 1<<63)
		inline := bits.UintSize == 64 || a.hi == 0
		if ok != fits || ok && (v != a || neg != (i%2 == 0 && !a.isZero())) || inline && z.Size() != inlineSize {
			t.Fatalf("setU128/parts128(%v) = %v, %v, %v", ba, bigOf(v), neg, ok)
		}
	}
}

// ratOf builds n/d (d > 0) for the tests, from math/big.
func ratOf(n, d *big.Int) Rat {
	var bn, bd apd.BigInt
	bn.SetMathBigInt(n)
	bd.SetMathBigInt(d)
	return ratio(&bn, &bd)
}

// TestArithmeticAroundWordSizes checks add, mul and gcd, and the evaluator,
// on values near 2^64 and 2^128, with every set of tiers.
func TestArithmeticAroundWordSizes(t *testing.T) {
	for _, ts := range tierSets {
		t.Run("tiers="+ts.name, func(t *testing.T) {
			withTiers(ts.set, func() { testArithmeticAroundWordSizes(t, testutil.Size(300, 10_000)) })
		})
	}
}

func testArithmeticAroundWordSizes(t *testing.T, n int) {
	r := rand.New(rand.NewPCG(3, 4))
	randBig := func() *big.Int {
		n := new(big.Int).SetUint64(r.Uint64())
		n.Lsh(n, uint(r.IntN(150)))
		n.Add(n, new(big.Int).SetUint64(r.Uint64()>>r.IntN(64)))
		if r.IntN(4) == 0 {
			n.Mul(n, big.NewInt(int64(r.IntN(1000)+1)))
		}
		return n
	}
	for range n {
		n1, d1, n2, d2 := randBig(), randBig(), randBig(), randBig()
		if d1.Sign() == 0 || d2.Sign() == 0 {
			continue
		}
		if r.IntN(2) == 0 {
			n1.Neg(n1)
		}
		if r.IntN(3) == 0 {
			n2.Neg(n2)
		}
		if r.IntN(5) == 0 { // a common denominator factor
			d2.Mul(d2, d1)
		}
		x, y := ratOf(n1, d1), ratOf(n2, d2)
		bx, by := new(big.Rat).SetFrac(n1, d1), new(big.Rat).SetFrac(n2, d2)
		check := func(op string, got Rat, want *big.Rat) {
			t.Helper()
			if got.BigRat().Cmp(want) != 0 || got.String() != want.RatString() {
				t.Fatalf("%v %s %v = %v, want %v", bx, op, by, got, want.RatString())
			}
			if got.den.Sign() != 0 && isOne(&got.den) {
				t.Fatalf("%v %s %v: denominator 1 stored", bx, op, by)
			}
		}
		check("+", x.Add(y), new(big.Rat).Add(bx, by))
		check("-", x.Sub(y), new(big.Rat).Sub(bx, by))
		check("*", x.Mul(y), new(big.Rat).Mul(bx, by))
		if by.Sign() != 0 {
			check("/", x.Quo(y), new(big.Rat).Quo(bx, by))
		}
		check("-x", x.Neg(), new(big.Rat).Neg(bx))
		var g apd.BigInt
		gcd(&g, &x.num, &y.num, new(scratch))
		if want := new(big.Int).GCD(nil, nil, new(big.Int).Abs(bx.Num()), new(big.Int).Abs(by.Num())); g.MathBigInt().Cmp(want) != 0 {
			t.Fatalf("gcd(%v, %v) = %v, want %v", bx.Num(), by.Num(), &g, want)
		}
		// The same through the evaluator, whose big paths reuse storage.
		src := "(" + n1.String() + ")/" + d1.String() + " + (" + n2.String() + ")/" + d2.String() +
			" * " + d1.String() + " - -(" + n1.String() + ")"
		src = strings.ReplaceAll(src, "(-", "(0-")
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		want := new(big.Rat).Add(bx, new(big.Rat).Mul(by, new(big.Rat).SetInt(d1)))
		want.Add(want, new(big.Rat).SetInt(n1))
		for k := 0; k < 2; k++ { // an Expr evaluates the same every time
			v, _, err := e.Eval()
			if err != nil {
				t.Fatal(err)
			}
			if v.BigRat().Cmp(want) != 0 {
				t.Fatalf("%s = %v, want %v", src, v, want.RatString())
			}
		}
	}
}

// TestEvalLeavesLiteralsAndResults checks that evaluating never writes into
// a literal's storage or into a value returned earlier, concurrently too.
func TestEvalLeavesLiteralsAndResults(t *testing.T) {
	big1 := "123456789012345678901234567890123456789012345678901"
	big2 := "98765432109876543210987654321098765432109876543210987"
	mid := "12345678901234567890123" // heap-free: below 2^128
	exprs := []string{
		"-" + big1,
		"-(" + big1 + ")",
		"-" + big1 + " + " + big2,
		"1/" + big1 + " + 1/" + big2 + " - 1/" + big1,
		"-(-" + big1 + ") * " + big1 + " / " + big2,
		big1 + " - " + big1 + " + " + big2,
		"-" + mid + " * " + mid + " / 7 + -" + mid,
		"(" + big1 + " + 1) * (" + big2 + " - 1) / (" + big1 + " + 1)",
	}
	for _, src := range exprs {
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		first, _, err := e.Eval()
		if err != nil {
			t.Fatal(err)
		}
		firstText := first.String()
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < 50; k++ {
					v, _, err := e.Eval()
					if err != nil || v.String() != firstText {
						t.Errorf("%s: evaluation %d gave %v, %v; first %s", src, k, v, err, firstText)
						return
					}
					res, err := CheckRational(Input{Expression: src, ClaimedValue: firstText, RequireCanonical: true}, Limits{})
					if err != nil || !res.Valid {
						t.Errorf("%s: CheckRational: %v, %v", src, err, res.Err())
						return
					}
				}
			}()
		}
		wg.Wait()
		if first.String() != firstText {
			t.Fatalf("%s: a returned value changed: %v, was %s", src, first, firstText)
		}
	}
}

func TestLiteralSizes(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for _, d := range "19" {
			s := "1" + strings.Repeat(string(d), n-1)
			v := literal(s)
			if v.String() != s {
				t.Fatalf("literal(%s) = %v", s, v)
			}
			if n <= 2*bits.UintSize*3/10 && !v.inline() { // 38 digits are below 2^128, 19 below 2^64
				t.Fatalf("literal(%s) has heap storage", s)
			}
		}
	}
}

// TestClaimCanonical checks parseClaim's canonical flag against its
// definition: the claim is the text of its value.
func TestClaimCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	digits := func() string {
		if r.IntN(5) == 0 {
			return "0"
		}
		n := 1 + r.IntN(45)
		var b strings.Builder
		b.WriteByte(byte('1' + r.IntN(9)))
		for i := 1; i < n; i++ {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	claims := []string{"0", "-0", "0/1", "-0/1", "0/7", "1/1", "-1/1", "2/4", "-2/4", "1/2", "-1/2", "3", "-3", "6/3", "-6/3"}
	for range testutil.Size(2_000, 20_000) {
		s := digits()
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		if r.IntN(3) != 0 {
			d := digits()
			if d == "0" {
				d = "1"
			}
			if r.IntN(3) == 0 { // a common factor
				var bd, bs big.Int
				bd.SetString(d, 10)
				bs.SetString(s, 10)
				k := big.NewInt(int64(r.IntN(12) + 1))
				d = bd.Mul(&bd, k).String()
				s = bs.Mul(&bs, k).String()
			}
			s += "/" + d
		}
		claims = append(claims, s)
	}
	for _, s := range claims {
		v, canonical, err := DefaultLimits().parseClaim(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		want, _ := new(big.Rat).SetString(s)
		if v.BigRat().Cmp(want) != 0 || canonical != (v.String() == s) {
			t.Fatalf("%s: got %v, canonical %v", s, v, canonical)
		}
	}
}

// TestModWord checks modWord, the remainder of gcd's one-word path, on
// operands of up to eight words.
func TestModWord(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		a := new(big.Int)
		for range r.IntN(8) + 1 {
			a.Lsh(a, 64).Or(a, new(big.Int).SetUint64(r.Uint64()>>r.IntN(64)))
		}
		m := r.Uint64() >> r.IntN(64)
		if m == 0 {
			m = 1
		}
		if r.IntN(2) == 0 {
			a.Neg(a)
		}
		var z apd.BigInt
		z.SetMathBigInt(a)
		want := new(big.Int).Mod(new(big.Int).Abs(a), new(big.Int).SetUint64(m))
		if got := modWord(&z, m); want.Cmp(new(big.Int).SetUint64(got)) != 0 {
			t.Fatalf("modWord(%v, %d) = %d, want %v", a, m, got, want)
		}
	}
}
