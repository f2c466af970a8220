package claimchecktest

import (
	"fmt"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

// An Option changes what a helper checks or how it reports, in the manner
// of go-cmp's options: the helpers take any number of them after the claim,
// applied in order, and ignore those that do not concern them ([Limits]
// means nothing to [Rational], [RationalLimits] nothing to [Equality],
// [AnyOrder] nothing but to [Difference]).
//
//	claimchecktest.Equality(t, reference, answer,
//		claimchecktest.Messagef("Q%d factors", 1), claimchecktest.FailNow())
type Option struct {
	apply func(*config)
}

// config is what the options of one call say.
type config struct {
	labels   []string
	failNow  bool
	hide     bool
	anyOrder bool
	lim      multiset.Limits
	ratLim   rational.Limits
	partial  float64           // with PartialCanonical: the score of a claim right but not canonical
	sub      *canon.Submission // with In: the student's document
	names    []string          // with In: the claim's members of sub
	goNames  []string          // with Named: the names of the claim's Go values
}

func newConfig(opts []Option) config {
	c := config{lim: multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: multiset.NoLimit}}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	return c
}

// Message labels the report: a failure's first line starts with label
// and ": ", as testify prints its messages; label is written as it is
// ("100% right" too). Several labels, of Message and [Messagef], are
// written in the order given, each followed by ": ". A passing check
// prints nothing, label or not.
func Message(label string) Option {
	return Option{func(c *config) { c.labels = append(c.labels, label) }}
}

// Messagef is [Message] with the label fmt.Sprintf(format, args...).
func Messagef(format string, args ...any) Option { return Message(fmt.Sprintf(format, args...)) }

// FailNow stops the test after a failure is reported: the helper calls
// t.FailNow, as testify's require and t.Fatalf do, so nothing after the
// call runs (it must then be called from the test's goroutine). Without it
// a helper reports with t.Errorf and the test goes on. The t of a helper
// given FailNow must have a FailNow method (*testing.T has); one without
// it panics after the report, rather than let a test that asked to stop
// go on. It means nothing to the Check functions, which report to no one.
func FailNow() Option {
	return Option{func(c *config) { c.failNow = true }}
}

// HideReference makes the report one fit to show the student who wrote the
// claim: it says what is wrong with the claim, in terms of the claim, and
// never shows a value of the reference (source, left, right, the expected
// residuals) or the expression's true value. It names no Go identifier
// (the staff report starts with the helper's name, claimchecktest.Equality)
// and shows each number the claim holds as the student wrote it, where
// that is known ([In], or json.Number elements), as -0e0 rather than 0.
//
//   - [Equality]: which of the claim's values occur too often and which
//     should not occur at all, each with its count in the claim and where
//     the claim first has it, and how many occurrences are missing, without
//     saying of which values;
//   - [Difference]: for each claimed list, the first index at which it is
//     wrong and the claim's element there (or that it has none); with
//     [AnyOrder], for each list, what [Equality] says of a bag;
//   - [Rational]: that the claimed value is not the value of the
//     expression, with no value and no difference (a division by zero, an
//     error in the expression and a claim in the wrong form are reported as
//     without the option: they show nothing the claim does not).
//
// A claim the check refuses is reported with its path and message. A
// reference it refuses (or an expression that divides by zero) is no
// fault of the student's: it is reported as the staff's, in full, with
// or without HideReference (a Check function returns it as a [*ReferenceError]).
func HideReference() Option {
	return Option{func(c *config) { c.hide = true }}
}

// AnyOrder makes [Difference] compare each claimed residual list with the
// expected one as a bag: the claim holds when left_only has every value of
// the expected left_only as often, in any order, and likewise right_only.
// That is the question "which items are in A but not in B" usually asks;
// without the option the lists must also be in the tool's order (walk
// left, the earliest occurrences removed). Its report says, for each list,
// which values are missing and which should not be there, with their
// counts and where each first is. Without it, behaviour and reports are
// those of the tool's contract.
func AnyOrder() Option {
	return Option{func(c *config) { c.anyOrder = true }}
}

// In says where the claim is in the student's document sub: the answer
// named names[0] ([Equality], [Rational] and [RationalCanonical]), or the
// answers names[0] and names[1] ([Difference]'s left_only and
// right_only). The report then names the claim's values by their JSON
// Pointer paths in that document, /q1/3, as [canon.ParseSubmission] names
// its errors (without In: /claim/3, /claim/left_only/3, /claimed_value,
// the paths of the tool's input document), and, under [HideReference],
// shows each number as the student wrote it ([canon.Submission.Literal])
// where the claim's element is the answer's.
//
//	sub, err := canon.ParseSubmission(data, canon.ExactNumbers())
//	q1, err := sub.Array("q1")
//	claimchecktest.Equality(t, reference, q1, claimchecktest.In(sub, "q1"))
//
// An answer the submission refuses (a repeated name, an inexact number
// under [canon.ExactNumbers], invalid UTF-8) or lacks is reported as a
// refused claim, at its path, with score 0, so that the grading code may
// pass what Array returned, nil with its error, and let the helper say
// why. A helper given In with the wrong number of names panics: that is a
// bug in the grading code, not in the answer.
func In(sub *canon.Submission, names ...string) Option {
	names = append([]string(nil), names...)
	return Option{func(c *config) { c.sub, c.names = sub, names }}
}

