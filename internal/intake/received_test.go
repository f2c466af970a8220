package intake

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A feed is a request body that hands out the bytes sent to it, blocking
// until some arrive: an upload as slow as the test makes it.
type feed struct{ ch chan []byte }

func (f feed) Read(p []byte) (int, error) {
	b, ok := <-f.ch
	if !ok {
		return 0, io.EOF
	}
	return copy(p, b), nil // the test sends no more than fits
}

// upload starts ReadBody on a request declaring length bytes (-1: unknown)
// and returns its body's feed and the channel of its outcome.
func upload(g *Gate, length int64) (feed, chan *Failure) {
	f := feed{make(chan []byte)}
	r := httptest.NewRequest("POST", "/", nil)
	r.Body, r.ContentLength = io.NopCloser(f), length
	done := make(chan *Failure, 1)
	go func() {
		_, release, fl := g.ReadBody(httptest.NewRecorder(), r)
		release()
		done <- fl
	}()
	return f, done
}

// TestHeldIsReceived: a body holds budget only for what it has been sent,
// at most twice that beyond ReadAhead, never its declared length: one that
// has sent a byte of a declared 64 MiB holds nothing, and one that has sent
// 100 KiB holds at most 2 × 100 KiB − ReadAhead. Before, the declared
// length was taken at once, so that uploads that sent nothing emptied the
// budget.
func TestHeldIsReceived(t *testing.T) {
	g := New(Config{MaxConcurrent: 4}) // the 64 MiB cap, a 512 MiB budget
	total := g.Config().MaxBufferedBytes
	f, done := upload(g, 64<<20)
	f.ch <- []byte("{")
	if held := total - g.Free(); held != 0 {
		t.Fatalf("a 64 MiB body that has sent a byte holds %d bytes of the budget, want 0", held)
	}
	sent := int64(1)
	for sent < 100<<10 {
		chunk := min(ReadAhead, 100<<10-sent)
		f.ch <- []byte(strings.Repeat(" ", int(chunk)))
		sent += chunk
	}
	// The reader takes its next step before it blocks for more: wait for it.
	waitFor(t, func() bool { return total-g.Free() >= sent-ReadAhead })
	if held := total - g.Free(); held < sent-ReadAhead || held > 2*sent-ReadAhead {
		t.Errorf("after %d bytes sent the body holds %d bytes of the budget, want %d to %d", sent, held, sent-ReadAhead, 2*sent-ReadAhead)
	}
	close(f.ch) // the end (net/http's body would say it is short; this one does not)
	if fl := <-done; fl != nil {
		t.Fatal(fl.Err)
	}
	if g.Free() != total {
		t.Errorf("free %d after the release, want %d", g.Free(), total)
	}
}

// TestReserveKeptFromLargeBodies: the small-body reserve is never taken by
// a body declared over 64 KiB, however little it has sent: a large body
// admitted while the budget was free is refused its next step once all
// but the reserve is held, while a body of 64 KiB grows into the reserve;
// and a large body that cannot fit what is free is refused unread. A body
// of at most ReadAhead − 1 bytes needs no budget at all.
func TestReserveKeptFromLargeBodies(t *testing.T) {
	g := New(Config{MaxBodyBytes: 1 << 20, MaxBufferedBytes: 2 << 20})
	reserve := g.budget.reserve
	total := g.Config().MaxBufferedBytes
	large, largeDone := upload(g, 1<<20)
	large.ch <- []byte(strings.Repeat(" ", ReadAhead)) // its buffer is full: its next step is the budget's
	// All of the budget but the reserve, taken as other bodies take it.
	waitFor(t, func() bool { return g.Free() < total })
	if !g.budget.take(g.Free()-reserve, false) {
		t.Fatal("could not take the budget less its reserve")
	}
	large.ch <- []byte(strings.Repeat(" ", 2*ReadAhead))
	if fl := <-largeDone; fl == nil || fl.Status != http.StatusServiceUnavailable {
		t.Fatalf("a 1 MiB body growing with only the reserve free: %+v, want 503", fl)
	}
	if _, fl := upload(g, 1<<20); (<-fl) == nil {
		t.Fatal("a 1 MiB body arriving with only the reserve free was read")
	}
	small, smallDone := upload(g, 64<<10-1)
	for sent := 0; sent < 64<<10-1; sent += ReadAhead {
		small.ch <- []byte(strings.Repeat(" ", min(ReadAhead, 64<<10-1-sent)))
	}
	close(small.ch)
	if fl := <-smallDone; fl != nil {
		t.Fatalf("a 64 KiB body with the reserve free: %+v, want it admitted", fl)
	}
	g.budget.take(g.Free(), true) // nothing left at all
	tiny := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat(" ", ReadAhead-1)))
	_, release, fl := g.ReadBody(httptest.NewRecorder(), tiny)
	if fl != nil {
		t.Fatalf("a body of ReadAhead − 1 bytes with no budget free: %+v, want it admitted", fl)
	}
	release()
}

// waitFor polls cond every millisecond for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestAnswerHeld: an answer's bytes beyond ReadAhead are held in the
// budget until its release, from the reserve too when it is at most 64
// KiB; one that does not fit is refused 503.
func TestAnswerHeld(t *testing.T) {
	g := New(Config{MaxBodyBytes: 1 << 20, MaxBufferedBytes: 2 << 20})
	total := g.Config().MaxBufferedBytes
	r := httptest.NewRequest("POST", "/", nil)
	release, f := g.Answer(httptest.NewRecorder(), r, ReadAhead)
	if f != nil || g.Free() != total {
		t.Fatalf("an answer of ReadAhead bytes: %+v, free %d of %d; want it held outside the budget", f, g.Free(), total)
	}
	release()
	release, f = g.Answer(httptest.NewRecorder(), r, 1<<20)
	if f != nil || g.Free() != total-(1<<20-ReadAhead) {
		t.Fatalf("an answer of 1 MiB: %+v, free %d; want %d", f, g.Free(), total-(1<<20-ReadAhead))
	}
	if _, f2 := g.Answer(httptest.NewRecorder(), r, 2<<20); f2 == nil || f2.Status != http.StatusServiceUnavailable {
		t.Errorf("a second answer of 2 MiB beside it: %+v, want 503", f2)
	}
	release()
	if g.Free() != total {
		t.Errorf("free %d after the release, want %d", g.Free(), total)
	}
}
