package bag

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"
	"unsafe"
	"weak"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// index numbers the distinct scalars of a check in order of first
// appearance, and keeps two counters per value for the engine. Two
// elements get the same value exactly when they have the same key, which
// package scalar defines (and which is RFC 8785 equality); nothing is
// formatted. A value's id is the next number (Difference, which indexes
// slices by it), or, in an equality check, its first occurrence itself
// (countFirst), so that the check keeps nothing but counts while it reads.
//
// Every value lives in one open-addressing table with linear probing,
// instead of a Go map: a probe is a masked index and a compare of three
// words, inline in the loop over a batch of elements, and the slot that
// matches also holds the value's counters, so an element costs one random
// memory access, whose cache miss, in a large table, overlaps its batch's
// others (hashAll). A string longer than scalar.MaxShort bytes, and an
// exact integer, is keyed by its text's ordinal among the check's
// (longID), which a Go map gives. Keys are hashed with random keys drawn when the index is made
// (see hasher), so input chosen to collide cannot be chosen in advance.
type index struct {
	slots []slot
	spare []slot // a copy of the table while it is rebuilt in place (see resize)
	n     int    // the values in the table, which is also the next id of Difference's numbering
	h     hasher

	// g is the table's generation, shifted above tagMask: a slot whose tag
	// is at least g holds a value, with its key's tag in the bits of
	// tagMask, and every other slot is empty. So a table is emptied by
	// incrementing g (see next), not by clearing its memory.
	g uint32

	//lint:ignore U1000 written by touchSlots where there is no prefetch (prefetch_other.go)
	touched uint32 // what touchSlots' loads read, kept so that they stay
	kb      Batch  // the keys of a batch

	// What grow's guess reads (see expect): the elements of the array being
	// interned, and the most distinct values it may have.
	total, limit int

	// Scratch for the engine, kept with the index between checks: per id,
	// its first occurrence (Equality, Difference); per element of left and
	// right, its id; per id, a count (Difference's walks).
	origin []int32
	ids    [2][]int32
	rem    []int32
	buf    [batch]canon.Scalar // a batch of converted elements
	//lint:ignore U1000 read by touchStrings where there is a prefetch (prefetch_amd64.go)
	pf   [batch]uintptr // addresses to prefetch (see touchStrings)
	wide int            // how far into buf this check wrote (see Array.keys)
}

// A slot holds one value: its key (a, b, and the key's tag in the bits of
// tagMask of tag; a tag below the index's generation: the slot is empty,
// see index.g), its id, and two counters the engine uses as it likes. It
// holds no pointer, so the garbage collector never scans the table; at 32
// bytes two fit in a cache line.
type slot struct {
	a, b uint64
	tag  uint32
	id   int32
	n    [2]int32
}

// tagMask selects a key's tag in a slot's tag, whose bits above it are
// the slot's generation (see index.g): every tag of package scalar is
// below 256.
const tagMask = 0xff

// A view is the table as a loop that probes holds it: its slots and the
// generation, in registers. (Read from the index at every probe, they would
// be loaded again after every store to a slot, which could alias them; and
// a struct of more than four words is kept in memory, not in registers.) A
// loop takes its view once and relies on the table not growing under it:
// every batch made room for all of its keys first (room), so an insertion
// never grows the table. A stale view would take the old table's slots for
// values.
type view struct {
	slots *slot  // the first of them
	mask  uint64 // their number, a power of two, less one
	g     uint32
}

func (ix *index) view() view { return view{&ix.slots[0], uint64(len(ix.slots) - 1), ix.g} }

// at returns slot j&mask: within the table, so without a bounds check
// (and without the table's length in a register of every loop).
func (v view) at(j uint64) *slot {
	return (*slot)(unsafe.Add(unsafe.Pointer(v.slots), (j&v.mask)*uint64(unsafe.Sizeof(slot{}))))
}

