package claimchecktest_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// TestCheckIsTheHelper: each Check function returns what its helper
// reports (the same text, the same verdict), so that a grader without a
// test gets the report a test would.
func TestCheckIsTheHelper(t *testing.T) {
	hide := claimchecktest.HideReference()
	label := claimchecktest.Messagef("Q%d", 2)
	type row struct {
		reason string
		helper func(t claimchecktest.TB) bool
		check  func() claimchecktest.Report
	}
	testutil.Run(t, []row{
		{"equality fails", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1, 2}, []int{2, 2}, label) },
			func() claimchecktest.Report {
				return report(claimchecktest.CheckEquality([]int{1, 2}, []int{2, 2}, label))
			}},
		{"equality, student form", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1, 2}, []int{2, 2}, hide) },
			func() claimchecktest.Report {
				return report(claimchecktest.CheckEquality([]int{1, 2}, []int{2, 2}, hide))
			}},
		{"equality passes", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1, 2}, []int{2, 1}) },
			func() claimchecktest.Report { return report(claimchecktest.CheckEquality([]int{1, 2}, []int{2, 1})) }},
		{"difference fails", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, fruitA, fruitB, []string{"apple"}, []string{})
		},
			func() claimchecktest.Report {
				return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"apple"}, []string{}))
			}},
		{"difference in any order, student form", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, fruitA, fruitB, []string{"apple"}, []string{}, claimchecktest.AnyOrder(), hide)
		}, func() claimchecktest.Report {
			return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"apple"}, []string{}, claimchecktest.AnyOrder(), hide))
		}},
		{"rational fails", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1/2", "1/3", label) },
			func() claimchecktest.Report { return report(claimchecktest.CheckRational("1/2", "1/3", label)) }},
		{"rational canonical refuses", func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "1/2", "25 / 12") },
			func() claimchecktest.Report { return report(claimchecktest.CheckRationalCanonical("1/2", "25 / 12")) }},
	}, func(t *testing.T, r row) {
		ok, report := run(r.helper)
		got := r.check()
		if got.Valid != ok || got.Text != report {
			t.Errorf("Check: %v %q; the helper: %v %q", got.Valid, got.Text, ok, report)
		}
	})
}

// TestReportErr: a refused input's Report carries the error, at the path
// the report names (the student's document's under In); a check that was
// made has none.
func TestReportErr(t *testing.T) {
	sub, err := canon.ParseSubmission([]byte(`{"q1": [1, 2], "q2": [9007199254740992.5]}`), canon.ExactNumbers())
	if err != nil {
		t.Fatal(err)
	}
	q1, _ := sub.Array("q1")
	q2, _ := sub.Array("q2")
	for _, tc := range []struct {
		r    claimchecktest.Report
		path string // "" for no error
	}{
		{report(claimchecktest.CheckEquality([]int{1}, []any{1, []int{}})), "/claim/1"},
		{report(claimchecktest.CheckEquality([]int{1}, q1, claimchecktest.In(sub, "q1"), claimchecktest.Limits(multiset.Limits{MaxItems: 1}))), "/q1"},
		{report(claimchecktest.CheckEquality([]int{1}, q2, claimchecktest.In(sub, "q2"))), "/q2/0"},
		{report(claimchecktest.CheckDifference([]int{1}, []int{}, []any{"\xff"}, []any{})), "/claim/left_only/0"},
		{report(claimchecktest.CheckRational("1 +", "1")), "/expression"},
		{report(claimchecktest.CheckEquality([]int{1}, []int{2})), ""},
	} {
		var e *claimcheck.Error
		switch {
		case tc.path == "" && tc.r.Err != nil:
			t.Errorf("%q: Err %v, want none", tc.r.Text, tc.r.Err)
		case tc.path != "" && (!errors.As(tc.r.Err, &e) || e.Path != tc.path || !strings.Contains(tc.r.Text, tc.path) || tc.r.Score != 0):
			t.Errorf("%q: Err %v, score %v; want an error at %s, score 0", tc.r.Text, tc.r.Err, tc.r.Score, tc.path)
		}
	}
}

// TestDifferenceElementTypes: left, right and the claim each have their
// own element type, and are compared as JSON values.
func TestDifferenceElementTypes(t *testing.T) {
	ok, report := run(func(t claimchecktest.TB) bool {
		return claimchecktest.Difference(t, []string{"a", "b"}, []any{"a"}, []canon.Scalar{mustString("b")}, []canon.Scalar(nil))
	})
	if !ok {
		t.Errorf("a right difference of []string, []any and []canon.Scalar fails:\n%s", report)
	}
	if _, report := run(func(t claimchecktest.TB) bool {
		return claimchecktest.Difference(t, []int{1, 2}, []float64{2.5}, []any{1.0, 2}, []any{2.5})
	}); report != "" {
		t.Errorf("ints and floats as JSON values: %s", report)
	}
}

func mustString(s string) canon.Scalar {
	v, err := canon.StringScalar(s)
	if err != nil {
		panic(err)
	}
	return v
}

