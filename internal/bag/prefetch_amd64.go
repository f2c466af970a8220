//go:build !purego

package bag

import (
	"unsafe"

	"github.com/claimcheck/claimcheck/canon"
)

// Where a table outgrows the level-2 cache, an element's probe waits on a
// cache miss, and for a string held elsewhere (a canon.Scalar's, an any's)
// on one more before it, to read the bytes its key is made of. Loads issued
// ahead overlap those misses, but a load, unlike a prefetch, cannot retire
// before its data arrives: a batch of them fills the processor's reorder
// buffer and stalls it. Go has no prefetch a package can call, so on amd64
// these two functions are a few lines of assembly; elsewhere, and built
// with the purego tag (prefetch_other.go, which the tests run too), the
// slots are touched with loads and strings not at all. Neither changes what any memory holds.

//go:noescape
func prefetchSlots(slots *slot, mask uint64, keys *key, n int)

//go:noescape
func prefetchAddrs(addrs *uintptr, n int)

// touchSlots prefetches the slot where the probe of each of the keys i,
// ..., e-1 starts.
func (ix *index) touchSlots(i, e int) {
	if i < e {
		prefetchSlots(unsafe.SliceData(ix.slots), uint64(len(ix.slots)-1), &ix.kb.k[i], e-i)
	}
}

// touchStrings prefetches the bytes of the strings of ss (at most batch),
// one batch before they are keyed.
func (ix *index) touchStrings(ss []canon.Scalar) {
	pf := ix.pf[:len(ss)]
	for i := range pf {
		pf[i] = uintptr(unsafe.Pointer(unsafe.StringData(rep(&ss[i]).Text())))
	}
	if len(pf) > 0 {
		prefetchAddrs(&pf[0], len(pf))
	}
}

// touchAnys prefetches, for the elements i, i+1, ... of xs, a batch at a
// time (i a multiple of batch): the string bytes of the batch starting at
// i, whose headers the call before prefetched, and what the any of each
// element of the batch after points to (its float64, its string's header).
// An element of a large []any costs three cache misses one after the
// other (the boxed value, a string's bytes, the slot); so each has been
// prefetched by the time its batch is keyed.
func (ix *index) touchAnys(xs []any, i int) {
	pf := ix.pf[:0]
	for _, x := range xs[i:min(i+batch, len(xs))] {
		if s, ok := x.(string); ok && len(s) > 0 {
			pf = append(pf, uintptr(unsafe.Pointer(unsafe.StringData(s))))
		}
	}
	if len(pf) > 0 {
		prefetchAddrs(&pf[0], len(pf))
	}
	next := xs[min(i+batch, len(xs)):min(i+2*batch, len(xs))]
	pf = ix.pf[:len(next)]
	for k := range next {
		// An any is two words, its type's and its value's pointer (as the
		// runtime's eface); a value stored in the pointer word itself (a
		// pointer, nil) is prefetched as harmlessly as any address.
		pf[k] = (*[2]uintptr)(unsafe.Pointer(&next[k]))[1]
	}
	if len(pf) > 0 {
		prefetchAddrs(&pf[0], len(pf))
	}
}
