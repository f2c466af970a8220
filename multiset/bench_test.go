package multiset_test

import (
	"strconv"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

var benchSizes = []int{100, 1000, 10000}

// changedNearEnd returns a copy of xs with one element near the end
// replaced by a value that does not occur.
func changedNearEnd(xs []any) []any {
	c := append([]any(nil), xs...)
	c[len(c)-2] = "changed"
	return c
}

func reportPerItem(b *testing.B, items int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(items), "ns/item")
}

func BenchmarkCheckEquality(b *testing.B) {
	for _, n := range benchSizes {
		src := testutil.Scalars(n, uint64(n))
		claim := testutil.Shuffled(src, uint64(n))
		for _, c := range []struct {
			name  string
			claim []any
		}{{"shuffled", claim}, {"changed", changedNearEnd(claim)}} {
			b.Run("n="+strconv.Itoa(n)+"/"+c.name, func(b *testing.B) {
				in := multiset.EqualityInput[any, any]{Source: src, Claim: c.claim}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := multiset.CheckEquality(in, multiset.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
				reportPerItem(b, 2*n)
			})
		}
	}
}

func BenchmarkCheckDifference(b *testing.B) {
	for _, n := range benchSizes {
		// left and right share about half their values; the claim is the
		// true residual pair, or it with one change near the end.
		left := testutil.Scalars(n, uint64(n))
		right := append(testutil.Scalars(n/2, uint64(n)+7), left[:n/2]...)
		lo, ro := modelResiduals(left, right)
		if len(lo) < 2 {
			b.Fatal("residual too short")
		}
		for _, c := range []struct {
			name string
			lo   []any
		}{{"exact", lo}, {"changed", changedNearEnd(lo)}} {
			b.Run("n="+strconv.Itoa(n)+"/"+c.name, func(b *testing.B) {
				in := multiset.DifferenceInput[any, any]{Left: left, Right: right,
					Claim: multiset.DifferenceClaim[any]{LeftOnly: c.lo, RightOnly: ro}}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := multiset.CheckDifference(in, multiset.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
				reportPerItem(b, len(left)+len(right)+len(c.lo)+len(ro))
			})
		}
	}
}

// TestAllocsDoNotGrowWithItems: with the number of distinct values fixed,
// the number of allocations of a check must not grow with the number of
// items (memory per item is the id arrays, allocated once).
func TestAllocsDoNotGrowWithItems(t *testing.T) {
	if testing.Short() || testutil.RaceEnabled {
		// Under -race sync.Pool drops pooled tables at random, so a
		// check allocates one now and then, whatever its size.
		t.Skip("allocation counts in -short mode, or with sync.Pool dropping items under -race")
	}
	const distinct = 50
	pool := make([]canon.Scalar, distinct)
	for i := range pool {
		v := any(i)
		switch i % 3 {
		case 1:
			v = "v" + strconv.Itoa(i)
		case 2:
			v = float64(i) + 0.5
		}
		pool[i], _ = canon.Of(v)
	}
	bag := func(n int) (src, claim []canon.Scalar) {
		src = make([]canon.Scalar, n)
		for i := range src {
			src[i] = pool[i%distinct]
		}
		return src, testutil.Shuffled(src, uint64(n))
	}
	allocs := func(n int) (eq, diff float64) {
		src, claim := bag(n)
		l := multiset.Limits{}
		eq = testing.AllocsPerRun(20, func() {
			if r, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: src, Claim: claim}, l); err != nil || !r.Valid {
				t.Fatal(r, err)
			}
		})
		diff = testing.AllocsPerRun(20, func() {
			if r, err := multiset.CheckDifference(multiset.DifferenceInput[canon.Scalar, canon.Scalar]{Left: src, Right: claim}, l); err != nil || !r.Valid {
				t.Fatal(r, err)
			}
		})
		return eq, diff
	}
	eq1, diff1 := allocs(1000)
	eq10, diff10 := allocs(10000)
	t.Logf("CheckEqualityScalars allocs: %v at 1000 items, %v at 10000 (%d distinct)", eq1, eq10, distinct)
	t.Logf("CheckDifferenceScalars allocs: %v at 1000 items, %v at 10000 (%d distinct)", diff1, diff10, distinct)
	const slack = 2
	if eq10 > eq1+slack {
		t.Errorf("CheckEqualityScalars: %v allocations at 10000 items, %v at 1000: grows with items", eq10, eq1)
	}
	if diff10 > diff1+slack {
		t.Errorf("CheckDifferenceScalars: %v allocations at 10000 items, %v at 1000: grows with items", diff10, diff1)
	}
}

