package multiset_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// The naive models below identify a scalar by its RFC 8785 form as
// github.com/gowebpki/jcs writes it (jcsKey), not by canon: they count by
// quadratic matching and report from first principles, so agreement with
// them checks the index, the first-occurrence bookkeeping and the residual
// walk, and the key itself against an independent implementation.

// jsonText writes a generated Go value as a JSON literal.
func jsonText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		b, err := json.Marshal(x)
		if err != nil {
			panic(err)
		}
		return string(b)
	case json.Number:
		return string(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		b, err := json.Marshal(x) // a float32 is what encoding/json writes for it
		if err != nil {
			panic(err)
		}
		return string(b)
	case int:
		return strconv.Itoa(x)
	case int8:
		return strconv.Itoa(int(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case uint:
		return strconv.FormatUint(uint64(x), 10)
	case uint8:
		return strconv.FormatUint(uint64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case canon.Scalar:
		return x.Key()
	}
	panic(fmt.Sprintf("jsonText: %T", v))
}

// jcsKey is the RFC 8785 serialization of v by jcs.Transform of [v].
func jcsKey(v any) string {
	out, err := jcs.Transform([]byte("[" + jsonText(v) + "]"))
	if err != nil {
		panic(fmt.Sprintf("jcs.Transform([%s]): %v", jsonText(v), err))
	}
	return string(out[1 : len(out)-1])
}

// jcsKeys returns the jcsKey of every element, transforming each distinct
// value once: the large tests' arrays repeat their values, and jcs is the
// slowest part of their models.
func jcsKeys(xs []any) []string {
	ks := make([]string, len(xs))
	memo := map[any]string{}
	for i, x := range xs {
		switch x.(type) {
		case nil, bool, float64, string, int: // comparable, and a key of its value
		default:
			ks[i] = jcsKey(x)
			continue
		}
		k, ok := memo[x]
		if !ok {
			k = jcsKey(x)
			memo[x] = k
		}
		ks[i] = k
	}
	return ks
}

func occurrences(ks []string, k string) int {
	n := 0
	for _, x := range ks {
		if x == k {
			n++
		}
	}
	return n
}

// modelEquality returns the output document of multiset-equality-check.
func modelEquality(source, claim []any) string {
	s, c := jcsKeys(source), jcsKeys(claim)
	for i, k := range s {
		if slices.Index(s, k) == i && occurrences(s, k) != occurrences(c, k) {
			return mismatchDoc(fmt.Sprintf(`{"path":"/source/%d","expected":"%d","actual":"%d"}`, i, occurrences(s, k), occurrences(c, k)))
		}
	}
	for j, k := range c {
		if slices.Index(c, k) == j && !slices.Contains(s, k) {
			return mismatchDoc(fmt.Sprintf(`{"path":"/claim/%d","expected":"0","actual":"%d"}`, j, occurrences(c, k)))
		}
	}
	return validDoc
}

// modelBagEqual is the textbook definition: equal after sorting the keys.
func modelBagEqual(a, b []any) bool {
	ka, kb := jcsKeys(a), jcsKeys(b)
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}

// residual walks self and drops each element that matches one still unused
// in other (quadratic matching).
func residual(self, other []any) []any {
	pool := jcsKeys(other)
	var keep []any
	for _, x := range self {
		if i := slices.Index(pool, jcsKey(x)); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
			continue
		}
		keep = append(keep, x)
	}
	return keep
}

func modelResiduals(left, right []any) (leftOnly, rightOnly []any) {
	return residual(left, right), residual(right, left)
}

// modelDifference returns the output document of multiset-difference-check.
func modelDifference(left, right, lo, ro []any) string {
	wantLo, wantRo := modelResiduals(left, right)
	return differenceDoc(wantLo, wantRo, lo, ro)
}

// differenceDoc is the output document of a difference check whose true
// residuals are wantLo and wantRo, and whose claim is lo and ro.
func differenceDoc(wantLo, wantRo, lo, ro []any) string {
	at := func(xs []any, i int) string {
		if i < len(xs) {
			return jcsKey(xs[i])
		}
		return "null"
	}
	for _, l := range []struct {
		name      string
		want, got []any
	}{{"left_only", wantLo, lo}, {"right_only", wantRo, ro}} {
		for i := 0; i < max(len(l.want), len(l.got)); i++ {
			e, a := at(l.want, i), at(l.got, i)
			if i >= len(l.want) || i >= len(l.got) || e != a {
				return mismatchDoc(fmt.Sprintf(`{"path":"/%s/%d","expected":%s,"actual":%s}`, l.name, i, e, a))
			}
		}
	}
	return validDoc
}

// Equivalence classes of values with many spellings: every member of a class
// is the same scalar, members of different classes are different scalars.
var classes = [][]any{
	{0, negZero, 0.0, json.Number("0"), json.Number("-0"), json.Number("0.0"), json.Number("-0e3"), json.Number("1e-400"), float32(0), uint8(0)},
	{1, 1.0, json.Number("1"), json.Number("1.0"), json.Number("10e-1"), json.Number("100e-2"), json.Number("1e0"), json.Number("1E+0"), float32(1), int64(1), uint(1)},
	{-1, -1.0, json.Number("-1"), json.Number("-1.00"), json.Number("-0.1e1"), int8(-1)},
	{2, json.Number("2.0"), json.Number("0.2e1"), uint64(2)},
	{0.5, json.Number("5e-1"), json.Number("0.50"), float32(0.5)},
	{0.1, json.Number("0.1"), json.Number("1e-1"), json.Number("0.1000000000000000055511151231257827"), float32(0.1)},
	{0.3, json.Number("0.3"), json.Number("3e-1")},
	{0.30000000000000004, json.Number("0.30000000000000004")},
	{1e21, json.Number("1e21"), json.Number("1E+21"), json.Number("1000000000000000000000")},
	{1e-7, json.Number("1e-7"), json.Number("0.0000001"), json.Number("10e-8")},
	{float64(1 << 53), json.Number("9007199254740992"), json.Number("9007199254740993"), int64(1 << 53)},
	{float64(1 << 60), int64(1) << 60, uint64(1) << 60, json.Number("1152921504606846976")},
	{5e-324, json.Number("4.9406564584124654e-324")},
	{""}, {"a"}, {"A"}, {"b"}, {"\u00e9"}, {"e\u0301"}, {"😀"}, {"1"}, {"0"}, {"-0"}, {"true"}, {"null"},
	{"\u2028"}, {"\x00"}, {"\x7f"}, {"a\"\\/"}, {"1e+21"},
	{nil}, {true}, {false},
}

// genClass draws a class index, favouring a few so that values collide.
var genClass = rapid.Custom(func(t *rapid.T) int {
	if rapid.IntRange(0, 3).Draw(t, "few") > 0 {
		return rapid.IntRange(0, 5).Draw(t, "hot")
	}
	return rapid.IntRange(0, len(classes)-1).Draw(t, "class")
})

// spell draws one spelling of class c.
func spell(t *rapid.T, c int) any {
	return rapid.SampledFrom(classes[c]).Draw(t, "spelling")
}

// genScalar draws a scalar: mostly from the classes (collisions, -0,
// respellings), sometimes any small int, finite double, unicode string or
// bool.
var genScalar = rapid.Custom(func(t *rapid.T) any {
	switch rapid.IntRange(0, 9).Draw(t, "source") {
	case 0:
		return rapid.IntRange(-3, 3).Draw(t, "int")
	case 1:
		return rapid.Float64().Draw(t, "double")
	case 2:
		return rapid.StringN(0, 3, -1).Draw(t, "string")
	case 3:
		return rapid.Bool().Draw(t, "bool")
	}
	return spell(t, genClass.Draw(t, "class"))
})

func genBag(maxLen int) *rapid.Generator[[]any] { return rapid.SliceOfN(genScalar, 0, maxLen) }

// mutate applies up to three random edits (insert, delete, replace, swap).
func mutate(t *rapid.T, xs []any) []any {
	xs = slices.Clone(xs)
	for range rapid.IntRange(0, 3).Draw(t, "edits") {
		switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
		case op == 0 || len(xs) == 0:
			i := rapid.IntRange(0, len(xs)).Draw(t, "at")
			xs = slices.Insert(xs, i, genScalar.Draw(t, "new"))
		case op == 1:
			i := rapid.IntRange(0, len(xs)-1).Draw(t, "at")
			xs = slices.Delete(xs, i, i+1)
		case op == 2:
			xs[rapid.IntRange(0, len(xs)-1).Draw(t, "at")] = genScalar.Draw(t, "new")
		default:
			i, j := rapid.IntRange(0, len(xs)-1).Draw(t, "i"), rapid.IntRange(0, len(xs)-1).Draw(t, "j")
			xs[i], xs[j] = xs[j], xs[i]
		}
	}
	return xs
}