// find returns the slot of the key (a, b, tag) of hash h in the table v:
// the first slot of the key's probe sequence (linear, from h) that holds it
// or is empty. An empty slot is given the key and id, and counted in ix.n,
// when put is true, and is not returned (nil) when put is false: a lookup.
// oneWord says that the key is one word (a fused loop made it with
// scalar's Word, ElemWord or the []any run's keyers): b is 0, as in every
// slot whose tag is such a key's, so b is not compared (which costs a
// check of 10^4 []canon.Scalar 5% of its instructions). It is the table's one probe loop; every loop of the
// engine calls it, and the compiler inlines it into each (put and oneWord
// are then constants).
func (ix *index) find(v view, a, b uint64, tag uint32, h uint64, id int32, put, oneWord bool) (sl *slot) {
	for j := h; ; j++ {
		sl = v.at(j)
		if sl.a == a && (oneWord || sl.b == b) && sl.tag == tag|v.g {
			break
		}
		if sl.tag < v.g {
			if !put {
				return nil
			}
			*sl = slot{a: a, b: b, tag: tag | v.g, id: id}
			ix.n++
			break
		}
	}
	return sl
}

// lookup returns the slot of s, or nil when s was never interned.
func (ix *index) lookup(s *canon.Scalar) *slot {
	a, b, tag := rep(s).Key()
	if tag >= scalar.TagBig {
		id, ok := ix.kb.longs[rep(s).Text()]
		if !ok {
			return nil
		}
		a = uint64(id)
	}
	return ix.find(ix.view(), a, b, tag, ix.h.hash(a, b, tag), 0, false, false)
}

// zero sets counter w of every value to 0.
func (ix *index) zero(w int) {
	for i := range ix.slots {
		ix.slots[i].n[w&1] = 0
	}
}

// The table grows (doubles) when an insertion would fill more than
// maxLoadNum/maxLoadDen of its slots. With a well-spread hash, linear
// probing at a load of three quarters averages 2.5 probes for a hit and 8.5
// for a miss (a new value, once per distinct value); most of the time the
// load is lower, as sizes are powers of two.
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

// room makes room for extra more values, so that inserting them moves no
// slot (see view); seen is how many elements of the array being interned
// were interned before them, for grow's guess.
func (ix *index) room(extra, seen int) {
	if (ix.n+extra)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(extra, seen)
	}
}

// resize moves the values, with their ids and counters, into a table of n
// slots (a power of two that holds them), if that is larger. A pooled index
// rebuilds in the capacity it already has, through its spare copy.
func (ix *index) resize(n int) {
	if n <= len(ix.slots) {
		return
	}
	old, g := ix.slots, ix.g
	if cap(ix.slots) >= n {
		old = append(ix.spare[:0], ix.slots...)
		ix.spare = old
		ix.slots = ix.slots[:n]
		ix.next()
	} else {
		ix.slots = make([]slot, n)
	}
	v, n := ix.view(), ix.n
	for i := range old {
		if sl := &old[i]; sl.tag >= g {
			k := sl.tag & tagMask
			e := ix.find(v, sl.a, sl.b, k, ix.h.hash(sl.a, sl.b, k), sl.id, true, false) // new: the keys are distinct
			e.n = sl.n
		}
	}
	ix.n = n // the values were counted already
}

// next empties the table by starting its next generation: every slot
// whose tag is below the new ix.g is empty. Once in 2^24 generations the
// whole capacity is cleared instead, and the count starts again.
func (ix *index) next() {
	if ix.g >= math.MaxUint32&^tagMask {
		clear(ix.slots[:cap(ix.slots)])
		ix.g = 0
	}
	ix.g += tagMask + 1
}

// newIndex returns an empty index. Its table grows with the distinct
// values, not with the elements: pre-sizing it by the input's length would
// make memory and allocations follow the items.
//
// first is the length of the first array: the table starts with room for
// the sample, or the whole array if shorter.
//
// Indexes are reused (see pool): release puts one back when its check is
// done. A reused index keeps its hash keys (see pool) and gets an emptied
// table and no strings.
func newIndex(first int) *index {
	var ix *index
	if first > hugeItems {
		ix = takeHuge()
	}
	if ix == nil && first > bigItems {
		ix = bigPool.Get().(*index)
	}
	if ix == nil {
		ix = pool.Get().(*index)
	}
	ix.reset(first)
	return ix
}

