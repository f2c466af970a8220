// Package rattext runs steps 2 to 4 of the rational tool's check order
// (docs/contract.md §4), the checks of its inputs before the expression is
// tokenised: the expression's length and encoding, the claimed value's type,
// form and digit count, and require_canonical's type. [Inputs] is the one
// place they run in that order: package rational calls it for every check,
// and package schema calls it when a JSON document gives claimed_value or
// require_canonical a wrong type, which is reported only once the
// expression's text has passed. (Step 1, the document's members, is
// schema's: a Go caller's input is a struct.)
package rattext

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

const (
	pathExpression = "/expression"
	pathClaim      = "/claimed_value"
)

// Fields are the rational tool's inputs as read: the expression's text, the
// claimed value's, and the errors of a claimed_value that is not a string
// and of a require_canonical that is not a boolean (nil when they have the
// right type, as a Go caller's always do).
type Fields struct {
	Expression, ClaimedValue string
	ClaimType, CanonicalType *claimcheck.Error
}

// ClaimSpans locate the claimed value's digits: the numerator's are
// s[Num:NumEnd] (after the sign, if any), the denominator's s[Den:]
// (Den == len(s) when there is none).
type ClaimSpans struct{ Num, NumEnd, Den int }

// Inputs runs steps 2 to 4 in order and returns the first failure: the
// expression's text (Expression), claimed_value's type, its text (Claim),
// require_canonical's type.
func Inputs(f Fields, maxBytes, maxDigits int) (ClaimSpans, *claimcheck.Error) {
	if err := Expression(f.Expression, maxBytes); err != nil {
		return ClaimSpans{}, err
	}
	if f.ClaimType != nil {
		return ClaimSpans{}, f.ClaimType
	}
	var c ClaimSpans
	var err *claimcheck.Error
	if c.Num, c.NumEnd, c.Den, err = Claim(f.ClaimedValue, maxDigits); err != nil {
		return ClaimSpans{}, err
	}
	if f.CanonicalType != nil {
		return ClaimSpans{}, f.CanonicalType
	}
	return c, nil
}

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
	// utf8.ValidString, which rejects encoded surrogates too, reads eight
	// ASCII bytes at a time; the loop below finds the fault's position.
	if utf8.ValidString(s) {
		return nil
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
		return 0, 0, 0, badClaim(s)
	}
	numEnd = i
	den = len(s)
	if i < len(s) {
		if s[i] != '/' || i+1 >= len(s) || s[i+1] < '1' || s[i+1] > '9' {
			return 0, 0, 0, badClaim(s)
		}
		den = i + 1
		for i = den; i < len(s) && isDigit(s[i]); i++ {
		}
		if i != len(s) {
			return 0, 0, 0, badClaim(s)
		}
	}
	if numEnd-num > maxDigits || len(s)-den > maxDigits {
		return 0, 0, 0, errs.Limit(pathClaim, "max_value_digits",
			"claimed value with a numerator or denominator of more than "+strconv.Itoa(maxDigits)+" digits")
	}
	return num, numEnd, den, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// claimForm is the grammar a claimed value must match, as the message states it.
const claimForm = "-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?"

// StudentForm is ClaimMessage's message m in words fit for a student, who
// reads no regular expression: "of the form -?(0|...)" becomes "such as
// 3, -3 or 3/4".
func StudentForm(m string) string {
	return strings.ReplaceAll(m, " of the form "+claimForm, " such as 3, -3 or 3/4")
}

// maxQuoted is how many bytes of a malformed claim its message quotes.
const maxQuoted = 64

// badClaim is the error for a claimed value s that does not match the
// grammar. The message quotes s (its first maxQuoted bytes, then "…"; a
// quoted string is one line, whatever s holds) and, where the fault is a
// common one, says what it is and how to write the value instead: see hint.
func badClaim(s string) *claimcheck.Error {
	return errs.Invalid(pathClaim, ClaimMessage(s, false))
}

// ClaimMessage is the message of the error for a claimed value s that does
// not match the grammar (see badClaim). With grading, a fault that hint
// does not name gets the hint of gradingHint: the grading helpers' reports
// name it, while the JSON tools keep the messages they have always given,
// byte for byte.
func ClaimMessage(s string, grading bool) string {
	if s == "" {
		return "claimed value is empty: want an integer or fraction of the form " + claimForm
	}
	msg := "claimed value " + quote(s) + " is not an integer or fraction of the form " + claimForm
	h := hint(s, grading)
	if h == "" && grading {
		h = gradingHint(s)
	}
	if h != "" {
		msg += ": " + h
	}
	return msg
}

