package multiset_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// The tests below pin down the engine's fast paths: the equality check
// keeps only counts while it reads and orders its mismatches afterwards,
// its table jumps to a projected size, and typed slices are keyed without
// a canon.Scalar per element. Each is compared with a model or with a
// slower path that does not take the shortcut.

// modelMismatches lists every mismatch of an equality claim, in the
// contract's order, as "path key expected actual" lines: counted with a
// map over jcs keys, ordered by first occurrence from first principles.
func modelMismatches(source, claim []any) []string {
	s, c := jcsKeys(source), jcsKeys(claim)
	ns, nc := map[string]int{}, map[string]int{}
	for _, k := range s {
		ns[k]++
	}
	for _, k := range c {
		nc[k]++
	}
	var out []string
	seen := map[string]bool{}
	for i, k := range s {
		if !seen[k] && ns[k] != nc[k] {
			out = append(out, fmt.Sprintf("/source/%d %s %d %d", i, k, ns[k], nc[k]))
		}
		seen[k] = true
	}
	for j, k := range c {
		if !seen[k] {
			out = append(out, fmt.Sprintf("/claim/%d %s 0 %d", j, k, nc[k]))
		}
		seen[k] = true
	}
	return out
}

func mismatchLines(r multiset.EqualityResult) []string {
	var out []string
	for d := range r.Discrepancies() {
		out = append(out, fmt.Sprintf("%s %s %d %d", d.Path, d.Value.Key(), d.Expected, d.Actual))
	}
	return out
}

func scalarsOf(t testutil.TB, xs []any) []canon.Scalar {
	out := make([]canon.Scalar, len(xs))
	for i, x := range xs {
		s, err := canon.Of(x)
		if err != nil {
			t.Fatalf("canon.Of(%#v): %v", x, err)
		}
		out[i] = s
	}
	return out
}

// genWide draws a bag large enough to take the engine past its sample,
// its reserve and several growths of its table: up to 3000 elements over
// a pool of up to 1200 values (so anything from all-repeats to
// all-distinct), numbers, short and long strings.
func genWide(t *rapid.T) []any {
	pool := rapid.IntRange(1, 1200).Draw(t, "pool")
	n := rapid.IntRange(0, 3000).Draw(t, "n")
	seed := rapid.Uint64().Draw(t, "seed")
	xs := make([]any, n)
	for i := range xs {
		v := (seed + uint64(i)*0x9E3779B97F4A7C15) >> 11 % uint64(pool)
		switch v % 4 {
		case 0:
			xs[i] = float64(v)
		case 1:
			xs[i] = "s" + strconv.FormatUint(v, 10)
		case 2:
			xs[i] = float64(v) / 64
		default:
			xs[i] = strings.Repeat("long", 5) + strconv.FormatUint(v, 10)
		}
	}
	return xs
}

// genLate draws a claim near source: a permutation of it (so the counts
// agree while most of it is read), then edited only near its end, after
// the count-only reading has gone on for most of the claim.
func genLate(t *rapid.T, source []any) []any {
	claim := rapid.Permutation(source).Draw(t, "perm")
	if len(claim) == 0 {
		return claim
	}
	switch rapid.IntRange(0, 3).Draw(t, "late") {
	case 0: // the last element replaced by a value source lacks
		claim[len(claim)-1] = "never in source"
	case 1: // the last element replaced by another value of source
		claim[len(claim)-1] = source[rapid.IntRange(0, len(source)-1).Draw(t, "other")]
	case 2: // one element more
		claim = append(claim, source[0])
	default: // the last element dropped
		claim = claim[:len(claim)-1]
	}
	return claim
}

// TestDiscrepanciesMatchModel: every mismatch, in order, with its path and
// counts, is the model's, for claims that differ anywhere and for claims
// that differ only at their end; the same through []any and through
// []canon.Scalar (keyed in place).
func TestDiscrepanciesMatchModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		source := genWide(t)
		var claim []any
		if rapid.Bool().Draw(t, "late") {
			claim = genLate(t, source)
		} else {
			claim = genNear(t, source)
		}
		lim := multiset.Limits{MaxItems: 4000, MaxDistinct: 4000}
		want := modelMismatches(source, claim)
		r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: source, Claim: claim}, lim)
		if err != nil {
			t.Fatal(err)
		}
		if got := mismatchLines(r); !slices.Equal(got, want) || r.Valid != (len(want) == 0) {
			t.Fatalf("[]any: valid %v, mismatches\n%q\nwant\n%q", r.Valid, got, want)
		}
		rs, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: scalarsOf(t, source), Claim: scalarsOf(t, claim)}, lim)
		if err != nil {
			t.Fatal(err)
		}
		if got := mismatchLines(rs); !slices.Equal(got, want) || rs.Valid != (len(want) == 0) {
			t.Fatalf("[]canon.Scalar: valid %v, mismatches\n%q\nwant\n%q", rs.Valid, got, want)
		}
	})
}

