package jsonwire

import (
	"math"
	"math/bits"
)

// A Number is what ParseNumber reads from a literal: its length and its value
// as (-1)^Neg × Mant × 10^Exp.
type Number struct {
	// Len is the literal's length in bytes.
	Len int
	// Neg: the literal starts with '-'.
	Neg bool
	// Mant holds the significant digits (those after any leading zeros) of
	// the integer and fraction parts, as an integer; it is exact only when
	// Digits <= 19, and wraps past that.
	Mant uint64
	// Digits is how many significant digits Mant holds.
	Digits int
	// Exp is the decimal exponent: the written one less the number of
	// fraction digits, clamped at ±10^9 (with at most 19 significant
	// digits the value is then 0 or beyond every double; past 19, Mant has
	// wrapped and the value is not Mant × 10^Exp anyway).
	Exp int
}

// maxExp is where ParseNumber clamps Exp's magnitude. The written exponent
// is read in 64 bits up to maxWrittenExp, which no fraction written in
// memory can bring back within maxExp.
const (
	maxExp        = 1_000_000_000
	maxWrittenExp = 100_000_000_000_000_000
)

// ParseNumber reads the number literal at the start of s, in one pass:
// where it ends, and its digits. It returns the longest grammatical prefix
// as a Number and OK, or, with the fault, a Number whose Len is the offset
// of the first byte that breaks the grammar. What follows a grammatical
// prefix is not looked at: ParseNumber("1x") has Len 1 and OK, and
// ParseNumber("01") too (a leading zero ends the integer part); a caller
// that wants all of s to be a number compares Len with len(s), as
// [ValidNumber] does.
func ParseNumber(s string) (Number, Fault) {
	i := 0
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	var m uint64
	nd := 0
	switch {
	case i < len(s) && s[i] == '0':
		i++ // no significant digit
	case i < len(s) && s[i]-'1' < 9:
		j := i
		m, i = Digits(s, i, 0)
		nd = i - j
	default:
		return Number{Len: i}, NoInt
	}
	e := 0
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i]-'0' >= 10 {
			return Number{Len: i}, NoFracDigit
		}
		j := i
		if nd == 0 {
			for i < len(s) && s[i] == '0' { // leading zeros of 0.00…
				i++
			}
		}
		k := i
		m, i = Digits(s, i, m)
		nd += i - k
		e = j - i
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i >= len(s) || s[i]-'0' >= 10 {
			return Number{Len: i}, NoExpDigit
		}
		// In 64 bits, and clamped after the fraction's digits are taken
		// off: a fraction's leading zeros can bring a written exponent
		// past maxExp back (0.001e1000000001 is 10^999999998), and an
		// int of 32 bits would wrap (1e4294967300 to 1e4).
		var x int64
		for ; i < len(s) && s[i]-'0' < 10; i++ {
			if x < maxWrittenExp {
				x = x*10 + int64(s[i]-'0')
			}
		}
		if eneg {
			x = -x
		}
		e = int(min(max(int64(e)+x, -maxExp), maxExp))
	}
	return Number{Len: i, Neg: neg, Mant: m, Digits: nd, Exp: e}, OK
}

// Digits reads the run of ASCII digits at s[i:], returning m × 10^k plus
// the run's value (k its length) and the index after the run. The sum wraps
// past 2^64: a caller that needs it exact reads at most 19 digits into a
// zero m, as len(run) tells. It reads eight digits at a time while eight
// bytes remain.
func Digits(s string, i int, m uint64) (uint64, int) {
	for ; i+8 <= len(s); i += 8 {
		x := LE64(s[i:])
		k := 8
		if nd := nonDigits(x); nd != 0 {
			k = bits.TrailingZeros64(nd) >> 3
		}
		if k > 0 {
			// The digits' values, the first in the high byte after the shift
			// (the zeros shifted in are leading zeros).
			m = m*pow10[k] + eightDigits((x-0x3030303030303030)<<(64-8*k))
		}
		if k < 8 {
			return m, i + k
		}
	}
	for ; i < len(s) && s[i]-'0' < 10; i++ {
		m = m*10 + uint64(s[i]-'0')
	}
	return m, i
}

var pow10 = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// eightDigits returns the value of the eight decimal digits in the bytes
// of v, one digit (0-9) per byte, the most significant in the low byte: in
// three steps of pairing neighbours (SWAR, as in fast_float).
func eightDigits(v uint64) uint64 {
	const (
		mask = 0x000000ff000000ff
		mul1 = 100 + 1000000<<32
		mul2 = 1 + 10000<<32
	)
	v = v*10 + v>>8 // each even byte: two digits
	return uint64(uint32((v&mask*mul1 + (v>>16)&mask*mul2) >> 32))
}

