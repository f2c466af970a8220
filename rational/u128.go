package rational

import (
	"encoding/binary"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// u128 is an unsigned 128-bit integer. Values below 2^128 are what apd.BigInt
// stores inline, and what add and mul compute without math/big (which would
// allocate: apd's inline arithmetic stops at 64 bits, and math/big's GCD
// allocates whatever the size).
type u128 struct{ hi, lo uint64 }

var one128 = u128{0, 1}

func (a u128) isZero() bool { return a.hi|a.lo == 0 }

func (a u128) isOne() bool { return a.hi == 0 && a.lo == 1 }

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}

// add128 returns a + b and whether it did not overflow.
func add128(a, b u128) (u128, bool) {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, carry := bits.Add64(a.hi, b.hi, carry)
	return u128{hi, lo}, carry == 0
}

// mul128 returns a * b and whether it did not overflow.
func mul128(a, b u128) (u128, bool) {
	if a.hi != 0 && b.hi != 0 {
		return u128{}, false
	}
	hi, lo := bits.Mul64(a.lo, b.lo)
	h1, l1 := bits.Mul64(a.hi, b.lo)
	h2, l2 := bits.Mul64(a.lo, b.hi)
	var c1, c2 uint64
	hi, c1 = bits.Add64(hi, l1, 0)
	hi, c2 = bits.Add64(hi, l2, 0)
	return u128{hi, lo}, h1|h2|c1|c2 == 0
}

// mod64 returns a mod m for m > 0.
func mod64(a u128, m uint64) uint64 {
	_, r := bits.Div64(a.hi%m, a.lo, m)
	return r
}

// quoRem128 returns a / b and a mod b for b > 0.
func quoRem128(a, b u128) (q, r u128) {
	if b.hi == 0 {
		var r64 uint64
		if a.hi < b.lo {
			q.lo, r64 = bits.Div64(a.hi, a.lo, b.lo)
		} else {
			q.hi, r64 = bits.Div64(0, a.hi, b.lo)
			q.lo, r64 = bits.Div64(r64, a.lo, b.lo)
		}
		return q, u128{0, r64}
	}
	if a.less(b) {
		return u128{}, a
	}
	// The quotient fits 64 bits. Divide the top of a (shifted right by one,
	// so that the 128-by-64 division cannot overflow) by the top 64 bits of
	// the normalised b: the estimate is the quotient or one more, so one
	// less is the quotient or one less.
	n := uint(bits.LeadingZeros64(b.hi))
	bTop := b.hi<<n | b.lo>>(64-n)
	tq, _ := bits.Div64(a.hi>>1, a.hi<<63|a.lo>>1, bTop)
	tq >>= 63 - n
	if tq != 0 {
		tq--
	}
	// b * tq <= a, so this cannot overflow.
	ph, pl := bits.Mul64(b.lo, tq)
	ph += b.hi * tq
	r = a.sub(u128{ph, pl})
	q = u128{0, tq}
	if !r.less(b) {
		q.lo++
		r = r.sub(b)
	}
	return q, r
}

// quo128 returns a / b for b > 0.
func quo128(a, b u128) u128 {
	if b.isOne() {
		return a
	}
	if a.hi == 0 && b.hi == 0 {
		return u128{0, a.lo / b.lo}
	}
	q, _ := quoRem128(a, b)
	return q
}

// gcd128 returns gcd(a, b); gcd128(0, b) = b.
func gcd128(a, b u128) u128 {
	for {
		if a.hi == 0 && b.hi == 0 {
			return u128{0, gcd64(a.lo, b.lo)}
		}
		switch {
		case a.isZero():
			return b
		case b.isZero():
			return a
		case b.hi == 0:
			return u128{0, gcd64(mod64(a, b.lo), b.lo)}
		case a.hi == 0:
			return u128{0, gcd64(mod64(b, a.lo), a.lo)}
		}
		// Both are at least 2^64: a Euclidean step.
		if a.less(b) {
			a, b = b, a
		}
		_, r := quoRem128(a, b)
		a, b = b, r
	}
}

