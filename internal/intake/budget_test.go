package intake

import (
	"sync"
	"testing"
)

// TestBudget: take is all or nothing, never waits, and leaves the reserve
// to small bodies.
func TestBudget(t *testing.T) {
	b := newBudget(10, 3)
	if !b.take(7, false) {
		t.Fatal("7 of 10 with 3 reserved: refused")
	}
	if b.take(1, false) {
		t.Fatal("a large take dipped into the reserve")
	}
	if !b.take(3, true) {
		t.Fatal("a small take was refused the reserve")
	}
	if b.take(1, true) {
		t.Fatal("took more than the budget")
	}
	b.give(10)
	if got := b.free.Load(); got != 10 {
		t.Fatalf("free %d after giving everything back, want 10", got)
	}
}

// TestBudgetConcurrent: concurrent takes never overdraw (run with -race).
func TestBudgetConcurrent(t *testing.T) {
	b := newBudget(100, 0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				if b.take(7, false) {
					if f := b.free.Load(); f < 0 {
						t.Errorf("free %d", f)
					}
					b.give(7)
				}
			}
		})
	}
	wg.Wait()
	if f := b.free.Load(); f != 100 {
		t.Fatalf("free %d, want 100", f)
	}
}