// nonDigits returns x with the high bit of each byte set where that byte
// of x (little-endian) is not an ASCII digit, and every other bit clear.
// No sum carries out of its byte: the bytes are masked to 7 bits first.
func nonDigits(x uint64) uint64 {
	const (
		high = 0x8080808080808080
		low7 = 0x7f7f7f7f7f7f7f7f
	)
	y := x & low7
	atLeast0 := (y + 0x5050505050505050) & high // y >= 0x30
	above9 := (y + 0x4646464646464646) & high   // y >= 0x3a
	return (x & high) | (high &^ atLeast0) | above9
}

// WordInt reads the run of digits at the start of the word x (eight bytes
// of a text, little-endian, as [LE64] loads them): it returns the run's
// length k, 8 when all eight bytes are digits, and, when 0 < k < 8, the
// run's value (unspecified otherwise). Small enough to be inlined, it lets a
// reader take an integer of up to seven digits without a call; whether the
// run is a literal (no leading zero, nothing of a literal after it) is the
// caller's to check, as [Short] does.
func WordInt(x uint64) (k int, v uint64) {
	k = firstNonDigit(x)
	return k, eightDigits((x - 0x3030303030303030) << ((64 - 8*k) & 63))
}

// firstNonDigit returns the index of the first byte of x (little-endian)
// that is not an ASCII digit, or 8. A byte is a digit exactly when its high
// nibble is 3 and that of the byte plus 6 is 3 too; the sum carries into the
// next byte only from a byte of at least 0xfa, no digit, so the first
// non-digit is found exactly (the bytes after it may be misjudged).
func firstNonDigit(x uint64) int {
	const f0 = 0xf0f0f0f0f0f0f0f0
	y := x&f0 | (x+0x0606060606060606)&f0>>4
	return bits.TrailingZeros64(y^0x3333333333333333) >> 3
}

// ValidNumber reports whether all of s is one number literal.
func ValidNumber(s string) bool {
	n, f := ParseNumber(s)
	return f == OK && n.Len == len(s)
}

// Short reads the commonest number literals at the start of s, those of
// the form -?(0|[1-9][0-9]*)(\.[0-9]+)? whose digits (all of them, a zero
// before the point and leading zeros of the fraction too) are at most 19
// and make an integer of at most 2^53, and returns the literal's length and
// value; for any other literal (more digits, an exponent, not grammatical)
// it returns 0, and the caller uses ParseNumber. When it accepts, the byte
// after the literal is none of [0-9.eE], so ParseNumber would end the
// literal at the same place, and the value is [Number.Float]'s (Clinger's
// fast path: the integer and the power of ten, at most 10^19, are doubles,
// and one correctly rounded division gives the nearest double), except that
// "-0" and its like read as 0, not -0. It reads the digits eight at a time
// ([Digits]).
func Short(s string) (n int, f float64) {
	// The commonest literals, at most seven digits before the point and
	// seven after, are read a word each, branching only on what ends them;
	// fourteen digits make an integer below 2^53, so no check of the value
	// is needed. Anything else, or fewer than 17 bytes left, takes the
	// general loop.
	if len(s) < 17 {
		return shortRuns(s)
	}
	i := 0
	neg := s[0] == '-'
	if neg {
		i = 1
	}
	k, m := WordInt(LE64(s[i:]))
	if k == 0 || k == 8 || k > 1 && s[i] == '0' {
		return shortRuns(s) // no digit, or eight, or a leading zero
	}
	i += k
	if s[i] == '.' {
		k, v := WordInt(LE64(s[i+1:]))
		if k == 0 || k == 8 {
			return shortRuns(s)
		}
		f = Decimal(m, k, v)
		i += 1 + k
	} else {
		f = float64(int64(m))
	}
	if c := s[i]; c == '.' || c|0x20 == 'e' {
		return 0, 0
	}
	if neg {
		f = 0 - f // -0 reads as 0
	}
	return i, f
}

// Decimal returns the double nearest the decimal m.f, m and f the values
// of its integer part and its k fraction digits, which must be at most
// seven each (as [WordInt] reads them): the digits make an integer below
// 10^14 < 2^53, and 10^k is a double, so one correctly rounded division
// gives it (Clinger's fast path). Small enough to be inlined.
func Decimal(m uint64, k int, f uint64) float64 {
	return float64(int64(m*pow10[k&7]+f)) / exactPow10[k&7]
}