// distinctValues returns n distinct numbers from base on.
func distinctValues(base, n int) []any {
	xs := make([]any, n)
	for i := range xs {
		xs[i] = float64(base + i)
	}
	return xs
}

// TestMaxDistinctAtTheBoundary: max_distinct counts the distinct values of
// each array: exactly the limit passes, one more fails at that array, and
// a claim whose values are all new (the index then holds twice the limit)
// is a mismatch, not an error. The limits are around batch boundaries (64
// elements), where the engine checks them.
func TestMaxDistinctAtTheBoundary(t *testing.T) {
	type row struct {
		reason        string
		max           int
		source, claim []any
		path, limit   string // the error's; "" for none
		valid         bool
	}
	var rows []row
	for _, d := range []int{1, 63, 64, 65, 128, 300} {
		same := distinctValues(0, d)
		over := distinctValues(0, d+1)
		other := distinctValues(d, d)
		rows = append(rows,
			row{reason: fmt.Sprintf("max %d: source and claim with exactly max distinct values", d), max: d, source: same, claim: same, valid: true},
			row{reason: fmt.Sprintf("max %d: source with one more", d), max: d, source: over, claim: same, path: "/source", limit: "max_distinct"},
			row{reason: fmt.Sprintf("max %d: claim with one more", d), max: d, source: same, claim: over, path: "/claim", limit: "max_distinct"},
			row{reason: fmt.Sprintf("max %d: claim with max distinct values none of which source has", d), max: d, source: same, claim: other},
			row{reason: fmt.Sprintf("max %d: claim with one more, all new", d), max: d, source: same, claim: distinctValues(d, d+1), path: "/claim", limit: "max_distinct"},
			row{reason: fmt.Sprintf("max %d: source with one more and a bad element after it", d), max: d,
				source: append(append([]any{}, over...), math.NaN()), claim: same, path: "/source/" + strconv.Itoa(d+1), limit: ""},
		)
	}
	testutil.Run(t, rows, func(t *testing.T, tc row) {
		lim := multiset.Limits{MaxItems: 1000, MaxDistinct: tc.max}
		check := func(name string, r multiset.EqualityResult, err error) {
			t.Helper()
			if tc.path == "" {
				if err != nil || r.Valid != tc.valid {
					t.Fatalf("%s: got %v, %v; want valid=%v", name, r, err, tc.valid)
				}
				return
			}
			var e *claimcheck.Error
			if !errors.As(err, &e) || e.Path != tc.path || e.Limit != tc.limit {
				t.Fatalf("%s: got %v, %v; want an error at %s (limit %q)", name, r, err, tc.path, tc.limit)
			}
		}
		r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: tc.source, Claim: tc.claim}, lim)
		check("[]any", r, err)
		var src, cl []float64 // the same through the []float64 fast path
		for _, x := range tc.source {
			src = append(src, x.(float64))
		}
		for _, x := range tc.claim {
			cl = append(cl, x.(float64))
		}
		r, err = multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: src, Claim: cl}, lim)
		check("[]float64", r, err)
	})
}

// TestHostileKeysCountRight: values built to collide under a weak hash (the
// same low bits, the same high bits, strings that differ in one byte, long
// strings with a common 16-byte prefix) are counted exactly, with every
// mismatch where the model puts it.
func TestHostileKeysCountRight(t *testing.T) {
	var source []any
	for i := range 3000 {
		source = append(source,
			float64(i)*(1<<40),                          // the same low bits
			math.Ldexp(1, i%2000-1000),                  // only the exponent differs
			float64(uint64(i)<<52>>52),                  // the same high bits
			"aaaaaaa"+string(rune('a'+i%26))+"bbb",      // one byte differs
			strings.Repeat("p", 16)+strconv.Itoa(i%700), // a long common prefix
		)
	}
	claim := append([]any(nil), source...)
	for i, j := 0, len(claim)-1; i < j; i, j = i+1, j-1 {
		claim[i], claim[j] = claim[j], claim[i]
	}
	claim[len(claim)/2] = strings.Repeat("p", 16) + "x"
	claim = append(claim, float64(1)*(1<<40))
	lim := multiset.Limits{MaxItems: 20000, MaxDistinct: 20000}
	r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: source, Claim: claim}, lim)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mismatchLines(r), modelMismatches(source, claim); !slices.Equal(got, want) {
		t.Fatalf("mismatches\n%q\nwant\n%q", got, want)
	}
}

