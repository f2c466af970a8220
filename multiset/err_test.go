package multiset_test

import (
	"errors"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// TestErrWrapsErrRejected: every non-nil Err of a result, including the zero
// result returned beside an error, wraps ErrRejected; a valid result's is nil.
func TestErrWrapsErrRejected(t *testing.T) {
	eq, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: []any{1, 1}, Claim: []any{1}}, multiset.Limits{})
	diff, _ := multiset.CheckDifference(multiset.DifferenceInput[any, any]{Left: []any{1}}, multiset.Limits{})
	ok, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{}, multiset.Limits{})
	type row struct {
		err    error
		want   bool
		reason string
	}
	testutil.Run(t, []row{
		{eq.Err(), true, "an equality mismatch"},
		{diff.Err(), true, "a difference mismatch"},
		{multiset.EqualityResult{}.Err(), true, "the zero equality result is no pass"},
		{multiset.DifferenceResult{}.Err(), true, "the zero difference result is no pass"},
		{ok.Err(), false, "a valid claim"},
	}, func(t *testing.T, tc row) {
		if got := errors.Is(tc.err, multiset.ErrRejected); got != tc.want || (tc.err == nil) == tc.want {
			t.Errorf("Err() = %v, errors.Is(ErrRejected) = %v", tc.err, got)
		}
	})
	if got := eq.String(); got != "claim has 1 occurrence of 1 where source has 2 (first at /source/0)" {
		t.Errorf("String() = %q", got)
	}
}
