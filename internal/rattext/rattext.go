// Package rattext checks the text of the rational tool's two string inputs,
// steps 2 and 3 of its check order (docs/contract.md §4): the expression's
// length and encoding, and the claimed value's form and digit count. Package
// rational runs them as part of a check; package schema runs them too, to
// report a wrong JSON type of claimed_value or require_canonical only after
// the expression's text has passed, as the check order requires.
package rattext

import (
	"strconv"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

const (
	pathExpression = "/expression"
	pathClaim      = "/claimed_value"
)

// Expression is step 2: s is not empty (invalid_input at position 0), has at
// most maxBytes bytes (limit_exceeded at position 0, limit
// max_expression_bytes) and is valid UTF-8 (invalid_input at the code point
// offset of the first invalid byte, each invalid byte counting as one code
// point; a surrogate's 3-byte encoding is invalid).
func Expression(s string, maxBytes int) *claimcheck.Error {
	if s == "" {
		return errs.InvalidAt(pathExpression, 0, "empty expression")
	}
	if len(s) > maxBytes {
		return errs.LimitAt(pathExpression, 0, "max_expression_bytes",
			"expression of "+strconv.Itoa(len(s))+" bytes, more than "+strconv.Itoa(maxBytes))
	}
	pos := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			pos++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return errs.InvalidAt(pathExpression, pos, "invalid UTF-8 or lone surrogate in expression")
		}
		i += size
		pos++
	}
	return nil
}

// Claim is the text check of step 3: s must match
// ^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$ exactly (else invalid_input), and then
// neither its numerator nor its denominator may have more than maxDigits
// digits, the sign not counted (else limit_exceeded, limit
// max_value_digits). Neither error has a position. The numerator's digits
// are s[num:numEnd] (after the sign, if any), the denominator's s[den:]
// (den == len(s) when there is none).
func Claim(s string, maxDigits int) (num, numEnd, den int, err *claimcheck.Error) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	num = i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return 0, 0, 0, badClaim()
	}
	numEnd = i
	den = len(s)
	if i < len(s) {
		if s[i] != '/' || i+1 >= len(s) || s[i+1] < '1' || s[i+1] > '9' {
			return 0, 0, 0, badClaim()
		}
		den = i + 1
		for i = den; i < len(s) && isDigit(s[i]); i++ {
		}
		if i != len(s) {
			return 0, 0, 0, badClaim()
		}
	}
	if numEnd-num > maxDigits || len(s)-den > maxDigits {
		return 0, 0, 0, errs.Limit(pathClaim, "max_value_digits",
			"claimed value with a numerator or denominator of more than "+strconv.Itoa(maxDigits)+" digits")
	}
	return num, numEnd, den, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func badClaim() *claimcheck.Error {
	return errs.Invalid(pathClaim, "claimed value is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
}
