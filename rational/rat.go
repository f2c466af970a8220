package rational

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// Rat is an exact rational number in lowest terms: the sign is carried by the
// numerator and the denominator is positive. The zero value is 0.
//
// A Rat is an immutable value: every operation returns a new Rat and leaves
// its operands unchanged, so Rats may be copied and shared between goroutines
// freely. Small values (numerator and denominator below 2^128) are stored
// inline; arithmetic on them runs on 64- and 128-bit words and allocates
// only for a result that outgrows 128 bits.
type Rat struct {
	// num and den are never modified after the Rat is built: a copied
	// apd.BigInt shares its heap storage with the original.
	num apd.BigInt
	den apd.BigInt // 0 stands for 1, so that the zero Rat is 0
}

var bigOne = apd.NewBigInt(1)

// NewRat returns num/den reduced to lowest terms. It panics if den is 0, as
// math/big.NewRat does.
func NewRat(num, den int64) Rat {
	if den == 0 {
		panic("rational: NewRat with zero denominator")
	}
	var n, d apd.BigInt
	n.SetInt64(num)
	d.SetInt64(den)
	return makeRat(&n, &d)
}

// makeRat returns n/d in lowest terms; d must not be zero. n and d are only
// read.
func makeRat(n, d *apd.BigInt) Rat {
	var z Rat
	if n.Sign() == 0 {
		return z
	}
	neg := (n.Sign() < 0) != (d.Sign() < 0)
	var an, ad, g apd.BigInt
	an.Abs(n)
	ad.Abs(d)
	gcd(&g, &an, &ad)
	if g.Cmp(bigOne) == 0 {
		z.num.Set(&an)
		z.den.Set(&ad)
	} else {
		z.num.Quo(&an, &g)
		z.den.Quo(&ad, &g)
	}
	if neg {
		z.num.Neg(&z.num)
	}
	return z
}

func (x *Rat) denom() *apd.BigInt {
	if x.den.Sign() == 0 {
		return bigOne
	}
	return &x.den
}

// Num returns a copy of x's numerator, which carries x's sign.
func (x Rat) Num() *apd.BigInt { return new(apd.BigInt).Set(&x.num) }

// Denom returns a copy of x's denominator, which is at least 1.
func (x Rat) Denom() *apd.BigInt { return new(apd.BigInt).Set(x.denom()) }

// Sign returns -1, 0 or +1 as x is negative, zero or positive.
func (x Rat) Sign() int { return x.num.Sign() }

// IsInt reports whether x is an integer (its denominator is 1).
func (x Rat) IsInt() bool { return x.denom().Cmp(bigOne) == 0 }

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Rat) Cmp(y Rat) int {
	if sx, sy := x.Sign(), y.Sign(); sx != sy || sx == 0 {
		return cmpInt(sx, sy)
	}
	if x.IsInt() && y.IsInt() {
		return x.num.Cmp(&y.num)
	}
	// Cross-multiply: x.num*y.den against y.num*x.den.
	var a, b apd.BigInt
	a.Mul(&x.num, y.denom())
	b.Mul(&y.num, x.denom())
	return a.Cmp(&b)
}

