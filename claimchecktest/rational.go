package claimchecktest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/rattext"
	"github.com/claimcheck/claimcheck/rational"
)

// Rational reports whether claimedValue is the exact value of expression,
// in any form ("2/4" is accepted for 1/2; see [RationalCanonical]). On
// failure it reports, with t.Errorf, the true value, the claim and their
// difference, or, for a division by zero or an error in the expression, the
// expression with a caret under the position; and returns false. See
// [Option] for what opts change ([HideReference], [RationalLimits]).
func Rational(t TB, expression, claimedValue string, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	return c.report(t, checkRational(&c, "Rational", rational.Input{Expression: expression, ClaimedValue: claimedValue}))
}

// RationalCanonical is [Rational] for a claim that must also be written in
// canonical form: "0", "n", "-n", "n/d" or "-n/d" in lowest terms with d > 1.
func RationalCanonical(t TB, expression, claimedValue string, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	return c.report(t, checkRational(&c, "RationalCanonical", rational.Input{Expression: expression, ClaimedValue: claimedValue, RequireCanonical: true}))
}

// CheckRational is [Rational] without a test: it returns the verdict, the
// score (1 or 0) and the report Rational would write, or a
// [*ReferenceError] when the expression cannot be used.
func CheckRational(expression, claimedValue string, opts ...Option) (Report, error) {
	c := newConfig(opts)
	return public(checkRational(&c, "Rational", rational.Input{Expression: expression, ClaimedValue: claimedValue}))
}

// CheckRationalCanonical is [RationalCanonical] without a test.
func CheckRationalCanonical(expression, claimedValue string, opts ...Option) (Report, error) {
	c := newConfig(opts)
	return public(checkRational(&c, "RationalCanonical", rational.Input{Expression: expression, ClaimedValue: claimedValue, RequireCanonical: true}))
}

func checkRational(c *config, helper string, in rational.Input) Report {
	ats, _ := c.paths(helper, "/claimed_value")
	at := ats[0]
	if err := c.answerErr(readString); err != nil {
		return c.refused(helper, err, nil, nil, false)
	}
	res, err := rational.CheckRational(in, c.ratLim)
	if err != nil {
		return c.rationalRefused(helper, in, at, err)
	}
	if res.Valid {
		return Report{Valid: true, Score: 1}
	}
	if res.Reason == rational.DivisionByZero { // the expression's, not the claim's
		return c.referenceFault(helper, rationalReport(in, res, false), nil)
	}
	r := Report{Text: c.label(c.head(helper) + rationalReport(in, res, c.hide))}
	if res.Reason == rational.NotCanonical {
		r.Score = c.partial
	}
	return r
}

// rationalRefused reports an input the check refuses; an error in the
// expression shows where. A malformed claim is named at its path in the
// student's document (at) and gets the grading helpers' hints, which the
// JSON tools' message leaves out (white space inside a fraction,
// non-ASCII digits, a second '/'). Nothing in it is the true value, so
// HideReference changes nothing here but the report's head.
func (c *config) rationalRefused(helper string, in rational.Input, at string, err error) Report {
	var e *claimcheck.Error
	if errors.As(err, &e) && e.Path == "/claimed_value" {
		moved := *e
		moved.Path = at
		if moved.Code == claimcheck.InvalidInput {
			moved.Message = rattext.ClaimMessage(in.ClaimedValue, true)
			if c.hide {
				moved.Message = rattext.StudentForm(moved.Message)
			}
		}
		err, e = &moved, &moved
	}
	r := c.refused(helper, err, nil, nil, false, "/expression")
	if e != nil && e.Path == "/expression" && e.Position >= 0 {
		r.Text += "\n" + caret(in.Expression, e.Position, 1)
	}
	return r
}

// rationalReport states why a claim is rejected; with hide, a wrong value
// is reported without the true value or the difference.
func rationalReport(in rational.Input, res rational.Result, hide bool) string {
	d := res.FirstDiscrepancy
	var b strings.Builder
	switch {
	case d == nil:
		fmt.Fprintf(&b, "claim rejected: %s", res.Reason)
	case res.Reason == rational.DivisionByZero:
		fmt.Fprintf(&b, "the expression divides by zero: the divisor %s is 0\n", oneLine(d.DivisorText))
		b.WriteString(caret(in.Expression, d.Position, divisorSpan(in.Expression, d.Position, d.DivisorText)))
	case res.Reason == rational.NotCanonical:
		fmt.Fprintf(&b, "%s is the right value in the wrong form; write %s", in.ClaimedValue, d.CanonicalClaim.String())
	case hide:
		fmt.Fprintf(&b, "%s is not the value of the expression\n", in.ClaimedValue)
		writeTable(&b, [][]string{
			{"expression:", oneLine(in.Expression)},
			{"claimed:", in.ClaimedValue},
		}, []bool{false, false}, "  ")
	default:
		fmt.Fprintf(&b, "the expression is not %s\n", in.ClaimedValue)
		rows := [][]string{
			{"expression:", oneLine(in.Expression)},
			{"value:", res.Value.String()},
			{"claimed:", in.ClaimedValue},
			{"difference:", d.Difference.String() + " (value − claim)"},
		}
		writeTable(&b, rows, []bool{false, false}, "  ")
	}
	return b.String()
}

// caret shows expr on one line and, under it, a caret at code point pos
// followed by width-1 tildes. Line breaks and tabs in expr are shown as
// spaces, so that one code point is one column.
func caret(expr string, pos, width int) string {
	line := oneLine(expr)
	return "  " + line + "\n  " + strings.Repeat(" ", pos) + "^" + strings.Repeat("~", max(width-1, 0))
}

// divisorSpan is the width, in code points, from the operator at pos to the
// end of the divisor's text, which follows it (after any whitespace).
func divisorSpan(expr string, pos int, divisor string) int {
	rs := []rune(expr)
	if pos >= len(rs) {
		return 1
	}
	rest := string(rs[pos+1:])
	i := strings.Index(rest, divisor)
	if i < 0 {
		return 1
	}
	return 1 + len([]rune(rest[:i])) + len([]rune(divisor))
}

// oneLine replaces the whitespace characters that would break a report's
// layout (line feed, carriage return, tab) with spaces, one for one.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, s)
}
