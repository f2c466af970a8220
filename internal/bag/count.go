package bag

import (
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// The loops that count and intern. Each probes through index.find, which
// the compiler inlines, so that an element costs no
// call: a call per element costs a tenth of its time, and a loop without
// one keeps its values in registers, where one with a call reloads them
// from the stack on every element. They come in three forms:
//
//   - over ix.kb's keys, made first by a keyer (hashAll); in a large table
//     the slots of each next chunk of keys are prefetched while a chunk is
//     probed (touchSlots);
//   - fused over a []canon.Scalar or a document's elements, where the table
//     is small enough that prefetching gains nothing: an element's key goes
//     from the Scalar (scalar's Word) or the tape (scalar.ElemWord) to its
//     probe in registers, without a store to ix.kb and a load back, up to
//     the first element whose key is not one word;
//   - internKeys, Difference's, which numbers new values in order.

// touchSlotsMin is the smallest table (in slots, 2 MiB) whose slots are
// prefetched ahead of the probes: a smaller one stays in the level-2
// cache, where a prefetch only costs its instructions.
const touchSlotsMin = 1 << 16

// chunk is how many keys ahead of its probes the engine prefetches slots
// (see touchSlots): at about 10 ns a probe, far enough for a miss to be
// served, and few enough not to stall on the processor's limit of misses
// in flight.
const chunk = 16

// hashAll prepares a batch of keys (ix.kb's first n, hashed as they were
// set) for interning: it makes room for them first, so that no insertion
// of the batch moves a slot, and for a large table prefetches the slots
// where the probes of the batch's first chunk of keys start (the loops
// prefetch each next chunk's before they probe a chunk). seen is how many
// elements the check has interned so far (for grow's guess).
func (ix *index) hashAll(n, seen int) {
	ix.room(n, seen)
	if len(ix.slots) >= touchSlotsMin {
		ix.touchSlots(0, min(chunk, n))
	}
}

// chunks calls probe for the keys 0, ..., n-1 of ix.kb in chunks, each
// with the slots of the next chunk's keys prefetched first where the table
// is large.
func (ix *index) chunks(n int, probe func(i, e int)) {
	if len(ix.slots) < touchSlotsMin {
		probe(0, n)
		return
	}
	for c := 0; c < n; c += chunk {
		e := min(c+chunk, n)
		ix.touchSlots(e, min(e+chunk, n))
		probe(c, e)
	}
}

// countFirst interns the first n keys of ix.kb (through hashAll), of the
// elements base, base+1, ... of the first array of an equality check, and
// counts each in counter 0 of its value's slot. A new value's id is not
// the next number but its element's index: its first occurrence, so that
// the check keeps no list of them (see Equality). The values new to the
// index are counted in ix.n.
func (ix *index) countFirst(n, base int) {
	ix.chunks(n, func(i, e int) { ix.countFirstKeys(i, e, base) })
}

// countFirstKeys is countFirst for the keys i, ..., e-1.
func (ix *index) countFirstKeys(i, e, base int) {
	kb := ix.kb.k[i:e]
	v := ix.view()
	for j := range kb {
		k := &kb[j]
		sl := ix.find(v, k.a, k.b, k.tag, k.h, int32(base+i+j), true, false)
		sl.n[0]++
	}
}

// countFirstScalars is scalarKeys, hashAll and countFirst for a batch of
// scalars read in place: fused (countFirstRun) in a small table.
func (ix *index) countFirstScalars(ss []canon.Scalar, base int) {
	ix.room(len(ss), base)
	if len(ix.slots) >= touchSlotsMin {
		ix.scalarKeysAhead(ss)
		ix.countFirst(len(ss), base)
		return
	}
	for i := 0; ; i++ {
		if i = ix.countFirstRun(ss, i, base); i == len(ss) {
			return
		}
		// Element i's key is not one word: keyed into the batch, alone.
		ix.scalarKeysAt(ss[i:i+1], 0)
		ix.countFirstKeys(0, 1, base+i)
	}
}

// countFirstRun is countFirstScalars' loop from element i up to the first
// element whose key is not one word, or the end; it returns where it
// stopped.
func (ix *index) countFirstRun(ss []canon.Scalar, i, base int) int {
	v := ix.view()
	h := ix.h // in registers or the stack: the stores below could alias ix
	for ; i < len(ss); i++ {
		s := rep(&ss[i])
		p, m, ok := s.Span()
		if !ok {
			break
		}
		a, tag := s.Word(p, m)
		sl := ix.find(v, a, 0, tag, h.hash(a, 0, tag), int32(base+i), true, true)
		sl.n[0]++
	}
	return i
}

// countFirstElems is countFirstScalars for the document elements i0, ...,
// i0+n-1 of a, with keys' errors: fused (countFirstElemRun) in a small
// table, and any element that loop does not take through keys alone.
func (ix *index) countFirstElems(a *Array, i0, n int) error {
	ix.room(n, i0)
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
		ix.countFirstKeys(0, 1, i0+j)
	}
}

// countFirstElemRun is countFirstElems' loop from element j up to the first
// element whose key is not one word (scalar.ElemWord, too large to inline,
// is its one call per element), as countFirstRun.
func (ix *index) countFirstElemRun(es []jsontape.Elem, j, base int) int {
	v := ix.view()
	h := ix.h
	for ; j < len(es); j++ {
		a, tag := scalar.ElemWord(&es[j])
		if tag == 0 {
			break
		}
		sl := ix.find(v, a, 0, tag, h.hash(a, 0, tag), int32(base+j), true, true)
		sl.n[0]++
	}
	return j
}

