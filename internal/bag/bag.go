// Package bag is the engine of the multiset tools: it reads source and
// claim, or left and right, once, converting and hashing every element
// once, and computes the first discrepancy of an equality or difference
// claim. Package multiset
// wraps it for Go values and for the elements package schema reads from a
// JSON document.
//
// Arrays are given as converters (Array.Fill) that the engine calls a batch
// of elements at a time, into a buffer it reuses, so no caller builds a
// slice of canonical values, and the conversion loop runs over the caller's
// own slice type without a call per element. A document's elements
// (Array.Elems) are keyed straight from the reader's tape where the tape
// vouches for them (elemKeys), without a canonical value at all, and
// converted by canon only where it does not. A claimed residual of a
// difference is first compared with the expected one (Array.Same, then the
// index), and read again in full, to be interned, only where it differs. A
// discrepancy's values are converted again from their first occurrences.
package bag

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/canonhook"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// Limits are the effective limits of a check (both positive).
type Limits struct {
	MaxItems    int
	MaxDistinct int
}

// Array is one input array: its JSON Pointer path, its length, and how to
// convert its elements.
type Array struct {
	Path string
	N    int
	// Fill converts the elements i, i+1, ..., i+len(dst)-1 into dst, in
	// order, and returns the first one's error (an *claimcheck.Error at the
	// element's path), if any. The engine converts in batches, so the
	// caller's loop over its own slice type runs without a call per element.
	// It is not called, and may be nil, when Elems, Scalars or Go is set:
	// the engine converts those itself.
	Fill func(i int, dst []canon.Scalar) error
	// Same, when not nil, compares the elements i, i+1, ... of this array
	// with the elements js[0], js[1], ... of the array it is a claimed
	// residual of (left for left_only, right for right_only), which have
	// converted without error, and returns how many of them, from the
	// first, are the same Go values: the same canonical scalar each, so
	// they convert without error too. Where it stops says nothing.
	Same func(i int, js []int32) int
	// Elems, when not nil, are the array's elements as package schema
	// reads them from a document, converted by the engine itself (see
	// fill) instead of through Fill: a closure per array would be the only
	// allocation a small document's check makes outside its result.
	Elems []jsontape.Elem
	// Scalars, when not nil, are the array's elements themselves, which
	// the engine keys where they are instead of converting them into its
	// buffer.
	Scalars []canon.Scalar
	// Go, when one of its slices is set, is the array's elements as a Go
	// slice, which the engine keys and converts itself (see GoSlice).
	Go GoSlice
}

// keys sets the first n keys of ix.kb to the keys of the elements i, ...,
// i+n-1 of a (the first conversion error, if any, is returned), ready to
// intern (see hashAll); seen is how many elements the check has interned
// before them.
func (a *Array) keys(ix *index, i, n, seen int) error {
	// The positions of buf and kb.long written below are 0, ..., n-1;
	// i%batch+n bounds them (see release), as i is a multiple of batch
	// or n is 1.
	if e := i%batch + n; e > ix.wide {
		ix.wide = min(e, batch)
	}
	if a.Scalars != nil {
		ix.scalarKeys(a.Scalars[i : i+n])
	} else if a.Elems != nil {
		if err := a.elemKeys(ix, i, n); err != nil {
			return err
		}
	} else if ok, err := a.Go.keys(&ix.kb, a.Path, i, n); err != nil {
		return err
	} else if !ok {
		buf := ix.buf[:n]
		if err := a.fill(i, buf); err != nil {
			return err
		}
		ix.scalarKeys(buf)
	}
	ix.hashAll(n, seen)
	return nil
}

// touchItems and touchAnyItems are the lengths of a []canon.Scalar and of
// a []any above which the engine prefetches what keying their elements
// reads outside the array (see touch): a smaller array's strings and boxed
// values stay in the cache between checks. Measured on the benchmarks'
// mixed scalars, prefetching an any's boxed value and string bytes made
// checks of 10^6 items 6 to 10% faster and checks of 10^5 items 14%
// slower.
const (
	touchItems    = 1 << 15
	touchAnyItems = 1 << 18
)

