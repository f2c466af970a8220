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

// Scalars returns an Array over Scalars that are already canonical.
func Scalars(path string, xs []canon.Scalar) Array {
	return Array{Path: path, N: len(xs), At: func(i int) (canon.Scalar, error) { return xs[i], nil }}
}

func itemsError(a *Array, lim Limits) error {
	if a.N > lim.MaxItems {
		return errs.Limit(a.Path, "max_items", a.Path[1:]+" has "+strconv.Itoa(a.N)+" items, more than max_items "+strconv.Itoa(lim.MaxItems))
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

// EqualityMismatch is the first mismatch of an equality claim.
type EqualityMismatch struct {
	// Path is the value's first occurrence: in source if it occurs there,
	// else in claim.
	Path     string
	Value    canon.Scalar
	Expected int // count in source
	Actual   int // count in claim
}

// Equality checks that every value occurs as often in claim as in source
// and returns the first mismatch (nil if none): the first distinct value of
// source, by first occurrence, whose counts differ, else the first value of
// claim that source lacks. Errors come in the contract's order: for source
// then claim, max_items, the first bad element, max_distinct.
func Equality(lim Limits, src, claim *Array) (*EqualityMismatch, error) {
	if err := itemsError(src, lim); err != nil {
		return nil, err
	}
	ix := newIndex(src.N)
	var first []int32 // per id: index of its first occurrence
	var count []int32 // per id: occurrences in source
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
	for id := range first {
		if count[id] == ccount[id] {
			continue
		}
		from := claim
		if id < nsrc {
			from = src
		}
		m := &EqualityMismatch{Path: errs.Index(from.Path, int(first[id])), Expected: int(count[id]), Actual: int(ccount[id])}
		m.Value, _ = from.At(int(first[id]))
		return m, nil
	}
	return nil, nil
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

// Difference checks claimed residuals arrays[2] (left_only) and arrays[3]
// (right_only) against the bag differences of arrays[0] (left) and
// arrays[1] (right), earliest occurrences removed, and returns the first
// differing index (nil if none), left_only before right_only. Errors come in
// the contract's order: for each array in turn, max_items, the first bad
// element, max_distinct.
func Difference(lim Limits, arrays *[4]Array) (*DifferenceMismatch, error) {
	ix := newIndex(arrays[0].N)
	var ids [4][]int32
	var origin []int64 // per id: array<<40 | index of its first occurrence
	var stamp []uint8  // per id: the last array (1-4) that counted it as distinct
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
	value := func(id int32) *canon.Scalar {
		o := origin[id]
		s, _ := arrays[o>>40].At(int(o & (1<<40 - 1)))
		return &s
	}
	// rem counts, per value, the occurrences of the other side still to be
	// matched; it is filled for one walk and emptied by it.
	rem := make([]int32, len(origin))
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
				m := &DifferenceMismatch{Path: errs.Index(lists[side], i), Expected: value(id)}
				if i < len(claimed) {
					m.Actual = value(claimed[i])
				}
				return m, nil
			}
			i++
		}
		if i < len(claimed) {
			return &DifferenceMismatch{Path: errs.Index(lists[side], i), Actual: value(claimed[i])}, nil
		}
	}
	return nil, nil
}
