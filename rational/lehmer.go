package rational

import (
	"math/big"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// gcdLehmer sets z to gcd(|a|, |b|) by Lehmer's algorithm (Knuth, TAOCP
// vol. 2, 4.5.2, Algorithm L, with Collins' stopping condition as Jebelean
// gives it), on l's temporaries: math/big's GCD computes the same way but
// allocates its temporaries at every call.
func gcdLehmer(z, a, b *apd.BigInt, l *lehmer) {
	var va, vb big.Int
	va.SetBits(a.Bits()) // views: |a| and |b|, read only
	vb.SetBits(b.Bits())
	l.gcd(&va, &vb)
	z.SetMathBigInt(l.x)
}

// A lehmer holds the temporaries of a GCD, part of a workspace's scratch:
// the remainders x >= y, and the products and scalar of a multiprecision
// step. Its zero value is ready for use.
type lehmer struct {
	x, y, t, u, v, w, k *big.Int // ints, in the roles of the current step
	ints                [7]big.Int
}

// gcd leaves gcd(|a|, |b|) in l.x.
func (l *lehmer) gcd(a, b *big.Int) {
	if l.x == nil {
		l.x, l.y, l.t, l.u, l.v, l.w, l.k = &l.ints[0], &l.ints[1], &l.ints[2], &l.ints[3], &l.ints[4], &l.ints[5], &l.ints[6]
	}
	l.x.Abs(a)
	l.y.Abs(b)
	if l.x.CmpAbs(l.y) < 0 {
		l.x, l.y = l.y, l.x
	}
	for len(l.y.Bits()) > 1 {
		u0, u1, v0, v1, even := lehmerStep(l.x.Bits(), l.y.Bits())
		if v0 == 0 {
			// The leading words decide no quotient: one Euclidean step,
			// x, y = y, x mod y.
			l.t.QuoRem(l.x, l.y, l.u)
			l.x, l.y, l.u = l.y, l.u, l.x
			continue
		}
		// x, y = u0*x + v0*y, u1*x + v1*y, where the cofactors' signs
		// alternate with the steps simulated: for an even count u0 and v1
		// are >= 0 and u1 and v0 <= 0, for an odd one the reverse.
		l.mulWord(l.t, l.x, u0)
		l.mulWord(l.u, l.y, v0)
		l.mulWord(l.v, l.x, u1)
		l.mulWord(l.w, l.y, v1)
		if even {
			l.x.Sub(l.t, l.u)
			l.y.Sub(l.w, l.v)
		} else {
			l.x.Sub(l.u, l.t)
			l.y.Sub(l.v, l.w)
		}
	}
	if ys := l.y.Bits(); len(ys) == 1 {
		l.x.SetUint64(gcd64(modBits(l.x.Bits(), uint64(ys[0])), uint64(ys[0])))
	}
}

// mulWord sets z to x*w; z is neither x nor l.k.
func (l *lehmer) mulWord(z, x *big.Int, w big.Word) {
	l.k.SetUint64(uint64(w))
	z.Mul(x, l.k)
}

// lehmerStep simulates Euclidean steps on the leading word of x >= y (y of
// at least two words), as long as Collins' condition proves each quotient
// the one the whole numbers have. It returns the cofactors of the steps'
// product, as magnitudes, and whether their count is even; v0 = 0 when not
// one step could be proved.
func lehmerStep(x, y []big.Word) (u0, u1, v0, v1 big.Word, even bool) {
	n, m := len(x), len(y)
	s := uint(bits.LeadingZeros(uint(x[n-1])))
	a1 := x[n-1]<<s | x[n-2]>>(bits.UintSize-s)
	// y's leading word, aligned with x's: y may be shorter.
	var a2 big.Word
	switch {
	case n == m:
		a2 = y[n-1]<<s | y[n-2]>>(bits.UintSize-s)
	case n == m+1:
		a2 = y[n-2] >> (bits.UintSize - s)
	}
	var u2, v2 big.Word
	u1, v2 = 1, 1
	for a2 >= v2 && a1-a2 >= v1+v2 {
		q, r := a1/a2, a1%a2
		a1, a2 = a2, r
		u0, u1, u2 = u1, u2, u1+q*u2
		v0, v1, v2 = v1, v2, v1+q*v2
		even = !even
	}
	return u0, u1, v0, v1, even
}
