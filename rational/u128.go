package rational

import (
	"encoding/binary"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// u128 is an unsigned 128-bit integer. Values below 2^128 are what
// apd.BigInt stores inline, and what the 128-bit tier of add, mul and gcd
// computes on without math/big (which would allocate: apd's inline
// arithmetic stops at 64 bits, and math/big's GCD allocates whatever the
// size).
type u128 struct{ hi, lo uint64 }

var one128 = u128{0, 1}

func (a u128) isZero() bool { return a.hi|a.lo == 0 }

func (a u128) isOne() bool { return a.hi == 0 && a.lo == 1 }

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

// sub returns a - b for b <= a.
func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}

// add returns a + b and whether it did not overflow.
func (a u128) add(b u128) (u128, bool) {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, carry := bits.Add64(a.hi, b.hi, carry)
	return u128{hi, lo}, carry == 0
}

// mul returns a * b and whether it did not overflow.
func (a u128) mul(b u128) (u128, bool) {
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
func (a u128) mod64(m uint64) uint64 {
	_, r := bits.Div64(a.hi%m, a.lo, m)
	return r
}

// quoRem returns a / b and a mod b for b > 0.
func (a u128) quoRem(b u128) (q, r u128) {
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

// quo returns a / b for b > 0.
func (a u128) quo(b u128) u128 {
	if b.isOne() {
		return a
	}
	if a.hi == 0 && b.hi == 0 {
		return u128{0, a.lo / b.lo}
	}
	q, _ := a.quoRem(b)
	return q
}

// parts128 returns |b| as a u128 and b's sign when |b| < 2^128.
func parts128(b *apd.BigInt) (v u128, neg bool, ok bool) {
	if lo, neg, ok := parts(b); ok {
		return u128{0, lo}, neg, true
	}
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