type (
	namedString string
	namedFloat  float64
	namedInt    int
	namedInt64  int64
)

// sameAsSlowPath checks that xs ([]string, []float64, []int or []int64,
// keyed by the fast path) and ys (a named type of the same elements, read
// through reflect and canon's constructors) give the same result or error
// as source, and as claim, against ref.
func sameAsSlowPath[X, Y, R any](t *testing.T, xs []X, ys []Y, ref []R) {
	t.Helper()
	lim := multiset.Limits{MaxItems: 100, MaxDistinct: 100}
	for _, side := range []string{"source", "claim"} {
		var r1, r2 multiset.EqualityResult
		var e1, e2 error
		if side == "source" {
			r1, e1 = multiset.CheckEquality(multiset.EqualityInput[X, R]{Source: xs, Claim: ref}, lim)
			r2, e2 = multiset.CheckEquality(multiset.EqualityInput[Y, R]{Source: ys, Claim: ref}, lim)
		} else {
			r1, e1 = multiset.CheckEquality(multiset.EqualityInput[R, X]{Source: ref, Claim: xs}, lim)
			r2, e2 = multiset.CheckEquality(multiset.EqualityInput[R, Y]{Source: ref, Claim: ys}, lim)
		}
		if fmt.Sprint(e1) != fmt.Sprint(e2) || errDoc(e1) != errDoc(e2) || e1 == nil && (doc(r1) != doc(r2) || !slices.Equal(mismatchLines(r1), mismatchLines(r2))) {
			t.Errorf("as %s: fast path %v, %v; slow path %v, %v", side, r1, e1, r2, e2)
		}
	}
}

// errDoc is the error document of err ("" for nil).
func errDoc(err error) string {
	if err == nil {
		return ""
	}
	return doc(err)
}

