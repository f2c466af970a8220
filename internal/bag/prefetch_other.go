//go:build !amd64 || purego

package bag

import "github.com/claimcheck/claimcheck/canon"

// touchSlots loads the slot where the probe of each of the keys i, ..., e-1
// starts (see
// prefetch_amd64.go): the loads are independent of each other, so the
// processor overlaps their cache misses, and the probes find their slots in
// the cache or on their way.
func (ix *index) touchSlots(i, e int) {
	kb := ix.kb.k[i:e]
	mask := uint64(len(ix.slots) - 1)
	var touched uint32
	for i := range kb {
		touched += ix.slots[kb[i].h&mask].tag
	}
	ix.touched = touched
}

// touchStrings does nothing without a prefetch: a load would stall where
// a prefetch does not.
func (ix *index) touchStrings(ss []canon.Scalar) {}

// touchAnys does nothing without a prefetch, as touchStrings.
func (ix *index) touchAnys(xs []any, i int) {}
