package bag

import (
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"
	"unicode/utf8"
	"weak"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// index numbers the distinct scalars of a check in order of first
// appearance, and keeps two counters per value for the engine. Two
// elements get the same value exactly when their Scalars are ==, which
// canon guarantees is RFC 8785 equality; nothing is formatted. A value's
// id is the next number (Difference, which indexes slices by it), or, in
// an equality check, its first occurrence itself (countFirst), so that
// the check keeps nothing but counts while it reads.
//
// Every value lives in one open-addressing table with linear probing,
// instead of a Go map: a probe is a masked index and a compare of three
// words in a loop over a batch of elements, with no call through the
// runtime's generic map code, and the slot that matches also holds the
// value's counters, so an element costs one random memory access, whose
// cache miss, in a large table, overlaps its batch's others (hashAll). A
// value is keyed by two words and a tag (see key, and Batch for the same
// keys made from Go values): a number by its bits (canon folds -0 into 0,
// and NaN never reaches a Scalar), a string of at most 16 bytes by its
// bytes themselves, so comparing it reads no string memory. A longer
// string is keyed by its full hash and its ordinal in index.longs, and
// compared there. Keys are hashed with random keys drawn when the index
// is made (see hasher), so input chosen to collide cannot be chosen in
// advance, rather than forcing the table into quadratic probing.
type index struct {
	slots []slot
	spare []slot // a copy of the table while it is rebuilt in place (see resize)
	used  int
	longs []string // the strings longer than 16 bytes, by ordinal
	n     int32    // ids given
	h     hasher

	// g is the table's generation, shifted above tagMask: a slot whose tag
	// is at least g holds a value, with its key's tag in the bits of
	// tagMask, and every other slot is empty. So a table is emptied by
	// incrementing g (see next), not by clearing its memory.
	g uint32

	//lint:ignore U1000 written by touchSlots where there is no prefetch (prefetch_other.go)
	touched uint32 // what touchSlots' loads read, kept so that they stay
	kb      Batch  // the keys of a batch; its long strings are the input's

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
	wide int            // how far into buf and kb.long this check wrote (see Array.keys)
}

// scratchIDs returns the scratch for the ids of n elements of left (k 0) or
// right (k 1). Every element is written before it is read.
func (ix *index) scratchIDs(k, n int) []int32 {
	if cap(ix.ids[k]) < n {
		ix.ids[k] = make([]int32, n)
	}
	return ix.ids[k][:n]
}

// scratchRem returns the scratch for n counts; its contents are
// unspecified (the walks clear it).
func (ix *index) scratchRem(n int) []int32 {
	if cap(ix.rem) < n {
		ix.rem = make([]int32, n)
	}
	return ix.rem[:n]
}

// A slot holds one value: its key (a, b, and the key's tag in the bits of
// tagMask of tag; a tag below the index's generation: the slot is empty,
// see index.g), its id, and two counters the engine uses as it likes. It holds no
// pointer, so the garbage collector never scans the table; at 32 bytes two
// fit in a cache line.
type slot struct {
	a, b uint64
	tag  uint32
	id   int32
	n    [2]int32
}

// The tags of the key kinds. A short string's tag is tagStr plus its
// length, so "a" and "a\x00" (the same words) differ. Null's, Bool's and
// Number's are tagNull plus their canon.Kind (see scalarKeys).
const (
	tagNull  = 1
	tagBool  = 2
	tagNum   = 3
	tagStr   = 4 // ... tagStr+16
	tagLong  = tagMask
	shortStr = 16

	// tagMask selects a key's tag in a slot's tag, whose bits above it
	// are the slot's generation (see index.g).
	tagMask = 0xff
)

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
	ix.n, ix.used, ix.total, ix.limit = 0, 0, 0, 0
	ix.kb.h = ix.h
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
// check (a seed and four random words) was a tenth of a small check.
//
// Checks whose first array has more than bigItems elements take their
// index from bigPool, the others from pool, so that a small check does not
// take (and a large one does not miss) a large table. What the pools hold
// while idle is bounded per index (maxPooled slots, their spare copy, and
// maxPooledScratch entries of each scratch slice and of the list of long
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

// maxPooledScratch is the largest scratch slice (in entries: 1 MiB of ids,
// 4 MiB of long strings' headers) release keeps.
const maxPooledScratch = 1 << 18

// release returns ix to its pool; ix must not be used after. The long
// strings are dropped so that the pool keeps no input alive.
func (ix *index) release() {
	if cap(ix.slots) > maxHuge || max(cap(ix.origin), cap(ix.ids[0]), cap(ix.ids[1]), cap(ix.rem)) > maxPooledScratch {
		return
	}
	if cap(ix.longs) > maxPooledScratch {
		ix.longs = nil // its strings are dropped either way; its capacity is not kept
	} else {
		clear(ix.longs)
		ix.longs = ix.longs[:0]
	}
	// Their strings are the input's. A small check clears what it wrote,
	// not the 3 KiB of both.
	clear(ix.buf[:ix.wide])
	clear(ix.kb.long[:ix.wide])
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
	if int(ix.n) < sample/2 {
		return int(ix.n)
	}
	want := max(int(min(int64(ix.n)*int64(n)/sample, int64(maxDistinct), maxReserve)), int(ix.n)) // in 64 bits, as grow
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
		// In 64 bits: where an int has 32, used·total passes 2^31 from
		// 46,341 values on, and the guess went wrong.
		want := slotsFor(int(min(int64(ix.used)*int64(ix.total)/int64(seen), int64(ix.limit))))
		if want > cap(ix.slots) {
			want = min(want, maxJump*len(ix.slots))
		} // else the memory is held already (a kept index): only moving the values costs
		n = max(n, want)
	}
	for (ix.used+extra)*maxLoadDen > n*maxLoadNum {
		n *= 2
	}
	ix.resize(n)
}