// TestTypedFastPathsAreTheSlowPaths: []string, []float64, []int and []int64
// keyed straight from the Go values accept, refuse (with the same error at
// the same path) and count exactly as the element-by-element conversion
// does: ASCII and other UTF-8, short and long, invalid UTF-8 short and long,
// -0, infinities and NaN, integers a double holds and those it does not.
func TestTypedFastPathsAreTheSlowPaths(t *testing.T) {
	type row struct {
		reason string
		check  func(t *testing.T)
	}
	strs := func(xs ...string) func(t *testing.T) {
		return func(t *testing.T) {
			ys := make([]namedString, len(xs))
			for i, x := range xs {
				ys[i] = namedString(x)
			}
			sameAsSlowPath(t, xs, ys, []string{"a", "é", strings.Repeat("z", 20), ""})
		}
	}
	floats := func(xs ...float64) func(t *testing.T) {
		return func(t *testing.T) {
			ys := make([]namedFloat, len(xs))
			for i, x := range xs {
				ys[i] = namedFloat(x)
			}
			sameAsSlowPath(t, xs, ys, []float64{0, 1, -2.5})
		}
	}
	ints := func(zs ...int64) func(t *testing.T) {
		return func(t *testing.T) {
			var xs []int // those an int holds: all, unless an int has 32 bits
			var ys []namedInt
			ws := make([]namedInt64, len(zs))
			for i, z := range zs {
				if int64(int(z)) == z {
					xs, ys = append(xs, int(z)), append(ys, namedInt(z))
				}
				ws[i] = namedInt64(z)
			}
			sameAsSlowPath(t, xs, ys, []int{0, 1, 1 << (strconv.IntSize - 11)})
			sameAsSlowPath(t, zs, ws, []int64{0, 1, 1 << 53})
		}
	}
	testutil.Run(t, []row{
		{"ASCII strings of every length up to 17", strs("", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq")},
		{"non-ASCII UTF-8, short and long", strs("é", "aé", "日本語", strings.Repeat("é", 8), strings.Repeat("é", 9))},
		{"invalid UTF-8 in a short string", strs("a", "b\xffc")},
		{"invalid UTF-8 in a 16-byte string, in its last byte", strs("a", "abcdefghijklmno\xff")},
		{"invalid UTF-8 in a long string", strs("a", strings.Repeat("x", 30)+"\xc3")},
		{"a lone surrogate's encoding", strs("\xed\xa0\x80")},
		{"numbers, -0 and 0 equal", floats(0, math.Copysign(0, -1), 1, 1e300, 5e-324)},
		{"an infinity", floats(1, math.Inf(-1))},
		{"NaN", floats(1, math.NaN())},
		{"integers a double holds", ints(0, -1, 1<<53, -(1 << 53), 1<<62, math.MinInt64)},
		{"an integer a double does not hold", ints(1, 1<<53+1)},
		{"the largest integer", ints(math.MaxInt64)},
	}, func(t *testing.T, tc row) { tc.check(t) })
}

// TestAnyFastPathIsCanonOf: []any keyed straight from its elements counts
// as the same elements converted by canon.Of and checked as
// []canon.Scalar, and refuses the same elements at the same paths.
func TestAnyFastPathIsCanonOf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.OneOf(genScalar,
			rapid.Map(rapid.StringN(0, 20, -1), func(s string) any { return s }),
			rapid.SampledFrom([]any{testutil.Int(1 << 60), int8(-3), "é", strings.Repeat("é", 9)}),
		), 0, 40).Draw(t, "xs")
		if len(xs) > 0 && rapid.IntRange(0, 3).Draw(t, "bad") == 0 {
			xs[rapid.IntRange(0, len(xs)-1).Draw(t, "at")] = rapid.SampledFrom([]any{
				"\xff", "ok\xe2", strings.Repeat("é", 9) + "\x80", math.Inf(1), math.NaN(), testutil.Int(1<<53 + 1), struct{}{},
			}).Draw(t, "which")
		}
		ys := rapid.Permutation(xs).Draw(t, "ys")
		lim := multiset.Limits{}
		r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: xs, Claim: ys}, lim)
		var ss, cs []canon.Scalar
		var want error
		for i, x := range xs {
			s, e := canon.Of(x)
			if e != nil && want == nil {
				want = &claimcheck.Error{Path: "/source/" + strconv.Itoa(i)}
			}
			ss = append(ss, s)
		}
		for j, y := range ys {
			c, e := canon.Of(y)
			if e != nil && want == nil {
				want = &claimcheck.Error{Path: "/claim/" + strconv.Itoa(j)}
			}
			cs = append(cs, c)
		}
		if want != nil {
			var e *claimcheck.Error
			if !errors.As(err, &e) || e.Path != want.(*claimcheck.Error).Path {
				t.Fatalf("got %v, %v; want an error at %s", r, err, want.(*claimcheck.Error).Path)
			}
			return
		}
		rs, err2 := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: ss, Claim: cs}, lim)
		if err != nil || err2 != nil {
			t.Fatalf("[]any: %v, %v; []canon.Scalar: %v, %v", r, err, rs, err2)
		}
		if doc(r) != doc(rs) || !slices.Equal(mismatchLines(r), mismatchLines(rs)) {
			t.Fatalf("[]any: %v; []canon.Scalar: %v", doc(r), doc(rs))
		}
	})
}

// measuresAllocations is the start of a test that measures what large
// checks allocate: it is skipped with -short, and under the race detector
// outside the long run. Such a test takes seconds under the detector, and
// what it measures is the program's without it: CI runs it in its runs
// without -race (purego, 386) and in the long run.
func measuresAllocations(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("allocates large inputs")
	}
	if testutil.RaceEnabled && !testutil.Long() {
		t.Skip("measures allocations: run without -race, or with " + testutil.LongEnv + "=1")
	}
}

