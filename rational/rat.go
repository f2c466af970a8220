package rational

import (
	"math/big"
	"math/bits"
	"sync/atomic"

	"github.com/cockroachdb/apd/v3"
)

// Rat is an exact rational number in lowest terms, the type of the values
// of a [Result]: the sign is carried by the numerator and the denominator is
// positive. The zero value is 0.
//
// A Rat is an immutable value: Rats may be copied and shared between
// goroutines freely.
type Rat struct {
	// num and den are never modified after the Rat is built: a copied
	// apd.BigInt shares its heap storage with the original.
	num apd.BigInt
	den apd.BigInt // 0 stands for 1, so that the zero Rat is 0
}

// Sign returns -1, 0 or +1 as x is negative, zero or positive.
func (x Rat) Sign() int { return x.num.Sign() }

// String returns the canonical form of x: "0", "n", "-n", "n/d" or "-n/d",
// with n and d in lowest terms and d > 1.
func (x Rat) String() string {
	var buf [48]byte
	return string(x.appendText(buf[:0]))
}

// MarshalText returns the canonical form of x, as [Rat.String].
func (x Rat) MarshalText() ([]byte, error) { return x.appendText(nil), nil }

// BigRat returns x as a new math/big.Rat.
func (x Rat) BigRat() *big.Rat {
	return new(big.Rat).SetFrac(x.num.MathBigInt(), x.denom().MathBigInt())
}

// appendText appends the canonical form of x to dst.
func (x *Rat) appendText(dst []byte) []byte {
	dst = x.num.Append(dst, 10)
	if d := x.denom(); !isOne(d) {
		dst = append(dst, '/')
		dst = d.Append(dst, 10)
	}
	return dst
}

var bigOne = apd.NewBigInt(1)

func (x *Rat) denom() *apd.BigInt {
	if x.den.Sign() == 0 {
		return bigOne
	}
	return &x.den
}

// equal reports whether x and y are the same number.
func (x *Rat) equal(y *Rat) bool {
	return x.num.Cmp(&y.num) == 0 && x.denom().Cmp(y.denom()) == 0
}

// neg returns -x.
func (x *Rat) neg() Rat {
	var z Rat
	if x.Sign() == 0 {
		// apd.BigInt.Neg of an inline 0 would yield a "negative zero".
		return z
	}
	z.num.Neg(&x.num)
	z.den.Set(x.denom())
	return z
}

// Arithmetic runs on three tiers: numerators and denominators below 2^64 on
// words, below 2^128 on double words (apd.BigInt stores those inline, so
// neither tier allocates), and apd.BigInt for the rest, whose GCDs run
// Lehmer's algorithm on the workspace's temporaries (lehmer.go). Past the
// word tiers the evaluator leaves sums out of lowest terms (addLazy),
// reducing them only where the digit limit or a product needs it and at
// the end. Each operation (add.go, mul.go, gcd.go) is written once per
// tier; wordOp chooses the word tier, and a result that does not fit the
// word tiers is computed on apd.BigInt. The evaluator (machine.apply,
// applyWords, applyBig in expr.go) keeps values of the word tiers,
// literals included, in words on its stack and calls wordOp on them
// directly (its fast path addW and mulW), building an apd.BigInt only for
// a value past them.
//
// A tier stays only where BenchmarkTiers shows that turning it off costs
// at least 10% more time or more allocations on some case;
// docs/performance.md has the measurements.

type tierSet uint8

const (
	tier64      tierSet = 1 << iota // addW, mulW
	tier128                         // add128W, mul128W, gcd128
	tierLazySum                     // sums past the word tiers left unreduced (machine.applyBig)
)

// tiers are the paths in use before apd.BigInt's. It is a variable only so
// that the tests can check each path alone and BenchmarkTiers can measure
// it against the others; the package never changes it.
var tiers = tier64 | tier128 | tierLazySum

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

