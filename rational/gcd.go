package rational

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// The greatest common divisor, one function per tier: gcd128 on double
// words (on gcd64, the binary GCD, once both fit one word), and Lehmer's
// algorithm (lehmer.go) for the rest, which ends, once an operand fits a
// word, with one remainder by the word and gcd64.

// gcd sets z to gcd(|a|, |b|), gcd(0, b) = |b|, using s for temporaries.
// Operands below 2^128 take the word tier, which needs none. z keeps its
// heap storage, if it has some (see keepSet).
func gcd(z, a, b *apd.BigInt, s *scratch) {
	if tiers&tier128 != 0 {
		if av, _, ok := parts128(a); ok {
			if bv, _, ok := parts128(b); ok {
				keepSet(z, gcd128(av, bv), s)
				return
			}
		}
	}
	gcdLehmer(z, a, b, &s.lehmer)
}

// keepSet sets z to v, through s's word buffer. z keeps its heap storage,
// if it has some: apd's word setters move a value inline and drop the
// storage, which the next GCD past the word tiers into z (the scratch's g
// or g2) would allocate again.
func keepSet(z *apd.BigInt, v u128, s *scratch) {
	if z.Size() == inlineSize {
		setU128(z, v, false)
		return
	}
	w := &s.word
	n := 128 / bits.UintSize
	if n == 2 {
		w[0], w[1] = big.Word(v.lo), big.Word(v.hi)
	} else {
		w[0], w[1], w[2], w[3] = big.Word(v.lo), big.Word(v.lo>>32), big.Word(v.hi), big.Word(v.hi>>32)
	}
	for n > 0 && w[n-1] == 0 {
		n--
	}
	s.wordInt.SetBits(w[:n])
	z.SetMathBigInt(&s.wordInt)
}

// gcd64 is the binary GCD; gcd64(0, b) = b. Its loop takes a step per bit
// by which one operand exceeds the other: where that can be many bits, a
// caller takes one hardware division first (shrink). gcd64 stays small
// enough to be inlined.

// shrink returns a mod b, which has the same GCD with b as a, when a is 12
// bits or more longer than b > 0, else a: past that, one division costs
// less than gcd64's steps.
func shrink(a, b uint64) uint64 {
	if a>>12 >= b {
		return a % b
	}
	return a
}

func gcd64(a, b uint64) uint64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	case a == 1 || b == 1:
		// The loop would take a step per bit of the other operand.
		return 1
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		// min and max compile to conditional moves: no branch to mispredict.
		a, b = min(a, b), max(a, b)-min(a, b)
	}
	return a << shift
}

// quo64 returns a/b for b > 0, by a 32-bit division when both operands fit
// one, which many x86 cores do several times faster.
func quo64(a, b uint64) uint64 {
	if a|b <= math.MaxUint32 {
		return uint64(uint32(a) / uint32(b))
	}
	return a / b
}

// gcd128 returns gcd(a, b); gcd128(0, b) = b.
func gcd128(a, b u128) u128 {
	for {
		if a.hi == 0 && b.hi == 0 {
			if x, y := max(a.lo, b.lo), min(a.lo, b.lo); y != 0 {
				return u128{0, gcd64(shrink(x, y), y)}
			}
			return u128{0, a.lo | b.lo}
		}
		switch {
		case a.isZero():
			return b
		case b.isZero():
			return a
		case b.hi == 0:
			return u128{0, gcd64(a.mod64(b.lo), b.lo)}
		case a.hi == 0:
			return u128{0, gcd64(b.mod64(a.lo), a.lo)}
		}
		// Both are at least 2^64: a Euclidean step.
		if a.less(b) {
			a, b = b, a
		}
		_, r := a.quoRem(b)
		a, b = b, r
	}
}

// modWord returns |a| mod m for m > 0.
func modWord(a *apd.BigInt, m uint64) uint64 { return modBits(a.Bits(), m) }

// modBits returns the number whose little-endian words are w, mod m > 0.
func modBits(w []big.Word, m uint64) uint64 {
	var r uint64
	for i := len(w) - 1; i >= 0; i-- {
		// r*2^UintSize + w[i] as a 128-bit dividend, whose high word is
		// below m.
		if bits.UintSize == 64 {
			_, r = bits.Div64(r, uint64(w[i]), m)
		} else {
			_, r = bits.Div64(r>>32, r<<32|uint64(w[i]), m)
		}
	}
	return r
}