// genNear draws a bag near xs: a permutation, possibly edited.
func genNear(t *rapid.T, xs []any) []any {
	p := rapid.Permutation(xs).Draw(t, "perm")
	if rapid.Bool().Draw(t, "edit") {
		return mutate(t, p)
	}
	return p
}

func equality(t *rapid.T, source, claim []any) multiset.EqualityResult {
	r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: source, Claim: claim}, multiset.Limits{})
	if err != nil {
		t.Fatalf("CheckEquality(%v, %v): %v", source, claim, err)
	}
	return r
}

func difference(t *rapid.T, left, right, lo, ro []any) multiset.DifferenceResult {
	in := multiset.DifferenceInput[any, any]{Left: left, Right: right, Claim: multiset.DifferenceClaim[any]{LeftOnly: lo, RightOnly: ro}}
	r, err := multiset.CheckDifference(in, multiset.Limits{})
	if err != nil {
		t.Fatalf("CheckDifference(%v, %v, %v, %v): %v", left, right, lo, ro, err)
	}
	return r
}

// doc is the output or error document of v: AppendJSON's bytes where v has
// it (json.Marshal would HTML-escape them), else json.Marshal's.
func doc(v any) string {
	if a, ok := v.(interface{ AppendJSON([]byte) ([]byte, error) }); ok {
		out, err := a.AppendJSON(nil)
		if err != nil {
			panic(err)
		}
		return string(out)
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestEqualityIsReflexive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := genBag(20).Draw(t, "xs")
		if r := equality(t, xs, slices.Clone(xs)); !r.Valid {
			t.Fatalf("%v vs itself: %v", xs, r)
		}
	})
}