// key returns the key of s: the two words and the tag that identify it in
// the table. A long string's words are its hash and 0; its ordinal is
// compared separately (see internLong).
func (ix *index) key(s *canon.Scalar) (a, b uint64, tag uint32) {
	switch s.Kind() {
	case canon.Number:
		return math.Float64bits(s.Float()), 0, tagNum
	case canon.String:
		str := s.Str()
		if len(str) > shortStr {
			return maphash.String(ix.h.seed, str), 0, tagLong
		}
		a, b = words(str)
		return a, b, tagStr + uint32(len(str))
	case canon.Bool:
		if s.Bool() {
			return boolTrue, 0, tagBool
		}
		return 0, 0, tagBool
	}
	return 0, 0, tagNull
}

// A Batch is the keys of a batch of elements, as the engine interns them:
// per element two words and a tag (see index.key), the key's hash, and for
// a string longer than 16 bytes the string itself. The engine's
// converters (GoSlice.keys) write element j's key with the Set methods,
// which accept exactly what canon's constructors accept, and key a value
// exactly as index.key keys its Scalar, without building the Scalar.
type Batch struct {
	k    [batch]key
	long [batch]string // for a key of tag tagLong: its string
	h    hasher        // the index's, so that the Set methods hash as they key
}

type key struct {
	a, b, h uint64
	tag     uint32
}

// SetNull sets key j to the key of null.
func (kb *Batch) SetNull(j int) {
	k := &kb.k[uint(j)%batch]
	k.a, k.b, k.tag, k.h = 0, 0, tagNull, kb.h.hash(0, 0, tagNull)
}

// SetBool sets key j to the key of a boolean.
func (kb *Batch) SetBool(j int, v bool) {
	k := &kb.k[uint(j)%batch]
	var a uint64
	if v {
		a = boolTrue
	}
	k.a, k.b, k.tag, k.h = a, 0, tagBool, kb.h.hash(a, 0, tagBool)
}

// SetNumber sets key j to the key of the number f and returns true, or
// returns false when f is not finite (canon.NumberScalar's error). -0 is 0.
func (kb *Batch) SetNumber(j int, f float64) bool {
	if f-f != 0 {
		return false
	}
	k := &kb.k[uint(j)%batch]
	a := math.Float64bits(f + 0)
	k.a, k.b, k.tag, k.h = a, 0, tagNum, kb.h.hash(a, 0, tagNum)
	return true
}

// ascii has the high bit of every byte set.
const ascii = 0x8080808080808080

