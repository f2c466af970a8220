package bag

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

func num(t testing.TB, f float64) canon.Scalar {
	t.Helper()
	s, err := canon.NumberScalar(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func str(t testing.TB, v string) canon.Scalar {
	t.Helper()
	s, err := canon.StringScalar(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkAgainstModel interns xs into an index made for an array of first
// elements (reserving at the sample, as the engine does) and checks every id
// against a Go map of Scalars: the same id exactly for == Scalars, new ids
// numbered in order of first appearance.
func checkAgainstModel(t *testing.T, first int, xs []canon.Scalar) {
	t.Helper()
	checkAgainstModelIn(t, newIndex(first), xs)
}

// checkAgainstModelIn is checkAgainstModel in the index ix, just reset.
func checkAgainstModelIn(t *testing.T, ix *index, xs []canon.Scalar) {
	t.Helper()
	model := map[canon.Scalar]int32{}
	for i, s := range xs {
		if i == sample && len(xs) > 2*sample {
			ix.reserve(len(xs), math.MaxInt32)
		}
		sl, isNew := internOne(ix, s)
		id := sl.id
		want, seen := model[s]
		if !seen {
			want = int32(len(model))
			model[s] = want
		}
		if id != want || isNew == seen {
			t.Fatalf("element %d (%v): intern = %d, %v; want %d, %v", i, s, id, isNew, want, !seen)
		}
	}
	used := 0
	for _, sl := range ix.slots {
		if sl.tag >= ix.g {
			used++
		}
	}
	if ix.n != len(model) || used != len(model) {
		t.Fatalf("index holds %d ids in %d slots, model %d", ix.n, used, len(model))
	}
	for s, want := range model {
		if sl := ix.lookup(&s); sl == nil || sl.id != want {
			t.Fatalf("lookup(%v) = %v, want id %d", s, sl, want)
		}
	}
	for _, s := range []canon.Scalar{str(t, "never interned"), str(t, strings.Repeat("never interned", 3)), num(t, -12345.678)} {
		if _, seen := model[s]; !seen && ix.lookup(&s) != nil {
			t.Fatalf("lookup(%v) found a value never interned", s)
		}
	}
}

// internAll interns the scalars of ss (at most batch of them) as the
// engine interns a batch of keys (internKeys), seen elements before them,
// and returns which were new.
func (ix *index) internAll(ss []canon.Scalar, w, seen int) (fresh uint64) {
	ix.scalarKeys(ss)
	ix.hashAll(len(ss), seen)
	var ids [batch]int32
	fresh, _ = ix.internKeys(len(ss), w, ids[:])
	return fresh
}

// internOne interns s alone, as a batch of one.
func internOne(ix *index, s canon.Scalar) (*slot, bool) {
	fresh := ix.internAll([]canon.Scalar{s}, 0, 0)
	return ix.lookup(&s), fresh != 0
}

func TestIndexMatchesModel(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		reason string
		first  int
		xs     func(t *testing.T) []canon.Scalar
	}{
		{"every kind, with repeats", 8, func(t *testing.T) []canon.Scalar {
			return []canon.Scalar{canon.NullScalar(), canon.BoolScalar(true), canon.BoolScalar(false), num(t, 0), str(t, ""),
				num(t, 1), str(t, "1"), canon.NullScalar(), num(t, 0), canon.BoolScalar(false), str(t, ""), num(t, math.Copysign(0, -1))}
		}},
		{"number 0 has all-zero bits, like an empty slot", 1, func(t *testing.T) []canon.Scalar {
			return []canon.Scalar{num(t, 0), num(t, 0), num(t, 5e-324), num(t, 0)}
		}},
		{"strings of every length up to 40 that differ in one byte at each position", 4, func(t *testing.T) []canon.Scalar {
			var xs []canon.Scalar
			for n := 0; n <= 40; n++ {
				base := long[:n]
				xs = append(xs, str(t, base))
				for i := 0; i < n; i++ {
					xs = append(xs, str(t, base[:i]+"y"+base[i+1:]))
				}
				xs = append(xs, str(t, base))
			}
			return xs
		}},
		{"strings that differ only in a middle byte the short hash reads twice", 4, func(t *testing.T) []canon.Scalar {
			var xs []canon.Scalar
			for _, n := range []int{1, 2, 3, 5, 7, 9, 15, 16, 17} {
				for c := 'a'; c <= 'e'; c++ {
					b := []byte(long[:n])
					b[n/2] = byte(c)
					xs = append(xs, str(t, string(b)), str(t, string(b)))
				}
			}
			return xs
		}},
		{"growth from the smallest table through many doublings", 0, func(t *testing.T) []canon.Scalar {
			var xs []canon.Scalar
			for i := range 5000 {
				xs = append(xs, num(t, float64(i%3000)), str(t, "s"+strconv.Itoa(i%2500)))
			}
			return xs
		}},
		{"a reserved table (most of the sample new) then more than reserved", 3000, func(t *testing.T) []canon.Scalar {
			var xs []canon.Scalar
			for i := range 3000 {
				xs = append(xs, num(t, float64(i)/64), str(t, strconv.Itoa(i*7)))
			}
			return xs
		}},
		{"powers of two and their negations: bits that differ only in the exponent and sign", 16, func(t *testing.T) []canon.Scalar {
			var xs []canon.Scalar
			for e := -1074; e <= 1023; e++ {
				f := math.Ldexp(1, e)
				xs = append(xs, num(t, f), num(t, -f))
			}
			return append(xs, xs...)
		}},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("a row without a reason")
		}
		t.Run(tc.reason, func(t *testing.T) { checkAgainstModel(t, tc.first, tc.xs(t)) })
	}
}

// TestIndexProperty: any sequence of scalars, drawn with many repeats,
// numbers the distinct ones as a map does.
func TestIndexProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		pool := rapid.SliceOfN(rapid.OneOf(
			rapid.Map(rapid.Float64(), func(f float64) canon.Scalar {
				s, err := canon.NumberScalar(f)
				if err != nil {
					return canon.NullScalar()
				}
				return s
			}),
			rapid.Map(rapid.IntRange(-1000, 1000), func(i int) canon.Scalar {
				s, _ := canon.NumberScalar(float64(i))
				return s
			}),
			rapid.Map(rapid.StringN(0, 24, -1), func(v string) canon.Scalar {
				s, err := canon.StringScalar(v)
				if err != nil {
					return canon.BoolScalar(true)
				}
				return s
			}),
			rapid.Just(canon.NullScalar()), rapid.Just(canon.BoolScalar(false)),
		), 1, 600).Draw(rt, "pool")
		idx := rapid.SliceOfN(rapid.IntRange(0, len(pool)-1), 0, 2000).Draw(rt, "picks")
		xs := make([]canon.Scalar, len(idx))
		for i, k := range idx {
			xs[i] = pool[k]
		}
		checkAgainstModel(t, rapid.IntRange(0, 2000).Draw(rt, "first"), xs)
	})
}

