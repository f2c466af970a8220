package intake

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBudget: first come first served, a large waiter is not overtaken, and
// a waiter that gives up takes nothing and lets the next one in.
func TestBudget(t *testing.T) {
	b := newBudget(10)
	if !b.tryAcquire(8) || b.tryAcquire(3) {
		t.Fatal("tryAcquire: 8 of 10 then 3 must fail")
	}
	big := make(chan error, 1)
	go func() { big <- b.acquire(context.Background(), 10) }()
	waitFor(t, "the large waiter to queue", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.waiters.Len() == 1 })
	if b.tryAcquire(1) {
		t.Fatal("a small request overtook a waiting large one")
	}
	ctx, cancel := context.WithCancel(context.Background())
	small := make(chan error, 1)
	go func() { small <- b.acquire(ctx, 1) }()
	waitFor(t, "the small waiter to queue", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.waiters.Len() == 2 })
	cancel()
	if err := <-small; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	b.release(8)
	if err := <-big; err != nil {
		t.Fatal(err)
	}
	b.release(10)
	if b.available() != 10 || b.waiters.Len() != 0 {
		t.Fatalf("free %d, %d waiters; want 10, 0", b.available(), b.waiters.Len())
	}
}

// available returns the free bytes.
func (b *budget) available() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.free
}

// waitFor polls cond every millisecond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