// Limits bounds the checks of [Equality] and [Difference]: limit errors are
// reported as a refused input, as the JSON tools report them. By default
// the helpers have no bound but memory. l's fields mean what they mean in
// package multiset: a zero (or negative) field is the tool's bound
// (10000, [multiset.DefaultLimits]), [multiset.NoLimit] is none.
func Limits(l multiset.Limits) Option {
	return Option{func(c *config) { c.lim = l }}
}

// RationalLimits sets the limits of [Rational] and [RationalCanonical],
// which by default are the rational tool's ([rational.DefaultLimits]); a
// zero field of l means the default's, as for [rational.CheckRational]. Raise
// them for an expression with more tokens, deeper nesting or longer numbers
// than the tool accepts.
func RationalLimits(l rational.Limits) Option {
	return Option{func(c *config) { c.ratLim = l }}
}

// PartialCanonical gives a claim of [RationalCanonical] that is the right
// value in a form the grammar accepts but that is not canonical ("26/12"
// or "-0" for 13/6 or 0) the score credit instead of 0: the one rule of
// partial credit for the form. The claim still does not hold (Valid is
// false, and the report says what to write). A claim the grammar refuses
// ("25 / 12") is refused, and scores 0, with or without it. credit must be
// in [0, 1]; PartialCanonical panics otherwise, a bug in the grading code.
//
//	r := claimchecktest.CheckRationalCanonical(expr, answer, claimchecktest.PartialCanonical(0.5))
func PartialCanonical(credit float64) Option {
	if !(credit >= 0 && credit <= 1) {
		panic(fmt.Sprintf("claimchecktest.PartialCanonical: credit %v is not in [0, 1]", credit))
	}
	return Option{func(c *config) { c.partial = credit }}
}

// Named names the claim's Go values for the report: the answer is
// names[0] ([Equality], [Rational] and [RationalCanonical]), or names[0]
// and names[1] ([Difference]'s left_only and right_only), and the report
// names its elements name[3] (leftOnly[0]; a rational claim by its name
// alone) rather than by the tool's paths (/claim/3, /claim/left_only/0,
// /claimed_value), in the staff report and the student's alike; a refused
// claim's [Report].Err has that path too. Under [HideReference] without
// Named or [In], the answer is named "answer" (Difference's lists
// "answer1" and "answer2"), so that a student's report never shows a
// tool's path. [In] names a submission's answers by their JSON Pointers
// and wins over Named. A helper given Named with the wrong number of
// names panics, as for In.
//
//	claimchecktest.Difference(t, left, right, leftOnly, rightOnly,
//		claimchecktest.Named("leftOnly", "rightOnly"), claimchecktest.HideReference())
func Named(names ...string) Option {
	names = append([]string(nil), names...)
	return Option{func(c *config) { c.goNames = names }}
}

// paths returns where the claim's lists are, one per list the helper
// checks (helper names it for the panic): the JSON Pointers of In's
// answers; Named's names (or, under HideReference, the default names),
// with bracket set, an element being name[i]; or the paths of the tool's
// input document, def.
func (c *config) paths(helper string, def ...string) (bases []string, bracket bool) {
	names := c.goNames
	if c.sub != nil {
		names = c.names
	}
	if c.sub == nil && names == nil && c.hide {
		names = []string{"answer"}
		if len(def) == 2 {
			names = []string{"answer1", "answer2"}
		}
	}
	if names == nil {
		return def, false
	}
	if len(names) != len(def) {
		what := "Named"
		if c.sub != nil {
			what = "In"
		}
		panic(fmt.Sprintf("claimchecktest.%s: %s gives %d answer names, want %d", helper, what, len(names), len(def)))
	}
	if c.sub == nil {
		return names, true
	}
	out := make([]string, len(def))
	for i, n := range names {
		out[i] = pointer(n)
	}
	return out, false
}

func pointer(name string) string { return string(jsonwire.AppendPointerToken(nil, name)) }

// answerErr returns the error In's submission gives for the claim's
// answers (read by read, Array or String), the first of them; nil without
// In or when each is read.
func (c *config) answerErr(read func(*canon.Submission, string) error) error {
	if c.sub == nil {
		return nil
	}
	for _, n := range c.names {
		if err := read(c.sub, n); err != nil {
			return err
		}
	}
	return nil
}

func readArray(s *canon.Submission, name string) error {
	_, err := s.Array(name)
	return err
}

func readString(s *canon.Submission, name string) error {
	_, err := s.String(name)
	return err
}

// label prefixes report with the labels of Message.
func (c *config) label(report string) string {
	if len(c.labels) == 0 || report == "" {
		return report
	}
	return strings.Join(c.labels, ": ") + ": " + report
}

// head is how a report starts: the helper's name for staff, nothing the
// student would not know under HideReference.
func (c *config) head(helper string) string {
	if c.hide {
		return ""
	}
	return "claimchecktest." + helper + ": "
}
