package rational

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/rattext"
	"github.com/cockroachdb/apd/v3"
)

// ReferenceVersion is the reference_version of every [Result].
const ReferenceVersion = "ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings"

// Input is the input document of the rational-expression-check tool.
type Input struct {
	Expression       string `json:"expression"`
	ClaimedValue     string `json:"claimed_value"`
	RequireCanonical bool   `json:"require_canonical"`
}

// Limits bounds the work a check may do. A zero (or negative) field means
// the tool's bound, the field of [DefaultLimits]; that is what a zero field
// means wherever a Limits is taken, claimchecktest's RationalLimits option
// included. MaxExpressionBytes is held at 2^31-2, MaxDepth at 4096, which
// bounds the parser's recursion, and MaxValueDigits at 2^31-1, which keeps
// the digit tests' arithmetic within 64 bits.
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

// DefaultLimits returns the limits of the rational-expression-check
// descriptor, which a zero field of a [Limits] stands for: 4096 bytes per
// expression, 1024 tokens, depth 64 and 500 digits. It is a function, so
// that no package of a program can change what every check in it
// enforces. The JSON tools (package schema) use the descriptor's limits.
func DefaultLimits() Limits {
	return Limits{MaxExpressionBytes: 4096, MaxTokens: 1024, MaxDepth: 64, MaxValueDigits: 500}
}

// maxDepthCap is the largest MaxDepth honoured.
const maxDepthCap = 1 << 12