func TestEqualityIsSymmetric(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genBag(12).Draw(t, "a")
		b := genNear(t, a)
		if ab, ba := equality(t, a, b), equality(t, b, a); ab.Valid != ba.Valid {
			t.Fatalf("(a,b) %v but (b,a) %v", ab, ba)
		}
	})
}

func TestEqualityIsInvariantUnderPermutation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genBag(12).Draw(t, "a")
		b := genNear(t, a)
		r := equality(t, a, b)
		pa := rapid.Permutation(a).Draw(t, "pa")
		pb := rapid.Permutation(b).Draw(t, "pb")
		if equality(t, pa, b).Valid != r.Valid || equality(t, a, pb).Valid != r.Valid {
			t.Fatalf("permuting a side changed validity of %v", r)
		}
		// Claim order only decides which index names an extra value: a
		// mismatch found in source order is unchanged.
		if r.Discrepancy != nil && strings.HasPrefix(r.Discrepancy.Path, "/source/") {
			if got := equality(t, a, pb); doc(got) != doc(r) {
				t.Fatalf("claim permuted: %s, was %s", doc(got), doc(r))
			}
		}
	})
}

func TestEqualityIsSensitiveToAnySingleChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(genScalar, 1, 12).Draw(t, "a")
		b := rapid.Permutation(a).Draw(t, "b")
		i := rapid.IntRange(0, len(b)-1).Draw(t, "i")
		var changed []any
		switch rapid.IntRange(0, 2).Draw(t, "change") {
		case 0:
			changed = slices.Insert(slices.Clone(b), i, genScalar.Draw(t, "added"))
		case 1:
			changed = slices.Delete(slices.Clone(b), i, i+1)
		default:
			x := genScalar.Filter(func(x any) bool { return jcsKey(x) != jcsKey(b[i]) }).Draw(t, "replacement")
			changed = slices.Clone(b)
			changed[i] = x
		}
		for _, r := range []multiset.EqualityResult{equality(t, a, changed), equality(t, changed, a)} {
			if r.Valid {
				t.Fatalf("%v vs %v: valid", a, changed)
			}
		}
		if got, want := doc(equality(t, a, changed)), modelEquality(a, changed); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

