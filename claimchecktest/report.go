package claimchecktest

// TB is what a helper needs of a test: *testing.T, *testing.B, *testing.F
// and every testing.TB have it, and so may any harness of its own (as
// testify's TestingT is), since testing.TB has an unexported method no
// other type can have. With [FailNow], t must also have a FailNow()
// method.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// A Report is the outcome of one check, as the Check functions return it:
// what a helper would report, for a grader that writes a feedback file or
// a results document rather than fail a test.
type Report struct {
	// Valid reports whether the claim holds.
	Valid bool
	// Score is the partial credit of the claim, in [0, 1] and 1 exactly
	// when Valid; see the package documentation for its definition. It is
	// 0 when the input is refused.
	Score float64
	// Text is the report the helper would write, "" when Valid: the staff
	// form, or the student's under HideReference, with Message's labels.
	Text string
	// Err is the refusal of the answer when the check could not be made
	// (an element that is not a scalar, an answer over a limit): a
	// *claimcheck.Error, whose path Text names. It is nil when the check
	// was made, valid or not. A refusal of the reference is never in a
	// Report: the Check functions return it as a [*ReferenceError].
	Err error
	// ref says that the reference made the check impossible (Text is then
	// the staff's report): the Check functions turn it into a
	// ReferenceError, and the helpers given a t fail with Text.
	ref bool
}

// A ReferenceError is what a Check function returns, instead of a Report,
// when the check cannot use its reference: a source, left or right list it
// refuses or finds over a limit (Err, at /source, /left or /right), an
// expression it refuses (Err, at /expression) or one that divides by zero
// (Err nil). It is the grading code's fault, not the answer's: its Error
// says so and what is wrong in the reference, with or without
// [HideReference], and it belongs in no student's report. The helpers
// given a t report it as the test's failure.
type ReferenceError struct {
	// Err is the refusal, a *claimcheck.Error with its code and path, or
	// nil for an expression that divides by zero.
	Err  error
	text string
}

// Error returns the staff's report of the fault.
func (e *ReferenceError) Error() string { return e.text }

// Unwrap returns Err, so that errors.As reaches the *claimcheck.Error.
func (e *ReferenceError) Unwrap() error { return e.Err }

// public is what a Check function returns for r: r, or the
// ReferenceError r stands for.
func public(r Report) (Report, error) {
	if r.ref {
		return Report{}, &ReferenceError{Err: r.Err, text: r.Text}
	}
	return r, nil
}

// report hands r to t: nothing when the claim holds, else Text with
// t.Errorf, then t.FailNow under FailNow. It returns r.Valid.
func (c *config) report(t TB, r Report) bool {
	t.Helper()
	if r.Valid {
		return true
	}
	t.Errorf("%s", r.Text)
	if c.failNow {
		f, ok := t.(interface{ FailNow() })
		if !ok {
			panic("claimchecktest: FailNow() was given, but the t passed has no FailNow method")
		}
		f.FailNow()
	}
	return false
}

// ratio is the score matched/total, 1 when total is 0 (nothing to match,
// nothing missed). One correctly rounded division: for total < 2^53 it is
// 1 exactly when matched == total, since (total-1)/total rounds to less.
func ratio(matched, total int) float64 {
	if total == 0 {
		return 1
	}
	return float64(matched) / float64(total)
}
