package claimchecktest_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
	"pgregory.net/rapid"
)

// TestScores: the score of each helper on small claims, worked out by
// hand from the package documentation's definition.
func TestScores(t *testing.T) {
	type row struct {
		reason string
		check  func() claimchecktest.Report
		score  float64
	}
	anyOrder := claimchecktest.AnyOrder()
	testutil.Run(t, []row{
		{"equality: 3 of the larger bag's 5 matched", func() claimchecktest.Report {
			return report(claimchecktest.CheckEquality([]int{2, 2, 3, 3, 5}, []int{2, 3, 3, 7}))
		}, 3.0 / 5},
		{"equality: the claim the larger bag", func() claimchecktest.Report {
			return report(claimchecktest.CheckEquality([]int{1, 2}, []int{1, 2, 2, 2}))
		}, 2.0 / 4},
		{"equality: nothing matched", func() claimchecktest.Report { return report(claimchecktest.CheckEquality([]int{1}, []string{"1"})) }, 0},
		{"equality: both empty", func() claimchecktest.Report { return report(claimchecktest.CheckEquality([]int{}, []int(nil))) }, 1},
		{"equality: a valid claim", func() claimchecktest.Report { return report(claimchecktest.CheckEquality([]int{1, 2}, []int{2, 1})) }, 1},
		{"equality: refused", func() claimchecktest.Report { return report(claimchecktest.CheckEquality([]any{1}, []any{[]int{}})) }, 0},
		{"difference: positions, 2 of left_only's 3 and 0 of right_only's 2", func() claimchecktest.Report {
			return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"apple", "cherry", "kiwi"}, []string{"fig", "egg"}))
		}, 2.0 / 5},
		{"difference: a rotated list matches at no position", func() claimchecktest.Report {
			return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"cherry", "date", "apple"}, []string{"egg", "fig"}))
		}, 2.0 / 5},
		{"difference in any order: the rotated list is right", func() claimchecktest.Report {
			return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"cherry", "date", "apple"}, []string{"fig", "egg"}, anyOrder))
		}, 1},
		{"difference in any order: 2 of 3, and a longer right_only of 3 with 2", func() claimchecktest.Report {
			return report(claimchecktest.CheckDifference(fruitA, fruitB, []string{"cherry", "kiwi", "apple"}, []string{"fig", "egg", "egg"}, anyOrder))
		}, 4.0 / 6},
		{"rational: a wrong value scores 0", func() claimchecktest.Report { return report(claimchecktest.CheckRational("1/2 + 1/3", "2/5")) }, 0},
		{"rational: the right value in the wrong form scores 0 where the form is asked", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1/2 + 1/3", "10/12"))
		}, 0},
		{"rational: PartialCanonical credits the right value in the wrong form", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1/2 + 1/3", "10/12", claimchecktest.PartialCanonical(0.5)))
		}, 0.5},
		{"rational: PartialCanonical credits -0 for 0", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1 - 1", "-0", claimchecktest.PartialCanonical(0.25)))
		}, 0.25},
		{"rational: PartialCanonical gives nothing to a wrong value", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1/2 + 1/3", "10/13", claimchecktest.PartialCanonical(0.5)))
		}, 0},
		{"rational: PartialCanonical gives nothing to a claim the grammar refuses", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1/2 + 1/3", "10 / 12", claimchecktest.PartialCanonical(0.5)))
		}, 0},
		{"rational: a valid claim scores 1 with PartialCanonical", func() claimchecktest.Report {
			return report(claimchecktest.CheckRationalCanonical("1/2 + 1/3", "5/6", claimchecktest.PartialCanonical(0.5)))
		}, 1},
		{"rational: the right value", func() claimchecktest.Report { return report(claimchecktest.CheckRational("1/2 + 1/3", "10/12")) }, 1},
	}, func(t *testing.T, r row) {
		if got := r.check(); got.Score != r.score || got.Valid != (r.score == 1) {
			t.Errorf("score %v, valid %v; want %v", got.Score, got.Valid, r.score)
		}
	})
}