// TestEquivalentSpellingsAreInterchangeable: -0 and 0, 1 and 1.0 and 10e-1,
// an int64 and the double it rounds to... any member of a class may stand for
// any other, on any side of either check.
func TestEquivalentSpellingsAreInterchangeable(t *testing.T) {
	spellAll := func(t *rapid.T, ids []int) []any {
		xs := make([]any, len(ids))
		for i, c := range ids {
			xs[i] = spell(t, c)
		}
		return xs
	}
	// residualIDs is the residual walk over class ids: no canon, no jcs.
	residualIDs := func(self, other []int) []int {
		pool := slices.Clone(other)
		var keep []int
		for _, c := range self {
			if i := slices.Index(pool, c); i >= 0 {
				pool = slices.Delete(pool, i, i+1)
				continue
			}
			keep = append(keep, c)
		}
		return keep
	}
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.SliceOfN(genClass, 0, 15).Draw(t, "ids")
		if r := equality(t, spellAll(t, ids), spellAll(t, rapid.Permutation(ids).Draw(t, "perm"))); !r.Valid {
			t.Fatalf("respelled permutation: %v", r)
		}
		right := rapid.SliceOfN(genClass, 0, 15).Draw(t, "right")
		lo, ro := residualIDs(ids, right), residualIDs(right, ids)
		r := difference(t, spellAll(t, ids), spellAll(t, right), spellAll(t, lo), spellAll(t, ro))
		if !r.Valid {
			t.Fatalf("respelled residuals: %v", r)
		}
	})
}

func TestModelResidualsMakeDifferenceValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left, right := genBag(15).Draw(t, "left"), genBag(15).Draw(t, "right")
		lo, ro := modelResiduals(left, right)
		if r := difference(t, left, right, lo, ro); !r.Valid {
			t.Fatalf("residuals %v %v: %v", lo, ro, r)
		}
	})
}

// extractResiduals learns the residuals the implementation expects from its
// own discrepancies, starting from empty claims and appending the expected
// element it reports, so the residual laws below test the implementation
// without the model's help.
func extractResiduals(t *rapid.T, left, right []any) (lo, ro []any) {
	for range len(left) + len(right) + 1 {
		r := difference(t, left, right, lo, ro)
		if r.Valid {
			return lo, ro
		}
		d := r.Discrepancy
		if d.Expected == nil {
			t.Fatalf("claim %v %v is a prefix of the residuals, yet %s", lo, ro, doc(r))
		}
		switch d.Path {
		case "/left_only/" + strconv.Itoa(len(lo)):
			lo = append(lo, *d.Expected)
		case "/right_only/" + strconv.Itoa(len(ro)):
			ro = append(ro, *d.Expected)
		default:
			t.Fatalf("claim %v %v: discrepancy %s is not at the end of a claimed list", lo, ro, doc(r))
		}
	}
	t.Fatalf("residuals of %v and %v do not converge", left, right)
	return nil, nil
}

func TestResidualsAddBackToEqualBags(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left, right := genBag(15).Draw(t, "left"), genBag(15).Draw(t, "right")
		lo, ro := extractResiduals(t, left, right)
		// (L - R) + R and (R - L) + L are both the bag union max(l, r).
		if r := equality(t, append(slices.Clone(lo), right...), append(slices.Clone(ro), left...)); !r.Valid {
			t.Fatalf("(L-R)+R vs (R-L)+L: %v", r)
		}
		// And they agree with the model element by element.
		mlo, mro := modelResiduals(left, right)
		if !slices.Equal(jcsKeys(lo), jcsKeys(mlo)) || !slices.Equal(jcsKeys(ro), jcsKeys(mro)) {
			t.Fatalf("extracted %v %v, model %v %v", lo, ro, mlo, mro)
		}
	})
}

