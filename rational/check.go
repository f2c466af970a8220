package rational

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsonw"
)

// ReferenceVersion is the reference_version of every [Result].
const ReferenceVersion = "ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings"

// Input is the input document of the rational-expression-check tool.
type Input struct {
	Expression       string `json:"expression"`
	ClaimedValue     string `json:"claimed_value"`
	RequireCanonical bool   `json:"require_canonical"`
}

// Limits bounds the work a check may do. A zero (or negative) field stands for
// the descriptor's value (4096, 1024, 64, 500); MaxExpressionBytes is capped
// at 2^31-2 and MaxDepth at 4096, which bounds the parser's recursion.
type Limits struct {
	// MaxExpressionBytes bounds the expression's length in UTF-8 bytes.
	MaxExpressionBytes int
	// MaxTokens bounds the number of tokens of the expression.
	MaxTokens int
	// MaxDepth bounds the nesting depth: open "(" plus pending unary "-".
	MaxDepth int
	// MaxValueDigits bounds the decimal digits of a literal, of the claim's
	// numerator and denominator, and of every reduced intermediate value's
	// numerator and denominator.
	MaxValueDigits int
}

// DefaultLimits are the descriptor's limits, used by the package-level
// functions. The JSON tools (package schema) take theirs from the descriptor.
var DefaultLimits = Limits{MaxExpressionBytes: 4096, MaxTokens: 1024, MaxDepth: 64, MaxValueDigits: 500}

// maxDepthCap is the largest MaxDepth honoured.
const maxDepthCap = 1 << 12

func (l Limits) norm() Limits {
	if l.MaxExpressionBytes <= 0 {
		l.MaxExpressionBytes = 4096
	}
	// Token offsets are int32.
	l.MaxExpressionBytes = min(l.MaxExpressionBytes, math.MaxInt32-1)
	if l.MaxTokens <= 0 {
		l.MaxTokens = 1024
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 64
	}
	// The parser recurses once per open parenthesis: keep that far from
	// the goroutine stack limit whatever the caller asks for.
	l.MaxDepth = min(l.MaxDepth, maxDepthCap)
	if l.MaxValueDigits <= 0 {
		l.MaxValueDigits = 500
	}
	return l
}

// Reason says why a claim is rejected; "" for a valid claim.
type Reason string

// The reasons of an invalid [Result], in the order they are checked.
const (
	DivisionByZero Reason = "division_by_zero"
	ValueMismatch  Reason = "value_mismatch"
	NotCanonical   Reason = "not_canonical"
)

// Field names the input member a [Discrepancy] is about.
type Field string

const (
	// FieldExpression: the expression divides by zero.
	FieldExpression Field = "expression"
	// FieldClaimedValue: the claim has the wrong value or form.
	FieldClaimedValue Field = "claimed_value"
)

// Result is the verdict on a claim: the tool's output document. Its JSON form
// (see [Result.MarshalJSON]) has the members valid, reason, value,
// first_discrepancy and reference_version, in that order.
type Result struct {
	// Valid reports whether the claim holds.
	Valid bool
	// Reason is "" when Valid, otherwise why not.
	Reason Reason
	// Value is the exact value of the expression, nil after a division by zero.
	Value *Rat
	// FirstDiscrepancy is nil when Valid.
	FirstDiscrepancy *Discrepancy
	// ReferenceVersion is [ReferenceVersion].
	ReferenceVersion string

	expression string // for Err's message
}

// Discrepancy locates why a claim is rejected.
type Discrepancy struct {
	// Field is FieldExpression for a division by zero, else FieldClaimedValue.
	Field Field
	// ClaimedValue is the claim's text as given.
	ClaimedValue string
	// CanonicalClaim is the claim's value.
	CanonicalClaim Rat
	// ActualValue is the expression's value; nil after a division by zero.
	ActualValue *Rat
	// Difference is value − claim (0 for not_canonical); nil after a
	// division by zero.
	Difference *Rat
	// Position is the code point offset of the dividing operator after a
	// division by zero; claimcheck.NoPosition (written null) otherwise.
	Position int
	// DivisorText is the zero divisor's source text after a division by
	// zero; "" (written null) otherwise.
	DivisorText string
}