// reset empties ix for a check whose first array has first elements.
func (ix *index) reset(first int) {
	ix.n, ix.total, ix.limit = 0, 0, 0
	ix.kb.h = ix.h
	if len(ix.kb.longs) > 0 { // the numbers start again (release cleared a pooled index's)
		clear(ix.kb.longs)
	}
	if n := slotsFor(min(first, sample)); cap(ix.slots) >= n {
		ix.slots = ix.slots[:n]
	} else {
		ix.slots = make([]slot, n)
	}
	ix.next()
}

// The pools hold the indexes of finished checks. A check allocates its
// table afresh otherwise, and for small checks, the commonest, allocating and
// zeroing fresh memory (and collecting it after) costs more than the check;
// for large ones, allocating means a garbage collection every few checks.
//
// An index draws its hash keys once, when it is made: a kept index keeps
// them, as a Go map keeps its seed for its life. Drawing them for every
// check (four random words) was a tenth of a small check.
//
// Checks whose first array has more than bigItems elements take their
// index from bigPool, the others from pool, so that a small check does not
// take (and a large one does not miss) a large table. What the pools hold
// while idle is bounded per index (maxPooled slots, their spare copy, and
// maxPooledScratch entries of each scratch slice and of the map of long
// strings: at most 12 MiB of table and 8 MiB of scratch), by the number
// of checks that ran at once, and in time: a sync.Pool drops what was not
// taken again within two garbage collections.
var (
	pool    = sync.Pool{New: func() any { return &index{h: newHasher()} }}
	bigPool = sync.Pool{New: func() any { return &index{h: newHasher()} }}
)

// bigItems is the length of a first array above which a check takes its
// index from bigPool: its table may outgrow maxSmallPooled slots.
const bigItems = maxSmallPooled * maxLoadNum / maxLoadDen / 2

// maxSmallPooled is the table size (in slots, 2 MiB) above which an
// index goes back to bigPool.
const maxSmallPooled = 1 << 16

// maxPooled is the largest table (in slots, 8 MiB) the pools keep: room for
// 196,608 distinct values, a check of 10^5 items in each array that are all
// distinct. A larger one, up to maxHuge, is kept alone and only until the
// next garbage collection (see keepHuge): at 2^21 slots (10^6 distinct
// values) a pooled table would be 64 MiB held idle for as long as the
// pool kept it.
const maxPooled = 1 << 18

// maxPooledScratch is the largest scratch slice (in entries: 1 MiB of ids)
// and map of long strings release keeps.
const maxPooledScratch = 1 << 18

// release returns ix to its pool; ix must not be used after. The long
// strings are dropped so that the pool keeps no input alive.
func (ix *index) release() {
	if cap(ix.slots) > maxHuge || max(cap(ix.origin), cap(ix.ids[0]), cap(ix.ids[1]), cap(ix.rem)) > maxPooledScratch {
		return
	}
	if len(ix.kb.longs) > maxPooledScratch {
		ix.kb.longs = nil // its strings are dropped either way; its buckets are not kept
	} else {
		clear(ix.kb.longs)
	}
	// Their strings are the input's. A small check clears what it wrote,
	// not the 3 KiB of the buffer.
	clear(ix.buf[:ix.wide])
	ix.wide = 0
	switch {
	case cap(ix.slots) > maxPooled:
		keepHuge(ix)
	case cap(ix.slots) > maxSmallPooled:
		bigPool.Put(ix)
	default:
		pool.Put(ix)
	}
}

// A check with more distinct values than a pooled table holds allocates
// tens of megabytes, and at 10^6 items that meant a garbage collection on
// most checks, a quarter of their time (the collector scans the input
// too). So one such index, the last released, is kept, through a weak
// pointer: the next check of more than hugeItems items takes it, and the
// next garbage collection, if it comes first, frees it. What is held idle
// is bounded by one table of maxHuge slots (64 MiB, room for 1,572,864
// distinct values) and its spare copy, for as long as the process
// allocates too little to start a collection.
var (
	hugeMu   sync.Mutex
	hugeKept weak.Pointer[index]
)

// maxHuge is the largest table (in slots) keepHuge keeps.
const maxHuge = 1 << 21