// SetString sets key j to the key of the string s and returns true, or
// returns false when s is not valid UTF-8 (canon.StringScalar's error). A
// string of at most 16 bytes is checked from the words of its key: ASCII,
// the commonest, costs no call.
func (kb *Batch) SetString(j int, s string) bool {
	k := &kb.k[uint(j)%batch]
	if len(s) > shortStr {
		if !utf8.ValidString(s) {
			return false
		}
		a := maphash.String(kb.h.seed, s)
		k.a, k.b, k.tag, k.h = a, 0, tagLong, kb.h.hash(a, 0, tagLong)
		kb.long[uint(j)%batch] = s
		return true
	}
	a, b := words(s)
	if (a|b)&ascii != 0 && !utf8.ValidString(s) {
		return false
	}
	tag := tagStr + uint32(len(s))
	k.a, k.b, k.tag, k.h = a, b, tag, kb.h.hash(a, b, tag)
	return true
}

// SetScalar sets key j to the key of s.
func (kb *Batch) SetScalar(j int, s *canon.Scalar) {
	kb.setOther(j, s)
	k := &kb.k[uint(j)%batch]
	if k.tag == tagLong {
		k.a = maphash.String(kb.h.seed, kb.long[uint(j)%batch])
	}
	k.h = kb.h.hash(k.a, k.b, k.tag)
}

func (kb *Batch) setOther(j int, s *canon.Scalar) {
	switch s.Kind() {
	case canon.String:
		str := s.Str()
		k := &kb.k[uint(j)%batch]
		if len(str) > shortStr {
			k.a, k.b, k.tag = 0, 0, tagLong
			kb.long[uint(j)%batch] = str
			return
		}
		k.a, k.b = words(str)
		k.tag = tagStr + uint32(len(str))
	case canon.Bool:
		kb.SetBool(j, s.Bool())
	case canon.Number:
		k := &kb.k[uint(j)%batch]
		k.a, k.b, k.tag = math.Float64bits(s.Float()), 0, tagNum
	default:
		kb.SetNull(j)
	}
}

// touchSlotsMin is the smallest table (in slots, 2 MiB) whose slots are
// prefetched ahead of the probes: a smaller one stays in the level-2
// cache, where a prefetch only costs its instructions.
const touchSlotsMin = 1 << 16

// scalarKeys sets the first len(ss) keys of ix.kb to the keys of ss, with
// their hashes.
func (ix *index) scalarKeys(ss []canon.Scalar) { ix.scalarKeysAt(ss, 0) }

// scalarKeysAt is scalarKeys for the keys off, ..., off+len(ss)-1.
func (ix *index) scalarKeysAt(ss []canon.Scalar, off int) {
	ix.wide = max(ix.wide, off+len(ss)) // see release
	kb := ix.kb.k[off : off+len(ss)]
	long := ix.kb.long[off : off+len(ss)]
	h := ix.h // the keys in registers: the stores below could alias them
	for i := range kb {
		// As the fused loops (see pad4), a string of fewer than 4 or
		// more than 8 bytes keyed by index.key.
		k, s := &kb[i], &ss[i]
		kind, str := s.Kind(), s.Str()
		isStr := kind == canon.String
		p, m := wordBytes(str, isStr)
		if isStr && uint(len(str)-4) > 4 {
			k.a, k.b, k.tag = ix.key(s)
			if k.tag == tagLong {
				long[i] = str
			}
			k.h = h.hash(k.a, k.b, k.tag)
			continue
		}
		a, tag := wordKey(s, kind, p, m)
		k.a, k.b, k.tag, k.h = a, 0, tag, h.hash(a, 0, tag)
	}
}

// scalarKeysAhead is scalarKeys for a large table (see countFirstScalars):
// as each chunk of keys is made, the slots of its probes are prefetched,
// so that the probes of the batch's first chunk find theirs on the way
// too, the rest of the batch's keys being made meanwhile.
func (ix *index) scalarKeysAhead(ss []canon.Scalar) {
	for c := 0; c < len(ss); c += chunk {
		e := min(c+chunk, len(ss))
		ix.scalarKeysAt(ss[c:e], c)
		ix.touchSlots(c, e)
	}
}

