package bag

import (
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/claimcheck/claimcheck/canon"
)

// index numbers the distinct scalars of a check 0, 1, 2, ... in order of
// first appearance. Numbers are keyed by their bits (canon folds -0 into 0,
// and NaN never reaches a Scalar) and strings by their bytes, so two elements
// get the same id exactly when the Scalars are ==, which canon guarantees is
// RFC 8785 equality; nothing is formatted.
//
// The keys live in two open-addressing tables with linear probing, one for
// numbers and one for strings, instead of Go maps: a probe is a masked index
// and a compare of 64-bit words in the caller's loop, with no call through
// the runtime's generic map code. Both are hashed with keys drawn afresh for
// every check (see hasher), so input chosen to collide costs its author a
// guess per check rather than forcing the tables into quadratic probing.
type index struct {
	nums numTable
	strs strTable
	keys []string // the strings by ordinal (strSlot.ord)
	lits [3]int32 // id+1 of null, false, true; 0 while unseen
	n    int32    // ids given
	h    hasher
}

// A numSlot holds one number: its bits and its id+1 (0: the slot is empty).
type numSlot struct {
	bits uint64
	id   int32
}

// A strSlot holds one string: its hash, its ordinal in index.keys, and its
// id+1 (0: the slot is empty). The full hash is kept so that a probe
// compares strings only when their hashes agree, and growing never rehashes.
// Neither kind of slot holds a pointer, so the garbage collector never scans
// the tables.
type strSlot struct {
	hash uint64
	ord  int32
	id   int32
}

// The tables grow (double) when an insertion would fill more than
// maxLoadNum/maxLoadDen of their slots. With a well-spread hash, linear
// probing at a load of three quarters averages 2.5 probes for a hit and 8.5
// for a miss (a new value, once per distinct value), four slots to a cache
// line; most of the time the load is lower, as sizes are powers of two.
const (
	maxLoadNum = 3
	maxLoadDen = 4
)

// slotsFor returns the number of slots (a power of two, at least 8) that
// holds n keys within the maximum load.
func slotsFor(n int) int {
	want := n*maxLoadDen/maxLoadNum + 1
	if want <= 8 {
		return 8
	}
	return 1 << bits.Len(uint(want-1))
}

type numTable struct {
	slots []numSlot
	used  int
}

type strTable struct {
	slots []strSlot
	used  int
}

// newIndex returns an empty index. Its tables grow with the distinct values,
// not with the elements: pre-sizing them by the input's length would make
// memory and allocations follow the items.
//
// first is the length of the first array: the tables start with room for
// the sample (or the whole array, if shorter), split between the kinds.
func newIndex(first int) *index {
	h := min(first, sample) / 2
	ix := &index{h: newHasher()}
	ix.nums.slots = make([]numSlot, slotsFor(h))
	ix.strs.slots = make([]strSlot, slotsFor(h))
	ix.keys = make([]string, 0, h)
	return ix
}

// sample is how many elements of the first array are interned before the
// index guesses its final size.
const sample = 256

// maxReserve caps what reserve may set aside (in entries): a guess from a
// sample must not cost more than a bounded amount when the rest of the input
// turns out to repeat itself.
const maxReserve = 1 << 14

// reserve is called once sample elements of an array of n have been
// interned: when most of them were new, most of the rest will probably be
// too, so the tables are rebuilt with room for more, in proportion to their
// kinds, instead of doubling their way there. Repetitive input keeps the
// small tables; a wrong guess costs at most maxReserve entries, so memory
// stays O(distinct values).
//
// It returns the number of distinct values it expects in all (at least the
// ones seen), for sizing the caller's per-value slices the same way.
func (ix *index) reserve(n, maxDistinct int) int {
	if int(ix.n) < sample/2 {
		return int(ix.n)
	}
	grow := func(have int) int { return min(have*n/sample, maxDistinct, maxReserve) }
	if ix.nums.used > sample/8 {
		ix.nums.resize(slotsFor(grow(ix.nums.used)), &ix.h)
	}
	if ix.strs.used > sample/8 {
		want := grow(ix.strs.used)
		ix.strs.resize(slotsFor(want))
		if want > cap(ix.keys) {
			ix.keys = append(make([]string, 0, want), ix.keys...)
		}
	}
	return max(grow(int(ix.n)), int(ix.n))
}