// TestAnyOrder: the TA's question, items in A but not B and in B but not
// A, answered in another order than the tool's: right with AnyOrder,
// wrong without (the tool's contract, unchanged).
func TestAnyOrder(t *testing.T) {
	lo, ro := []string{"cherry", "date", "apple"}, []string{"fig", "egg"}
	if ok, report := run(func(t claimchecktest.TB) bool {
		return claimchecktest.Difference(t, fruitA, fruitB, lo, ro, claimchecktest.AnyOrder())
	}); !ok {
		t.Errorf("AnyOrder: the residuals in another order fail:\n%s", report)
	}
	if ok, report := run(func(t claimchecktest.TB) bool { return claimchecktest.Difference(t, fruitA, fruitB, lo, ro) }); ok || !strings.Contains(report, "differs at 3 indexes") {
		t.Errorf("without AnyOrder: %v\n%s", ok, report)
	}
	if ok, _ := run(func(t claimchecktest.TB) bool {
		return claimchecktest.Difference(t, fruitA, fruitB, append(lo, "apple"), ro, claimchecktest.AnyOrder())
	}); ok {
		t.Error("AnyOrder: an apple too many passes")
	}
}

// TestIn: under In the report names the claim's values by their paths in
// the student's document and, for the student, shows its numbers as
// written; a claim that is not the answer's own element keeps its
// canonical form; the wrong number of names is a bug of the grader.
func TestIn(t *testing.T) {
	sub, err := canon.ParseSubmission([]byte(`{"q1": [1.50, 7e0], "q2": ["x"], "q3": "1/3"}`))
	if err != nil {
		t.Fatal(err)
	}
	q1, _ := sub.Array("q1")
	hide := claimchecktest.HideReference()
	_, report := run(func(t claimchecktest.TB) bool {
		return claimchecktest.Equality(t, []int{7}, q1, claimchecktest.In(sub, "q1"), hide)
	})
	if !strings.Contains(report, "1.50       1  should not occur  /q1/0") {
		t.Errorf("the student's report does not show 1.50 at /q1/0:\n%s", report)
	}
	changed := []canon.Scalar{mustNumber(2.5), q1[1]}
	_, report = run(func(t claimchecktest.TB) bool {
		return claimchecktest.Equality(t, []int{7}, changed, claimchecktest.In(sub, "q1"), hide)
	})
	if !strings.Contains(report, "2.5        1  should not occur  /q1/0") {
		t.Errorf("a claim element that is not the answer's is shown as the student's:\n%s", report)
	}
	_, report = run(func(t claimchecktest.TB) bool {
		return claimchecktest.RationalCanonical(t, "1/2", "1/3", claimchecktest.In(sub, "q3"))
	})
	if !strings.Contains(report, "the expression is not 1/3") {
		t.Errorf("rational under In:\n%s", report)
	}
	for _, bad := range []func(t claimchecktest.TB) bool{
		func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{7}, q1, claimchecktest.In(sub, "q1", "q2"))
		},
		func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, []int{7}, []int{}, q1, q1, claimchecktest.In(sub, "q1"))
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("In with the wrong number of names did not panic")
				}
			}()
			run(bad)
		}()
	}
}

func mustNumber(f float64) canon.Scalar {
	v, err := canon.NumberScalar(f)
	if err != nil {
		panic(err)
	}
	return v
}

// noFailNow is a harness without FailNow.
type noFailNow struct{ reports int }

func (*noFailNow) Helper()                 {}
func (h *noFailNow) Errorf(string, ...any) { h.reports++ }

// TestFailNowNeedsFailNow: a helper given FailNow and a t that cannot stop
// reports, then panics rather than let the test go on; without FailNow
// any TB will do.
func TestFailNowNeedsFailNow(t *testing.T) {
	h := &noFailNow{}
	if claimchecktest.Equality(h, []int{1}, []int{2}) || h.reports != 1 {
		t.Errorf("a harness of two methods: %d reports", h.reports)
	}
	defer func() {
		if recover() == nil || h.reports != 2 {
			t.Errorf("FailNow with a t without FailNow: no panic, or no report first (%d)", h.reports)
		}
	}()
	claimchecktest.Equality(h, []int{1}, []int{2}, claimchecktest.FailNow())
}

// TestJSONNumbersAsWritten: a json.Number element is JSON text, so the
// student's report shows it as written, in []any (UseNumber) or
// []json.Number.
func TestJSONNumbersAsWritten(t *testing.T) {
	hide := claimchecktest.HideReference()
	for _, check := range []func(t claimchecktest.TB) bool{
		func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{1}, decode(`[1, 2.50]`, true), hide)
		},
		func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{1}, []json.Number{"1", "2.50"}, hide)
		},
	} {
		if _, report := run(check); !strings.Contains(report, "2.50       1  should not occur  answer[1]") {
			t.Errorf("2.50 is not shown as written:\n%s", report)
		}
	}
}