// hashAll prepares a batch of keys (ix.kb's first n, hashed as they were
// set) for interning: it grows the table first if the batch could fill it
// past its load, so that no insertion of the batch moves a slot. seen is
// how many elements the check has interned so far (for grow's guess).
//
// For a large table it also prefetches the slots where the probes of the
// batch's first chunk of keys start (see touchSlots); the loops that probe
// (countFirst, countSecond, internKeys) prefetch each next chunk's before
// they probe a chunk. The misses of a chunk overlap each other instead of
// coming one at a time, and a probe finds its slot in the cache or on its
// way.
func (ix *index) hashAll(n, seen int) {
	if (ix.used+n)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(n, seen)
	}
	if len(ix.slots) >= touchSlotsMin {
		ix.touchSlots(0, min(chunk, n))
	}
}

// chunk is how many keys ahead of its probes the engine prefetches slots
// (see touchSlots): at about 10 ns a probe, far enough for a miss to be
// served, and few enough not to stall on the processor's limit of misses
// in flight.
const chunk = 16

// The loops below probe inline, each the same way: a call per element
// costs a tenth of its time. Each holds the table, its mask and its
// generation in locals, so it relies on the table not growing under it:
// every batch made room for all of its keys first (hashAll, or the grow
// at the top of the *Scalars and *Elems functions), so an insertion,
// internLong's included, never grows the table. (If one did, a stale
// generation would take the old table's slots for values.)

// countFirst interns the first n keys of ix.kb (through hashAll), of
// the elements base, base+1, ... of the first array of an equality check,
// and counts each in counter 0 of its value's slot. A new value's id is
// not the next number but its element's index: its first occurrence, so
// that the check keeps no list of them (see Equality). The values new to
// the index are counted in ix.n.
func (ix *index) countFirst(n, base int) {
	if len(ix.slots) < touchSlotsMin {
		ix.countFirstTo(0, n, base)
		return
	}
	for c := 0; c < n; c += chunk {
		e := min(c+chunk, n)
		ix.touchSlots(e, min(e+chunk, n))
		ix.countFirstTo(c, e, base)
	}
}

// countFirstTo is countFirst for the keys i, ..., e-1.
func (ix *index) countFirstTo(i, e, base int) {
	for ; ; i++ {
		if i = ix.countFirstKeys(i, e, base); i == e {
			return
		}
		// Key i is a long string's.
		sl, isNew := ix.internLong(ix.kb.k[i].a, ix.kb.long[i], true)
		if isNew {
			sl.id = int32(base + i)
		}
		sl.n[0]++
	}
}

// countFirstKeys is countFirst's loop from key i up to the first long
// string's or key n, without a call (see countSecondRun).
func (ix *index) countFirstKeys(i, n, base int) int {
	kb := ix.kb.k[:n]
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	for ; i < len(kb); i++ {
		k := &kb[i]
		if k.tag == tagLong {
			break
		}
		var sl *slot
		for j := k.h & mask; ; j = (j + 1) & mask {
			sl = &slots[j]
			if sl.a == k.a && sl.b == k.b && sl.tag == k.tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: k.a, b: k.b, tag: k.tag | g, id: int32(base + i)}
				ix.n++
				ix.used++
				break
			}
		}
		sl.n[0]++
	}
	return i
}

// countFirstScalars is scalarKeys, hashAll and countFirst for a batch of
// scalars read in place, in one loop where the table is small enough that
// touching its slots ahead gains nothing: an element's key goes from its
// Scalar to its probe in registers, without a store and a load through
// ix.kb.
func (ix *index) countFirstScalars(ss []canon.Scalar, base int) {
	if (ix.used+len(ss))*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(len(ss), base)
	}
	if len(ix.slots) >= touchSlotsMin {
		ix.scalarKeysAhead(ss)
		ix.countFirstTo(0, len(ss), base)
		return
	}
	for i := 0; ; i++ {
		if i = ix.countFirstRun(ss, i, base); i == len(ss) {
			return
		}
		// Element i is a string whose key takes a call: keyed into the
		// batch, alone.
		ix.scalarKeysAt(ss[i:i+1], 0)
		ix.countFirstTo(0, 1, base+i)
	}
}