// Equal reports whether x and y are the same number.
func (x Rat) Equal(y Rat) bool {
	return x.num.Cmp(&y.num) == 0 && x.denom().Cmp(y.denom()) == 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Neg returns -x.
func (x Rat) Neg() Rat {
	var z Rat
	if x.Sign() == 0 {
		// apd.BigInt.Neg of an inline 0 would yield a "negative zero".
		return z
	}
	z.num.Neg(&x.num)
	z.den.Set(x.denom())
	return z
}

// Add returns x + y.
func (x Rat) Add(y Rat) Rat { return add(&x, &y, false) }

// Sub returns x - y.
func (x Rat) Sub(y Rat) Rat { return add(&x, &y, true) }

// Mul returns x * y.
func (x Rat) Mul(y Rat) Rat { return mul(&x, &y, false) }

// Quo returns x / y. It panics if y is 0, as math/big.Rat.Quo does.
func (x Rat) Quo(y Rat) Rat {
	if y.Sign() == 0 {
		panic("rational: division by zero")
	}
	return mul(&x, &y, true)
}

// String returns the canonical form of x: "0", "n", "-n", "n/d" or "-n/d",
// with n and d in lowest terms and d > 1.
func (x Rat) String() string {
	var buf [48]byte
	return string(x.Append(buf[:0]))
}

// Append appends the canonical form of x (see [Rat.String]) to dst.
func (x Rat) Append(dst []byte) []byte {
	dst = x.num.Append(dst, 10)
	if d := x.denom(); d.Cmp(bigOne) != 0 {
		dst = append(dst, '/')
		dst = d.Append(dst, 10)
	}
	return dst
}

// MarshalText returns the canonical form of x (see [Rat.String]).
func (x Rat) MarshalText() ([]byte, error) { return x.Append(nil), nil }

// BigRat returns x as a new math/big.Rat.
func (x Rat) BigRat() *big.Rat {
	return new(big.Rat).SetFrac(x.num.MathBigInt(), x.denom().MathBigInt())
}

// parts returns |b| as a uint64 and b's sign when |b| < 2^64.
func parts(b *apd.BigInt) (v uint64, neg bool, ok bool) {
	if b.Sign() >= 0 {
		if b.IsUint64() {
			return b.Uint64(), false, true
		}
		return 0, false, false
	}
	if b.IsInt64() {
		// For math.MinInt64 the negation wraps to itself, whose uint64 is 2^63.
		return uint64(-b.Int64()), true, true
	}
	return 0, false, false
}

// small returns x's parts when both |numerator| and denominator fit a uint64.
func (x *Rat) small() (n uint64, neg bool, d uint64, ok bool) {
	n, neg, ok = parts(&x.num)
	if !ok {
		return 0, false, 0, false
	}
	if x.den.Sign() == 0 {
		return n, neg, 1, true
	}
	if !x.den.IsUint64() {
		return 0, false, 0, false
	}
	return n, neg, x.den.Uint64(), true
}

func smallRat(n uint64, neg bool, d uint64) Rat {
	var z Rat
	if n == 0 {
		return z
	}
	z.num.SetUint64(n)
	if neg {
		z.num.Neg(&z.num)
	}
	if d != 1 {
		z.den.SetUint64(d)
	}
	return z
}

// gcd64 is the binary GCD; gcd64(0, b) = b.
func gcd64(a, b uint64) uint64 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << shift
}

// gcd sets z to gcd(|a|, |b|). apd delegates GCD to math/big, which
// allocates whatever the size, so values below 2^128, and a large value
// against one below 2^64 (a remainder by one word, then the binary GCD), are
// done here.
func gcd(z, a, b *apd.BigInt) {
	if av, _, ok := parts128(a); ok {
		if bv, _, ok := parts128(b); ok {
			setU128(z, gcd128(av, bv), false)
			return
		}
		if av.hi == 0 && av.lo != 0 {
			z.SetUint64(gcd64(modWord(b, av.lo), av.lo))
			return
		}
	} else if bv, _, ok := parts128(b); ok && bv.hi == 0 && bv.lo != 0 {
		z.SetUint64(gcd64(modWord(a, bv.lo), bv.lo))
		return
	}
	z.GCD(nil, nil, a, b)
}

// modWord returns |a| mod m for m > 0, on 64-bit words.
func modWord(a *apd.BigInt, m uint64) uint64 {
	w := a.Bits()
	var r uint64
	for i := len(w) - 1; i >= 0; i-- {
		_, r = bits.Div64(r, uint64(w[i]), m)
	}
	return r
}