// allocated returns the least, over three runs, of the bytes f allocates
// (TotalAlloc counts every goroutine's allocations: the least of three
// leaves out a neighbour's). With fresh, a collection before each run
// frees what the engine keeps of its tables (sync.Pool keeps a table
// through one collection, the largest are kept only until the next).
func allocated(fresh bool, f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		if fresh {
			runtime.GC()
			runtime.GC()
		}
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestLargeChecksReuseTheirTables: in steady state a check of 10^5 items
// reuses a pooled table instead of allocating one (it allocated 17 MB per
// call when tables over 2^16 slots were not kept), and a check of 10^6
// distinct values allocates about one table, not a series of doublings
// (155 MB, against 75 MB for a map[int]int count).
func TestLargeChecksReuseTheirTables(t *testing.T) {
	measuresAllocations(t)
	check := func(t *testing.T, src, claim []int) {
		t.Helper()
		lim := multiset.Limits{MaxItems: len(src), MaxDistinct: len(src)}
		if r, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: src, Claim: claim}, lim); err != nil || !r.Valid {
			t.Fatal(r, err)
		}
	}
	bag := func(n int) (src, claim []int) {
		src = make([]int, n)
		for i := range src {
			src[i] = i * 7919
		}
		claim = make([]int, n)
		for i := range claim {
			claim[i] = src[int64(i)*48271%int64(n)] // in 64 bits: the product passes 2^31
		}
		return src, claim
	}
	src, claim := bag(100_000) // 48271 and 10^5 are coprime: a permutation
	check(t, src, claim)       // warms the pool: the table,
	check(t, src, claim)       // and the spare copy it grows through
	if got := allocated(false, func() { check(t, src, claim) }); got > 64<<10 && !testutil.RaceEnabled {
		t.Errorf("a check of 10^5 items in steady state allocated %d bytes", got)
	}
	src, claim = bag(1_000_000)
	if got := allocated(true, func() { check(t, src, claim) }); got > 80<<20 {
		t.Errorf("a check of 10^6 distinct values allocated %d bytes (a map[int]int count: about 75 MB)", got)
	}
}

// TestConcurrentLargeChecksTakeTablesOfTheirOwn: once a large check has
// left its table kept (the one index kept through a weak pointer), two
// large checks that start together each get a table of their own: the
// kept one goes to one of them at most.
func TestConcurrentLargeChecksTakeTablesOfTheirOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates large inputs")
	}
	const n = 250_000
	lim := multiset.Limits{MaxItems: n + 1, MaxDistinct: n + 1}
	// Source n distinct ints from off; claim the same with its middle
	// element changed: invalid, the discrepancy at /source/125000.
	input := func(off int) multiset.EqualityInput[int, int] {
		src := make([]int, n)
		for i := range src {
			src[i] = off + i*7
		}
		claim := append([]int(nil), src...)
		claim[n/2] = -1
		return multiset.EqualityInput[int, int]{Source: src, Claim: claim}
	}
	check := func(in multiset.EqualityInput[int, int]) error {
		r, err := multiset.CheckEquality(in, lim)
		if err != nil || r.Valid || r.Discrepancy == nil || r.Discrepancy.Path != "/source/125000" {
			return fmt.Errorf("%v, %v: want the discrepancy at /source/125000", r, err)
		}
		return nil
	}
	ins := [3]multiset.EqualityInput[int, int]{input(0), input(10_000_000), input(20_000_000)}
	for range testutil.Size(2, 5) {
		if err := check(ins[2]); err != nil { // leaves its index kept
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range 2 {
			wg.Go(func() {
				<-start
				if err := check(ins[g]); err != nil {
					t.Errorf("check %d: %v", g, err)
				}
			})
		}
		close(start)
		wg.Wait()
	}
}

// TestMemoryFollowsDistinctValuesAfterAJump: a first array whose first
// 30,000 elements are distinct and whose 2 million others repeat one value
// makes the table jump to the size the start projects, but by at most a
// bounded factor: memory stays a multiple of the distinct values, not of
// the items.
func TestMemoryFollowsDistinctValuesAfterAJump(t *testing.T) {
	measuresAllocations(t)
	const n, distinct = 2_000_000, 30_000
	xs := make([]canon.Scalar, n)
	for i := range xs {
		v := 0
		if i < distinct {
			v = i
		}
		xs[i], _ = canon.NumberScalar(float64(v))
	}
	lim := multiset.Limits{MaxItems: n, MaxDistinct: n}
	got := allocated(true, func() {
		if r, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: xs, Claim: xs}, lim); err != nil || !r.Valid {
			t.Fatal(r, err)
		}
	})
	// Doubling would stop at 2^16 slots (2 MiB); a jump of at most 8 times
	// reaches 2^18 (8 MiB); sizing by the projection alone, 2^22 (128 MiB).
	if got > 16<<20 {
		t.Errorf("checking 2,000,000 items over %d distinct values allocated %d bytes", distinct+1, got)
	}
}