// countFirstRun is countFirstScalars' loop from element i up to the first
// element whose key takes a call, as countSecondRun.
func (ix *index) countFirstRun(ss []canon.Scalar, i, base int) int {
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	h := ix.h // in registers or the stack: the stores below could alias ix
	for ; i < len(ss); i++ {
		// The key without a branch on the kind but one, for a string
		// of fewer than 4 or more than 8 bytes, which the loop leaves
		// to a call (see pad4).
		s := &ss[i]
		kind, str := s.Kind(), s.Str()
		isStr := kind == canon.String
		p, m := wordBytes(str, isStr)
		if isStr && uint(len(str)-4) > 4 {
			break
		}
		a, tag := wordKey(s, kind, p, m)
		var sl *slot
		for j := h.hash(a, 0, tag) & mask; ; j = (j + 1) & mask {
			sl = &slots[j]
			if sl.a == a && sl.tag == tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: a, tag: tag | g, id: int32(base + i)}
				ix.n++
				ix.used++
				break
			}
		}
		sl.n[0]++
	}
	return i
}

// countSecond interns the first n keys of ix.kb (through hashAll), a
// batch of the claim of an equality check, and counts each in counter 1 of
// its value's slot; a new value's id is pos+i (see Equality). Bit i of first is set when key i was the first of its value in
// the claim; over counts the elements that found their value's count in
// the claim already at its count in the source.
func (ix *index) countSecond(n, pos int) (first uint64, over int) {
	if len(ix.slots) < touchSlotsMin {
		return ix.countSecondTo(0, n, pos, 0, 0)
	}
	for c := 0; c < n; c += chunk {
		e := min(c+chunk, n)
		ix.touchSlots(e, min(e+chunk, n))
		first, over = ix.countSecondTo(c, e, pos, first, over)
	}
	return first, over
}

// countSecondTo is countSecond for the keys i, ..., e-1.
func (ix *index) countSecondTo(i, e, pos int, first uint64, over int) (uint64, int) {
	for ; ; i++ {
		if i, first, over = ix.countSecondKeys(i, e, pos, first, over); i == e {
			return first, over
		}
		// Key i is a long string's.
		sl, isNew := ix.internLong(ix.kb.k[i].a, ix.kb.long[i], true)
		if isNew {
			sl.id = int32(pos + i)
		}
		c := sl.n[1]
		first |= uint64((uint32(c)-1)>>31) << (i & 63)
		if c >= sl.n[0] {
			over++
		}
		sl.n[1] = c + 1
	}
}

// countSecondKeys is countSecond's loop from key i up to the first long
// string's or key n, without a call (see countSecondRun).
func (ix *index) countSecondKeys(i, n, pos int, first uint64, over int) (int, uint64, int) {
	kb := ix.kb.k[:n]
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	for ; i < len(kb); i++ {
		k := &kb[i]
		if k.tag == tagLong {
			break
		}
		var sl *slot
		for j := k.h & mask; ; j = (j + 1) & mask {
			sl = &slots[j]
			if sl.a == k.a && sl.b == k.b && sl.tag == k.tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: k.a, b: k.b, tag: k.tag | g, id: int32(pos + i)}
				ix.n++
				ix.used++
				break
			}
		}
		c := sl.n[1]
		first |= uint64((uint32(c)-1)>>31) << (i & 63) // c == 0, without a branch: it varies at random
		if c >= sl.n[0] {
			over++
		}
		sl.n[1] = c + 1
	}
	return i, first, over
}

// countSecondScalars is countSecond for a batch of scalars read in place,
// in one loop as countFirstScalars.
func (ix *index) countSecondScalars(ss []canon.Scalar, pos int) (first uint64, over int) {
	if (ix.used+len(ss))*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(len(ss), pos)
	}
	if len(ix.slots) >= touchSlotsMin {
		ix.scalarKeysAhead(ss)
		return ix.countSecondTo(0, len(ss), pos, 0, 0)
	}
	for i := 0; ; i++ {
		if i, first, over = ix.countSecondRun(ss, i, pos, first, over); i == len(ss) {
			return first, over
		}
		ix.scalarKeysAt(ss[i:i+1], 0) // as in countFirstScalars
		f, o := ix.countSecondTo(0, 1, pos+i, 0, 0)
		first |= f << (i & 63)
		over += o
	}
}