// parts64 returns x's parts when both |numerator| and denominator are below
// 2^64.
func (x *Rat) parts64() (n uint64, neg bool, d uint64, ok bool) {
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

// rat64 returns the Rat n/d, negated when neg; n/d must be in lowest terms.
func rat64(n uint64, neg bool, d uint64) Rat {
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

// parts128 returns x's parts when both |numerator| and denominator are below
// 2^128.
func (x *Rat) parts128() (n u128, neg bool, d u128, ok bool) {
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

// isOne reports whether b is 1.
func isOne(b *apd.BigInt) bool {
	v, neg, ok := parts(b)
	return ok && !neg && v == 1
}

// scratch holds the temporaries of arithmetic past the word tiers (addBig,
// mulBig, reduce, gcd). A check reuses one scratch for all its operations,
// and the workspace pool reuses it across checks, so that their heap
// storage grows once. No value in a scratch is ever part of a Rat outside
// it: results are swapped out of n and d into a destination whose previous
// storage is dead, and that storage is what the scratch keeps.
type scratch struct {
	g, g2, p, q, r, s, n, d apd.BigInt
	lehmer                  lehmer
	word                    [4]big.Word
	wordInt                 big.Int // keepSet's, on word

	// The Rats of the evaluation stack's operands (see machine), reused
	// across evaluations.
	rats []Rat
}

// words returns the most words any of s's big temporaries has room for.
func (s *scratch) words() int {
	n := 0
	for _, b := range [...]*apd.BigInt{&s.g, &s.g2, &s.p, &s.q, &s.r, &s.s, &s.n, &s.d} {
		n = max(n, cap(b.Bits()))
	}
	for i := range s.lehmer.ints {
		n = max(n, cap(s.lehmer.ints[i].Bits()))
	}
	return n
}

// wordsOf returns the words of a number of n decimal digits, at most.
func wordsOf(n int) int { return int(int64(n)*log2TenAbove/10000/bits.UintSize) + 1 }

// arith returns x op y, for x and y in lowest terms and y not 0 for opQuo:
// on the word tiers when they hold the operands and the result, else on
// apd.BigInt with s's temporaries.
func arith(op opcode, x, y *Rat, s *scratch) Rat {
	var xw, yw slot
	if xw.setRat(x) && yw.setRat(y) {
		if n, neg, d, ok := wordOp(op, &xw, &yw); ok {
			return rat128(n, neg, d)
		}
	}
	var z Rat
	switch {
	case op <= opSub:
		addBig(&z, x, y, op == opSub, s)
	case x.Sign() != 0 && y.Sign() != 0:
		mulBig(&z, x, y, op == opQuo, s)
	}
	return z
}

// wordOp is x op y on the word tiers in use, for small x and y (y not 0
// for opQuo): on words when their parts and every intermediate are below
// 2^64, else on double words. ok is false when the result does not fit the
// tiers in use.
func wordOp(op opcode, x, y *slot) (n u128, neg bool, d u128, ok bool) {
	if op >= opMul && (x.n.isZero() || y.n.isZero()) {
		return u128{}, false, one128, true
	}
	if tiers&tier64 != 0 && x.n.hi|x.d.hi|y.n.hi|y.d.hi == 0 {
		var n64, d64 uint64
		if op <= opSub {
			n64, neg, d64, ok = addW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg != (op == opSub), y.d.lo)
		} else {
			n64, neg, d64, ok = mulW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg, y.d.lo, op == opQuo)
		}
		if ok {
			return u128{0, n64}, neg, u128{0, d64}, true
		}
	}
	switch {
	case tiers&tier128 == 0:
		return u128{}, false, u128{}, false
	case op <= opSub:
		return add128W(x.n, x.neg, x.d, y.n, y.neg != (op == opSub), y.d)
	}
	return mul128W(x.n, x.neg, x.d, y.n, y.neg, y.d, op == opQuo)
}

// quoExact sets z to x/y, which is exact. A divisor of one word leaves a
// remainder of one word, which a BigInt of this frame holds inline; for a
// larger one the remainder goes to s.r (math/big's Quo would allocate one).
func quoExact(z, x, y *apd.BigInt, s *scratch) {
	if len(y.Bits()) <= 1 {
		var r apd.BigInt
		z.QuoRem(x, y, &r)
		return
	}
	if s.r.Size() == inlineSize {
		// The remainder of an exact division is 0, which apd stores inline,
		// dropping the words math/big made for it, unless the BigInt is on
		// the heap already: there it stays, and so do its words, unless one
		// of apd's word-sized paths moves it inline (they all do; Sub of a
		// value past a word from itself does not).
		s.r.Lsh(bigOne, 3*64)
		s.r.Sub(&s.r, &s.r)
	}
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

// inline reports whether x has no heap storage, which copies of x would
// share. (A value below 2^128 may still have some: apd keeps the heap
// storage a value once needed.)
func (x *Rat) inline() bool {
	return x.num.Size() == inlineSize && x.den.Size() == inlineSize
}

var inlineSize = new(apd.BigInt).Size()

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

// lastPow10 is the power of ten pow10 computed last: the checks of a
// process nearly always ask for the one digit limit they share.
var lastPow10 atomic.Pointer[pow10Entry]

type pow10Entry struct {
	n int
	p *apd.BigInt // 10^n, shared: only read
}

// pow10 returns 10^n, shared: the caller must only read it.
func pow10(n int) *apd.BigInt {
	if e := lastPow10.Load(); e != nil && e.n == n {
		return e.p
	}
	var ten, exp apd.BigInt
	ten.SetInt64(10)
	exp.SetInt64(int64(n))
	e := &pow10Entry{n, new(apd.BigInt).Exp(&ten, &exp, nil)}
	lastPow10.Store(e)
	return e.p
}

// ratOver reports whether x's numerator or denominator has more than n digits.
func ratOver(x *Rat, n int) bool {
	return overDigits(&x.num, n) || overDigits(x.denom(), n)
}