// touch prefetches what keying a's elements from i on will read outside a
// itself, when a is long enough for that memory to be out of the cache: a
// canon.Scalar's string bytes (touchStrings), an any's boxed value and a
// string's bytes (touchAnys). The engine calls it at the start of each
// batch, with i the next batch's first element; a document's elements are
// the tape's and its strings the document's, read in order.
func (a *Array) touch(ix *index, i int) {
	if a.N <= touchItems || i >= a.N {
		return
	}
	if a.Scalars != nil {
		ix.touchStrings(a.Scalars[i:min(i+batch, a.N)])
	} else if a.Go.Any != nil && a.N > touchAnyItems {
		ix.touchAnys(a.Go.Any, i)
	}
}

// fill converts the elements i, i+1, ... of a into dst: Fill's contract.
// Document elements are converted by canon's loop for the elements the
// reader vouches for (elemScalars), and one at a time by ElemScalar, with
// its errors, where that loop stops.
func (a *Array) fill(i int, dst []canon.Scalar) error {
	if a.Elems == nil {
		if a.Scalars != nil {
			copy(dst, a.Scalars[i:])
			return nil
		}
		if ok, err := a.Go.fill(a.Path, i, dst); ok {
			return err
		}
		return a.Fill(i, dst)
	}
	es := a.Elems[i : i+len(dst)]
	for k := 0; k < len(dst); k++ {
		if k += elemScalars(es[k:], dst[k:]); k == len(dst) {
			break
		}
		s, err := ElemScalar(a.Path, i+k, &es[k])
		if err != nil {
			return err
		}
		dst[k] = s
	}
	return nil
}

// elemKeys sets the first n keys of ix.kb to the keys of the document
// elements i, ..., i+n-1, with fill's errors. An element the reader's tape
// keys by itself (a number the reader read the value of, a string of at
// most 16 bytes of printable ASCII without an escape, null, true, false)
// is keyed straight from the tape, without a Scalar, as index.key keys
// its Scalar; the others are converted in full (into ix.buf) and keyed
// from their Scalars. Written out here: a call per element would cost as
// much as the rest of the loop.
func (a *Array) elemKeys(ix *index, i, n int) error {
	es := a.Elems[i : i+n]
	kb := ix.kb.k[:n]
	h := ix.h // in registers: the stores below could alias it
	for j := range es {
		e := &es[j]
		var x, y uint64
		var tag uint32
		switch e.Kind {
		case jsontape.Number:
			if e.Flags&jsontape.HasNum != 0 {
				x, tag = math.Float64bits(e.Num+0), tagNum
			}
		case jsontape.String:
			if n := len(e.Raw) - 2; e.Flags == 0 && n <= shortStr {
				if s := e.Raw[1 : 1+n]; n >= 4 && n <= 8 {
					// words(s), written out for the commonest lengths: two
					// overlapping loads, the second shifted past the first.
					x = uint64(jsonwire.LE32(s)) | uint64(jsonwire.LE32(s[n-4:])>>(8*(8-n)))<<32
				} else {
					x, y = words(s)
				}
				tag = tagStr + uint32(n)
			}
		case jsontape.Null:
			tag = tagNull
		case jsontape.True:
			x, tag = boolTrue, tagBool
		case jsontape.False:
			tag = tagBool
		}
		if tag == 0 { // converted in full
			if err := a.scalarAt(i+j, ix.buf[j:j+1]); err != nil {
				return err
			}
			ix.kb.SetScalar(j, &ix.buf[j])
			continue
		}
		k := &kb[j]
		k.a, k.b, k.tag, k.h = x, y, tag, h.hash(x, y, tag)
	}
	return nil
}

// scalarAt converts document element i into dst[0]: fill for one element.
func (a *Array) scalarAt(i int, dst []canon.Scalar) error {
	if elemScalars(a.Elems[i:i+1], dst) == 1 {
		return nil
	}
	s, err := ElemScalar(a.Path, i, &a.Elems[i])
	dst[0] = s
	return err
}

