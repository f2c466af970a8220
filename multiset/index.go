package multiset

import (
	"math"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// index numbers the distinct scalars of a check 0, 1, 2, ... in order of
// first appearance. Each element is hashed once. Numbers are keyed by their
// bits (canon folds -0 into 0, and NaN never reaches a Scalar) and strings by
// their bytes, so two elements get the same id exactly when the Scalars are
// ==, which canon guarantees is RFC 8785 equality; nothing is formatted.
type index struct {
	nums map[uint64]int32
	strs map[string]int32
	lits [3]int32 // id+1 of null, false, true; 0 while unseen
	vals []canon.Scalar
	// seen[id] is the number of the last array that counted id as one of its
	// distinct values; the max_distinct limit counts per array.
	seen  []int32
	array int32
}

// newIndex sizes the index for the first array's elements: most arrays of a
// check share their values, and growing the maps costs more than one array's
// worth of unused room.
func newIndex(first []canon.Scalar) *index {
	var nums, strs int
	for i := range first {
		switch first[i].Kind() {
		case canon.Number:
			nums++
		case canon.String:
			strs++
		}
	}
	return &index{
		nums: make(map[uint64]int32, nums),
		strs: make(map[string]int32, strs),
		vals: make([]canon.Scalar, 0, len(first)),
		seen: make([]int32, 0, len(first)),
	}
}

// intern returns the id of s, giving it the next id if it is new.
func (ix *index) intern(s canon.Scalar) (id int32, isNew bool) {
	next := int32(len(ix.vals))
	switch s.Kind() {
	case canon.Number:
		k := math.Float64bits(s.Float())
		if id, ok := ix.nums[k]; ok {
			return id, false
		}
		ix.nums[k] = next
	case canon.String:
		if id, ok := ix.strs[s.Str()]; ok {
			return id, false
		}
		ix.strs[s.Str()] = next
	default:
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
		ix.lits[l] = next + 1
	}
	ix.vals = append(ix.vals, s)
	ix.seen = append(ix.seen, 0)
	return next, true
}

// array is one input array on its way into a check: its length, its
// elements as Scalars, and the first element that could not be one.
type array struct {
	path  string
	n     int
	elems []canon.Scalar
	err   error
}

// fromAny converts a typed input array. An array over max_items is not
// converted: its limit error comes first.
func fromAny(xs []any, path string, lim Limits) array {
	a := array{path: path, n: len(xs)}
	if len(xs) > lim.maxItems() {
		return a
	}
	a.elems = make([]canon.Scalar, len(xs))
	for i, x := range xs {
		s, err := canon.Of(x)
		if err != nil {
			a.err = withPath(err, path, i)
			return a
		}
		a.elems[i] = s
	}
	return a
}

func fromScalars(xs []canon.Scalar, path string) array {
	return array{path: path, n: len(xs), elems: xs}
}

// check reports the errors of a in the contract's order: max_items, then
// the first bad element.
func (a *array) check(lim Limits) error {
	if a.n > lim.maxItems() {
		return errs.Limit(a.path, "max_items", a.path[1:]+" has "+itoa(a.n)+" items, more than max_items "+itoa(lim.maxItems()))
	}
	return a.err
}

// add interns the elements of a (already checked) and returns their ids,
// or the max_distinct error if a has too many distinct values.
func (ix *index) add(a *array, lim Limits) ([]int32, error) {
	ix.array++
	ids := make([]int32, len(a.elems))
	distinct := 0
	max := lim.maxDistinct()
	for i, s := range a.elems {
		id, _ := ix.intern(s)
		if ix.seen[id] != ix.array {
			ix.seen[id] = ix.array
			if distinct++; distinct > max {
				return nil, errs.Limit(a.path, "max_distinct", a.path[1:]+" has more than max_distinct "+itoa(max)+" distinct values")
			}
		}
		ids[i] = id
	}
	return ids, nil
}

// withPath returns a copy of canon's error placed at element i of path.
func withPath(err error, path string, i int) error {
	e := *err.(*errs.Error)
	e.Path = errs.Index(path, i)
	return &e
}