// linearResidual is residual with a map of counts, for arrays too long
// for its quadratic matching: the same elements are dropped, as an
// element is dropped exactly when an equal one of other is still unused.
func linearResidual(self, other []any) []any {
	pool := map[string]int{}
	for _, k := range jcsKeys(other) {
		pool[k]++
	}
	var keep []any
	for i, k := range jcsKeys(self) {
		if pool[k] > 0 {
			pool[k]--
			continue
		}
		keep = append(keep, self[i])
	}
	return keep
}

// elemsOf returns xs as a JSON document's array elements, as the reader
// gives them to the engine.
func elemsOf(t *testing.T, xs []any) []jsontape.Elem {
	t.Helper()
	b, err := json.Marshal(xs)
	if err != nil {
		t.Fatal(err)
	}
	d, err := jsontape.Parse(string(b), jsontape.Options{MaxDepth: 1, MaxChildren: len(xs) + 1, ArrayElems: true})
	if err != nil {
		t.Fatal(err)
	}
	return d.ArrayElems(0)
}

// largeSource returns n elements of every kind the engine keys its own
// way: integers as float64 and as int, fractions, short, 13-to-15-byte,
// long and empty strings, null and booleans; the strings repeat.
func largeSource(n int) []any {
	source := make([]any, n)
	for i := range source {
		switch v := i * 7919 % n; i % 7 {
		case 0:
			source[i] = float64(v)
		case 1:
			source[i] = "s" + strconv.Itoa(v) // 2 to 7 bytes
		case 2:
			source[i] = float64(v) / 64
		case 3:
			source[i] = strings.Repeat("long", 5) + strconv.Itoa(v%20000) // over 16 bytes, repeated
		case 4:
			source[i] = "twelve bytes" + strconv.Itoa(v%1000) // 13 to 15 bytes, repeated
		case 5:
			source[i] = [...]any{nil, true, false}[v%3] // boxed in no memory of the input's
		default:
			if v%2 == 0 {
				source[i] = "" // a string without bytes
			} else {
				source[i] = v // an int, the same number as a float64 of case 0
			}
		}
	}
	return source
}

// TestHugeAnyArraysMatchScalars: a []any of more than touchAnyItems
// (2^18) elements also has each next batch's boxed values and string bytes
// prefetched as it is keyed. Its verdicts and mismatches are those of the
// same values given as []canon.Scalar, which TestLargeTablesMatchModel
// holds to the model, and the true residuals of a difference are valid.
// (A prefetch changes no memory: what the test can see is that the
// touching stays within the array, to the last batch.) The permutation,
// the claim one element longer and the differences are checked in the
// long run only.
func TestHugeAnyArraysMatchScalars(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const n = 270000 // not a whole number of batches
	source := largeSource(n)
	claim := testutil.Shuffled(source, 7)
	lim := multiset.Limits{MaxItems: n + 1, MaxDistinct: n + 1}
	for _, tc := range []struct {
		reason string
		claim  []any
		long   bool // in the long run only
	}{
		{"a permutation", claim, true},
		{"a string changed in the last batch", append(slices.Clone(claim[:n-1]), "never in source"), false},
		{"one element more", append(slices.Clone(claim), source[7]), true},
	} {
		if tc.long && !testutil.Long() {
			continue
		}
		r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: source, Claim: tc.claim}, lim)
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		rs, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: scalarsOf(t, source), Claim: scalarsOf(t, tc.claim)}, lim)
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		if got, want := mismatchLines(r), mismatchLines(rs); !slices.Equal(got, want) || r.Valid != rs.Valid {
			t.Fatalf("%s: []any valid %v, %d mismatches; []canon.Scalar valid %v, %d", tc.reason, r.Valid, len(got), rs.Valid, len(want))
		}
		if tc.reason == "a permutation" && !r.Valid {
			t.Fatalf("%s: not valid", tc.reason)
		}
		if tc.reason != "a permutation" && r.Valid {
			t.Fatalf("%s: valid", tc.reason)
		}
		if !testutil.Long() {
			continue // the residuals' model (a JCS key per element) is the long run's
		}
		lo, ro := linearResidual(source, tc.claim), linearResidual(tc.claim, source)
		in := multiset.DifferenceInput[any, any]{Left: source, Right: tc.claim, Claim: multiset.DifferenceClaim[any]{LeftOnly: lo, RightOnly: ro}}
		d, err := multiset.CheckDifference(in, lim)
		if err != nil {
			t.Fatalf("%s, difference: %v", tc.reason, err)
		}
		if !d.Valid {
			t.Fatalf("%s, difference: the true residuals are not valid: %s", tc.reason, doc(d))
		}
	}
}