// shortRuns is Short for any length of s, reading the digits with Digits.
func shortRuns(s string) (n int, f float64) {
	i := 0
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		i = 1
	}
	if i >= len(s) || s[i]-'0' >= 10 {
		return 0, 0
	}
	j := i
	m, i := Digits(s, i, 0)
	nd := i - j
	if nd > 1 && s[j] == '0' {
		return 0, 0 // a leading zero: ParseNumber's, and the grammar's
	}
	frac := 0
	if i < len(s) && s[i] == '.' {
		k := i + 1
		m, i = Digits(s, k, m)
		if frac = i - k; frac == 0 {
			return 0, 0
		}
		nd += frac
	}
	if nd > 19 || m > 1<<53 || i < len(s) && (s[i] == '.' || s[i]|0x20 == 'e') {
		return 0, 0
	}
	f = float64(m) / exactPow10[frac] // frac <= 19 < len(exactPow10)
	if neg && m != 0 {
		f = -f
	}
	return i, f
}

// exactPow10 holds the powers of ten that are doubles exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Float returns the double nearest n, ties to even, when it can be had
// without strconv's general algorithm, as it can for the literals most
// documents hold, and ok false otherwise (the caller converts the text
// itself). That is when the significant digits are at most 19, so that
// Mant holds them exactly, and either
//
//   - they make an integer m of at most 2^53 and the decimal exponent e has
//     |e| <= 22 (Clinger's fast path): m and 10^|e| are doubles, so the
//     hardware's m × 10^e or m / 10^-e is correctly rounded; or
//   - e is within the table of powers of ten (-128 <= e <= 127) and the
//     Eisel-Lemire algorithm decides the rounding; or
//   - Eisel-Lemire declines (a value too near a halfway point between two
//     doubles) and the value is exactly an integer below 2^64 times a power
//     of two, which one conversion and an exact scaling give (dyadic: 1e23,
//     2^53+1).
//
// A literal without a significant digit is 0 whatever its exponent; the
// result is -0 for none other, and finite.
func (n *Number) Float() (float64, bool) {
	if f, ok := n.Exact(); ok {
		return f, true
	}
	return n.far()
}

// Exact is Float for the literals Clinger's path reads (and those without
// a significant digit), and ok false for any other. Small enough to be
// inlined, it lets a caller whose literals are mostly short take them
// without a call, and call Float for the rest.
func (n *Number) Exact() (f float64, ok bool) {
	m, e := n.Mant, n.Exp
	if n.Digits == 0 {
		return 0, true
	}
	if n.Digits > 19 || m > 1<<53 || uint(e+22) > 44 {
		return 0, false
	}
	f = float64(int64(m)) // m <= 2^53: no sign to mind
	if e > 0 {
		f *= exactPow10[e]
	} else if e < 0 {
		f /= exactPow10[-e]
	}
	if n.Neg {
		f = -f
	}
	return f, true
}

// far is Float past Clinger's path, for an exact mantissa: Eisel-Lemire,
// and, where it declines (near a halfway point), the exact dyadic case.
func (n *Number) far() (float64, bool) {
	if n.Digits > 19 { // Mant has wrapped
		return 0, false
	}
	if f, ok := eiselLemire(n.Mant, n.Exp, n.Neg); ok {
		return f, true
	}
	return dyadic(n.Mant, n.Exp, n.Neg)
}

// dyadic returns the double nearest (-1)^neg × m × 10^e when that value is
// an integer m' < 2^64 times 2^e, |e| <= 27: m × 5^e < 2^64 for e >= 0, m
// divisible by 5^-e for e < 0. Then one correctly rounded conversion,
// float64(m'), and an exact scaling by a power of two give it; these are
// the exact values Eisel-Lemire declines as halfway cases (such as 1e23,
// 2^53+1, or 182926410101279.75, which programs print as they are). ok is
// false for any other.
func dyadic(m uint64, e int, neg bool) (f float64, ok bool) {
	switch {
	case e < -27 || e > 27:
		return 0, false
	case e >= 0:
		hi, lo := bits.Mul64(m, pow5[e])
		if hi != 0 {
			return 0, false
		}
		m = lo
	case m%pow5[-e] != 0:
		return 0, false
	default:
		m /= pow5[-e]
	}
	f = math.Ldexp(float64(m), e) // float64(m) rounds once; scaling by 2^e is exact
	if neg {
		f = -f
	}
	return f, true
}

// pow5 holds 5^0, ..., 5^27, the powers of five below 2^63.
var pow5 = func() (t [28]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 5
	}
	return t
}()
