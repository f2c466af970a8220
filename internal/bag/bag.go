// Package bag is the engine of the multiset tools: it reads each input array
// once, converting and hashing every element exactly once, and computes the
// first discrepancy of an equality or difference claim. Package multiset
// wraps it for Go values, package schema for JSON documents.
//
// Arrays are given as accessors, so neither caller builds an intermediate
// slice of canonical values: a typed caller converts a Go value with canon.Of
// when it is visited, the JSON reader converts an element's bytes.
package bag

import (
	"strconv"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// Limits are the effective limits of a check (both positive).
type Limits struct {
	MaxItems    int
	MaxDistinct int
}

// Array is one input array: its JSON Pointer path, its length, and an
// accessor that returns element i as a Scalar, or the element's error (an
// *claimcheck.Error, at the element's path).
type Array struct {
	Path string
	N    int
	At   func(i int) (canon.Scalar, error)
}

func itemsError(a *Array, lim Limits) error {
	if a.N > lim.MaxItems {
		// "more than", not the count: a JSON reader records at most one
		// element past the limit.
		return errs.Limit(a.Path, "max_items", a.Path[1:]+" has more items than max_items ("+strconv.Itoa(lim.MaxItems)+")")
	}
	return nil
}

func distinctError(a *Array, lim Limits) error {
	return errs.Limit(a.Path, "max_distinct", a.Path[1:]+" has more than max_distinct "+strconv.Itoa(lim.MaxDistinct)+" distinct values")
}

// rest converts the elements of a from i on, for their errors only: an
// element error outranks the array's max_distinct.
func rest(a *Array, i int) error {
	for ; i < a.N; i++ {
		if _, err := a.At(i); err != nil {
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

// EqualityTally is the outcome of [Equality]: the counts of every distinct
// value, from which the mismatches are read.
type EqualityTally struct {
	src, claim Array
	nsrc       int     // ids below nsrc occur in source
	first      []int32 // per id: index of its first occurrence (in source, else in claim)
	count      []int32 // per id: occurrences in source
	ccount     []int32 // per id: occurrences in claim
}

// Mismatches calls yield with each value whose counts differ, in the
// contract's order — the distinct values of source by first occurrence, then
// the values of claim that source lacks, by first occurrence in claim — until
// yield returns false. It takes one pass over the distinct values.
func (t *EqualityTally) Mismatches(yield func(EqualityMismatch) bool) {
	for id := range t.first {
		if t.count[id] == t.ccount[id] {
			continue
		}
		from := &t.claim
		if id < t.nsrc {
			from = &t.src
		}
		m := EqualityMismatch{Path: errs.Index(from.Path, int(t.first[id])), Expected: int(t.count[id]), Actual: int(t.ccount[id])}
		m.Value, _ = from.At(int(t.first[id])) // it converted without error before
		if !yield(m) {
			return
		}
	}
}

// First returns the first mismatch of t, or nil when the claim is valid.
func (t *EqualityTally) First() *EqualityMismatch {
	var first *EqualityMismatch
	t.Mismatches(func(m EqualityMismatch) bool {
		first = &m
		return false
	})
	return first
}

// Equality counts every value of source and claim. Errors come in the
// contract's order: for source then claim, max_items, the first bad element,
// max_distinct.
func Equality(lim Limits, src, claim *Array) (*EqualityTally, error) {
	if err := itemsError(src, lim); err != nil {
		return nil, err
	}
	ix := newIndex(src.N)
	// Per-id slices start with room for the sample, as the index does, so
	// they do not double their way up from nothing.
	first := make([]int32, 0, min(src.N, sample)) // per id: index of its first occurrence
	count := make([]int32, 0, min(src.N, sample)) // per id: occurrences in source
	for i := 0; i < src.N; i++ {
		s, err := src.At(i)
		if err != nil {
			return nil, err
		}
		if i == sample && src.N > 2*sample {
			if want := ix.reserve(src.N, lim.MaxDistinct); want > cap(first) {
				first = append(make([]int32, 0, want), first...)
				count = append(make([]int32, 0, want), count...)
			}
		}
		id, isNew := ix.intern(s)
		if isNew {
			if len(first) == lim.MaxDistinct {
				if err := rest(src, i+1); err != nil {
					return nil, err
				}
				return nil, distinctError(src, lim)
			}
			first = append(first, int32(i))
			count = append(count, 0)
		}
		count[id]++
	}
	if err := itemsError(claim, lim); err != nil {
		return nil, err
	}
	nsrc := len(first)
	ccount := make([]int32, nsrc, len(first)+8) // per id: occurrences in claim
	distinct := 0
	for j := 0; j < claim.N; j++ {
		s, err := claim.At(j)
		if err != nil {
			return nil, err
		}
		id, isNew := ix.intern(s)
		if isNew {
			first = append(first, int32(j))
			count = append(count, 0)
			ccount = append(ccount, 0)
		}
		if ccount[id] == 0 {
			if distinct == lim.MaxDistinct {
				if err := rest(claim, j+1); err != nil {
					return nil, err
				}
				return nil, distinctError(claim, lim)
			}
			distinct++
		}
		ccount[id]++
	}
	return &EqualityTally{src: *src, claim: *claim, nsrc: nsrc, first: first, count: count, ccount: ccount}, nil
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

// DifferenceTally is the outcome of [Difference]: every element's value id,
// from which the expected residuals and the first discrepancy are read.
type DifferenceTally struct {
	arrays [4]Array
	ids    [4][]int32
	origin []int64 // per id: array<<40 | index of its first occurrence
	first  *DifferenceMismatch
}

// First returns the first index at which a claimed residual differs from the
// expected one, left_only before right_only, or nil when the claim is valid.
func (t *DifferenceTally) First() *DifferenceMismatch { return t.first }

// Residuals returns the expected left_only and right_only residuals.
func (t *DifferenceTally) Residuals() (leftOnly, rightOnly []canon.Scalar) {
	rem := make([]int32, len(t.origin))
	var out [2][]canon.Scalar
	for side := 0; side < 2; side++ {
		clear(rem)
		for _, id := range t.ids[1-side] {
			rem[id]++
		}
		out[side] = make([]canon.Scalar, 0, len(t.ids[side]))
		for _, id := range t.ids[side] {
			if rem[id] > 0 {
				rem[id]--
				continue
			}
			out[side] = append(out[side], *t.value(id))
		}
	}
	return out[0], out[1]
}

func (t *DifferenceTally) value(id int32) *canon.Scalar {
	o := t.origin[id]
	s, _ := t.arrays[o>>40].At(int(o & (1<<40 - 1))) // it converted without error before
	return &s
}

// Difference reads the four arrays of a difference claim — arrays[0] (left),
// arrays[1] (right), arrays[2] (the claimed left_only) and arrays[3] (the
// claimed right_only) — and finds the first index at which a claimed
// residual differs from the bag difference, earliest occurrences removed.
// Errors come in the contract's order: for each array in turn, max_items,
// the first bad element, max_distinct.
func Difference(lim Limits, arrays *[4]Array) (*DifferenceTally, error) {
	ix := newIndex(arrays[0].N)
	var ids [4][]int32
	origin := make([]int64, 0, min(arrays[0].N, sample)) // per id: array<<40 | index of its first occurrence
	stamp := make([]uint8, 0, min(arrays[0].N, sample))  // per id: the last array (1-4) that counted it as distinct
	for k := range arrays {
		a := &arrays[k]
		if err := itemsError(a, lim); err != nil {
			return nil, err
		}
		ids[k] = make([]int32, a.N)
		distinct := 0
		for i := 0; i < a.N; i++ {
			s, err := a.At(i)
			if err != nil {
				return nil, err
			}
			if k == 0 && i == sample && a.N > 2*sample {
				if want := ix.reserve(a.N, lim.MaxDistinct); want > cap(origin) {
					origin = append(make([]int64, 0, want), origin...)
					stamp = append(make([]uint8, 0, want), stamp...)
				}
			}
			id, isNew := ix.intern(s)
			if isNew {
				origin = append(origin, int64(k)<<40|int64(i))
				stamp = append(stamp, 0)
			}
			if stamp[id] != uint8(k+1) {
				if distinct == lim.MaxDistinct {
					if err := rest(a, i+1); err != nil {
						return nil, err
					}
					return nil, distinctError(a, lim)
				}
				distinct++
				stamp[id] = uint8(k + 1)
			}
			ids[k][i] = id
		}
	}
	t := &DifferenceTally{arrays: *arrays, ids: ids, origin: origin}
	t.first = t.walk()
	return t, nil
}

// walk compares each claimed residual with the expected one as it is
// produced, without building it, and returns the first difference.
func (t *DifferenceTally) walk() *DifferenceMismatch {
	ids := &t.ids
	// rem counts, per value, the occurrences of the other side still to be
	// matched; it is filled for one walk and emptied by it.
	rem := make([]int32, len(t.origin))
	lists := [2]string{"/left_only", "/right_only"}
	for side := 0; side < 2; side++ {
		self, other, claimed := ids[side], ids[1-side], ids[2+side]
		clear(rem)
		for _, id := range other {
			rem[id]++
		}
		i := 0 // index into the expected residual
		for _, id := range self {
			if rem[id] > 0 {
				rem[id]--
				continue
			}
			if i >= len(claimed) || claimed[i] != id {
				m := &DifferenceMismatch{Path: errs.Index(lists[side], i), Expected: t.value(id)}
				if i < len(claimed) {
					m.Actual = t.value(claimed[i])
				}
				return m
			}
			i++
		}
		if i < len(claimed) {
			return &DifferenceMismatch{Path: errs.Index(lists[side], i), Actual: t.value(claimed[i])}
		}
	}
	return nil
}