// countSecondRun is countSecondScalars' loop from element i up to the
// first element whose key takes a call (a string of fewer than 4 or more
// than 8 bytes), or the end: a loop without a call keeps its values in
// registers, where one with a call reloads them from the stack on every
// element. It returns where it stopped, and first and over updated.
func (ix *index) countSecondRun(ss []canon.Scalar, i, pos int, first uint64, over int) (int, uint64, int) {
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	h := ix.h // in registers or the stack: the stores below could alias ix
	for ; i < len(ss); i++ {
		// The key without a branch on the kind but one, for a string
		// of fewer than 4 or more than 8 bytes, which the loop leaves
		// to a call (see pad4).
		s := &ss[i]
		kind, str := s.Kind(), s.Str()
		isStr := kind == canon.String
		p, m := wordBytes(str, isStr)
		if isStr && uint(len(str)-4) > 4 {
			break
		}
		a, tag := wordKey(s, kind, p, m)
		var sl *slot
		for j := h.hash(a, 0, tag) & mask; ; j = (j + 1) & mask {
			sl = &slots[j]
			if sl.a == a && sl.tag == tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: a, tag: tag | g, id: int32(pos + i)}
				ix.n++
				ix.used++
				break
			}
		}
		c := sl.n[1]
		first |= uint64((uint32(c)-1)>>31) << (i & 63) // c == 0, without a branch: it varies at random
		if c >= sl.n[0] {
			over++
		}
		sl.n[1] = c + 1
	}
	return i, first, over
}

// internKeys interns the first n keys of ix.kb (through hashAll) in
// order, giving each new value the next id, counts each element in counter
// w (0 or 1) of its value's slot, and sets ids[i] to the id of key i. The
// results are masks over the batch:
//
//   - bit i of fresh: key i was new to the index;
//   - bit i of first: key i was the first element of its value counted in
//     w (its counter w was 0 before it).
//
// So a caller sees what it needs of every element, the new values and the
// distinct values' count, without a pass of its own over the slots.
func (ix *index) internKeys(n int, w int, ids []int32) (fresh, first uint64) {
	if len(ix.slots) < touchSlotsMin {
		return ix.internKeysTo(0, n, w, ids, 0, 0)
	}
	for c := 0; c < n; c += chunk {
		e := min(c+chunk, n)
		ix.touchSlots(e, min(e+chunk, n))
		fresh, first = ix.internKeysTo(c, e, w, ids, fresh, first)
	}
	return fresh, first
}

// internKeysTo is internKeys for the keys i0, ..., e-1, its results so far
// given.
func (ix *index) internKeysTo(i0, e int, w int, ids []int32, fresh, first uint64) (uint64, uint64) {
	kb := ix.kb.k[:e]
	ids = ids[:e]
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	w &= 1
	for i := i0; i < e; i++ {
		k := &kb[i]
		var sl *slot
		isNew := false
		if k.tag == tagLong {
			sl, isNew = ix.internLong(k.a, ix.kb.long[i], true)
		} else {
			for j := k.h & mask; ; j = (j + 1) & mask {
				sl = &slots[j]
				if sl.a == k.a && sl.b == k.b && sl.tag == k.tag|g {
					break
				}
				if sl.tag < g {
					*sl = slot{a: k.a, b: k.b, tag: k.tag | g, id: ix.n}
					ix.n++
					ix.used++
					isNew = true
					break
				}
			}
		}
		if isNew {
			fresh |= 1 << (i & 63)
		}
		c := sl.n[w]
		first |= uint64((uint32(c)-1)>>31) << (i & 63) // c == 0, without a branch: it varies at random
		sl.n[w] = c + 1
		ids[i] = sl.id
	}
	return fresh, first
}

// zero sets counter w of every value to 0.
func (ix *index) zero(w int) {
	for i := range ix.slots {
		ix.slots[i].n[w&1] = 0
	}
}

// lookup returns the slot of s, or nil when s was never interned.
func (ix *index) lookup(s *canon.Scalar) *slot {
	a, b, tag := ix.key(s)
	if tag == tagLong {
		sl, _ := ix.internLong(a, s.Str(), false)
		return sl
	}
	mask := uint64(len(ix.slots) - 1)
	g := ix.g
	for i := ix.h.hash(a, b, tag) & mask; ; i = (i + 1) & mask {
		sl := &ix.slots[i]
		if sl.a == a && sl.b == b && sl.tag == tag|g {
			return sl
		}
		if sl.tag < g {
			return nil
		}
	}
}