// intern returns the id of s, giving it the next id if it is new. Numbers,
// the commonest kind, are probed here; the rest in internOther.
func (ix *index) intern(s canon.Scalar) (id int32, isNew bool) {
	if s.Kind() != canon.Number {
		return ix.internOther(s)
	}
	b := math.Float64bits(s.Float())
	t := &ix.nums
	mask := uint64(len(t.slots) - 1)
	for i := ix.h.num(b) & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.bits == b && sl.id != 0 {
			return sl.id - 1, false
		}
		if sl.id == 0 {
			return ix.insertNum(sl, b)
		}
	}
}

// insertNum puts b in the empty slot sl, or in a grown table when the
// table would be too full.
func (ix *index) insertNum(sl *numSlot, b uint64) (int32, bool) {
	t := &ix.nums
	if (t.used+1)*maxLoadDen > len(t.slots)*maxLoadNum {
		t.resize(2*len(t.slots), &ix.h)
		mask := uint64(len(t.slots) - 1)
		i := ix.h.num(b) & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		sl = &t.slots[i]
	}
	ix.n++
	*sl = numSlot{bits: b, id: ix.n}
	t.used++
	return ix.n - 1, true
}

func (ix *index) internOther(s canon.Scalar) (id int32, isNew bool) {
	if s.Kind() == canon.String {
		return ix.internStr(s.Str())
	}
	l := 0 // null
	if s.Kind() == canon.Bool {
		l = 1
		if s.Bool() {
			l = 2
		}
	}
	if ix.lits[l] != 0 {
		return ix.lits[l] - 1, false
	}
	ix.lits[l] = ix.n + 1
	ix.n++
	return ix.n - 1, true
}

func (ix *index) internStr(s string) (int32, bool) {
	t := &ix.strs
	h := ix.h.str(s)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.id == 0 {
			if (t.used+1)*maxLoadDen > len(t.slots)*maxLoadNum {
				t.resize(2 * len(t.slots))
				return ix.internStr(s)
			}
			ix.n++
			*sl = strSlot{hash: h, ord: int32(len(ix.keys)), id: ix.n}
			ix.keys = append(ix.keys, s)
			t.used++
			return ix.n - 1, true
		}
		if sl.hash == h && ix.keys[sl.ord] == s {
			return sl.id - 1, false
		}
	}
}

// resize moves the keys into a table of n slots (a power of two that holds
// them), if that is larger.
func (t *numTable) resize(n int, h *hasher) {
	if n <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots = make([]numSlot, n)
	mask := uint64(n - 1)
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		i := h.num(sl.bits) & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

func (t *strTable) resize(n int) {
	if n <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots = make([]strSlot, n)
	mask := uint64(n - 1)
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		i := sl.hash & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// A hasher hashes the keys of one check. Its keys are random and new for
// every check, so which inputs collide cannot be known in advance, nor
// learnt from one check and replayed on the next.
//
// A number's 64 bits go through two rounds of a folded 64×64→128-bit
// multiply (the mixing step of wyhash, which the Go runtime's own fallback
// hash uses), keyed at each round. A string of up to 16 bytes is read as
// two (overlapping) words and mixed the same way with its length; a longer
// one is hashed by hash/maphash under a seed made for the check.
type hasher struct {
	k    [4]uint64
	seed maphash.Seed
}

func newHasher() hasher {
	h := hasher{seed: maphash.MakeSeed()}
	for i := range h.k {
		h.k[i] = rand.Uint64()
	}
	return h
}

// mix is the folded multiply: the two halves of the 128-bit product of a
// and b, xored.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func (h *hasher) num(b uint64) uint64 {
	return mix(mix(b^h.k[0], h.k[1])^h.k[2], h.k[3]|1)
}

func (h *hasher) str(s string) uint64 {
	n := len(s)
	var a, b uint64
	switch {
	case n > 16:
		return maphash.String(h.seed, s)
	case n >= 8:
		a, b = le64(s), le64(s[n-8:])
	case n >= 4:
		a, b = uint64(le32(s)), uint64(le32(s[n-4:]))
	case n > 0:
		a = uint64(s[0])<<16 | uint64(s[n>>1])<<8 | uint64(s[n-1])
	}
	return mix(mix(a^h.k[0], b^h.k[1])^h.k[2]^uint64(n), h.k[3]|1)
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