// TestLargeTablesMatchModel: past 49,152 distinct values the table holds
// 2^17 slots or more, and the engine prefetches slots a chunk of keys ahead
// of its probes and, for []canon.Scalar, the bytes of the next batch's
// strings, in loops of their own. Their verdicts and mismatches are the
// models', for equality through []any, []canon.Scalar and a document's
// elements (whose fused loops leave the large table to countFirst), and for
// a difference, with claims wrong at the start, the middle and the end, in
// short, long and empty strings, numbers, null and booleans (the
// permutation, the middle and the start, and a claim one element longer,
// in the long run only).
func TestLargeTablesMatchModel(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	// 50,000 distinct values take a table of 2^17 slots, as 70,000 do.
	n := testutil.Size(50_000, 70_000)
	source := largeSource(n)
	perm := func(seed int) []any {
		claim := slices.Clone(source)
		for i := len(claim) - 1; i > 0; i-- {
			j := (i*seed + 12345) % (i + 1)
			claim[i], claim[j] = claim[j], claim[i]
		}
		return claim
	}
	edit := func(claim []any, at int, v any) []any {
		claim = slices.Clone(claim)
		claim[at] = v
		return claim
	}
	p := perm(7919)
	lim := multiset.Limits{MaxItems: 2 * n, MaxDistinct: 2 * n}
	for _, tc := range []struct {
		reason     string
		claim      []any
		difference bool // checked as the right of a difference too
		long       bool // in the long run only
	}{
		{"a permutation", p, true, true},
		{"a value source lacks at the end", edit(p, n-1, "never in source"), true, false},
		{"a long string changed in the middle", edit(p, n/2, strings.Repeat("long", 5)+"x"), false, true},
		{"a number changed at the start", edit(p, 0, -1.5), false, true},
		{"one element more", append(slices.Clone(p), source[n/3]), false, true},
	} {
		if tc.long && !testutil.Long() {
			continue
		}
		want := modelMismatches(source, tc.claim)
		r, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: source, Claim: tc.claim}, lim)
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		if got := mismatchLines(r); !slices.Equal(got, want) || r.Valid != (len(want) == 0) {
			t.Fatalf("%s, []any: valid %v, %d mismatches, want %d: first %q, want %q", tc.reason, r.Valid, len(got), len(want), got[:min(1, len(got))], want[:min(1, len(want))])
		}
		rs, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: scalarsOf(t, source), Claim: scalarsOf(t, tc.claim)}, lim)
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		if got := mismatchLines(rs); !slices.Equal(got, want) || rs.Valid != (len(want) == 0) {
			t.Fatalf("%s, []canon.Scalar: valid %v, %d mismatches, want %d", tc.reason, rs.Valid, len(got), len(want))
		}
		re, err := multiset.CheckEquality(multiset.EqualityInput[jsontape.Elem, jsontape.Elem]{Source: elemsOf(t, source), Claim: elemsOf(t, tc.claim)}, lim)
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		if got := mismatchLines(re); !slices.Equal(got, want) || re.Valid != (len(want) == 0) {
			t.Fatalf("%s, document elements: valid %v, %d mismatches, want %d", tc.reason, re.Valid, len(got), len(want))
		}

		if !tc.difference {
			continue
		}
		// The same claim as the right of a difference: its residuals.
		wantLo, wantRo := linearResidual(source, tc.claim), linearResidual(tc.claim, source)
		for _, c := range []struct {
			reason string
			lo, ro []any
		}{
			{"the true residuals", wantLo, wantRo},
			{"right_only with a value of left", wantLo, append(slices.Clone(wantRo), source[5])},
		} {
			in := multiset.DifferenceInput[any, any]{Left: source, Right: tc.claim, Claim: multiset.DifferenceClaim[any]{LeftOnly: c.lo, RightOnly: c.ro}}
			d, err := multiset.CheckDifference(in, lim)
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.reason, c.reason, err)
			}
			if got, want := doc(d), differenceDoc(wantLo, wantRo, c.lo, c.ro); got != want {
				t.Fatalf("%s, %s: difference\n%s\nwant\n%s", tc.reason, c.reason, got, want)
			}
		}
	}
}
