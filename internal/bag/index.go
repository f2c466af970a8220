package bag

import (
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// index numbers the distinct scalars of a check 0, 1, 2, ... in order of
// first appearance, and keeps two counters per value for the engine. Two
// elements get the same id exactly when their Scalars are ==, which canon
// guarantees is RFC 8785 equality; nothing is formatted.
//
// Every value lives in one open-addressing table with linear probing,
// instead of a Go map: a probe is a masked index and a compare of three
// words in a loop over a batch of elements (internAll), with no call
// through the runtime's generic map code, and the slot that matches also
// holds the value's counters, so an element costs one random memory
// access, whose cache miss overlaps its batch's others. A value is keyed by two words
// and a tag (see key): a number by its bits (canon folds -0 into 0, and NaN
// never reaches a Scalar), a string of at most 16 bytes by its bytes
// themselves, so comparing it reads no string memory. A longer string is
// keyed by its full hash and its ordinal in index.longs, and compared
// there. Keys are hashed with keys drawn afresh for every check (see
// hasher), so input chosen to collide costs its author a guess per check
// rather than forcing the table into quadratic probing.
type index struct {
	slots []slot
	spare []slot // a copy of the table while it is rebuilt in place (see resize)
	used  int
	longs []string // the strings longer than 16 bytes, by ordinal
	n     int32    // ids given
	h     hasher

	touched uint32 // what internAll read, kept so that its loads stay

	// Scratch for the engine, kept with the index between checks: per id,
	// its first occurrence (Equality, Difference); per element of left and
	// right, its id; per id, a count (Difference's walks).
	origin []int32
	ids    [2][]int32
	rem    []int32
	buf    [batch]canon.Scalar // a batch of converted elements
	keys   keys                // their keys (see internKeys)
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

// A slot holds one value: its key (a, b, tag; tag 0: the slot is empty),
// its id, and two counters the engine uses as it likes. It holds no
// pointer, so the garbage collector never scans the table; at 32 bytes two
// fit in a cache line.
type slot struct {
	a, b uint64
	tag  uint32
	id   int32
	n    [2]int32
}

// The tags of the key kinds. A short string's tag is tagStr plus its
// length, so "a" and "a\x00" (the same words) differ.
const (
	tagNull  = 1
	tagBool  = 2
	tagNum   = 3
	tagStr   = 4 // ... tagStr+16
	tagLong  = math.MaxUint32
	shortStr = 16
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
// done. A reused index gets new hash keys, an emptied table and no strings.
func newIndex(first int) *index {
	ix := pool.Get().(*index)
	ix.n, ix.used = 0, 0
	if n := slotsFor(min(first, sample)); cap(ix.slots) >= n {
		ix.slots = ix.slots[:n]
		clear(ix.slots)
	} else {
		ix.slots = make([]slot, n)
	}
	return ix
}

// pool holds the indexes of finished checks. A check allocates its table
// afresh otherwise, and for small checks, the commonest, allocating and
// zeroing fresh memory (and collecting it after) costs more than the check.
//
// An index draws its hash keys once, when it is made: a kept index keeps
// them, as a Go map keeps its seed for its life. Drawing them for every
// check (a seed and four random words) was a tenth of a small check.
var pool = sync.Pool{New: func() any { return &index{h: newHasher()} }}

// maxPooled is the largest table (in slots, 2 MiB) release keeps: a check
// with more distinct values allocates its own.
const maxPooled = 1 << 16

// maxPooledScratch is the largest scratch slice (in entries, 1 MiB) release
// keeps.
const maxPooledScratch = 1 << 18

// release returns ix to the pool; ix must not be used after. The long
// strings are dropped so that the pool keeps no input alive.
func (ix *index) release() {
	if cap(ix.slots) > maxPooled || max(cap(ix.origin), cap(ix.ids[0]), cap(ix.ids[1]), cap(ix.rem)) > maxPooledScratch {
		return
	}
	clear(ix.longs)
	ix.longs = ix.longs[:0]
	ix.buf = [batch]canon.Scalar{} // its strings are the input's
	pool.Put(ix)
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
	want := max(min(int(ix.n)*n/sample, maxDistinct, maxReserve), int(ix.n))
	ix.resize(slotsFor(want))
	return want
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
			return 1, 0, tagBool
		}
		return 0, 0, tagBool
	}
	return 0, 0, tagNull
}

// keys is a batch of keys, as key gives them: the first half of interning,
// which a caller that knows its elements' keys without their Scalars (see
// Array.fillKeys) fills in itself.
type keys struct {
	a, b [batch]uint64
	tag  [batch]uint32
}

// keysOf sets k to the keys of ss.
func (ix *index) keysOf(ss []canon.Scalar, k *keys) {
	for i := range ss {
		if s := &ss[i]; s.Kind() == canon.Number { // the commonest kind, without a call
			k.a[i], k.b[i], k.tag[i] = math.Float64bits(s.Float()), 0, tagNum
		} else {
			k.a[i], k.b[i], k.tag[i] = ix.key(s)
		}
	}
}

// internAll interns the scalars of ss: internKeys with their keys.
func (ix *index) internAll(ss []canon.Scalar, w int, ids []int32) (fresh, first uint64, over int) {
	ix.keysOf(ss, &ix.keys)
	return ix.internKeys(&ix.keys, ss, w, ids)
}

// internKeys interns the scalars of ss (at most batch of them), whose keys
// are the first len(ss) of k, in order, giving each new value the next id,
// and counts each element in counter w (0 or 1) of its value's slot. Of ss
// it reads only the long strings (tag tagLong), compared by their text. When
// ids is not nil, ids[i] is set to the id of ss[i]. The results are masks
// and a count over the batch:
//
//   - bit i of fresh: ss[i] was new to the index;
//   - bit i of first: ss[i] was the first element of its value counted in
//     w (its counter w was 0 before it);
//   - over: how many elements found their value's counter w already at
//     least its other counter, before counting themselves.
//
// So a caller sees what it needs of every element, the new values and the
// limits' counts, without a pass of its own over the slots.
//
// It works in two passes. The first computes every hash and
// touches the slot each probe sequence starts at; those loads are
// independent of each other, so the processor overlaps their cache misses
// instead of waiting for one at a time. The second probes, finding the
// slots in the cache or on their way. The table is grown first if the
// batch could fill it past its load, so no insertion moves a slot.
func (ix *index) internKeys(k *keys, ss []canon.Scalar, w int, ids []int32) (fresh, first uint64, over int) {
	for (ix.used+len(ss))*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.resize(2 * len(ix.slots))
	}
	var kh [batch]uint64
	mask := uint64(len(ix.slots) - 1)
	var touched uint32
	for i := range ss {
		h := ix.h.hash(k.a[i], k.b[i], k.tag[i])
		kh[i] = h
		touched += ix.slots[h&mask].tag
	}
	ix.touched = touched
	w &= 1
	for i := range ss {
		a, b, tag := k.a[i], k.b[i], k.tag[i]
		var sl *slot
		if tag == tagLong {
			var isNew bool
			if sl, isNew = ix.internLong(a, ss[i].Str(), true); isNew {
				fresh |= 1 << i
			}
		} else {
			for j := kh[i] & mask; ; j = (j + 1) & mask {
				sl = &ix.slots[j]
				if sl.a == a && sl.b == b && sl.tag == tag {
					break
				}
				if sl.tag == 0 {
					*sl = slot{a: a, b: b, tag: tag, id: ix.n}
					ix.n++
					ix.used++
					fresh |= 1 << i
					break
				}
			}
		}
		n := sl.n[w]
		if n == 0 {
			first |= 1 << i
		}
		if n >= sl.n[1-w] {
			over++
		}
		sl.n[w] = n + 1
		if ids != nil {
			ids[i] = sl.id
		}
	}
	return fresh, first, over
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
	for i := ix.h.hash(a, b, tag) & mask; ; i = (i + 1) & mask {
		sl := &ix.slots[i]
		if sl.a == a && sl.b == b && sl.tag == tag {
			return sl
		}
		if sl.tag == 0 {
			return nil
		}
	}
}

