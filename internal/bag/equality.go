package bag

import (
	"math/bits"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// EqualityMismatch is a value whose counts differ in an equality claim.
type EqualityMismatch struct {
	// Path is the value's first occurrence: in source if it occurs there,
	// else in claim.
	Path     string
	Value    canon.Scalar
	Expected int // count in source
	Actual   int // count in claim
}

// EqualityTally is the outcome of [Equality]: whether the counts agree and,
// when they do not, every mismatch, with its value converted. It holds
// nothing of the input arrays, so it stays right whatever the caller does to
// them after the check.
type EqualityTally struct {
	mismatches []mismatch // in the contract's order; nil when the counts agree
	paths      [2]string  // of source and claim, for the mismatches' paths
}

// A mismatch is kept compact: its path is written only when it is read, so
// that a claim with thousands of mismatches costs no string each.
type mismatch struct {
	value            canon.Scalar
	first            int32 // index of the first occurrence
	inClaim          bool  // first occurs in claim (source lacks it)
	expected, actual int32
}

func (t *EqualityTally) at(k int) EqualityMismatch {
	m := &t.mismatches[k]
	path := t.paths[0]
	if m.inClaim {
		path = t.paths[1]
	}
	return EqualityMismatch{Path: errs.Index(path, int(m.first)), Value: m.value, Expected: int(m.expected), Actual: int(m.actual)}
}

// Mismatches calls yield with each value whose counts differ, in the
// contract's order — the distinct values of source by first occurrence, then
// the values of claim that source lacks, by first occurrence in claim — until
// yield returns false.
func (t *EqualityTally) Mismatches(yield func(EqualityMismatch) bool) {
	for k := range t.mismatches {
		if !yield(t.at(k)) {
			return
		}
	}
}

// First returns the first mismatch of t, or nil when the claim is valid.
func (t *EqualityTally) First() *EqualityMismatch {
	if len(t.mismatches) == 0 {
		return nil
	}
	m := t.at(0)
	return &m
}

// Len returns the number of mismatches.
func (t *EqualityTally) Len() int { return len(t.mismatches) }

// Equality counts every value of source and claim, in one pass over each,
// each element converted once. Errors come in the contract's order: for
// source then claim, max_items, the first bad element, max_distinct.
//
// A value's two counts live in its slot of the index (n[0] for source, n[1]
// for claim), and the claim's surplus occurrences are counted as it is
// read, so a valid claim is known without a pass over the values. While
// the counts are taken nothing else is kept: a value's id is its first
// occurrence (countFirst), so no list of first occurrences is built. Only
// for an invalid claim are the mismatches gathered, from the slots, and
// put in the contract's order by their first occurrences.
func Equality(lim Limits, src, claim *Array) (*EqualityTally, error) {
	if err := itemsError(src, lim); err != nil {
		return nil, err
	}
	ix := newIndex(src.N)
	defer ix.release()
	ix.expect(src.N, lim.MaxDistinct)
	for i := 0; i < src.N; i += batch {
		if i == sample && src.N > 2*sample {
			ix.reserve(src.N, lim.MaxDistinct)
		}
		n := min(batch, src.N-i)
		src.touch(ix, i+n)
		if src.Scalars != nil {
			ix.countFirstScalars(src.Scalars[i:i+n], i)
		} else if src.Elems != nil {
			if err := ix.countFirstElems(src, i, n); err != nil {
				return nil, err
			}
		} else {
			if err := src.keys(ix, i, n, i); err != nil {
				return nil, err
			}
			ix.countFirst(n, i)
		}
		// Every value new to the index is new to source.
		if ix.n > lim.MaxDistinct {
			return nil, distinctOver(src, i+n, lim)
		}
	}
	if err := itemsError(claim, lim); err != nil {
		return nil, err
	}
	ix.expect(0, 0) // a value new in claim is a mismatch: no guessing
	// A claim element that finds its value's count in claim already at its
	// count in source is one too many; with none such, and as many elements
	// as source, every count agrees. A claim value's id is src.N plus its
	// first index in claim, after every id of source.
	over := 0
	distinct := 0 // distinct values of claim
	for j := 0; j < claim.N; j += batch {
		n := min(batch, claim.N-j)
		var c claimCount
		claim.touch(ix, j+n)
		if claim.Scalars != nil {
			c = ix.countSecondScalars(claim.Scalars[j:j+n], src.N+j)
		} else if claim.Elems != nil {
			var err error
			if c, err = ix.countSecondElems(claim, j, n, src.N+j); err != nil {
				return nil, err
			}
		} else {
			if err := claim.keys(ix, j, n, src.N+j); err != nil {
				return nil, err
			}
			c = ix.countSecond(n, src.N+j)
		}
		over += c.over
		if distinct += bits.OnesCount64(c.first); distinct > lim.MaxDistinct {
			return nil, distinctOver(claim, j+n, lim)
		}
	}
	if over == 0 && src.N == claim.N {
		return &agree, nil
	}
	t := &EqualityTally{}
	ix.mismatches(t, src, claim)
	return t, nil
}

// agree is the tally of every valid equality claim: it holds nothing, and
// nothing writes to it.
var agree EqualityTally

// mismatches sets t's mismatches: every value whose two counts differ,
// with its value converted once more, from its first occurrence, while the
// arrays are still the ones checked. A slot's id is its first occurrence
// (in source, or src.N plus its index in claim), so the contract's order
// is the order of ids: they are marked in a bitmap over the elements, and
// each mismatch's place is the number of marks before its own.
func (ix *index) mismatches(t *EqualityTally, src, claim *Array) {
	words := (src.N + claim.N + 63) / 64
	scratch := make([]uint64, 2*words) // one allocation: the marks, then the ranks
	marks, before := scratch[:words], scratch[words:]
	n := 0
	for i := range ix.slots {
		if sl := &ix.slots[i]; sl.tag >= ix.g && sl.n[0] != sl.n[1] {
			marks[sl.id/64] |= 1 << (sl.id % 64)
			n++
		}
	}
	c := 0 // before[w]: the marks in the words before w
	for w, m := range marks {
		before[w] = uint64(c)
		c += bits.OnesCount64(m)
	}
	// The paths are copied: the tally keeps no part of an Array (which
	// would make every check's Arrays escape to the heap).
	t.paths = [2]string{strings.Clone(src.Path), strings.Clone(claim.Path)}
	t.mismatches = make([]mismatch, n)
	for i := range ix.slots {
		sl := &ix.slots[i]
		if sl.tag < ix.g || sl.n[0] == sl.n[1] {
			continue
		}
		w, b := sl.id/64, sl.id%64
		m := &t.mismatches[int(before[w])+bits.OnesCount64(marks[w]&(1<<b-1))]
		m.first, m.inClaim, m.expected, m.actual = sl.id, false, sl.n[0], sl.n[1]
		if int(sl.id) >= src.N {
			m.first, m.inClaim = sl.id-int32(src.N), true
		}
	}
	one := make([]canon.Scalar, 1) // one buffer for every conversion below
	for k := range t.mismatches {
		m := &t.mismatches[k]
		from := src
		if m.inClaim {
			from = claim
		}
		from.fill(int(m.first), one) // it converted without error before
		m.value = one[0]
	}
}