// bag draws a small slice over a small alphabet, so that claims share
// values with the reference.
func bag(t *rapid.T, label string) []int {
	return rapid.SliceOfN(rapid.IntRange(0, 4), 0, 12).Draw(t, label)
}

func shuffled(t *rapid.T, xs []int) []int {
	out := slices.Clone(xs)
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestScoreIsOneExactlyWhenValid: for every helper and form, the score is
// in [0, 1] and 1 exactly when the claim holds.
func TestScoreIsOneExactlyWhenValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, claim := bag(t, "source"), bag(t, "claim")
		if rapid.Bool().Draw(t, "permuted") {
			claim = shuffled(t, src) // valid claims too, often
		}
		left, right := bag(t, "left"), bag(t, "right")
		lo, ro := bag(t, "left_only"), bag(t, "right_only")
		if rapid.Bool().Draw(t, "true residuals") {
			res, err := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: left, Right: right}, multiset.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want, wantR := res.Residuals()
			lo, ro = toInts(want), toInts(wantR)
			if rapid.Bool().Draw(t, "shuffled residuals") {
				lo, ro = shuffled(t, lo), shuffled(t, ro)
			}
		}
		for _, r := range []claimchecktest.Report{
			report(claimchecktest.CheckEquality(src, claim)),
			report(claimchecktest.CheckDifference(left, right, lo, ro)),
			report(claimchecktest.CheckDifference(left, right, lo, ro, claimchecktest.AnyOrder())),
		} {
			if r.Score < 0 || r.Score > 1 || (r.Score == 1) != r.Valid || r.Valid != (r.Text == "") {
				t.Fatalf("score %v, valid %v, report %q", r.Score, r.Valid, r.Text)
			}
		}
	})
}

func toInts(xs []canon.Scalar) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x.Float())
	}
	return out
}

// TestScoreLaws: the laws of the definition. Equality's score is
// symmetric and blind to order; a difference's in any order is blind to
// each list's order and never below its score in order (a value matched at
// its position is matched in the bag); a pair of equal values added to
// both bags never lowers equality's score, and a value that should not
// occur never raises it, and lowers it once the claim is as long as the
// source.
func TestScoreLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, claim := bag(t, "source"), bag(t, "claim")
		eq := report(claimchecktest.CheckEquality(src, claim)).Score
		if sym := report(claimchecktest.CheckEquality(claim, src)).Score; sym != eq {
			t.Fatalf("score(source, claim) %v, score(claim, source) %v", eq, sym)
		}
		if perm := report(claimchecktest.CheckEquality(src, shuffled(t, claim))).Score; perm != eq {
			t.Fatalf("score %v, of the claim shuffled %v", eq, perm)
		}
		v := rapid.IntRange(0, 6).Draw(t, "added")
		if more := report(claimchecktest.CheckEquality(append(slices.Clone(src), v), append(slices.Clone(claim), v))).Score; more < eq {
			t.Fatalf("adding %d to both lowered the score from %v to %v", v, eq, more)
		}
		extra := report(claimchecktest.CheckEquality(src, append(slices.Clone(claim), 99))).Score
		if extra > eq || len(claim) >= len(src) && eq > 0 && extra >= eq {
			t.Fatalf("a value that should not occur took the score from %v to %v", eq, extra)
		}

		left, right := bag(t, "left"), bag(t, "right")
		lo, ro := bag(t, "left_only"), bag(t, "right_only")
		inOrder := report(claimchecktest.CheckDifference(left, right, lo, ro)).Score
		bagged := report(claimchecktest.CheckDifference(left, right, lo, ro, claimchecktest.AnyOrder())).Score
		if bagged < inOrder {
			t.Fatalf("any order %v below in order %v", bagged, inOrder)
		}
		if perm := report(claimchecktest.CheckDifference(left, right, shuffled(t, lo), shuffled(t, ro), claimchecktest.AnyOrder())).Score; perm != bagged {
			t.Fatalf("any order %v, of the lists shuffled %v", bagged, perm)
		}
	})
}