// quote is s in Go's double-quoted form (JSON-like: non-printable runes and
// invalid bytes escaped), cut after maxQuoted bytes.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// hint names the first of the common faults that s has, checked in this
// order, with the value written the right way where that can be worked out:
// white space before or after the value, a '+' sign, U+2212 MINUS SIGN, a
// mixed number ("2 1/12"), a decimal point, a negative denominator, a zero
// denominator, a leading zero. It is "" for any other fault.
func hint(s string, grading bool) string {
	instead := instead
	if grading {
		instead = canonicalInstead
	}
	trimmed := strings.TrimFunc(s, unicode.IsSpace)
	switch {
	case trimmed != s && trimmed != "":
		where := "after"
		if trimmed != strings.TrimRightFunc(s, unicode.IsSpace) {
			where = "before"
			if trimmed != strings.TrimLeftFunc(s, unicode.IsSpace) {
				where = "before and after"
			}
		}
		return "there is white space " + where + " the value; remove it" + instead(trimmed)
	case trimmed == "":
		return "it is only white space"
	case s[0] == '+':
		return "a positive value has no sign; remove the +" + instead(s[1:])
	case strings.ContainsRune(s, '\u2212'):
		return "the minus sign must be the ASCII hyphen-minus '-', not U+2212 '\u2212'" + instead(strings.ReplaceAll(s, "\u2212", "-"))
	}
	if v, ok := mixed(s); ok {
		return "a mixed number is not accepted; write the fraction" + instead(v)
	}
	if strings.Contains(s, ".") {
		return "a decimal point is not accepted; write the value as a fraction such as 5/2 for 2.5"
	}
	num, den, isFrac := strings.Cut(s, "/")
	switch {
	case !isFrac:
	case strings.HasPrefix(den, "-"):
		n := strings.TrimPrefix(num, "-")
		if !strings.HasPrefix(num, "-") {
			n = "-" + n
		}
		return "the denominator must be positive; put the sign on the numerator" + instead(n+"/"+den[1:])
	case den != "" && strings.Trim(den, "0") == "" && digits(den):
		return "the denominator is zero"
	}
	if fixed, changed := stripZeros(s); changed {
		return "an integer has no leading zero" + instead(fixed)
	}
	return ""
}

// gradingHint names the first of the faults hint leaves unnamed that s
// has, checked in this order, with the value written the right way where
// that can be worked out: digits other than ASCII's ("２５/12"), a fraction
// bar other than '/' ("25／12"), white space around the fraction bar
// ("25 / 12", and "2 1 / 12", a mixed number), more than one '/'
// ("25/12/1"). It is "" for any other fault.
func gradingHint(s string) string {
	instead := canonicalInstead
	if r, v, ok := otherDigits(s); ok {
		return "the digits must be ASCII 0-9, not " + describeRune(r) + instead(v)
	}
	if i := strings.IndexFunc(s, isOtherSlash); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return "the fraction bar must be the ASCII '/', not " + describeRune(r) + instead(strings.Map(func(r rune) rune {
			if isOtherSlash(r) {
				return '/'
			}
			return r
		}, s))
	}
	if v := tightSlash(s); v != s {
		if m, ok := mixed(v); ok {
			return "a mixed number is not accepted; write the fraction" + instead(m)
		}
		return "there is white space around the fraction bar '/'; remove it" + instead(v)
	}
	if n := strings.Count(s, "/"); n > 1 {
		return "a fraction has one '/', not " + strconv.Itoa(n) + instead(divided(s))
	}
	return ""
}

// describeRune names a character a message quotes: U+FF12 '２'.
func describeRune(r rune) string {
	return fmt.Sprintf("U+%04X '%c'", r, r)
}

