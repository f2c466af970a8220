package scalar

import (
	"math"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// ParseNumber returns the Scalar of a JSON number literal (RFC 8259 section
// 6 grammar exactly: no sign '+', no leading zeros, no bare '.', no
// surrounding space). The literal is rounded to the nearest double, ties to
// even; one that rounds to ±Inf (such as 1e400) is an error, one that
// underflows (such as 1e-400) is 0.
func ParseNumber(lit string) (Scalar, error) {
	n, fault := jsonwire.ParseNumber(lit)
	if fault != jsonwire.OK || n.Len != len(lit) {
		return Scalar{}, errs.Invalid("", "not a JSON number: "+strconv.Quote(lit))
	}
	f, ok := n.Exact() // the commonest literals, without a call
	if !ok {
		f, ok = n.Float()
	}
	if ok {
		return Scalar{kind: Number, num: fold(f)}, nil
	}
	f, err := parseFloat(lit)
	if err != nil || math.IsInf(f, 0) {
		return Scalar{}, errs.Invalid("", "number "+Abbrev(lit)+" is out of the range of a double")
	}
	return Scalar{kind: Number, num: fold(f)}, nil
}

// maxDigits is how many significant digits parseFloat hands to strconv.
// Every decimal halfway point between two doubles has at most 768
// significant digits, so a longer mantissa can be cut to maxDigits digits
// plus one non-zero "sticky" digit standing for the rest without changing
// which side of any halfway point it lies on.
const maxDigits = 780

// parseFloat is strconv.ParseFloat for a grammatical JSON number literal,
// correct for mantissas of any length: strconv's slow path keeps at most 800
// digits and, past that, misplaces the decimal point (1 followed by 900
// zeros and e-900 reads as 1e-101). Long mantissas are rewritten to
// 0.DDD…e±X with at most maxDigits+1 digits first.
func parseFloat(lit string) (float64, error) {
	if len(lit) <= maxDigits {
		return strconv.ParseFloat(lit, 64)
	}
	whole := lit
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, exp = lit[:i], lit[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := intPart + frac
	point := len(intPart) // the value is 0.digits × 10^(point+exp)
	z := len(digits) - len(strings.TrimLeft(digits, "0"))
	digits, point = digits[z:], point-z
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, nil
	}
	if len(digits) <= maxDigits && len(whole) <= maxDigits {
		return strconv.ParseFloat(whole, 64)
	}
	if len(digits) > maxDigits {
		digits = digits[:maxDigits] + "1" // the rest is non-zero: TrimRight removed trailing zeros
	}
	e, ok := exponent(exp)
	if !ok { // |exp| of 10^18 or more: no literal in memory brings it back
		if strings.HasPrefix(exp, "-") {
			return 0, nil
		}
		return math.Inf(1), strconv.ErrRange
	}
	text := "0." + digits + "e" + strconv.FormatInt(int64(point)+e, 10)
	if neg {
		text = "-" + text
	}
	return strconv.ParseFloat(text, 64)
}

// exponent reads an exponent [+-]?[0-9]+ ("" is 0), refusing magnitudes of
// 10^18 or more. (Not 10^9: the point of 0.000…01e1000000005, a billion
// zeros on, brings it back to 10^5.)
func exponent(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > 18 {
		return 0, false
	}
	var e int64
	for i := 0; i < len(s); i++ {
		e = e*10 + int64(s[i]-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// Abbrev is a literal as a message quotes it: at most 40 bytes, a longer
// one cut to its first 37 and "...".
func Abbrev(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// appendNumber appends the ECMAScript Number::toString form of a finite
// double (RFC 8785 section 3.2.2.3), as jcs.NumberToJSON does, without
// allocating. f must be finite.
func appendNumber(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0') // also -0
	}
	// Integral doubles below 2^53 print as plain integers; strconv is exact there.
	if f > -1<<53 && f < 1<<53 && f == math.Trunc(f) {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	// Shortest round-trip digits in scientific form: [-]d[.ddd]e±XX. Go's
	// shortest formatting picks, among the shortest digit strings that round
	// trip, the one closest to f: the digits ECMAScript's step 5 asks for.
	var buf [32]byte
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	if sci[0] == '-' {
		dst = append(dst, '-')
		sci = sci[1:]
	}
	var digits [17]byte
	k := 0
	i := 0
	for ; sci[i] != 'e'; i++ {
		if sci[i] != '.' {
			digits[k] = sci[i]
			k++
		}
	}
	i++ // 'e'
	expNeg := sci[i] == '-'
	i++
	e := 0
	for ; i < len(sci); i++ {
		e = e*10 + int(sci[i]-'0')
	}
	if expNeg {
		e = -e
	}
	n := e + 1 // the decimal point sits after n digits
	d := digits[:k]
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for j := k; j < n; j++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := n; j < 0; j++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 < 0 {
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, int64(1-n), 10)
		} else {
			dst = append(dst, '+')
			dst = strconv.AppendInt(dst, int64(n-1), 10)
		}
	}
	return dst
}
