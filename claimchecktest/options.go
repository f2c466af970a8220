package claimchecktest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

// An Option changes what a helper checks or how it reports, in the manner
// of go-cmp's options: the helpers take any number of them after the claim,
// applied in order, and ignore those that do not concern them ([Limits]
// means nothing to [Rational], [RationalLimits] nothing to [Equality]).
//
//	claimchecktest.Equality(t, reference, answer,
//		claimchecktest.Message("Q%d factors", 1), claimchecktest.FailNow())
type Option struct {
	apply func(*config)
}

// config is what the options of one call say.
type config struct {
	labels  []string
	failNow bool
	hide    bool
	lim     multiset.Limits
	ratLim  rational.Limits
}

// noCap lifts the JSON tools' limits: a test's bags are bounded by memory.
const noCap = math.MaxInt32

func newConfig(opts []Option) config {
	c := config{lim: multiset.Limits{MaxItems: noCap, MaxDistinct: noCap}}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	return c
}

// Message labels the report: a failure's first line starts with
// fmt.Sprintf(format, args...) and ": ", as testify prints its messages.
// Several labels are written in the order given, each followed by ": ".
// A passing check prints nothing, label or not.
func Message(format string, args ...any) Option {
	label := fmt.Sprintf(format, args...)
	return Option{func(c *config) { c.labels = append(c.labels, label) }}
}

// FailNow stops the test after a failure is reported: the helper calls
// t.FailNow, as testify's require and t.Fatalf do, so nothing after the
// call runs (it must then be called from the test's goroutine). Without it
// a helper reports with t.Errorf and the test goes on.
func FailNow() Option {
	return Option{func(c *config) { c.failNow = true }}
}

// HideReference makes the report one fit to show the student who wrote the
// claim: it says what is wrong with the claim, in terms of the claim, and
// never shows a value of the reference (source, left, right, the expected
// residuals) or the expression's true value.
//
//   - [Equality]: which of the claim's values occur too often and which
//     should not occur at all, each with its count in the claim and where
//     the claim first has it, and how many occurrences are missing, without
//     saying of which values;
//   - [Difference]: for each claimed list, the first index at which it is
//     wrong and the claim's element there (or that it has none);
//   - [Rational]: that the claimed value is not the value of the
//     expression, with no value and no difference (a division by zero, an
//     error in the expression and a claim in the wrong form are reported as
//     without the option: they show nothing the claim does not).
//
// An input the check refuses is reported with its code and path; its
// message too when the path is in the claim, not when it is in the
// reference (the message may quote a value).
func HideReference() Option {
	return Option{func(c *config) { c.hide = true }}
}

// Limits bounds the checks of [Equality] and [Difference]: limit errors are
// reported as a refused input, as the JSON tools report them. By default
// the helpers have no bound but memory; a zero (or negative) field of l
// keeps that default for the field.
func Limits(l multiset.Limits) Option {
	return Option{func(c *config) {
		c.lim = l
		if c.lim.MaxItems <= 0 {
			c.lim.MaxItems = noCap
		}
		if c.lim.MaxDistinct <= 0 {
			c.lim.MaxDistinct = noCap
		}
	}}
}

// RationalLimits sets the limits of [Rational] and [RationalCanonical],
// which by default are the rational tool's ([rational.DefaultLimits]); a
// zero field of l means the default's, as for [rational.CheckRational]. Raise
// them for an expression with more tokens, deeper nesting or longer numbers
// than the tool accepts.
func RationalLimits(l rational.Limits) Option {
	return Option{func(c *config) { c.ratLim = l }}
}

// fail reports a failure: the labels, then report, with t.Errorf, and stops
// the test with t.FailNow under [FailNow].
func (c *config) fail(t testing.TB, report string) {
	t.Helper()
	if len(c.labels) > 0 {
		report = strings.Join(c.labels, ": ") + ": " + report
	}
	t.Errorf("%s", report)
	if c.failNow {
		t.FailNow()
	}
}