// otherDigits reports the first digit of s that is not ASCII (a decimal
// digit of another script, such as the full-width ２), and s with every
// such digit replaced by the ASCII digit of the same value. Unicode's
// decimal digits come in runs of ten, zero to nine, from the start of each
// block of consecutive digits, so a digit's value is its distance from
// that start, modulo ten.
func otherDigits(s string) (first rune, ascii string, ok bool) {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf || !unicode.IsDigit(r) {
			b.WriteRune(r)
			continue
		}
		if !ok {
			first, ok = r, true
		}
		z := r
		for unicode.IsDigit(z - 1) {
			z--
		}
		b.WriteByte(byte('0' + (r-z)%10))
	}
	return first, b.String(), ok
}

// isOtherSlash reports whether r is a fraction bar other than '/': the
// full-width solidus, the fraction slash, the division slash.
func isOtherSlash(r rune) bool { return r == '\uff0f' || r == '\u2044' || r == '\u2215' }

// tightSlash returns s without the white space next to each '/'.
func tightSlash(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	parts := strings.Split(s, "/")
	for i := range parts {
		if i > 0 {
			parts[i] = strings.TrimLeftFunc(parts[i], unicode.IsSpace)
		}
		if i < len(parts)-1 {
			parts[i] = strings.TrimRightFunc(parts[i], unicode.IsSpace)
		}
	}
	return strings.Join(parts, "/")
}

// divided reads s, of more than one '/', as the divisions it writes, left
// to right (an optional '-' and digits, then '/' and digits, ...), and
// returns their value as one fraction, unreduced: "25/12/1" is "25/12",
// "1/2/3" is "1/6". It is "" when s is not of that form or a divisor is
// zero.
func divided(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	parts := strings.Split(s, "/")
	var num, den, d big.Int
	if !digits(parts[0]) {
		return ""
	}
	num.SetString(parts[0], 10)
	den.SetInt64(1)
	for _, p := range parts[1:] {
		if !digits(p) {
			return ""
		}
		if d.SetString(p, 10); d.Sign() == 0 {
			return ""
		}
		den.Mul(&den, &d)
	}
	if num.Sign() == 0 {
		sign = ""
	}
	return sign + num.String() + "/" + den.String()
}

// instead is "; write v" when v matches the grammar, else "".
func instead(v string) string {
	if v == "" || !matches(v) {
		return ""
	}
	return " (write " + quote(v) + ")"
}

// canonicalInstead is instead for the grading helpers: v, which matches
// the grammar, written in canonical form ("-0" is "0", "26/12" is
// "13/6"), so that a hint is a value the same check accepts, with
// RequireCanonical or without.
func canonicalInstead(v string) string {
	if v == "" || !matches(v) {
		return ""
	}
	var r big.Rat
	if _, ok := r.SetString(v); !ok {
		return ""
	}
	return " (write " + quote(r.RatString()) + ")"
}

// matches reports whether v matches the claim grammar.
func matches(v string) bool {
	_, _, _, err := Claim(v, len(v))
	return err == nil
}

// mixed reads s as a mixed number "W N/D" (W, N, D digits, an optional
// leading '-', one or more spaces between W and N/D) and returns the
// fraction it stands for, (W·D + N)/D with W's sign, unreduced.
func mixed(s string) (string, bool) {
	w, frac, ok := strings.Cut(s, " ")
	if !ok {
		return "", false
	}
	frac = strings.TrimLeft(frac, " ")
	n, d, ok := strings.Cut(frac, "/")
	neg := strings.HasPrefix(w, "-")
	w = strings.TrimPrefix(w, "-")
	if !ok || !digits(w) || !digits(n) || !digits(d) {
		return "", false
	}
	var W, N, D big.Int
	W.SetString(w, 10)
	N.SetString(n, 10)
	D.SetString(d, 10)
	if D.Sign() == 0 {
		return "", false
	}
	W.Mul(&W, &D).Add(&W, &N)
	v := W.String() + "/" + D.String()
	if neg && W.Sign() != 0 {
		v = "-" + v
	}
	return v, true
}

// stripZeros removes the leading zeros of s's numerator and denominator
// (keeping a lone "0"), and reports whether there were any.
func stripZeros(s string) (string, bool) {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	num, den, isFrac := strings.Cut(s, "/")
	strip := func(d string) string {
		if !digits(d) {
			return d
		}
		if t := strings.TrimLeft(d, "0"); t != "" {
			return t
		}
		return "0"
	}
	n, d := strip(num), strip(den)
	if n == num && d == den {
		return "", false
	}
	if isFrac {
		return sign + n + "/" + d, true
	}
	return sign + n, true
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
