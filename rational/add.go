package rational

import (
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// Addition and subtraction, one function per tier: addW on words, add128W
// on double words, addBig on apd.BigInt, and addLazy, which the evaluator
// runs in addBig's place. With both operands reduced, every tier but
// addLazy reduces the sum by Henrici's method: for g = gcd(dx, dy) and
// t = nx*(dy/g) ± ny*(dx/g), the sum is (t/g2) / ((dx/g)*(dy/g2)) with
// g2 = gcd(t, g), already in lowest terms; the GCDs run on the operands'
// size, not the product's.

// addW is addition on words: nx/dx + ny/dy, each negated when its neg is
// set, both in lowest terms. The sum, in lowest terms, is n/d negated when
// neg (n = 0 gives d = 1 and neg false); ok is false when an intermediate
// or the result does not fit a word.
func addW(nx uint64, negx bool, dx, ny uint64, negy bool, dy uint64) (n uint64, neg bool, d uint64, ok bool) {
	// A sum's denominator against the next small one (a partial harmonic
	// sum and k), and t below against g, can differ by most of a word.
	g := gcd64(shrink(dx, dy), dy)
	dxg, dyg := dx, dy
	if g != 1 {
		dxg, dyg = quo64(dx, g), quo64(dy, g)
	}
	ha, a := bits.Mul64(nx, dyg)
	hb, b := bits.Mul64(ny, dxg)
	if ha|hb != 0 {
		return 0, false, 0, false
	}
	var t uint64
	switch {
	case negx == negy:
		var carry uint64
		t, carry = bits.Add64(a, b, 0)
		if carry != 0 {
			return 0, false, 0, false
		}
		neg = negx
	case a >= b:
		t, neg = a-b, negx
	default:
		t, neg = b-a, negy
	}
	if t == 0 {
		return 0, false, 1, true
	}
	if g != 1 {
		if g2 := gcd64(shrink(t, g), g); g2 != 1 {
			t, dy = quo64(t, g2), quo64(dy, g2)
		}
	}
	hd, d := bits.Mul64(dxg, dy)
	if hd != 0 {
		return 0, false, 0, false
	}
	return t, neg, d, true
}

// add128W is addW on double words.
func add128W(nx u128, negx bool, dx, ny u128, negy bool, dy u128) (n u128, neg bool, d u128, ok bool) {
	g := gcd128(dx, dy)
	dxg, dyg := dx.quo(g), dy.quo(g)
	a, ok1 := nx.mul(dyg)
	b, ok2 := ny.mul(dxg)
	if !ok1 || !ok2 {
		return u128{}, false, u128{}, false
	}
	var t u128
	switch {
	case negx == negy:
		if t, ok = a.add(b); !ok {
			return u128{}, false, u128{}, false
		}
		neg = negx
	case !a.less(b):
		t, neg = a.sub(b), negx
	default:
		t, neg = b.sub(a), negy
	}
	if t.isZero() {
		return u128{}, false, one128, true
	}
	g2 := one128
	if !g.isOne() {
		g2 = gcd128(t, g)
	}
	d, ok = dxg.mul(dy.quo(g2))
	if !ok {
		return u128{}, false, u128{}, false
	}
	return t.quo(g2), neg, d, true
}

// addBig sets z to x + y, or x - y when sub is set, on apd.BigInt, using s
// for temporaries. z may be x (not y); z's heap storage, if any, must be
// used by nothing else, as it is overwritten or handed to s.
func addBig(z, x, y *Rat, sub bool, s *scratch) {
	dx, dy := x.denom(), y.denom()
	gcd(&s.g, dx, dy, s)
	gOne := isOne(&s.g)
	dxg, dyg := dx, dy
	if !gOne {
		quoExact(&s.p, dx, &s.g, s)
		quoExact(&s.q, dy, &s.g, s)
		dxg, dyg = &s.p, &s.q
	}
	// t = nx*dyg ± ny*dxg, in s.n.
	s.d.Mul(&x.num, dyg)
	s.s.Mul(&y.num, dxg)
	sumTo(&s.n, &s.d, &s.s, sub)
	if s.n.Sign() == 0 {
		*z = Rat{}
		return
	}
	if !gOne {
		gcd(&s.g2, &s.n, &s.g, s)
	}
	if gOne || isOne(&s.g2) {
		s.d.Mul(dxg, dy)
	} else {
		quoExact(&s.s, &s.n, &s.g2, s)
		s.n, s.s = s.s, s.n
		quoExact(&s.q, dy, &s.g2, s)
		s.d.Mul(dxg, &s.q)
	}
	finish(z, s)
}

// addLazy sets z to x + y, or x - y when sub is set, without reducing it:
// (nx*dy ± ny*dx)/(dx*dy), or (nx ± ny)/d over a common denominator d. It
// reports whether z may be out of lowest terms (false only for 0 and a
// denominator of 1), and needs neither operand in lowest terms. z may be x
// (not y), on addBig's terms.
//
// A sum whose denominators share little (1/k added to a partial harmonic
// sum, for each k) spends most of Henrici's method on GCDs and exact
// divisions that remove nothing; one reduction when the parts reach the
// digit limit, or at the end, costs less than one per operation.
func addLazy(z, x, y *Rat, sub bool, s *scratch) bool {
	dx, dy := x.denom(), y.denom()
	if dx.Cmp(dy) == 0 {
		sumTo(&s.n, &x.num, &y.num, sub)
		s.d.Set(dx)
	} else {
		s.d.Mul(&x.num, dy)
		s.s.Mul(&y.num, dx)
		sumTo(&s.n, &s.d, &s.s, sub)
		s.d.Mul(dx, dy)
	}
	if s.n.Sign() == 0 {
		*z = Rat{}
		return false
	}
	finish(z, s)
	return z.den.Sign() != 0
}

// reduce puts x in lowest terms; x's heap storage, if any, must be used by
// nothing else, on finish's terms.
func reduce(x *Rat, s *scratch) {
	if x.den.Sign() == 0 {
		return
	}
	gcd(&s.g, &x.num, &x.den, s)
	if isOne(&s.g) {
		return
	}
	quoExact(&s.n, &x.num, &s.g, s)
	quoExact(&s.d, &x.den, &s.g, s)
	finish(x, s)
}

// sumTo sets z to x + y, or x - y when sub is set.
func sumTo(z, x, y *apd.BigInt, sub bool) {
	if sub {
		z.Sub(x, y)
	} else {
		z.Add(x, y)
	}
}