// CheckRational checks in with [DefaultLimits]; see [Limits.CheckRational].
// Bad input and exceeded limits are reported as an *[claimcheck.Error].
func CheckRational(in Input) (Result, error) { return DefaultLimits.CheckRational(in) }

// CheckRational checks whether in.ClaimedValue is the exact value of
// in.Expression. The first failing step, in this order, decides the answer:
//
//  1. the expression: not empty, at most MaxExpressionBytes bytes, valid
//     UTF-8 ([Limits.ValidateExpression]);
//  2. the claim: it matches -?(0|[1-9][0-9]*)(/[1-9][0-9]*)? and neither
//     part has more than MaxValueDigits digits ([Limits.ParseClaim]);
//  3. tokenising the whole expression, then parsing it ([Limits.Parse]);
//  4. evaluating it in post-order, left before right ([Expr.Eval]): the
//     first zero divisor gives reason [DivisionByZero], value nil and a
//     discrepancy with the operator's position and the divisor's text;
//  5. the value: when it differs from the claim, reason [ValueMismatch] with
//     the difference value − claim;
//  6. the form: when in.RequireCanonical and the claim is not written in
//     canonical form ([Rat.String]), reason [NotCanonical], difference 0;
//  7. otherwise Valid.
//
// Steps 1 to 3, and the digit limit of step 4, fail with an *[claimcheck.Error]: path
// "/expression" (with a code point position) or "/claimed_value" (without
// one). Steps 4 to 7 yield a Result
// whose Value is set whenever evaluation finished. The answer depends on
// in and l only.
func (l Limits) CheckRational(in Input) (Result, error) {
	l = l.norm()
	if err := l.validateExpression(in.Expression); err != nil {
		return Result{}, err
	}
	claim, canonical, cerr := l.parseClaim(in.ClaimedValue)
	if cerr != nil {
		return Result{}, cerr
	}
	e := getExpr()
	if err := l.parseInto(e, in.Expression); err != nil {
		putExpr(e)
		return Result{}, err
	}
	v, zd, err := e.eval()
	putExpr(e)
	if err != nil {
		return Result{}, err
	}
	r := Result{ReferenceVersion: ReferenceVersion, expression: in.Expression}
	if zd != nil {
		r.Reason = DivisionByZero
		r.FirstDiscrepancy = &Discrepancy{
			Field:          FieldExpression,
			ClaimedValue:   in.ClaimedValue,
			CanonicalClaim: claim,
			Position:       zd.Position,
			DivisorText:    zd.DivisorText,
		}
		return r, nil
	}
	r.Value = &v
	switch {
	case !v.Equal(claim):
		diff := v.Sub(claim)
		r.Reason = ValueMismatch
		r.FirstDiscrepancy = &Discrepancy{
			Field:          FieldClaimedValue,
			ClaimedValue:   in.ClaimedValue,
			CanonicalClaim: claim,
			ActualValue:    &v,
			Difference:     &diff,
			Position:       claimcheck.NoPosition,
		}
	case in.RequireCanonical && !canonical:
		r.Reason = NotCanonical
		r.FirstDiscrepancy = &Discrepancy{
			Field:          FieldClaimedValue,
			ClaimedValue:   in.ClaimedValue,
			CanonicalClaim: claim,
			ActualValue:    &v,
			Difference:     new(Rat),
			Position:       claimcheck.NoPosition,
		}
	default:
		r.Valid = true
	}
	return r, nil
}

// ValidateExpression checks expr with [DefaultLimits]; see
// [Limits.ValidateExpression]. The error, if any, is an *[claimcheck.Error].
func ValidateExpression(expr string) error { return DefaultLimits.ValidateExpression(expr) }

// ValidateExpression checks what is required of the expression before the
// claim is looked at: it is not empty (invalid_input at position 0), it has
// at most MaxExpressionBytes bytes (limit_exceeded at position 0, limit
// "max_expression_bytes") and it is valid UTF-8 (invalid_input at the code
// point offset of the first invalid byte, each invalid byte counting as one
// code point; a surrogate's 3-byte encoding is invalid). Errors are *[claimcheck.Error]
// with path "/expression".
func (l Limits) ValidateExpression(expr string) error {
	if err := l.norm().validateExpression(expr); err != nil {
		return err
	}
	return nil
}

