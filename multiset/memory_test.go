package multiset_test

import (
	"runtime"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// TestMemoryFollowsDistinctValues: an input whose first elements are all
// distinct and whose long tail repeats one value must not be charged memory
// for the tail. (The index sizes itself from a sample of the first array; a
// wrong guess is capped.)
func TestMemoryFollowsDistinctValues(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a large input")
	}
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
		res, err := lim.CheckEqualityScalars(xs, xs)
		runtime.ReadMemStats(&after)
		if err != nil || !res.Valid {
			t.Fatalf("CheckEqualityScalars = %v, %v", res, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	// 257 distinct values: a few kilobytes of index, plus at most the capped
	// reservation (16384 entries); 4 MiB is far above that and far below the
	// ~75 MB that sizing by the input's length costs.
	if got := measure(); got > 4<<20 {
		t.Errorf("checking 2,000,000 items over 257 distinct values allocated %d bytes", got)
	}
}