// norm returns l with its zero and negative fields taken from DefaultLimits
// and the caps applied.
func (l Limits) norm() Limits {
	d := DefaultLimits()
	l.MaxExpressionBytes = orDefault(l.MaxExpressionBytes, d.MaxExpressionBytes)
	l.MaxTokens = orDefault(l.MaxTokens, d.MaxTokens)
	l.MaxDepth = orDefault(l.MaxDepth, d.MaxDepth)
	l.MaxValueDigits = orDefault(l.MaxValueDigits, d.MaxValueDigits)
	// Token offsets are int32.
	l.MaxExpressionBytes = min(l.MaxExpressionBytes, math.MaxInt32-1)
	// The parser recurses once per open parenthesis: keep that far from
	// the goroutine stack limit whatever the caller asks for.
	l.MaxDepth = min(l.MaxDepth, maxDepthCap)
	l.MaxValueDigits = min(l.MaxValueDigits, math.MaxInt32)
	return l
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
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

// Result is the verdict on a claim: the tool's output document. Its JSON
// form ([Result.AppendJSON]) has the members valid, reason, value,
// first_discrepancy and reference_version, in that order. Only
// [CheckRational] makes verdicts: the zero Result is none, and has no JSON
// form.
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

// CheckRational checks whether in.ClaimedValue is the exact value of
// in.Expression, within lim (a zero field of lim is the field of
// [DefaultLimits]). The first step that fails, in this order, decides the
// answer (docs/contract.md §4 states each step in full):
//
//  1. fields: an Input has exactly the three members (package schema checks
//     those of a JSON document);
//  2. expression: not empty, at most MaxExpressionBytes UTF-8 bytes and
//     valid UTF-8, an encoded surrogate being invalid;
//  3. claimed value: it matches -?(0|[1-9][0-9]*)(/[1-9][0-9]*)? and
//     neither its numerator nor its denominator has more than
//     MaxValueDigits digits;
//  4. require_canonical: an Input's is a bool;
//  5. tokenize the whole expression: the first lexical error wins; a
//     literal of more than MaxValueDigits digits, or a token beyond
//     MaxTokens, is over a limit;
//  6. parse it by the grammar: the first syntax error, or nesting deeper
//     than MaxDepth;
//  7. evaluate it in post-order, left operand before right: the first zero
//     divisor gives reason [DivisionByZero], Value nil and a discrepancy
//     with the operator's position and the divisor's text; a reduced
//     intermediate value with more than MaxValueDigits digits in its
//     numerator or denominator is over a limit;
//  8. value: a claim of another value gives reason [ValueMismatch], with
//     the difference value − claim;
//  9. form: with in.RequireCanonical, a claim not written in canonical form
//     ([Rat.String]) gives reason [NotCanonical], with difference 0;
//  10. otherwise the claim is valid.
//
// Steps 2, 3, 5, 6 and the digit limit of step 7 fail with an
// *[claimcheck.Error]: Code invalid_input, or limit_exceeded with the
// limit's name in Limit; Path "/expression" with the code point Position of
// the fault (0 for an empty or too long expression, the expression's length
// when it ends early), or "/claimed_value" with Position
// [claimcheck.NoPosition]. Steps 7 to 10 give a Result whose Value
// is set whenever evaluation finished. The answer depends on in and lim
// only.
func CheckRational(in Input, lim Limits) (Result, error) {
	l := lim.norm()
	spans, err := rattext.Inputs(rattext.Fields{Expression: in.Expression, ClaimedValue: in.ClaimedValue},
		l.MaxExpressionBytes, l.MaxValueDigits)
	if err != nil {
		return Result{}, err
	}
	// The machine's workspace, if it takes one, serves the arithmetic on
	// the claim too; every return below hands it back (a defer measured
	// 0.4% more instructions on the seed example).
	var m machine
	v, top, zd, err := m.evaluate(l, in.Expression)
	if err != nil {
		m.release()
		return Result{}, err
	}
	r := Result{ReferenceVersion: ReferenceVersion, expression: in.Expression}
	if zd != nil {
		claim, _ := claimValue(in.ClaimedValue, spans, m.scratch())
		r.Reason = DivisionByZero
		r.FirstDiscrepancy = &Discrepancy{
			Field:          FieldExpression,
			ClaimedValue:   in.ClaimedValue,
			CanonicalClaim: claim,
			Position:       zd.Position,
			DivisorText:    zd.DivisorText,
		}
		m.release()
		return r, nil
	}
	r.Value = &v
	// Most claims are the value written in its parts: then they need no
	// reducing, and they are canonical unless they are an integer over 1.
	var same, words, integer bool
	if top.small && top.n.hi|top.d.hi == 0 {
		same, words = claimIsWords(in.ClaimedValue, spans, top.n.lo, top.neg, top.d.lo)
		integer = top.d.lo == 1
	}
	if !words {
		same, integer = claimIs(in.ClaimedValue, spans, &v), isOne(v.denom())
	}
	claim, canonical := v, false
	if same {
		canonical = (spans.Den == len(in.ClaimedValue)) == integer
	} else {
		claim, canonical = claimValue(in.ClaimedValue, spans, m.scratch())
	}
	switch {
	case !same && !v.equal(&claim):
		diff := arith(opSub, &v, &claim, m.scratch())
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
	m.release()
	return r, nil
}

// claimValue is the value of a claimed value that passed step 3, reduced
// ("2/4" is 1/2, "-0" is 0), with whether s is its canonical form; sc
// holds the temporaries.
func claimValue(s string, c rattext.ClaimSpans, sc *scratch) (Rat, bool) {
	numStart, numEnd, denStart := c.Num, c.NumEnd, c.Den
	n := literal(s[numStart:numEnd])
	if numStart > 0 {
		n = n.neg()
	}
	if denStart == len(s) {
		// Without leading zeros, an integer is canonical unless it is "-0".
		return n, !(numStart > 0 && n.Sign() == 0)
	}
	// Digits without leading zeros are the canonical form of their value, so
	// a fraction is canonical when it is reduced and its denominator is not
	// 1 (a reduced 0/d has d = 1). A claim is most often canonical: then n
	// and d are the value as they are, and dividing (which allocates for
	// big parts) is not needed.
	d := literal(s[denStart:])
	var g apd.BigInt
	gcd(&g, &n.num, &d.num, sc)
	if !isOne(&g) {
		return arith(opQuo, &n, &d, sc), false
	}
	if isOne(&d.num) {
		return n, false
	}
	n.den = d.num
	return n, true
}

// claimIs reports whether the claimed value s, which passed step 3 with
// spans c, is v written in its parts: the same sign, numerator and
// denominator (none for 1).
func claimIs(s string, c rattext.ClaimSpans, v *Rat) bool {
	if (c.Num > 0) != (v.Sign() < 0) {
		return false
	}
	if !digitsAre(s[c.Num:c.NumEnd], &v.num) {
		return false
	}
	if c.Den == len(s) {
		return isOne(v.denom())
	}
	return digitsAre(s[c.Den:], v.denom())
}

// claimIsWords is claimIs for the value n/d, negated when neg, in lowest
// terms (d = 1 for 0); ok is false when the claim has a part of more than
// 19 digits, which claimIs must compare.
func claimIsWords(s string, c rattext.ClaimSpans, n uint64, neg bool, d uint64) (same, ok bool) {
	if c.NumEnd-c.Num > 19 || len(s)-c.Den > 19 {
		return false, false
	}
	if (c.Num > 0) != neg || decimalChunk(s[c.Num:c.NumEnd]) != n {
		return false, true
	}
	if c.Den == len(s) {
		return d == 1, true
	}
	return decimalChunk(s[c.Den:]) == d, true
}

// digitsAre reports whether the digit string s, without leading zeros, is
// the decimal form of |b|.
func digitsAre(s string, b *apd.BigInt) bool {
	if len(s) <= 19 {
		w, _, ok := parts(b)
		return ok && w == decimalChunk(s)
	}
	// |b| >= 10^(len(s)-1) > 2^(3*(len(s)-1)) must hold first: a cheap
	// bound before converting s.
	if b.BitLen() < 3*(len(s)-1) {
		return false
	}
	lit := literal(s)
	return lit.num.CmpAbs(b) == 0
}

// ErrRejected is the error every non-nil [Result.Err] wraps:
// errors.Is(res.Err(), ErrRejected) reports that the claim does not hold.
// The zero Result (what CheckRational returns with an error) is not a pass
// either: its Err, which says "no verdict", wraps ErrRejected too. It is
// [claimcheck.ErrRejected], the one rejection sentinel of every package,
// under this package's name.
var ErrRejected = claimcheck.ErrRejected

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
//
// The zero Result's message says it is no verdict, so that an input error
// never reads like a wrong answer.
func (r Result) Err() error {
	if r.Valid {
		return nil
	}
	d := r.FirstDiscrepancy
	var b strings.Builder
	switch {
	case r.Reason == "" && d == nil && r.Value == nil && r.ReferenceVersion == "":
		b.WriteString("no verdict: the result is a zero value (did the check return an error?)")
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

// MarshalJSON returns the tool's output document, as [Result.AppendJSON],
// and its error for a Result that is no verdict.
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON appends the tool's output document to dst, written from r's
// fields: the members valid, reason, value, first_discrepancy and
// reference_version, in that order, with null for an empty Reason, a nil
// Value and a nil FirstDiscrepancy; the discrepancy's members are field,
// claimed_value, canonical_claim, actual_value, difference, position and
// divisor_text, with null for the nil ones, for Position
// claimcheck.NoPosition and for an empty DivisorText. Numbers are written as
// strings in canonical form. No whitespace is written, and the bytes depend
// on r only.
//
// r must be a verdict of [CheckRational], whose document conforms to the
// tool's output schema. For any
// other Result, such as the zero Result, AppendJSON returns dst unchanged
// and an error saying what is wrong: a ReferenceVersion other than
// [ReferenceVersion]; a Reason other than "" and the three; a valid result
// with a Reason, a FirstDiscrepancy or no Value; an invalid one without a
// FirstDiscrepancy, or with a Value after a division by zero or without one
// otherwise; a discrepancy whose Field is not the one of its Reason, or
// whose members do not match its Field (see [Discrepancy.MarshalJSON]).
func (r Result) AppendJSON(dst []byte) ([]byte, error) {
	if err := r.verdict(); err != nil {
		return dst, err
	}
	dst = append(dst, `{"valid":`...)
	dst = strconv.AppendBool(dst, r.Valid)
	dst = append(dst, `,"reason":`...)
	if r.Reason == "" {
		dst = append(dst, "null"...)
	} else {
		dst = jsonwire.AppendString(dst, string(r.Reason))
	}
	dst = append(dst, `,"value":`...)
	dst = appendRat(dst, r.Value)
	dst = append(dst, `,"first_discrepancy":`...)
	if d := r.FirstDiscrepancy; d == nil {
		dst = append(dst, "null"...)
	} else {
		dst = d.appendJSON(dst)
	}
	return append(dst, refVersionTail...), nil // verdict checked the version
}

// refVersionTail ends every document: written once, not escaped again for
// every answer.
var refVersionTail = string(append(jsonwire.AppendString([]byte(`,"reference_version":`), ReferenceVersion), '}'))

// verdict returns nil when r has the shape of a verdict of CheckRational,
// and otherwise an error naming what is wrong with it.
func (r *Result) verdict() error {
	if f := r.fault(); f != "" {
		return errors.New("rational: Result is no verdict: " + f)
	}
	return nil
}

// fault says what is wrong with r as a verdict, "" when nothing. The rule:
// valid with a Value and nothing else; or invalid with a known Reason, a
// Value unless the reason is division_by_zero, and the FirstDiscrepancy of
// that reason (see Discrepancy.fault).
func (r *Result) fault() string {
	d := r.FirstDiscrepancy
	switch {
	case !r.Valid && r.Reason == "" && d == nil && r.Value == nil && r.ReferenceVersion == "":
		return "it is the zero value (did the check return an error?)"
	case r.ReferenceVersion != ReferenceVersion:
		return "its ReferenceVersion " + strconv.Quote(r.ReferenceVersion) + " is not rational.ReferenceVersion"
	case r.Valid && r.Reason != "":
		return "it is valid but has a Reason"
	case r.Valid && d != nil:
		return "it is valid but has a FirstDiscrepancy"
	case r.Valid && r.Value == nil:
		return "it is valid but has no Value"
	case r.Valid:
		return ""
	case r.Reason != DivisionByZero && r.Reason != ValueMismatch && r.Reason != NotCanonical:
		return "its Reason " + strconv.Quote(string(r.Reason)) + " is none of the tool's"
	case d == nil:
		return "it is invalid but has no FirstDiscrepancy"
	case r.Reason == DivisionByZero && r.Value != nil:
		return "a division_by_zero result has a Value"
	case r.Reason != DivisionByZero && r.Value == nil:
		return "a " + string(r.Reason) + " result has no Value"
	case r.Reason == DivisionByZero && d.Field != FieldExpression:
		return "a division_by_zero discrepancy is about " + strconv.Quote(string(d.Field)) + ", not the expression"
	case r.Reason != DivisionByZero && d.Field != FieldClaimedValue:
		return "a " + string(r.Reason) + " discrepancy is about " + strconv.Quote(string(d.Field)) + ", not the claimed value"
	}
	return d.fault()
}

// verdict returns nil when d has the shape of a discrepancy of a verdict.
func (d *Discrepancy) verdict() error {
	if f := d.fault(); f != "" {
		return errors.New("rational: Discrepancy is no verdict: " + f)
	}
	return nil
}

// fault says what is wrong with d, "" when nothing: a discrepancy in the
// expression has a Position and a DivisorText and nothing else; one in the
// claimed value has an ActualValue and a Difference and nothing else.
func (d *Discrepancy) fault() string {
	switch d.Field {
	case FieldExpression:
		switch {
		case d.Position < 0:
			return "a discrepancy in the expression has no Position"
		case d.DivisorText == "":
			return "a discrepancy in the expression has no DivisorText"
		case d.ActualValue != nil || d.Difference != nil:
			return "a discrepancy in the expression has an ActualValue or a Difference"
		}
	case FieldClaimedValue:
		switch {
		case d.ActualValue == nil:
			return "a discrepancy in the claimed value has no ActualValue"
		case d.Difference == nil:
			return "a discrepancy in the claimed value has no Difference"
		case d.Position != claimcheck.NoPosition || d.DivisorText != "":
			return "a discrepancy in the claimed value has a Position or a DivisorText"
		}
	default:
		return "its Field " + strconv.Quote(string(d.Field)) + " is neither expression nor claimed_value"
	}
	return ""
}

// MarshalJSON returns the first_discrepancy object of the output document,
// members in the output schema's order, nulls written as null, or an error
// for a Discrepancy that cannot be part of a verdict: a FieldExpression one
// has a Position of at least 0 and a DivisorText but no ActualValue or
// Difference, a FieldClaimedValue one the reverse (Position
// claimcheck.NoPosition).
func (d Discrepancy) MarshalJSON() ([]byte, error) {
	if err := d.verdict(); err != nil {
		return nil, err
	}
	return d.appendJSON(nil), nil
}

func (d *Discrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"field":`...)
	dst = jsonwire.AppendString(dst, string(d.Field))
	dst = append(dst, `,"claimed_value":`...)
	dst = jsonwire.AppendString(dst, d.ClaimedValue)
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
		dst = jsonwire.AppendString(dst, d.DivisorText)
	}
	return append(dst, '}')
}

func appendRat(dst []byte, x *Rat) []byte {
	if x == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = x.appendText(dst)
	return append(dst, '"')
}
