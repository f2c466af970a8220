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
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/scalar"
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
	// The positions of buf written below are 0, ..., n-1; i%batch+n
	// bounds them (see release), as i is a multiple of batch or n is 1.
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
// A document's element is converted by scalar.FromElem where the reader
// vouches for it, and by ElemScalar, with its errors, where it does not.
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
	for k := range es {
		if err := a.elemAt(i+k, &es[k], &dst[k]); err != nil {
			return err
		}
	}
	return nil
}

// elemAt converts document element i, e, into *dst.
func (a *Array) elemAt(i int, e *jsontape.Elem, dst *canon.Scalar) error {
	if scalar.FromElem(e, rep(dst)) {
		return nil
	}
	s, err := ElemScalar(a.Path, i, e)
	*dst = s
	return err
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