// internLong is intern (insert true) or lookup (insert false) for a
// string longer than 16 bytes, of hash h.
func (ix *index) internLong(h uint64, s string, insert bool) (*slot, bool) {
	mask := uint64(len(ix.slots) - 1)
	g := ix.g
	for i := ix.h.hash(h, 0, tagLong) & mask; ; i = (i + 1) & mask {
		sl := &ix.slots[i]
		if sl.tag == tagLong|g && sl.a == h && ix.longs[sl.b] == s {
			return sl, false
		}
		if sl.tag < g {
			if !insert {
				return nil, false
			}
			ix.longs = append(ix.longs, s)
			return ix.insert(sl, h, uint64(len(ix.longs)-1), tagLong), true
		}
	}
}

// insert puts a key in the empty slot sl, or in a grown table when the
// table would be too full, and gives it the next id. The engine's loops
// never reach the growing branch: each batch made room first (see
// countFirst).
func (ix *index) insert(sl *slot, a, b uint64, tag uint32) *slot {
	if (ix.used+1)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.resize(2 * len(ix.slots))
		sl = ix.empty(a, b, tag)
	}
	*sl = slot{a: a, b: b, tag: tag | ix.g, id: ix.n}
	ix.n++
	ix.used++
	return sl
}

// empty returns the first empty slot of the key's probe sequence.
func (ix *index) empty(a, b uint64, tag uint32) *slot {
	if tag == tagLong {
		b = 0 // a long string's ordinal is not hashed
	}
	mask := uint64(len(ix.slots) - 1)
	i := ix.h.hash(a, b, tag) & mask
	for ix.slots[i].tag >= ix.g {
		i = (i + 1) & mask
	}
	return &ix.slots[i]
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
	for i := range old {
		if sl := &old[i]; sl.tag >= g {
			k := sl.tag & tagMask
			e := ix.empty(sl.a, sl.b, k)
			*e = *sl
			e.tag = k | ix.g
		}
	}
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

// words returns the bytes of a string of at most 16 bytes as two
// little-endian words, zero-padded.
func words(s string) (a, b uint64) {
	switch n := len(s); {
	case n >= 8:
		a = jsonwire.LE64(s)
		if n > 8 {
			// The last eight bytes, shifted to drop those a already holds.
			b = jsonwire.LE64(s[n-8:]) >> (8 * (16 - n))
		}
	case n >= 4:
		a = shortWord(s)
	default:
		for i := 0; i < n; i++ {
			a |= uint64(s[i]) << (8 * i)
		}
	}
	return a, b
}

// A hasher hashes the keys of an index. Its keys are random, drawn when the
// index is made and kept for its life (as a Go map keeps its seed), so
// which inputs collide cannot be known in advance.
//
// A key's two words and tag go through two rounds of a folded 64×64→128-bit
// multiply (the mixing step of wyhash, which the Go runtime's own fallback
// hash uses), keyed at each round. (One round, the tag folded into the
// second word, spread numbered strings into probe runs of hundreds under
// one draw of keys in twenty: TestIndexSpreadsStructuredKeys.) A string longer than 16 bytes is first
// hashed to one word by hash/maphash under a seed made with the keys.
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

func (h *hasher) hash(a, b uint64, tag uint32) uint64 {
	return mix(mix(a^h.k[0], b^h.k[1])^h.k[2]^uint64(tag), h.k[3]|1)
}

// shortWord is words for a string of 4 to 8 bytes: two overlapping loads,
// the second in place (the bytes both hold are the same).
func shortWord(s string) uint64 {
	n := len(s)
	return uint64(jsonwire.LE32(s)) | uint64(jsonwire.LE32(s[n-4:]))<<(8*(n-4)&63)
}

// countFirstElems is countFirstScalars for the document elements i0, ...,
// i0+n-1 of a, with keys' errors: where the table is small, an element the
// reader's tape keys by itself in a few instructions (see elemKeys: a
// number it read, a string of 4 to 8 bytes of printable ASCII without an
// escape, null, true, false) goes from its Elem to its probe without its
// key stored in ix.kb and loaded back (countFirstElemRun: elemWord, too
// large to inline, is its one call per element), and any other goes
// through keys alone.
func (ix *index) countFirstElems(a *Array, i0, n int) error {
	if (ix.used+n)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(n, i0)
	}
	if len(ix.slots) >= touchSlotsMin {
		if err := a.keys(ix, i0, n, i0); err != nil {
			return err
		}
		ix.countFirst(n, i0)
		return nil
	}
	es := a.Elems[i0 : i0+n]
	for j := 0; ; j++ {
		if j = ix.countFirstElemRun(es, j, i0); j == n {
			return nil
		}
		if err := a.keys(ix, i0+j, 1, i0+j); err != nil {
			return err
		}
		ix.countFirstTo(0, 1, i0+j)
	}
}

