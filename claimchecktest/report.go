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
	// Err is the refusal when the check could not be made (an input over a
	// limit, an element that is not a scalar): a *claimcheck.Error, whose
	// path Text names. It is nil when the check was made, valid or not.
	Err error
	// RefusedReference reports that the check could not be made because
	// of the reference, the grading code's side: a source, left or right
	// list the check refuses (Err, at /source, /left or /right), an
	// expression it refuses (Err, at /expression) or one that divides by
	// zero (Err nil). Text is then the staff's report, saying that the
	// reference is at fault and what is wrong in it, with or without
	// [HideReference]: it is no report for the student, who cannot fix it,
	// and a helper given a t reports it as the staff's failure. It is
	// false when the claim is refused (Err's path is the claim's) or the
	// check was made.
	RefusedReference bool
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