// elemScalars is canon's conversion of the elements the reader vouches for
// (see package canonhook), set when canon, which this package imports, was
// initialized.
var elemScalars = canonhook.ElemScalars.(func([]jsontape.Elem, []canon.Scalar) int)

// ElemScalar converts element i of the document array at path; an element
// that is an array or object, whatever it holds, is refused at its own
// path.
func ElemScalar(path string, i int, e *jsontape.Elem) (canon.Scalar, error) {
	var s canon.Scalar
	var err error
	switch e.Kind {
	case jsontape.Null:
		return s, nil
	case jsontape.False:
		return canon.BoolScalar(false), nil
	case jsontape.True:
		return canon.BoolScalar(true), nil
	case jsontape.Number:
		if e.Flags&jsontape.HasNum != 0 {
			return canon.NumberScalar(e.Num) // finite: it is a literal's nearest double
		}
		s, err = canon.ParseNumber(e.Raw)
	case jsontape.String:
		s, err = canon.StringScalar(e.Str())
	case jsontape.Array:
		return s, errs.Invalid(errs.Index(path, i), "element is an array, not a scalar")
	default:
		return s, errs.Invalid(errs.Index(path, i), "element is an object, not a scalar")
	}
	if err != nil {
		return s, errs.At(err, errs.Index(path, i))
	}
	return s, nil
}

// at converts element i alone.
func (a *Array) at(i int) (canon.Scalar, error) {
	var s [1]canon.Scalar
	err := a.fill(i, s[:])
	return s[0], err
}

// batch is how many elements the engine converts at a time.
const batch = 64

// The errors take a copy of the array's path: a path of the Array itself
// kept in an error would make the whole Array, its Fill closure with it,
// escape to the heap on every check.

func itemsError(a *Array, lim Limits) error {
	if a.N > lim.MaxItems {
		// "more than", not the count: a JSON reader records at most one
		// element past the limit.
		path := strings.Clone(a.Path)
		return errs.Limit(path, "max_items", path[1:]+" has more items than max_items ("+strconv.Itoa(lim.MaxItems)+")")
	}
	return nil
}

func distinctError(a *Array, lim Limits) error {
	path := strings.Clone(a.Path)
	return errs.Limit(path, "max_distinct", path[1:]+" has more than max_distinct "+strconv.Itoa(lim.MaxDistinct)+" distinct values")
}

// distinctOver is the error of an array a found past max_distinct values
// once its elements before i are read, all of them converted: the first
// bad element from i on, which outranks max_distinct, or max_distinct.
// (The error names no element, so where in the batch the limit was passed
// does not matter.)
func distinctOver(a *Array, i int, lim Limits) error {
	if err := rest(a, i); err != nil {
		return err
	}
	return distinctError(a, lim)
}

// rest converts the elements of a from i on, for their errors only: an
// element error outranks the array's max_distinct.
func rest(a *Array, i int) error {
	var buf [batch]canon.Scalar
	for ; i < a.N; i += batch {
		if err := a.fill(i, buf[:min(batch, a.N-i)]); err != nil {
			return err
		}
	}
	return nil
}

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
		if int(ix.n) > lim.MaxDistinct {
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
		var firsts uint64
		var o int
		claim.touch(ix, j+n)
		if claim.Scalars != nil {
			firsts, o = ix.countSecondScalars(claim.Scalars[j:j+n], src.N+j)
		} else if claim.Elems != nil {
			var err error
			if firsts, o, err = ix.countSecondElems(claim, j, n, src.N+j); err != nil {
				return nil, err
			}
		} else {
			if err := claim.keys(ix, j, n, src.N+j); err != nil {
				return nil, err
			}
			firsts, o = ix.countSecond(n, src.N+j)
		}
		over += o
		if distinct += bits.OnesCount64(firsts); distinct > lim.MaxDistinct {
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