func TestResidualsShareNoValue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left := genBag(15).Draw(t, "left")
		right := genNear(t, left)
		lo, ro := extractResiduals(t, left, right)
		for _, k := range jcsKeys(lo) {
			if slices.Contains(jcsKeys(ro), k) {
				t.Fatalf("%s is in left_only %v and right_only %v", k, lo, ro)
			}
		}
	})
}

// isSubsequence reports whether sub's keys occur in xs's keys in order.
func isSubsequence(sub, xs []any) bool {
	ks := jcsKeys(xs)
	i := 0
	for _, k := range jcsKeys(sub) {
		for i < len(ks) && ks[i] != k {
			i++
		}
		if i == len(ks) {
			return false
		}
		i++
	}
	return true
}

func TestResidualOrderIsSourceSubsequence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left, right := genBag(15).Draw(t, "left"), genBag(15).Draw(t, "right")
		lo, ro := extractResiduals(t, left, right)
		if !isSubsequence(lo, left) || !isSubsequence(ro, right) {
			t.Fatalf("residuals %v %v are not subsequences of %v %v", lo, ro, left, right)
		}
	})
}

func TestChangingAnyResidualElementIsCaught(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left, right := genBag(15).Draw(t, "left"), genBag(15).Draw(t, "right")
		lo, ro := modelResiduals(left, right)
		if len(lo)+len(ro) == 0 {
			return
		}
		k := rapid.IntRange(0, len(lo)+len(ro)-1).Draw(t, "k")
		list, name, i := lo, "left_only", k
		if k >= len(lo) {
			list, name, i = ro, "right_only", k-len(lo)
		}
		old := list[i]
		x := genScalar.Filter(func(x any) bool { return jcsKey(x) != jcsKey(old) }).Draw(t, "replacement")
		list = slices.Clone(list)
		list[i] = x
		if name == "left_only" {
			lo = list
		} else {
			ro = list
		}
		want := mismatchDoc(fmt.Sprintf(`{"path":"/%s/%d","expected":%s,"actual":%s}`, name, i, jcsKey(old), jcsKey(x)))
		if got := doc(difference(t, left, right, lo, ro)); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

func TestEqualityAgreesWithNaiveModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		source := genBag(12).Draw(t, "source")
		claim := genNear(t, source)
		if rapid.IntRange(0, 4).Draw(t, "independent") == 0 {
			claim = genBag(12).Draw(t, "claim")
		}
		r := equality(t, source, claim)
		if got, want := doc(r), modelEquality(source, claim); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		if r.Valid != modelBagEqual(source, claim) {
			t.Fatalf("valid %v, sorted keys say %v", r.Valid, !r.Valid)
		}
	})
}

func TestDifferenceAgreesWithNaiveModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		left, right := genBag(12).Draw(t, "left"), genBag(12).Draw(t, "right")
		lo, ro := modelResiduals(left, right)
		switch rapid.IntRange(0, 3).Draw(t, "claim") {
		case 0:
			lo = mutate(t, lo)
		case 1:
			ro = mutate(t, ro)
		case 2:
			lo, ro = genBag(6).Draw(t, "lo"), genBag(6).Draw(t, "ro")
		}
		got := doc(difference(t, left, right, lo, ro))
		if want := modelDifference(left, right, lo, ro); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