// maxProbe returns the longest run of occupied slots: the most probes any
// lookup can take.
func maxProbe(ix *index) int {
	run := func(n int, used func(int) bool) int {
		longest, cur := 0, 0
		for i := 0; i < 2*n; i++ { // twice round: a run may wrap
			if used(i % n) {
				cur++
				longest = max(longest, min(cur, n))
			} else {
				cur = 0
			}
		}
		return longest
	}
	return run(len(ix.slots), func(i int) bool { return ix.slots[i].tag >= ix.g })
}

// TestIndexSpreadsStructuredKeys: keys with the regularities of real and
// hostile input (consecutive integers, multiples of large powers of two,
// doubles that differ only in their exponent, strings that share all but
// one byte) spread over the table: no probe sequence gets long. A hash
// that ignored some bits of its input would put them in a few long runs.
func TestIndexSpreadsStructuredKeys(t *testing.T) {
	families := []struct {
		reason string
		xs     func(i int) canon.Scalar
	}{
		{"consecutive integers", func(i int) canon.Scalar { return num(t, float64(i)) }},
		{"multiples of 2^32", func(i int) canon.Scalar { return num(t, float64(i)*(1<<32)) }},
		{"sixty-fourths", func(i int) canon.Scalar { return num(t, float64(i)/64) }},
		{"powers of two", func(i int) canon.Scalar { return num(t, math.Ldexp(1, i%2000-1000)*float64(1+i/2000)) }},
		{"numbered strings", func(i int) canon.Scalar { return str(t, "s"+strconv.Itoa(i)) }},
		{"16-byte strings differing in the middle", func(i int) canon.Scalar {
			return str(t, "aaaaa"+strconv.Itoa(1_000_000+i)+"bbbb")
		}},
		{"long strings differing at the end", func(i int) canon.Scalar {
			return str(t, strings.Repeat("z", 30)+strconv.Itoa(i))
		}},
	}
	for _, f := range families {
		if f.reason == "" {
			t.Fatal("a row without a reason")
		}
		ix := newIndex(0)
		for i := range 20000 {
			internOne(ix, f.xs(i))
		}
		// At a load of at most 3/4, a random hash makes runs of a few dozen
		// at most among 2^15 slots; 200 leaves room for chance.
		if n := maxProbe(ix); n > 200 {
			t.Errorf("%s: longest probe run %d", f.reason, n)
		}
	}
}

// TestHasherKeysDiffer: every index draws its own hash keys.
func TestHasherKeysDiffer(t *testing.T) {
	a, b := newHasher(), newHasher()
	if a.k == b.k {
		t.Fatalf("two hashers share their keys %x", a.k)
	}
	if a.hash(1, 0, scalar.TagNum) == b.hash(1, 0, scalar.TagNum) && a.hash(0, 0, scalar.TagNull) == b.hash(0, 0, scalar.TagNull) {
		t.Fatal("two hashers hash 1 and null alike")
	}
}

