package multiset_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// TestMemoryFollowsDistinctValues: an input whose first elements are all
// distinct and whose long tail repeats one value must not be charged memory
// for the tail. (The index sizes itself from a sample of the first array; a
// wrong guess is capped.)
func TestMemoryFollowsDistinctValues(t *testing.T) {
	measuresAllocations(t)
	const n = 2_000_000
	xs := make([]canon.Scalar, n)
	for i := range xs {
		v := 0
		if i < 256 {
			v = i
		}
		xs[i], _ = canon.NumberScalar(float64(v))
	}
	lim := multiset.Limits{MaxItems: n, MaxDistinct: n}
	measure := func() uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: xs, Claim: xs}, lim)
		runtime.ReadMemStats(&after)
		if err != nil || !res.Valid {
			t.Fatalf("CheckEqualityScalars = %v, %v", res, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	// 257 distinct values: a few kilobytes of index, plus at most the capped
	// reservation (16384 entries); 4 MiB is far above that and far below the
	// ~75 MB that sizing by the input's length costs.
	// TotalAlloc counts every goroutine's allocations: the least of three
	// measurements leaves out a neighbour's (a parallel test's, the
	// runtime's).
	got := min(measure(), measure(), measure())
	if got > 4<<20 {
		t.Errorf("checking 2,000,000 items over 257 distinct values allocated %d bytes", got)
	}
}

type score int

// TestCheckEqualityOfReadsElementsWithoutBoxing: the generic helpers read
// typed slices element by element without an allocation per element, with
// canon.Of's conversions (a named integer is a number, json.Number a number
// literal, a string a string).
func TestCheckEqualityOfReadsElementsWithoutBoxing(t *testing.T) {
	src := make([]int, 10000)
	for i := range src {
		src[i] = i % 100
	}
	allocs := testing.AllocsPerRun(5, func() {
		if res, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: src, Claim: src}, multiset.Limits{}); err != nil || !res.Valid {
			t.Fatalf("CheckEqualityOf = %v, %v", res, err)
		}
	})
	if allocs > 100 {
		t.Errorf("CheckEqualityOf on 10,000 ints over 100 values: %.0f allocations", allocs)
	}
	type row struct {
		got    func() (multiset.EqualityResult, error)
		valid  bool
		reason string
	}
	testutil.Run(t, []row{
		{func() (multiset.EqualityResult, error) {
			return multiset.CheckEquality(multiset.EqualityInput[score, score]{Source: []score{1, 2}, Claim: []score{2, 1}}, multiset.Limits{})
		}, true, "a named integer type compares as numbers"},
		{func() (multiset.EqualityResult, error) {
			return multiset.CheckEquality(multiset.EqualityInput[json.Number, json.Number]{Source: []json.Number{"1", "2.0"}, Claim: []json.Number{"2", "1e0"}}, multiset.Limits{})
		}, true, "json.Number elements are number literals, not strings"},
		{func() (multiset.EqualityResult, error) {
			return multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: []string{"1"}, Claim: []string{"1.0"}}, multiset.Limits{})
		}, false, "strings are strings"},
		{func() (multiset.EqualityResult, error) {
			return multiset.CheckEquality(multiset.EqualityInput[float32, float32]{Source: []float32{0.5}, Claim: []float32{0.5}}, multiset.Limits{})
		}, true, "float32 converts exactly"},
	}, func(t *testing.T, tc row) {
		res, err := tc.got()
		if err != nil || res.Valid != tc.valid {
			t.Errorf("got %v, %v; want valid=%v", res, err, tc.valid)
		}
	})
	if _, err := multiset.CheckEquality(multiset.EqualityInput[json.Number, json.Number]{Source: []json.Number{"1", "1e400"}, Claim: nil}, multiset.Limits{}); err == nil {
		t.Error("json.Number 1e400: want an error at /source/1")
	} else if e := err.(*claimcheck.Error); e.Path != "/source/1" {
		t.Errorf("json.Number 1e400: error at %q, want /source/1", e.Path)
	}
}