// A claim count is what counting a batch of the claim of an equality
// check finds: bit i of first is set when key i was the first of its value
// in the claim; over counts the elements that found their value's count in
// the claim already at its count in the source.
type claimCount struct {
	first uint64
	over  int
}

// add counts one element of the claim, key i of its batch, in counter 1
// of its value's slot. (A value in and out, so that a loop keeps it in
// registers.)
func (c claimCount) add(sl *slot, i int) claimCount {
	n := sl.n[1]
	c.first |= uint64((uint32(n)-1)>>31) << (i & 63) // n == 0, without a branch: it varies at random
	if n >= sl.n[0] {
		c.over++
	}
	sl.n[1] = n + 1
	return c
}

// countSecond interns the first n keys of ix.kb (through hashAll), a batch
// of the claim of an equality check, and counts each in counter 1 of its
// value's slot; a new value's id is pos+i (see Equality).
func (ix *index) countSecond(n, pos int) (c claimCount) {
	ix.chunks(n, func(i, e int) { ix.countSecondKeys(i, e, pos, &c) })
	return c
}

// countSecondKeys is countSecond for the keys i, ..., e-1.
func (ix *index) countSecondKeys(i, e, pos int, c *claimCount) {
	kb := ix.kb.k[:e]
	v := ix.view()
	cc := *c
	for ; i < e; i++ {
		k := &kb[i]
		sl := ix.find(v, k.a, k.b, k.tag, k.h, int32(pos+i), true, false)
		cc = cc.add(sl, i)
	}
	*c = cc // once per chunk
}

// countSecondScalars is countSecond for a batch of scalars read in place,
// as countFirstScalars.
func (ix *index) countSecondScalars(ss []canon.Scalar, pos int) claimCount {
	ix.room(len(ss), pos)
	if len(ix.slots) >= touchSlotsMin {
		ix.scalarKeysAhead(ss)
		return ix.countSecond(len(ss), pos)
	}
	var c claimCount
	for i := 0; ; i++ {
		if i, c = ix.countSecondRun(ss, i, pos, c); i == len(ss) {
			return c
		}
		ix.scalarKeysAt(ss[i:i+1], 0)
		c.merge(ix.countSecond(1, pos+i), i)
	}
}

// merge adds the count of one element counted alone, as key 0 of its own
// batch, which is element i of this one.
func (c *claimCount) merge(one claimCount, i int) {
	c.first |= one.first << (i & 63)
	c.over += one.over
}

// countSecondRun is countSecondScalars' loop from element i up to the
// first element whose key is not one word, or the end, as countFirstRun.
func (ix *index) countSecondRun(ss []canon.Scalar, i, pos int, c claimCount) (int, claimCount) {
	v := ix.view()
	h := ix.h
	for ; i < len(ss); i++ {
		s := rep(&ss[i])
		p, m, ok := s.Span()
		if !ok {
			break
		}
		a, tag := s.Word(p, m)
		sl := ix.find(v, a, 0, tag, h.hash(a, 0, tag), int32(pos+i), true, true)
		c = c.add(sl, i)
	}
	return i, c
}

// countSecondElems is countFirstElems for the claim of an equality check,
// as countSecondScalars.
func (ix *index) countSecondElems(a *Array, j0, n, pos int) (claimCount, error) {
	ix.room(n, pos)
	if len(ix.slots) >= touchSlotsMin {
		if err := a.keys(ix, j0, n, pos); err != nil {
			return claimCount{}, err
		}
		return ix.countSecond(n, pos), nil
	}
	es := a.Elems[j0 : j0+n]
	var c claimCount
	for j := 0; ; j++ {
		if j, c = ix.countSecondElemRun(es, j, pos, c); j == n {
			return c, nil
		}
		if err := a.keys(ix, j0+j, 1, pos+j); err != nil {
			return claimCount{}, err
		}
		c.merge(ix.countSecond(1, pos+j), j)
	}
}

// countSecondElemRun is countSecondElems' loop from element j up to the
// first element whose key is not one word, as countFirstElemRun.
func (ix *index) countSecondElemRun(es []jsontape.Elem, j, pos int, c claimCount) (int, claimCount) {
	v := ix.view()
	h := ix.h
	for ; j < len(es); j++ {
		a, tag := scalar.ElemWord(&es[j])
		if tag == 0 {
			break
		}
		sl := ix.find(v, a, 0, tag, h.hash(a, 0, tag), int32(pos+j), true, true)
		c = c.add(sl, j)
	}
	return j, c
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
	ix.chunks(n, func(i, e int) {
		f, g := ix.internKeysTo(i, e, w, ids)
		fresh, first = fresh|f, first|g
	})
	return fresh, first
}

// internKeysTo is internKeys for the keys i0, ..., e-1.
func (ix *index) internKeysTo(i0, e int, w int, ids []int32) (fresh, first uint64) {
	kb := ix.kb.k[:e]
	ids = ids[:e]
	v := ix.view()
	w &= 1
	for i := i0; i < e; i++ {
		k := &kb[i]
		id := int32(ix.n)
		sl := ix.find(v, k.a, k.b, k.tag, k.h, id, true, false)
		if sl.id == id { // ids below ix.n are taken: it is new
			fresh |= 1 << (i & 63)
		}
		c := sl.n[w]
		first |= uint64((uint32(c)-1)>>31) << (i & 63) // c == 0, without a branch: it varies at random
		sl.n[w] = c + 1
		ids[i] = sl.id
	}
	return fresh, first
}