// TestValidEqualityAllocatesNothing: in steady state a valid equality
// check over the slice types the engine keys itself allocates nothing:
// no closure or boxed slice per array, no tally, its table from the pool.
func TestValidEqualityAllocatesNothing(t *testing.T) {
	if testing.Short() || testutil.RaceEnabled {
		t.Skip("allocation counts in -short mode, or with sync.Pool dropping items under -race")
	}
	const n = 10_000
	anys := testutil.Scalars(n, 1)
	scalars := make([]canon.Scalar, n)
	strs, ints, floats := make([]string, n), make([]int, n), make([]float64, n)
	for i, x := range anys {
		scalars[i], _ = canon.Of(x)
		strs[i], ints[i], floats[i] = "s"+strconv.Itoa(i%97), i%89, float64(i%83)/4
	}
	type row struct {
		reason string
		check  func() (multiset.EqualityResult, error)
	}
	eq := func(src, claim any) func() (multiset.EqualityResult, error) {
		switch src := src.(type) {
		case []any:
			return func() (multiset.EqualityResult, error) {
				return multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: src, Claim: claim.([]any)}, multiset.Limits{})
			}
		case []canon.Scalar:
			return func() (multiset.EqualityResult, error) {
				return multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: src, Claim: claim.([]canon.Scalar)}, multiset.Limits{})
			}
		case []string:
			return func() (multiset.EqualityResult, error) {
				return multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: src, Claim: claim.([]string)}, multiset.Limits{})
			}
		case []int:
			return func() (multiset.EqualityResult, error) {
				return multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: src, Claim: claim.([]int)}, multiset.Limits{})
			}
		case []float64:
			return func() (multiset.EqualityResult, error) {
				return multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: src, Claim: claim.([]float64)}, multiset.Limits{})
			}
		}
		panic("type")
	}
	testutil.Run(t, []row{
		{"[]any, keyed by the engine", eq(anys, testutil.Shuffled(anys, 2))},
		{"[]canon.Scalar, keyed in place", eq(scalars, testutil.Shuffled(scalars, 2))},
		{"[]string", eq(strs, testutil.Shuffled(strs, 2))},
		{"[]int", eq(ints, testutil.Shuffled(ints, 2))},
		{"[]float64", eq(floats, testutil.Shuffled(floats, 2))},
	}, func(t *testing.T, tc row) {
		if r, err := tc.check(); err != nil || !r.Valid {
			t.Fatal(r, err)
		}
		if got := testing.AllocsPerRun(20, func() { tc.check() }); got != 0 {
			t.Errorf("%v allocations per check, want 0", got)
		}
	})
}

// BenchmarkCheckEqualityTyped: the typed slices the engine keys itself,
// one word per element ([]int64 below 2^53, []canon.Scalar of mixed
// kinds), and []int64 IDs above 2^53, which no double holds and which take
// the slower path of an exact integer (a text interned per distinct ID).
func BenchmarkCheckEqualityTyped(b *testing.B) {
	const n = 10_000
	small, large := make([]int64, n), make([]int64, n)
	for i := range small {
		small[i], large[i] = int64(i%4099)*7919, 1<<53+1+2*int64(i%4099)
	}
	scalars := make([]canon.Scalar, n)
	for i, x := range testutil.Scalars(n, 3) {
		scalars[i], _ = canon.Of(x)
	}
	bench := func(name string, check func() (multiset.EqualityResult, error)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r, err := check(); err != nil || !r.Valid {
					b.Fatal(r, err)
				}
			}
			reportPerItem(b, 2*n)
		})
	}
	smallClaim, largeClaim, scalarClaim := testutil.Shuffled(small, 5), testutil.Shuffled(large, 5), testutil.Shuffled(scalars, 5)
	bench("int64-small", func() (multiset.EqualityResult, error) {
		return multiset.CheckEquality(multiset.EqualityInput[int64, int64]{Source: small, Claim: smallClaim}, multiset.Limits{})
	})
	bench("scalars", func() (multiset.EqualityResult, error) {
		return multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: scalars, Claim: scalarClaim}, multiset.Limits{})
	})
	bench("int64-above-2^53", func() (multiset.EqualityResult, error) {
		return multiset.CheckEquality(multiset.EqualityInput[int64, int64]{Source: large, Claim: largeClaim}, multiset.Limits{})
	})
}