// internLong is intern (insert true) or lookup (insert false) for a
// string longer than 16 bytes, of hash h.
func (ix *index) internLong(h uint64, s string, insert bool) (*slot, bool) {
	mask := uint64(len(ix.slots) - 1)
	for i := ix.h.hash(h, 0, tagLong) & mask; ; i = (i + 1) & mask {
		sl := &ix.slots[i]
		if sl.tag == tagLong && sl.a == h && ix.longs[sl.b] == s {
			return sl, false
		}
		if sl.tag == 0 {
			if !insert {
				return nil, false
			}
			ix.longs = append(ix.longs, s)
			return ix.insert(sl, h, uint64(len(ix.longs)-1), tagLong), true
		}
	}
}

// insert puts a key in the empty slot sl, or in a grown table when the
// table would be too full, and gives it the next id.
func (ix *index) insert(sl *slot, a, b uint64, tag uint32) *slot {
	if (ix.used+1)*maxLoadDen > len(ix.slots)*maxLoadNum {
		ix.resize(2 * len(ix.slots))
		sl = ix.empty(a, b, tag)
	}
	*sl = slot{a: a, b: b, tag: tag, id: ix.n}
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
	for ix.slots[i].tag != 0 {
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
	old := ix.slots
	if cap(ix.slots) >= n {
		old = append(ix.spare[:0], ix.slots...)
		ix.spare = old
		ix.slots = ix.slots[:n]
		clear(ix.slots)
	} else {
		ix.slots = make([]slot, n)
	}
	for i := range old {
		if sl := &old[i]; sl.tag != 0 {
			*ix.empty(sl.a, sl.b, sl.tag) = *sl
		}
	}
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
		a = uint64(le32(s)) | uint64(le32(s[n-4:])>>(8*(8-n)))<<32
	default:
		for i := 0; i < n; i++ {
			a |= uint64(s[i]) << (8 * i)
		}
	}
	return a, b
}

// A hasher hashes the keys of one check. Its keys are random and new for
// every check, so which inputs collide cannot be known in advance, nor
// learnt from one check and replayed on the next.
//
// A key's two words and tag go through two rounds of a folded 64×64→128-bit
// multiply (the mixing step of wyhash, which the Go runtime's own fallback
// hash uses), keyed at each round. A string longer than 16 bytes is first
// hashed to one word by hash/maphash under a seed made for the check.
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

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