// countFirstElemRun is countFirstElems' loop from element j up to the first
// element it does not key itself, as countFirstRun.
func (ix *index) countFirstElemRun(es []jsontape.Elem, j, base int) int {
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	h := ix.h
	for ; j < len(es); j++ {
		a, tag := elemWord(&es[j])
		if tag == 0 {
			break
		}
		var sl *slot
		for k := h.hash(a, 0, tag) & mask; ; k = (k + 1) & mask {
			sl = &slots[k]
			if sl.a == a && sl.tag == tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: a, tag: tag | g, id: int32(base + j)}
				ix.n++
				ix.used++
				break
			}
		}
		sl.n[0]++
	}
	return j
}

// countSecondElems is countFirstElems for the claim of an equality check,
// as countSecondScalars.
func (ix *index) countSecondElems(a *Array, j0, n, pos int) (first uint64, over int, err error) {
	if (ix.used+n)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.grow(n, pos)
	}
	if len(ix.slots) >= touchSlotsMin {
		if err := a.keys(ix, j0, n, pos); err != nil {
			return 0, 0, err
		}
		first, over = ix.countSecond(n, pos)
		return first, over, nil
	}
	es := a.Elems[j0 : j0+n]
	for j := 0; ; j++ {
		if j, first, over = ix.countSecondElemRun(es, j, pos, first, over); j == n {
			return first, over, nil
		}
		if err := a.keys(ix, j0+j, 1, pos+j); err != nil {
			return 0, 0, err
		}
		f, o := ix.countSecondTo(0, 1, pos+j, 0, 0)
		first |= f << (j & 63)
		over += o
	}
}

// countSecondElemRun is countSecondElems' loop from element j up to the
// first element it does not key itself, as countSecondRun.
func (ix *index) countSecondElemRun(es []jsontape.Elem, j, pos int, first uint64, over int) (int, uint64, int) {
	slots := ix.slots
	mask := uint64(len(slots) - 1)
	g := ix.g
	h := ix.h
	for ; j < len(es); j++ {
		a, tag := elemWord(&es[j])
		if tag == 0 {
			break
		}
		var sl *slot
		for k := h.hash(a, 0, tag) & mask; ; k = (k + 1) & mask {
			sl = &slots[k]
			if sl.a == a && sl.tag == tag|g {
				break
			}
			if sl.tag < g {
				*sl = slot{a: a, tag: tag | g, id: int32(pos + j)}
				ix.n++
				ix.used++
				break
			}
		}
		c := sl.n[1]
		first |= uint64((uint32(c)-1)>>31) << (j & 63) // c == 0, without a branch: it varies at random
		if c >= sl.n[0] {
			over++
		}
		sl.n[1] = c + 1
	}
	return j, first, over
}

// elemWord returns the key of a document element whose key is one word
// (b 0) that the tape gives at once, as elemKeys keys it, or tag 0 for any
// other element.
func elemWord(e *jsontape.Elem) (a uint64, tag uint32) {
	switch e.Kind {
	case jsontape.Number:
		if e.Flags&jsontape.HasNum != 0 {
			return math.Float64bits(e.Num + 0), tagNum
		}
	case jsontape.String:
		if n := len(e.Raw) - 2; e.Flags == 0 && uint(n-4) <= 4 {
			s := e.Raw[1 : 1+n]
			return uint64(jsonwire.LE32(s)) | uint64(jsonwire.LE32(s[n-4:])>>(8*(8-n)))<<32, tagStr + uint32(n)
		}
	case jsontape.Null:
		return 0, tagNull
	case jsontape.True:
		return boolTrue, tagBool
	case jsontape.False:
		return 0, tagBool
	}
	return 0, 0
}
