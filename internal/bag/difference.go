package bag

import (
	"math/bits"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// DifferenceMismatch is the first differing index of a claimed residual.
// Expected and Actual are nil where the list has no element there.
type DifferenceMismatch struct {
	// Path is "/left_only/i" or "/right_only/i": relative to the claim, as
	// the output document has it.
	Path     string
	Expected *canon.Scalar
	Actual   *canon.Scalar
}

// DifferenceTally is the outcome of [Difference]: the first discrepancy,
// and the arrays, from which Residuals reads the expected residuals again.
// It holds none of the check's working memory, which goes back to the pool
// with the index.
type DifferenceTally struct {
	arrays DiffArrays
	lim    Limits
	first  *DifferenceMismatch
}

// DiffArrays are the four arrays of a difference claim, in the order the
// contract reads them.
type DiffArrays struct {
	Left, Right Array
	// LeftOnly and RightOnly are the claimed residuals.
	LeftOnly, RightOnly Array
}

// The arrays of a DiffArrays by number, in its order: a value's id tells
// which one its first occurrence is in (diff.ends).
const (
	left = iota
	right
	leftOnly
	rightOnly
)

// array returns the array numbered k.
func (a *DiffArrays) array(k int) *Array {
	switch k {
	case left:
		return &a.Left
	case right:
		return &a.Right
	case leftOnly:
		return &a.LeftOnly
	}
	return &a.RightOnly
}

// A side is left (0) or right (1): the base array left or right, and its
// claimed residual left_only or right_only.
func base(side int) int    { return left + side }
func claimed(side int) int { return leftOnly + side }

// First returns the first index at which a claimed residual differs from the
// expected one, left_only before right_only, or nil when the claim is valid.
func (t *DifferenceTally) First() *DifferenceMismatch { return t.first }

// Rebase makes Residuals read left and right from these arrays, which hold
// the same elements as the checked ones (copies, say, that nobody else
// changes). It is for the tally of an invalid claim: a valid claim's is
// shared.
func (t *DifferenceTally) Rebase(l, r Array) {
	t.arrays = DiffArrays{Left: l, Right: r}
}

// Residuals returns the expected left_only and right_only residuals. It
// reads left and right again, which must not have changed since the check;
// it is for reports, and costs about two thirds of the check.
func (t *DifferenceTally) Residuals() (leftOnly, rightOnly []canon.Scalar) {
	ix := newIndex(t.arrays.Left.N)
	defer ix.release()
	d := diff{arrays: &t.arrays, ix: ix, origin: ix.origin[:0]}
	defer func() { ix.origin = d.origin[:0] }()
	for side := range 2 {
		if err := d.readBase(side, t.lim); err != nil {
			return nil, nil // the input changed since the check
		}
	}
	rem := ix.scratchRem(len(d.origin))
	var out [2][]canon.Scalar
	for side := 0; side < 2; side++ {
		d.fill(rem, side)
		out[side] = make([]canon.Scalar, 0, len(d.ids[side]))
		for _, id := range d.ids[side] {
			if rem[id] > 0 {
				rem[id]--
				continue
			}
			out[side] = append(out[side], *d.value(id))
		}
	}
	return out[0], out[1]
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

// diff is the working state of a difference check: the value id of every
// element of left and right, and each value's first occurrence. Its slices
// are the index's scratch, reused between checks.
type diff struct {
	arrays *DiffArrays
	ix     *index
	ids    [2][]int32 // per side: the ids of its base array's elements
	origin []int32    // per id: the index of its first occurrence, in the array ends places it in
	ends   [4]int32   // ids below ends[k], and not below ends[k-1], first occur in array k
}

// readBase interns the base array of side (left or right), counting its
// elements in the slots' counter of that side, and keeps their ids.
func (d *diff) readBase(side int, lim Limits) error {
	k := base(side)
	ids := d.ix.scratchIDs(side, d.arrays.array(k).N)
	if err := d.read(k, lim, side, ids); err != nil {
		return err
	}
	d.ids[side] = ids
	return nil
}

// read interns every element of array k, counting it in counter w of its
// value's slot and writing its id to ids, with the errors of one array in
// the contract's order: its first bad element, then max_distinct.
func (d *diff) read(k int, lim Limits, w int, ids []int32) error {
	a, ix := d.arrays.array(k), d.ix
	if k == left {
		ix.expect(a.N, lim.MaxDistinct)
	} else {
		ix.expect(0, 0)
	}
	distinct := 0
	for i := 0; i < a.N; i += batch {
		if k == left && i == sample && a.N > 2*sample {
			if want := ix.reserve(a.N, lim.MaxDistinct); want > cap(d.origin) {
				d.origin = append(make([]int32, 0, want), d.origin...)
			}
		}
		n := min(batch, a.N-i)
		a.touch(ix, i+n)
		if err := a.keys(ix, i, n, i); err != nil {
			return err
		}
		fresh, firsts := ix.internKeys(n, w, ids[i:])
		for ; fresh != 0; fresh &= fresh - 1 {
			d.origin = append(d.origin, int32(i+bits.TrailingZeros64(fresh)))
		}
		if distinct += bits.OnesCount64(firsts); distinct > lim.MaxDistinct {
			return distinctOver(a, i+n, lim)
		}
	}
	d.ends[k] = int32(len(d.origin))
	return nil
}

// fill sets rem to the counts of the values of the side opposite side: the
// occurrences the walk over side removes.
func (d *diff) fill(rem []int32, side int) {
	clear(rem)
	for _, id := range d.ids[1-side] {
		rem[id]++
	}
}

func (d *diff) value(id int32) *canon.Scalar {
	k := 0
	for id >= d.ends[k] {
		k++
	}
	s, _ := d.arrays.array(k).at(int(d.origin[id])) // it converted without error before
	return &s
}

// Difference reads the four arrays of a difference claim and finds the first
// index at which a claimed residual differs from the bag difference,
// earliest occurrences removed.
// Errors come in the contract's order: for each array in turn, max_items,
// the first bad element, max_distinct.
//
// Left and right are interned; a claimed residual is first compared with
// the expected one as that is produced (see match), and only interned
// (for its errors, its distinct values and the discrepancy) when it
// differs. A claimed residual that equals the expected one can have no
// error: its elements are values of left (or right), which converted, and
// it has no more distinct values than left (or right) has.
func Difference(lim Limits, arrays *DiffArrays) (*DifferenceTally, error) {
	ix := newIndex(arrays.Left.N)
	defer ix.release()
	d := diff{arrays: arrays, ix: ix, origin: ix.origin[:0]}
	defer func() { ix.origin = d.origin[:0] }() // its capacity, for the next check
	// The slots' counters count left's elements (n[0]) and right's (n[1]);
	// a claimed residual read in full is counted in n[0], emptied first.
	for side := range 2 {
		if err := itemsError(arrays.array(base(side)), lim); err != nil {
			return nil, err
		}
		if err := d.readBase(side, lim); err != nil {
			return nil, err
		}
	}
	rem := ix.scratchRem(len(d.origin))
	var differs [2][]int32 // per side: the ids of its claimed residual, when it differs
	for side := range 2 {
		k := claimed(side)
		a := arrays.array(k)
		if err := itemsError(a, lim); err != nil {
			return nil, err
		}
		if d.match(rem, side) {
			d.ends[k] = int32(len(d.origin)) // no new values
			continue
		}
		ix.zero(0)
		differs[side] = make([]int32, a.N)
		if err := d.read(k, lim, 0, differs[side]); err != nil {
			return nil, err
		}
	}
	var first *DifferenceMismatch
	for side := 0; side < 2 && first == nil; side++ {
		if differs[side] != nil {
			first = d.walk(rem, side, differs[side])
		}
	}
	if first == nil {
		return &validDifference, nil // a valid claim's tally holds nothing: none is made
	}
	// Residuals reads left and right again; the claimed residuals are not
	// kept.
	return &DifferenceTally{arrays: DiffArrays{Left: arrays.Left, Right: arrays.Right}, lim: lim, first: first}, nil
}

// validDifference is the tally of every valid difference claim: it has no
// discrepancy, and nothing changes it (Rebase is for invalid ones).
var validDifference DifferenceTally

// match reports whether the claimed residual of side equals the expected one, walking both at once without building either.
// The expected residual's next elements are gathered a batch at a time,
// without a branch on each, and compared with the claimed ones by Same
// (no conversion); an element Same does not vouch for is converted and
// looked up instead: one that does not convert, or is no value of the
// index, differs.
func (d *diff) match(rem []int32, side int) bool {
	c := d.arrays.array(claimed(side))
	baseElems := d.arrays.array(base(side)).Elems
	self := d.ids[side]
	d.fill(rem, side)
	var js [batch]int32 // indexes into self of the expected residual's next elements
	i := 0              // index into both residuals
	for j := 0; j < len(self); {
		n := 0
		for ; j < len(self) && n < batch; j++ {
			id := self[j]
			r := rem[id]
			var drop int32
			if r > 0 {
				drop = 1
			}
			rem[id] = r - drop
			js[n] = int32(j)
			n += int(1 - drop)
		}
		if i+n > c.N {
			return false
		}
		for k := 0; k < n; {
			if c.Elems != nil && baseElems != nil {
				k += sameElems(c.Elems[i+k:], baseElems, js[k:n])
				if k == n {
					break
				}
			} else if c.Same != nil {
				k += c.Same(i+k, js[k:n])
				if k == n {
					break
				}
			}
			s, err := c.at(i + k)
			if err != nil {
				return false
			}
			if sl := d.ix.lookup(&s); sl == nil || sl.id != self[js[k]] {
				return false
			}
			k++
		}
		i += n
	}
	return i == c.N
}

// walk compares the claimed residual of side, as ids, with the expected one
// as it is produced, and returns the first difference.
func (d *diff) walk(rem []int32, side int, claimed []int32) *DifferenceMismatch {
	lists := [2]string{"/left_only", "/right_only"}
	d.fill(rem, side)
	i := 0 // index into the expected residual
	for _, id := range d.ids[side] {
		if rem[id] > 0 {
			rem[id]--
			continue
		}
		if i >= len(claimed) || claimed[i] != id {
			m := &DifferenceMismatch{Path: errs.Index(lists[side], i), Expected: d.value(id)}
			if i < len(claimed) {
				m.Actual = d.value(claimed[i])
			}
			return m
		}
		i++
	}
	if i < len(claimed) {
		return &DifferenceMismatch{Path: errs.Index(lists[side], i), Actual: d.value(claimed[i])}
	}
	return nil
}

// sameElems is Same for document elements: how many of xs, from the first,
// have the same text as base[js[0]], base[js[1]], ...: the same text is the
// same value.
func sameElems(xs, base []jsontape.Elem, js []int32) int {
	for k, j := range js {
		if xs[k].Raw != base[j].Raw {
			return k
		}
	}
	return len(js)
}
