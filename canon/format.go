package canon

import (
	"math"
	"strconv"
)

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