// hugeItems is the length of a first array above which a check looks for
// the kept huge index first.
const hugeItems = maxPooled * maxLoadNum / maxLoadDen / 2

func takeHuge() *index {
	hugeMu.Lock()
	defer hugeMu.Unlock()
	ix := hugeKept.Value()
	hugeKept = weak.Pointer[index]{}
	return ix
}

func keepHuge(ix *index) {
	hugeMu.Lock()
	defer hugeMu.Unlock()
	hugeKept = weak.Make(ix)
}

// sample is how many elements of the first array are interned before the
// index guesses its final size. It is a multiple of batch, so the engine
// reaches it at the start of a batch.
const sample = 256

// maxReserve caps what reserve may set aside (in entries): a guess from a
// sample must not cost more than a bounded amount when the rest of the input
// turns out to repeat itself.
const maxReserve = 1 << 14

// reserve is called once sample elements of an array of n have been
// interned: when most of them were new, most of the rest will probably be
// too, so the table is rebuilt with room for more instead of doubling its
// way there. Repetitive input keeps the small table; a wrong guess costs at
// most maxReserve entries, so memory stays O(distinct values).
//
// It returns the number of distinct values it expects in all (at least the
// ones seen), for sizing the caller's per-value slices the same way.
func (ix *index) reserve(n, maxDistinct int) int {
	if ix.n < sample/2 {
		return ix.n
	}
	want := max(int(min(int64(ix.n)*int64(n)/sample, int64(maxDistinct), maxReserve)), ix.n) // in 64 bits, as grow
	ix.resize(slotsFor(want))
	return want
}

// maxJump is the most a table grows by at once (see grow): a guess that
// turns out wrong costs at most this many times the slots that doubling
// would have made.
const maxJump = 8

// expect tells grow's guess that the array now interned has n elements and
// at most maxDistinct distinct values; n 0 (the default) makes the table
// only double.
func (ix *index) expect(n, maxDistinct int) { ix.total, ix.limit = n, maxDistinct }

// grow makes room for extra more values. When the array being interned
// has been mostly new values so far, it will probably go on that way: the
// table jumps to the size that holds the values the rest of the array
// would add at the same rate (at most max_distinct of them, and at most
// maxJump times the current size), instead of doubling its way there,
// each doubling moving every value again. seen is how many elements of the
// array were interned. Input whose values stop being new wastes at most
// maxJump times the table doubling would keep: memory stays
// O(distinct values). Within the capacity a reused index already has, the
// jump is not capped: it allocates nothing.
func (ix *index) grow(extra, seen int) {
	n := 2 * len(ix.slots)
	if ix.total > seen && seen > 0 {
		// In 64 bits: where an int has 32, n·total passes 2^31 from
		// 46,341 values on.
		want := slotsFor(int(min(int64(ix.n)*int64(ix.total)/int64(seen), int64(ix.limit))))
		if want > cap(ix.slots) {
			want = min(want, maxJump*len(ix.slots))
		} // else the memory is held already (a kept index): only moving the values costs
		n = max(n, want)
	}
	for (ix.n+extra)*maxLoadDen > n*maxLoadNum {
		n *= 2
	}
	ix.resize(n)
}

// A hasher hashes the keys of an index. Its keys are random, drawn when the
// index is made and kept for its life (as a Go map keeps its seed), so
// which inputs collide cannot be known in advance.
//
// A key's two words and tag go through two rounds of a folded 64×64→128-bit
// multiply (the mixing step of wyhash, which the Go runtime's own fallback
// hash uses), keyed at each round: one round, the tag folded into the
// second word, spread numbered strings into probe runs of hundreds under
// one draw of keys in twenty (TestIndexSpreadsStructuredKeys).
type hasher struct {
	k [4]uint64
}

func newHasher() hasher {
	var h hasher
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

func (h *hasher) hash(a, b uint64, tag uint32) uint64 {
	return mix(mix(a^h.k[0], b^h.k[1])^h.k[2]^uint64(tag), h.k[3]|1)
}

// rep is s as package scalar, which owns its representation, reads it.
func rep(s *canon.Scalar) *scalar.Scalar { return (*scalar.Scalar)(s) }