func BenchmarkIntern(b *testing.B) {
	for _, n := range []int{100, 10000} {
		r := rand.New(rand.NewPCG(1, 2))
		xs := make([]canon.Scalar, 2*n)
		for i := range xs {
			switch k := r.IntN(10); {
			case k < 4:
				xs[i] = num(b, float64(r.IntN(n)))
			case k < 6:
				xs[i] = num(b, float64(r.IntN(1e6))/64)
			case k < 9:
				xs[i] = str(b, "s"+strconv.Itoa(r.IntN(n)))
			default:
				xs[i] = canon.BoolScalar(k%2 == 0)
			}
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ix := newIndex(len(xs))
				for i := 0; i < len(xs); i += batch {
					if i == sample && len(xs) > 2*sample {
						ix.reserve(len(xs), 1<<20)
					}
					ix.internAll(xs[i:min(i+batch, len(xs))], i/n%2, i)
				}
				ix.release()
			}
		})
	}
}

// TestReleaseForgetsTheInput: a released index, back in its pool, holds no
// string of the input in its batch buffers, whichever way the elements
// were keyed and however many a batch held (it clears only the positions
// the check wrote).
func TestReleaseForgetsTheInput(t *testing.T) {
	long := strings.Repeat("long string ", 4)
	for _, n := range []int{1, 3, 63, 64, 65, 200} {
		anys := make([]any, n)
		scalars := make([]canon.Scalar, n)
		for i := range anys {
			anys[i] = long + strconv.Itoa(i)
			scalars[i] = str(t, long+strconv.Itoa(i))
		}
		fill := func(i int, dst []canon.Scalar) error { copy(dst, scalars[i:]); return nil }
		arrays := []Array{
			{Path: "/a", N: n, Go: GoSlice{Any: anys}, Fill: fill},
			{Path: "/a", N: n, Scalars: scalars, Fill: fill},
			{Path: "/a", N: n, Fill: fill},
		}
		for _, a := range arrays {
			ix := newIndex(n)
			for i := 0; i < n; i += batch {
				if err := a.keys(ix, i, min(batch, n-i), i); err != nil {
					t.Fatal(err)
				}
			}
			ix.release()
			forgot(t, ix, n)
		}
		// Equality's own path over []canon.Scalar, which keys them in place.
		ix := newIndex(n)
		for i := 0; i < n; i += batch {
			ix.countFirstScalars(scalars[i:min(i+batch, n)], i)
		}
		ix.release()
		forgot(t, ix, n)
	}
}

// forgot fails t if a released index still holds a string of the input.
func forgot(t *testing.T, ix *index, n int) {
	t.Helper()
	for k := range batch {
		if ix.buf[k] != (canon.Scalar{}) {
			t.Fatalf("n=%d: position %d still holds %q", n, k, ix.buf[k].Str())
		}
	}
	if len(ix.kb.longs) != 0 {
		t.Fatalf("n=%d: %d long strings kept", n, len(ix.kb.longs))
	}
}

// TestGenerationsForgetEarlierChecks: an index reused for check after check
// empties its table by starting a generation (index.next), and the values
// of earlier checks are never found again, in a table that keeps its size,
// one that grows over the slots of a larger earlier table, and across the
// wrap of the generation count, where the memory is cleared instead.
func TestGenerationsForgetEarlierChecks(t *testing.T) {
	values := func(check, n int) []canon.Scalar {
		xs := make([]canon.Scalar, 0, 2*n)
		for i := range n {
			xs = append(xs, num(t, float64(check*1000000+i)), str(t, "c"+strconv.Itoa(check)+"/"+strconv.Itoa(i)))
		}
		return xs
	}
	tests := []struct {
		reason string
		sizes  []int // the values of each check in turn
		start  uint32
	}{
		{"checks of one size reuse the same slots", []int{300, 300, 300, 300}, 0},
		{"a small check after a large one, then a large one again", []int{3000, 10, 3000, 40}, 0},
		{"the generation count wraps between the checks", []int{500, 500, 500, 500, 500}, math.MaxUint32&^tagMask - 2*(tagMask+1)},
		{"the count wraps while a table grows in place", []int{2000, 50, 2000, 2000}, math.MaxUint32&^tagMask - 3*(tagMask+1)},
		{"the count wraps while a table grows in place, within its capacity", []int{2000, 50, 200, 200}, math.MaxUint32&^tagMask - 3*(tagMask+1)},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			ix := newIndex(1)
			if tc.start != 0 {
				ix.g = tc.start
			}
			var earlier []canon.Scalar
			for c, n := range tc.sizes {
				ix.reset(2 * n)
				for i, sl := range ix.slots[:cap(ix.slots)] {
					if sl.tag >= ix.g {
						t.Fatalf("check %d (g %#x): slot %d of the emptied table holds tag %#x", c, ix.g, i, sl.tag)
					}
				}
				for _, s := range earlier {
					if sl := ix.lookup(&s); sl != nil {
						t.Fatalf("check %d (g %#x): %v of an earlier check is found", c, ix.g, s)
					}
				}
				xs := values(c, n)
				checkAgainstModelIn(t, ix, xs)
				earlier = append(earlier, xs...)
			}
		})
	}
}