func (l Limits) validateExpression(s string) *claimcheck.Error {
	if s == "" {
		return errs.InvalidAt(pathExpression, 0, "empty expression")
	}
	if len(s) > l.MaxExpressionBytes {
		return errs.LimitAt(pathExpression, 0, limitBytes,
			"expression of "+strconv.Itoa(len(s))+" bytes, more than "+strconv.Itoa(l.MaxExpressionBytes))
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

// ParseClaim parses a claimed value with [DefaultLimits]; see
// [Limits.ParseClaim]. The error, if any, is an *[claimcheck.Error].
func ParseClaim(s string) (Rat, error) { return DefaultLimits.ParseClaim(s) }

// ParseClaim parses a claimed value: s must match
// ^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$ exactly (else invalid_input), and then
// neither its numerator nor its denominator may have more than
// MaxValueDigits digits, the sign not counted (else limit_exceeded, limit
// "max_value_digits"). Errors are *[claimcheck.Error] with path "/claimed_value" and no
// position. The value is returned reduced: "2/4" is 1/2, "-0" is 0.
func (l Limits) ParseClaim(s string) (Rat, error) {
	r, _, err := l.norm().parseClaim(s)
	if err != nil {
		return Rat{}, err
	}
	return r, nil
}

// parseClaim also reports whether s is the canonical form of its value.
func (l Limits) parseClaim(s string) (Rat, bool, *claimcheck.Error) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	numStart := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return Rat{}, false, badClaim()
	}
	numEnd := i
	denStart := len(s)
	if i < len(s) {
		if s[i] != '/' || i+1 >= len(s) || s[i+1] < '1' || s[i+1] > '9' {
			return Rat{}, false, badClaim()
		}
		denStart = i + 1
		for i = denStart; i < len(s) && isDigit(s[i]); i++ {
		}
		if i != len(s) {
			return Rat{}, false, badClaim()
		}
	}
	if numEnd-numStart > l.MaxValueDigits || len(s)-denStart > l.MaxValueDigits {
		return Rat{}, false, errs.Limit(pathClaim, limitDigits,
			"claimed value with a numerator or denominator of more than "+strconv.Itoa(l.MaxValueDigits)+" digits")
	}
	n := literal(s[numStart:numEnd])
	if numStart > 0 {
		n = n.Neg()
	}
	if denStart == len(s) {
		// Without leading zeros, an integer is canonical unless it is "-0".
		return n, !(numStart > 0 && n.Sign() == 0), nil
	}
	// Digits without leading zeros are the canonical form of their value, so
	// a fraction is canonical when it is reduced and its denominator is not
	// 1 (a reduced 0/d has d = 1). Reduced, n and d are the value as they
	// are.
	d := literal(s[denStart:])
	var g apd.BigInt
	gcd(&g, &n.num, &d.num)
	if !isOne(&g) {
		return mul(&n, &d, true), false, nil
	}
	if isOne(&d.num) {
		return n, false, nil
	}
	n.den = d.num
	return n, true, nil
}