// parts128 returns |b| as a u128 and b's sign when |b| < 2^128.
func parts128(b *apd.BigInt) (v u128, neg bool, ok bool) {
	if bits.UintSize != 64 {
		return u128{}, false, false
	}
	w := b.Bits()
	switch len(w) {
	case 0:
	case 1:
		v.lo = uint64(w[0])
	case 2:
		v.lo, v.hi = uint64(w[0]), uint64(w[1])
	default:
		return u128{}, false, false
	}
	return v, b.Sign() < 0, true
}

// small128 returns x's parts when both |numerator| and denominator are below
// 2^128.
func (x *Rat) small128() (n u128, neg bool, d u128, ok bool) {
	n, neg, ok = parts128(&x.num)
	if !ok {
		return
	}
	if x.den.Sign() == 0 {
		return n, neg, one128, true
	}
	d, _, ok = parts128(&x.den)
	return n, neg, d, ok
}

// setU128 sets z to v, negated when neg. Values below 2^128 fit apd's inline
// storage, so a z without heap storage stays without.
func setU128(z *apd.BigInt, v u128, neg bool) {
	if v.hi == 0 {
		z.SetUint64(v.lo)
	} else {
		var buf [16]byte
		binary.BigEndian.PutUint64(buf[:8], v.hi)
		binary.BigEndian.PutUint64(buf[8:], v.lo)
		z.SetBytes(buf[:])
	}
	if neg && !v.isZero() {
		z.Neg(z)
	}
}

// rat128 returns the Rat n/d, negated when neg; n/d must be in lowest terms.
func rat128(n u128, neg bool, d u128) Rat {
	var z Rat
	if n.isZero() {
		return z
	}
	setU128(&z.num, n, neg)
	if !d.isOne() {
		setU128(&z.den, d, false)
	}
	return z
}

// add128Rat is add for operands whose parts are below 2^128; ok is false when
// an intermediate or the result does not fit.
func add128Rat(x, y *Rat, sub bool) (Rat, bool) {
	nx, negx, dx, ok := x.small128()
	if !ok {
		return Rat{}, false
	}
	ny, negy, dy, ok := y.small128()
	if !ok {
		return Rat{}, false
	}
	if sub {
		negy = !negy
	}
	g := gcd128(dx, dy)
	dxg, dyg := quo128(dx, g), quo128(dy, g)
	a, ok1 := mul128(nx, dyg)
	b, ok2 := mul128(ny, dxg)
	if !ok1 || !ok2 {
		return Rat{}, false
	}
	var t u128
	var neg bool
	switch {
	case negx == negy:
		if t, ok = add128(a, b); !ok {
			return Rat{}, false
		}
		neg = negx
	case !a.less(b):
		t, neg = a.sub(b), negx
	default:
		t, neg = b.sub(a), negy
	}
	if t.isZero() {
		return Rat{}, true
	}
	g2 := one128
	if !g.isOne() {
		g2 = gcd128(t, g)
	}
	d, ok := mul128(dxg, quo128(dy, g2))
	if !ok {
		return Rat{}, false
	}
	return rat128(quo128(t, g2), neg, d), true
}

// mul128Rat is mul for operands whose parts are below 2^128 (y not 0 when
// quo); ok is false when the result does not fit.
func mul128Rat(x, y *Rat, quo bool) (Rat, bool) {
	nx, negx, dx, ok := x.small128()
	if !ok {
		return Rat{}, false
	}
	ny, negy, dy, ok := y.small128()
	if !ok {
		return Rat{}, false
	}
	if quo {
		ny, dy = dy, ny
	}
	g1, g2 := gcd128(nx, dy), gcd128(ny, dx)
	n, ok1 := mul128(quo128(nx, g1), quo128(ny, g2))
	d, ok2 := mul128(quo128(dx, g2), quo128(dy, g1))
	if !ok1 || !ok2 {
		return Rat{}, false
	}
	return rat128(n, negx != negy, d), true
}
