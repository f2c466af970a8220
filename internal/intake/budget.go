package intake

import "sync/atomic"

// smallBody is the reservation up to which a body is small: a small body
// may take the reserve, which bodies above it may not.
const smallBody = 64 << 10

// A budget is a counting semaphore of bytes that never waits: take either
// gets all the bytes asked for at once or none. The last reserve bytes are
// kept for small bodies, so a small request is admitted while large
// uploads hold the rest.
type budget struct {
	size, reserve int64
	free          atomic.Int64
}

// newBudget returns a budget of size bytes keeping reserve of them for
// small bodies.
func newBudget(size, reserve int64) *budget {
	b := &budget{size: size, reserve: reserve}
	b.free.Store(size)
	return b
}

// take takes n bytes if they are free, leaving the reserve untouched
// unless small; it reports whether it took them.
func (b *budget) take(n int64, small bool) bool {
	floor := b.reserve
	if small {
		floor = 0
	}
	for {
		f := b.free.Load()
		if f-n < floor {
			return false
		}
		if b.free.CompareAndSwap(f, f-n) {
			return true
		}
	}
}

// fits reports whether n bytes are free now (take's rule, taking
// nothing): a body that could not be read whole now is refused before it
// is read.
func (b *budget) fits(n int64, small bool) bool {
	floor := b.reserve
	if small {
		floor = 0
	}
	return b.free.Load()-n >= floor
}

// give gives back n bytes.
func (b *budget) give(n int64) { b.free.Add(n) }