func badClaim() *claimcheck.Error {
	return errs.Invalid(pathClaim, "claimed value is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
}

// ErrRejected is the error every non-nil [Result.Err] wraps:
// errors.Is(res.Err(), ErrRejected) reports that the claim does not hold.
var ErrRejected = errors.New("rational: claim rejected")

type rejection struct{ msg string }

func (e *rejection) Error() string { return e.msg }
func (e *rejection) Unwrap() error { return ErrRejected }

// String returns "valid", or the message of r.Err().
func (r Result) String() string {
	if err := r.Err(); err != nil {
		return err.Error()
	}
	return "valid"
}

// Err returns nil when r is valid, otherwise an error wrapping [ErrRejected]
// whose one-line message says what is wrong, in the manner of a test failure:
//
//	1 + 1/2 = 3/2, not 1/2 claimed (difference 1)
//	division by zero at position 1: divisor (2-2) is 0
//	2/4 = 1/2, claimed as 2/4, which is not in canonical form
func (r Result) Err() error {
	if r.Valid {
		return nil
	}
	d := r.FirstDiscrepancy
	var b strings.Builder
	switch {
	case d == nil:
		b.WriteString("claim rejected")
		if r.Reason != "" {
			b.WriteString(": " + string(r.Reason))
		}
	case r.Reason == DivisionByZero:
		b.WriteString("division by zero at position ")
		b.WriteString(strconv.Itoa(d.Position))
		b.WriteString(": divisor ")
		b.WriteString(oneLine(d.DivisorText))
		b.WriteString(" is 0")
	default:
		if r.expression != "" {
			b.WriteString(oneLine(r.expression))
			b.WriteString(" = ")
		} else {
			b.WriteString("value ")
		}
		actual := r.Value
		if actual == nil {
			actual = d.ActualValue
		}
		if actual != nil {
			b.WriteString(actual.String())
		} else {
			b.WriteString("unknown")
		}
		if r.Reason == NotCanonical {
			b.WriteString(", claimed as ")
			b.WriteString(d.ClaimedValue)
			b.WriteString(", which is not in canonical form")
		} else {
			b.WriteString(", not ")
			b.WriteString(d.ClaimedValue)
			b.WriteString(" claimed")
			if d.Difference != nil {
				b.WriteString(" (difference ")
				b.WriteString(d.Difference.String())
				b.WriteString(")")
			}
		}
	}
	return &rejection{msg: b.String()}
}

// oneLine replaces tabs, line feeds and carriage returns by spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// MarshalJSON returns the tool's output document, as [Result.AppendJSON].
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the tool's output document to dst: the members valid,
// reason, value, first_discrepancy and reference_version, in that order, with
// null for an empty reason, a nil value and a nil discrepancy; the
// discrepancy's members are field, claimed_value, canonical_claim,
// actual_value, difference, position and divisor_text, with null for the nil,
// claimcheck.NoPosition and "" ones. Numbers are written as strings in canonical form.
// No whitespace is written, and the bytes depend on r only.
func (r Result) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"valid":`...)
	dst = strconv.AppendBool(dst, r.Valid)
	dst = append(dst, `,"reason":`...)
	if r.Reason == "" {
		dst = append(dst, "null"...)
	} else {
		dst = jsonw.AppendString(dst, string(r.Reason))
	}
	dst = append(dst, `,"value":`...)
	dst = appendRat(dst, r.Value)
	dst = append(dst, `,"first_discrepancy":`...)
	if d := r.FirstDiscrepancy; d == nil {
		dst = append(dst, "null"...)
	} else {
		dst = d.appendJSON(dst)
	}
	dst = append(dst, `,"reference_version":`...)
	dst = jsonw.AppendString(dst, r.ReferenceVersion)
	return append(dst, '}')
}

// MarshalJSON returns the first_discrepancy object of the output document,
// members in the output schema's order, nulls written as null.
func (d Discrepancy) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d *Discrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"field":`...)
	dst = jsonw.AppendString(dst, string(d.Field))
	dst = append(dst, `,"claimed_value":`...)
	dst = jsonw.AppendString(dst, d.ClaimedValue)
	dst = append(dst, `,"canonical_claim":`...)
	dst = appendRat(dst, &d.CanonicalClaim)
	dst = append(dst, `,"actual_value":`...)
	dst = appendRat(dst, d.ActualValue)
	dst = append(dst, `,"difference":`...)
	dst = appendRat(dst, d.Difference)
	dst = append(dst, `,"position":`...)
	if d.Position < 0 {
		dst = append(dst, "null"...)
	} else {
		dst = strconv.AppendInt(dst, int64(d.Position), 10)
	}
	dst = append(dst, `,"divisor_text":`...)
	if d.DivisorText == "" {
		dst = append(dst, "null"...)
	} else {
		dst = jsonw.AppendString(dst, d.DivisorText)
	}
	return append(dst, '}')
}

func appendRat(dst []byte, x *Rat) []byte {
	if x == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = x.Append(dst)
	return append(dst, '"')
}
