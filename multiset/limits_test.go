package multiset_test

import (
	"errors"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// The defaults are a function: no package of a program can change what
// every check in it enforces (an assignment does not compile).
var _ func() multiset.Limits = multiset.DefaultLimits

// TestLimitFields: a zero or negative field is DefaultLimits()'s, NoLimit
// bounds nothing, any other value is itself; one meaning for both checks.
func TestLimitFields(t *testing.T) {
	if d := multiset.DefaultLimits(); d != (multiset.Limits{MaxItems: 10000, MaxDistinct: 10000}) {
		t.Fatalf("DefaultLimits() = %+v, not the descriptors'", d)
	}
	big := make([]int, 20001)
	for i := range big {
		big[i] = i
	}
	type row struct {
		reason string
		lim    multiset.Limits
		limit  string // the limit exceeded, "" for none
	}
	testutil.Run(t, []row{
		{"a zero field is the default 10000 items", multiset.Limits{}, "max_items"},
		{"a negative field is the default", multiset.Limits{MaxItems: -1, MaxDistinct: multiset.NoLimit}, "max_items"},
		{"a zero MaxDistinct is the default 10000 distinct values", multiset.Limits{MaxItems: multiset.NoLimit}, "max_distinct"},
		{"NoLimit in both fields bounds nothing", multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: multiset.NoLimit}, ""},
		{"a set field is itself", multiset.Limits{MaxItems: 30000, MaxDistinct: 20001}, ""},
		{"a set field lowers a bound", multiset.Limits{MaxItems: 30000, MaxDistinct: 20000}, "max_distinct"},
	}, func(t *testing.T, r row) {
		_, errEq := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: big, Claim: big}, r.lim)
		_, errDf := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: big, Right: big}, r.lim)
		for _, err := range []error{errEq, errDf} {
			var e *claimcheck.Error
			switch {
			case r.limit == "" && err != nil:
				t.Errorf("%v, want no error", err)
			case r.limit != "" && (!errors.As(err, &e) || e.Limit != r.limit):
				t.Errorf("%v, want %s exceeded", err, r.limit)
			}
		}
	})
}
