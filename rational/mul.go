package rational

import "math/bits"

// Multiplication and division, one function per tier: mulW on words,
// mul128W on double words, mulBig on apd.BigInt. With both operands
// reduced, every tier cross-cancels: for g1 = gcd(nx, dy) and
// g2 = gcd(ny, dx), the product is (nx/g1)*(ny/g2) / ((dx/g2)*(dy/g1)),
// already in lowest terms; the GCDs run on the operands' size. A quotient
// is the product by y's reciprocal: y's numerator and denominator swap.

// mulW is multiplication on words: nx/dx times ny/dy (divided by it when
// quo is set), each negated when its neg is set, both in lowest terms and
// not 0. The product, in lowest terms, is n/d negated when neg; ok is
// false when it does not fit words.
func mulW(nx uint64, negx bool, dx, ny uint64, negy bool, dy uint64, quo bool) (n uint64, neg bool, d uint64, ok bool) {
	if quo {
		ny, dy = dy, ny
	}
	g1, g2 := gcd64(nx, dy), gcd64(ny, dx)
	if g1 != 1 {
		nx, dy = quo64(nx, g1), quo64(dy, g1)
	}
	if g2 != 1 {
		ny, dx = quo64(ny, g2), quo64(dx, g2)
	}
	hn, n := bits.Mul64(nx, ny)
	hd, d := bits.Mul64(dx, dy)
	if hn|hd != 0 {
		return 0, false, 0, false
	}
	return n, negx != negy, d, true
}

// mul128W is mulW on double words.
func mul128W(nx u128, negx bool, dx, ny u128, negy bool, dy u128, quo bool) (n u128, neg bool, d u128, ok bool) {
	if quo {
		ny, dy = dy, ny
	}
	g1, g2 := gcd128(nx, dy), gcd128(ny, dx)
	n, ok1 := nx.quo(g1).mul(ny.quo(g2))
	d, ok2 := dx.quo(g2).mul(dy.quo(g1))
	if !ok1 || !ok2 {
		return u128{}, false, u128{}, false
	}
	return n, negx != negy, d, true
}

// mulBig sets z to x * y, or x / y when quo is set, for x and y not 0, on
// apd.BigInt, using s for temporaries. z may be x (not y); z's heap storage,
// if any, must be used by nothing else, as it is overwritten or handed to s.
func mulBig(z, x, y *Rat, quo bool, s *scratch) {
	nx, dx := &x.num, x.denom()
	ny, dy := &y.num, y.denom()
	if quo {
		ny, dy = dy, ny
	}
	gcd(&s.g, nx, dy, s)
	gcd(&s.g2, ny, dx, s)
	a, b, c, d := nx, ny, dx, dy
	if !isOne(&s.g) {
		quoExact(&s.p, nx, &s.g, s)
		quoExact(&s.q, dy, &s.g, s)
		a, d = &s.p, &s.q
	}
	if !isOne(&s.g2) {
		quoExact(&s.s, ny, &s.g2, s)
		quoExact(&s.g, dx, &s.g2, s) // s.g is no longer needed
		b, c = &s.s, &s.g
	}
	s.n.Mul(a, b)
	s.d.Mul(c, d)
	if s.d.Sign() < 0 { // dividing by a negative number
		s.n.Neg(&s.n)
		s.d.Neg(&s.d)
	}
	finish(z, s)
}
