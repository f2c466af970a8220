package intake

import (
	"container/list"
	"context"
	"sync"
)

// A budget is a counting semaphore of bytes: acquire takes n of them,
// waiting in first-come order while too few are free; release gives them
// back.
type budget struct {
	size    int64 // the bytes in all
	mu      sync.Mutex
	free    int64
	waiters list.List // of *waiter, first come first
}

type waiter struct {
	n     int64
	ready chan struct{} // closed once the bytes are the waiter's
}

func newBudget(n int64) *budget { return &budget{size: n, free: n} }

// tryAcquire takes n bytes if they are free and nobody waits before it.
func (b *budget) tryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiters.Len() == 0 && b.free >= n {
		b.free -= n
		return true
	}
	return false
}

// acquire takes n bytes, waiting until they are free or ctx is done; then
// it takes nothing and returns ctx's error.
func (b *budget) acquire(ctx context.Context, n int64) error {
	b.mu.Lock()
	if b.waiters.Len() == 0 && b.free >= n {
		b.free -= n
		b.mu.Unlock()
		return nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	e := b.waiters.PushBack(w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready:
		// Granted while giving up: hand the bytes on.
		b.free += n
	default:
		b.waiters.Remove(e)
	}
	b.grant() // the waiters behind this one may fit now
	return ctx.Err()
}

// release gives back n bytes.
func (b *budget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	b.grant()
	b.mu.Unlock()
}

// grant hands free bytes to the waiters in order, stopping at the first
// that does not fit (so a large request is not starved by small ones).
// b.mu is held.
func (b *budget) grant() {
	for e := b.waiters.Front(); e != nil; e = b.waiters.Front() {
		w := e.Value.(*waiter)
		if b.free < w.n {
			return
		}
		b.free -= w.n
		b.waiters.Remove(e)
		close(w.ready)
	}
}
