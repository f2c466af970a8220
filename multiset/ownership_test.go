package multiset_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// report is everything a result reports, as text: what must not change once
// the check has returned.
func equalityReport(r multiset.EqualityResult) string {
	var b strings.Builder
	doc, err := r.AppendJSON(nil)
	fmt.Fprintf(&b, "%s|%v|%s|%v\n", r.String(), r.Err(), doc, err)
	if r.Discrepancy != nil {
		fmt.Fprintf(&b, "first %v\n", *r.Discrepancy)
	}
	for d := range r.Discrepancies() {
		fmt.Fprintf(&b, "%v %s\n", d, d.Value.Key())
	}
	return b.String()
}

func differenceReport(r multiset.DifferenceResult) string {
	var b strings.Builder
	doc, err := r.AppendJSON(nil)
	fmt.Fprintf(&b, "%s|%v|%s|%v\n", r.String(), r.Err(), doc, err)
	if d := r.Discrepancy; d != nil {
		fmt.Fprintf(&b, "first %s %v %v\n", d.Path, d.Expected, d.Actual)
	}
	lo, ro := r.Residuals()
	for _, list := range [][]canon.Scalar{lo, ro} {
		for _, s := range list {
			b.WriteString(s.Key() + " ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// overwrite sets every element of every slice to a value none of the
// checked ones is, as a caller reusing its buffers does.
func overwrite(slices ...[]any) {
	for _, xs := range slices {
		for i := range xs {
			xs[i] = "overwritten"
		}
	}
}

// TestResultsOwnWhatTheyReport checks that a result reports the same after
// its caller has overwritten every input slice, concurrently with the reads
// (so that, under -race, a result that still read the caller's slices is a
// reported race as well as a changed report).
func TestResultsOwnWhatTheyReport(t *testing.T) {
	decode := func(s string) []any {
		var xs []any
		if err := json.Unmarshal([]byte(s), &xs); err != nil {
			t.Fatal(err)
		}
		return xs
	}
	type row struct {
		reason       string
		source, got  string // equality
		l, r, lo, ro string // difference
	}
	rows := []row{
		{reason: "the issue's example: the claim's surplus value is reported from the claim",
			source: `[2,2,3,5,1]`, got: `[2,2,3,3,5,"x"]`},
		{reason: "many mismatches, both orders: Discrepancies lists them all",
			source: `[1,2,3,4,5,6,7,8,9,10,"a","b"]`, got: `[10,9,8,7,"c","d",null,true]`},
		{reason: "a valid equality keeps nothing and reports valid",
			source: `[1,2,"s"]`, got: `["s",2,1]`},
		{reason: "an invalid difference: Residuals computes the expected lists from left and right",
			l: `[1,2,2,3,"a"]`, r: `[2,4]`, lo: `[1,2,3]`, ro: `[4]`},
		{reason: "a valid difference keeps nothing: Residuals is nil",
			l: `[1,2,2,3,"a"]`, r: `[2,4]`, lo: `[1,2,3,"a"]`, ro: `[4]`},
		{reason: "a difference wrong in right_only",
			l: `[1,1,1]`, r: `[5,6,1]`, lo: `[1,1]`, ro: `[6,5]`},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		var before, after string
		var read func() string
		var inputs [][]any
		if r.source != "" {
			src, claim := decode(r.source), decode(r.got)
			res, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: src, Claim: claim}, multiset.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			read, inputs = func() string { return equalityReport(res) }, [][]any{src, claim}
		} else {
			l, rr, lo, ro := decode(r.l), decode(r.r), decode(r.lo), decode(r.ro)
			res, err := multiset.CheckDifference(multiset.DifferenceInput[any, any]{Left: l, Right: rr,
				Claim: multiset.DifferenceClaim[any]{LeftOnly: lo, RightOnly: ro}}, multiset.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			read, inputs = func() string { return differenceReport(res) }, [][]any{l, rr, lo, ro}
		}
		before = read()
		var wg sync.WaitGroup
		wg.Go(func() { overwrite(inputs...) })
		during := read()
		wg.Wait()
		after = read()
		if during != before || after != before {
			t.Errorf("the report changed with the caller's slices:\nbefore:\n%s\nduring:\n%s\nafter:\n%s", before, during, after)
		}
	})
}

// TestResultsOwnTypedSlices is TestResultsOwnWhatTheyReport for typed
// slices, which the engine reads without boxing.
func TestResultsOwnTypedSlices(t *testing.T) {
	src, claim := []int{1, 2, 2, 3}, []int{1, 2, 3, 3}
	eq, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: src, Claim: claim}, multiset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	l, r, lo, ro := []string{"a", "b", "b"}, []string{"b"}, []string{"a", "b"}, []string{"c"}
	diff, err := multiset.CheckDifference(multiset.DifferenceInput[string, string]{Left: l, Right: r,
		Claim: multiset.DifferenceClaim[string]{LeftOnly: lo, RightOnly: ro}}, multiset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	okLo, okRo := []string{"a", "b"}, []string(nil)
	valid, err := multiset.CheckDifference(multiset.DifferenceInput[string, string]{Left: l, Right: r,
		Claim: multiset.DifferenceClaim[string]{LeftOnly: okLo, RightOnly: okRo}}, multiset.Limits{})
	if err != nil || !valid.Valid {
		t.Fatal(valid, err)
	}
	before := equalityReport(eq) + differenceReport(diff) + differenceReport(valid)
	for i := range src {
		src[i], claim[i] = 7, 8
	}
	for _, xs := range [][]string{l, r, lo, ro, okLo} {
		for i := range xs {
			xs[i] = "z"
		}
	}
	if after := equalityReport(eq) + differenceReport(diff) + differenceReport(valid); after != before {
		t.Errorf("the report changed with the caller's slices:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestMixedElementTypes checks a reference and a claim of different element
// types: a []int reference against a decoded []any answer.
func TestMixedElementTypes(t *testing.T) {
	var answer []any
	if err := json.Unmarshal([]byte(`[3, 1.0, 2e0]`), &answer); err != nil {
		t.Fatal(err)
	}
	eq, err := multiset.CheckEquality(multiset.EqualityInput[int, any]{Source: []int{1, 2, 3}, Claim: answer}, multiset.Limits{})
	if err != nil || !eq.Valid {
		t.Errorf("equality []int against []any: %v, %v; want valid", eq, err)
	}
	diff, err := multiset.CheckDifference(multiset.DifferenceInput[int, any]{Left: []int{1, 2, 2}, Right: []int{2},
		Claim: multiset.DifferenceClaim[any]{LeftOnly: answer[1:], RightOnly: nil}}, multiset.Limits{})
	if err != nil || !diff.Valid {
		t.Errorf("difference []int against []any: %v, %v; want valid", diff, err)
	}
	wrong, err := multiset.CheckDifference(multiset.DifferenceInput[int, any]{Left: []int{1, 2, 2}, Right: []int{2},
		Claim: multiset.DifferenceClaim[any]{LeftOnly: answer, RightOnly: nil}}, multiset.Limits{})
	if err != nil || wrong.Valid {
		t.Fatalf("difference []int against [3 1 2]: %v, %v; want a mismatch", wrong, err)
	}
	lo, _ := wrong.Residuals()
	if len(lo) != 2 || lo[0].Key() != "1" || lo[1].Key() != "2" {
		t.Errorf("Residuals left_only = %v, want [1 2]", lo)
	}
}
