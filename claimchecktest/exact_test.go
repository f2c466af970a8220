package claimchecktest_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestExactIntegerReference: a reference of Go integers no double holds is
// graded as those integers, against a JSON answer read with ExactNumbers
// (ParseSubmission, named with In) or converted to canon.ExactNumber: the
// integer written passes, its double's neighbour fails, and the report
// shows the digits the student wrote.
func TestExactIntegerReference(t *testing.T) {
	type row struct {
		ref    []int64
		answer string // q1 of a submission read with ExactNumbers
		valid  bool
		shows  string // a part of the failure's report
		reason string
	}
	testutil.Run(t, []row{
		{[]int64{1, 1<<53 + 1}, `{"q1": [1, 9007199254740993]}`, true, "", "the integer written passes (refused before)"},
		{[]int64{1, 1<<53 + 1}, `{"q1": [9.007199254740993e15, 1.0]}`, true, "", "in any notation and order"},
		{[]int64{1, 1<<53 + 1}, `{"q1": [1, 9007199254740992]}`, false, "9007199254740993", "2^53, which 2^53+1 would round to, fails"},
		{[]int64{1, 1 << 53}, `{"q1": [1, 9007199254740993]}`, false, "9007199254740993", "and the other way round"},
		{[]int64{math.MaxInt64}, `{"q1": [9223372036854775807]}`, true, "", "math.MaxInt64"},
		{[]int64{math.MaxInt64}, `{"q1": [9223372036854775806]}`, false, "9223372036854775806", "its neighbour"},
	}, func(t *testing.T, r row) {
		sub, err := canon.ParseSubmission([]byte(r.answer), canon.ExactNumbers())
		if err != nil {
			t.Fatal(err)
		}
		q1, err := sub.Array("q1")
		if err != nil {
			t.Fatal(err)
		}
		rep := report(claimchecktest.CheckEquality(r.ref, q1, claimchecktest.In(sub, "q1")))
		if rep.Valid != r.valid || rep.Err != nil || !strings.Contains(rep.Text, r.shows) {
			t.Errorf("valid %v, err %v, report:\n%s\nwant valid %v, showing %q", rep.Valid, rep.Err, rep.Text, r.valid, r.shows)
		}
		if strings.Contains(rep.Text, "9n") || strings.Contains(rep.Text, "3n") {
			t.Errorf("the report shows a key, not the digits:\n%s", rep.Text)
		}
		// The same answer decoded with UseNumber and converted.
		var nums []json.Number
		dec := json.NewDecoder(strings.NewReader(strings.TrimSuffix(strings.TrimPrefix(r.answer, `{"q1": `), "}")))
		dec.UseNumber()
		if err := dec.Decode(&nums); err != nil {
			t.Fatal(err)
		}
		exact := make([]canon.ExactNumber, len(nums))
		for i, n := range nums {
			exact[i] = canon.ExactNumber(n)
		}
		if got := report(claimchecktest.CheckEquality(r.ref, exact)); got.Valid != r.valid {
			t.Errorf("as []canon.ExactNumber: valid %v, want %v:\n%s", got.Valid, r.valid, got.Text)
		}
		// And as *big.Int elements.
		bigs := make([]*big.Int, len(r.ref))
		for i, x := range r.ref {
			bigs[i] = big.NewInt(x)
		}
		if got := report(claimchecktest.CheckEquality(bigs, q1)); got.Valid != r.valid {
			t.Errorf("a []*big.Int reference: valid %v, want %v:\n%s", got.Valid, r.valid, got.Text)
		}
	})
}

// TestReportTellsAlikeIntegersApart: an exact integer whose digits are a
// double's JSON text (1152921504606847000, the text of 2^60) shows by its
// key where both are in one report, so that no two values show alike.
func TestReportTellsAlikeIntegersApart(t *testing.T) {
	type row struct {
		rep    claimchecktest.Report
		shows  []string
		reason string
	}
	testutil.Run(t, []row{
		{report(claimchecktest.CheckEquality([]int64{1 << 60}, []canon.ExactNumber{"1152921504606847000"})),
			[]string{"1152921504606847000 ", "1152921504606847000n"}, "2^60 against the integer its text names"},
		{report(claimchecktest.CheckEquality([]int64{1 << 60}, []canon.ExactNumber{"1152921504606847000"}, claimchecktest.HideReference())),
			[]string{"1152921504606847000 "}, "hidden: only the claim's value shows"},
		{report(claimchecktest.CheckEquality([]int64{1<<53 + 1}, []int64{1 << 53})),
			[]string{"9007199254740993", "9007199254740992"}, "digits that differ show as digits"},
	}, func(t *testing.T, r row) {
		for _, s := range r.shows {
			if !strings.Contains(r.rep.Text, s) {
				t.Errorf("the report does not show %q:\n%s", s, r.rep.Text)
			}
		}
	})
}