// TestDifferenceAgreesWithNaiveModelAcrossBatches: the same law on arrays
// of hundreds of elements drawn from a few values, so that the engine's
// batches (of 64) are crossed, claimed residuals are compared a batch at a
// time, and a difference or another spelling of a value may fall anywhere.
func TestDifferenceAgreesWithNaiveModelAcrossBatches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := rapid.SliceOfN(rapid.IntRange(0, len(classes)-1), 1, 12).Draw(t, "pool")
		gen := func(label string) []any {
			n := rapid.IntRange(0, 300).Draw(t, label+" length")
			xs := make([]any, n)
			for i := range xs {
				xs[i] = classes[pool[rapid.IntRange(0, len(pool)-1).Draw(t, label)]][0]
			}
			return xs
		}
		left, right := gen("left"), gen("right")
		lo, ro := modelResiduals(left, right)
		respellSome := func(xs []any) []any {
			xs = slices.Clone(xs)
			for range rapid.IntRange(0, 5).Draw(t, "respellings") {
				if len(xs) > 0 {
					i := rapid.IntRange(0, len(xs)-1).Draw(t, "at")
					xs[i] = spell(t, classOf(xs[i]))
				}
			}
			return xs
		}
		wantLo, wantRo := lo, ro
		lo, ro = respellSome(lo), respellSome(ro)
		switch rapid.IntRange(0, 2).Draw(t, "claim") {
		case 0:
			lo = mutate(t, lo)
		case 1:
			ro = mutate(t, ro)
		}
		r := difference(t, left, right, lo, ro)
		if got, want := doc(r), modelDifference(left, right, lo, ro); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		// Residuals reads its copies of left and right: the model's lists,
		// whatever the claim was; a valid result keeps none.
		gotLo, gotRo := r.Residuals()
		if r.Valid {
			if gotLo != nil || gotRo != nil {
				t.Fatalf("Residuals of a valid result: %v %v, want nil", gotLo, gotRo)
			}
			return
		}
		for _, l := range []struct {
			got  []canon.Scalar
			want []any
		}{{gotLo, wantLo}, {gotRo, wantRo}} {
			if len(l.got) != len(l.want) {
				t.Fatalf("Residuals: %d elements, model %d", len(l.got), len(l.want))
			}
			for i := range l.got {
				if k := l.got[i].Key(); k != jcsKey(l.want[i]) {
					t.Fatalf("Residuals[%d] = %s, model %s", i, k, jcsKey(l.want[i]))
				}
			}
		}
	})
}

// classOf returns the index of the class whose first spelling is x.
func classOf(x any) int {
	for c, spellings := range classes {
		if jcsKey(spellings[0]) == jcsKey(x) {
			return c
		}
	}
	panic(fmt.Sprintf("%v is no class's first spelling", x))
}

// TestScalarEqualityIsKeyEqualityIsJCSEquality backs the index: it compares
// Scalars with == (bits of the double, bytes of the string) and never
// formats them, which is right only if == is exactly canon.Key equality and
// exactly jcs.Transform equality.
func TestScalarEqualityIsKeyEqualityIsJCSEquality(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genScalar.Draw(t, "a")
		b := genScalar.Draw(t, "b")
		if rapid.Bool().Draw(t, "same class") {
			c := genClass.Draw(t, "class")
			a, b = spell(t, c), spell(t, c)
		}
		sa, err1 := canon.Of(a)
		sb, err2 := canon.Of(b)
		ka, err3 := canon.Key(a)
		kb, err4 := canon.Key(b)
		if err := cmpErrs(err1, err2, err3, err4); err != nil {
			t.Fatal(err)
		}
		ja, jb := jcsKey(a), jcsKey(b)
		if ka != ja || kb != jb {
			t.Fatalf("canon.Key %s %s, jcs %s %s", ka, kb, ja, jb)
		}
		if (sa == sb) != (ka == kb) || (ka == kb) != (ja == jb) {
			t.Fatalf("%#v %#v: Scalar == %v, Key == %v, jcs == %v", a, b, sa == sb, ka == kb, ja == jb)
		}
	})
}

func TestClassesAreDistinctValues(t *testing.T) {
	for i, c := range classes {
		for _, x := range c {
			if jcsKey(x) != jcsKey(c[0]) {
				t.Errorf("class %d: %#v is %s, %#v is %s", i, x, jcsKey(x), c[0], jcsKey(c[0]))
			}
		}
		for j := range i {
			if jcsKey(classes[j][0]) == jcsKey(c[0]) {
				t.Errorf("classes %d and %d are one value %s", j, i, jcsKey(c[0]))
			}
		}
	}
	if k := jcsKey(negZero); k != "0" || math.Signbit(negZero) != true {
		t.Errorf("-0 is %s", k)
	}
}

func cmpErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