// scratch holds the temporaries of the big-number paths of add and mul. An
// evaluation reuses one scratch for all its operations, so that their heap
// storage grows once. No value in a scratch is ever part of a Rat outside it:
// results are swapped out of n and d into a destination whose previous
// storage is dead, and that storage is what the scratch keeps.
type scratch struct {
	g, g2, p, q, r, s, n, d apd.BigInt
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// isOne reports whether b is 1.
func isOne(b *apd.BigInt) bool {
	v, neg, ok := parts(b)
	return ok && !neg && v == 1
}

// quoExact sets z to x/y, using s.r for the remainder (math/big's Quo
// allocates one for divisors of more than one word).
func quoExact(z, x, y *apd.BigInt, s *scratch) {
	z.QuoRem(x, y, &s.r)
}

// finish moves the result s.n/s.d, with s.d > 0, into z, whose previous
// storage is dead and goes to s.
func finish(z *Rat, s *scratch) {
	z.num, s.n = s.n, z.num
	if isOne(&s.d) {
		z.den = apd.BigInt{}
		return
	}
	z.den, s.d = s.d, z.den
}

// add returns x + y, or x - y when sub is set. With both operands reduced, the
// sum is reduced with Henrici's method: for g = gcd(dx, dy) and
// t = nx*(dy/g) + ny*(dx/g), the result is (t/g2) / ((dx/g)*(dy/g2)) with
// g2 = gcd(t, g); the GCDs run on the operands' size, not the product's.
func add(x, y *Rat, sub bool) Rat {
	if z, ok := addFast(x, y, sub); ok {
		return z
	}
	var z Rat
	var s scratch
	addBig(&z, x, y, sub, &s)
	return z
}

// addFast is add for operands whose parts are below 2^64, then 2^128; ok is
// false when they or the result do not fit.
func addFast(x, y *Rat, sub bool) (Rat, bool) {
	if nx, negx, dx, ok := x.small(); ok {
		if ny, negy, dy, ok := y.small(); ok {
			if sub && ny != 0 {
				negy = !negy
			}
			if z, ok := addSmall(nx, negx, dx, ny, negy, dy); ok {
				return z, true
			}
		}
	}
	return add128Rat(x, y, sub)
}

// addBig sets z to x + y, or x - y when sub is set, using s for
// temporaries. z may be x (not y); z's heap storage, if any, must be used by
// nothing else, as it is overwritten or handed to s.
func addBig(z, x, y *Rat, sub bool, s *scratch) {
	dx, dy := x.denom(), y.denom()
	gcd(&s.g, dx, dy)
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
	if sub {
		s.n.Sub(&s.d, &s.s)
	} else {
		s.n.Add(&s.d, &s.s)
	}
	if s.n.Sign() == 0 {
		*z = Rat{}
		return
	}
	if !gOne {
		gcd(&s.g2, &s.n, &s.g)
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

func addSmall(nx uint64, negx bool, dx uint64, ny uint64, negy bool, dy uint64) (Rat, bool) {
	g := gcd64(dx, dy)
	dxg, dyg := dx/g, dy/g
	ha, a := bits.Mul64(nx, dyg)
	hb, b := bits.Mul64(ny, dxg)
	if ha|hb != 0 {
		return Rat{}, false
	}
	var t uint64
	var neg bool
	switch {
	case negx == negy:
		var carry uint64
		t, carry = bits.Add64(a, b, 0)
		if carry != 0 {
			return Rat{}, false
		}
		neg = negx
	case a >= b:
		t, neg = a-b, negx
	default:
		t, neg = b-a, negy
	}
	if t == 0 {
		return Rat{}, true
	}
	g2 := gcd64(t, g)
	hd, d := bits.Mul64(dxg, dy/g2)
	if hd != 0 {
		return Rat{}, false
	}
	return smallRat(t/g2, neg, d), true
}

// mul returns x * y, or x / y when quo is set (y must not be 0). The
// cross-cancelled form (nx/g1)*(ny/g2) / ((dx/g2)*(dy/g1)), g1 = gcd(nx, dy),
// g2 = gcd(ny, dx), is already reduced, and its GCDs run on the operands.
func mul(x, y *Rat, quo bool) Rat {
	if z, ok := mulFast(x, y, quo); ok {
		return z
	}
	var z Rat
	var s scratch
	mulBig(&z, x, y, quo, &s)
	return z
}

// mulFast is mul for a zero operand and for operands whose parts are below
// 2^64, then 2^128; ok is false when they or the result do not fit.
func mulFast(x, y *Rat, quo bool) (Rat, bool) {
	if x.Sign() == 0 || y.Sign() == 0 {
		return Rat{}, true
	}
	if nx, negx, dx, ok := x.small(); ok {
		if ny, negy, dy, ok := y.small(); ok {
			if quo {
				ny, dy = dy, ny
			}
			g1, g2 := gcd64(nx, dy), gcd64(ny, dx)
			hn, n := bits.Mul64(nx/g1, ny/g2)
			hd, d := bits.Mul64(dx/g2, dy/g1)
			if hn|hd == 0 {
				return smallRat(n, negx != negy, d), true
			}
		}
	}
	return mul128Rat(x, y, quo)
}

// mulBig sets z to x * y, or x / y when quo is set, for x and y not 0, using
// s for temporaries. z may be x (not y); z's heap storage, if any, must be
// used by nothing else, as it is overwritten or handed to s.
func mulBig(z, x, y *Rat, quo bool, s *scratch) {
	nx, dx := &x.num, x.denom()
	ny, dy := &y.num, y.denom()
	if quo {
		ny, dy = dy, ny
	}
	gcd(&s.g, nx, dy)
	gcd(&s.g2, ny, dx)
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

// log2(10) lies strictly between these two fractions; they let most digit
// counts be decided from the bit length alone.
const (
	log2TenBelow = 33219 // / 10000
	log2TenAbove = 33220 // / 10000
)

// overDigits reports whether |b| has more than n decimal digits, that is
// |b| >= 10^n, without formatting b.
func overDigits(b *apd.BigInt, n int) bool {
	bl := b.BitLen()
	// |b| < 2^bl <= 2^(n*log2TenBelow/10000) < 10^n.
	if int64(bl) <= int64(n)*log2TenBelow/10000 {
		return false
	}
	// |b| >= 2^(bl-1) >= 2^(n*log2TenAbove/10000) > 10^n.
	if int64(bl-1) >= (int64(n)*log2TenAbove+9999)/10000 {
		return true
	}
	return b.CmpAbs(pow10(n)) >= 0
}

var (
	pow10Mu    sync.Mutex
	pow10Cache = map[int]*apd.BigInt{}
)

// pow10 returns 10^n from a cache; the returned value is shared and must
// only be read.
func pow10(n int) *apd.BigInt {
	pow10Mu.Lock()
	defer pow10Mu.Unlock()
	if p, ok := pow10Cache[n]; ok {
		return p
	}
	var ten, e apd.BigInt
	ten.SetInt64(10)
	e.SetInt64(int64(n))
	p := new(apd.BigInt).Exp(&ten, &e, nil)
	pow10Cache[n] = p
	return p
}

// ratOver reports whether x's numerator or denominator has more than n digits.
func ratOver(x *Rat, n int) bool {
	return overDigits(&x.num, n) || overDigits(x.denom(), n)
}

// inline reports whether x has no heap storage, which copies of x would
// share. (A value below 2^128 may still have some: apd keeps the heap
// storage a value once needed.)
func (x *Rat) inline() bool {
	return x.num.Size() == inlineSize && x.den.Size() == inlineSize
}

var inlineSize = new(apd.BigInt).Size()

// release returns s, if not nil, to the pool.
func (s *scratch) release() {
	if s != nil {
		scratchPool.Put(s)
	}
}
