package intake

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestShare: a Gate that shares another's (ShareWith) takes its bodies'
// bytes and its slots from the shared Gate, and keeps its own cap.
func TestShare(t *testing.T) {
	own := New(Config{MaxBodyBytes: 16 << 10, MaxConcurrent: 1})
	shared := New(Config{MaxBodyBytes: 64 << 10, MaxConcurrent: 1})
	own.ShareWith(shared)
	// A body of 2 × ReadAhead bytes, with its length: its buffer grows
	// from ReadAhead to the length and a byte, all but ReadAhead of them
	// the budget's.
	doc := `{"a":` + strings.Repeat(" ", 2*ReadAhead-7) + `1}`
	r := httptest.NewRequest("POST", "/", strings.NewReader(doc))
	body, release, f := own.ReadBody(httptest.NewRecorder(), r)
	if f != nil || string(body) != doc {
		t.Fatalf("ReadBody: %.20q %v", body, f)
	}
	if got, want := shared.Free(), shared.Config().MaxBufferedBytes-(ReadAhead+1); got != want {
		t.Errorf("shared budget free %d while the body is held, want %d", got, want)
	}
	if own.Free() != own.Config().MaxBufferedBytes {
		t.Errorf("own budget taken from: free %d of %d", own.Free(), own.Config().MaxBufferedBytes)
	}
	release()
	if shared.Free() != shared.Config().MaxBufferedBytes {
		t.Errorf("shared budget not given back: free %d", shared.Free())
	}
	free, f := own.Slot(httptest.NewRecorder(), r)
	if f != nil {
		t.Fatal(f.Err)
	}
	if len(shared.slots) != 1 || len(own.slots) != 0 {
		t.Errorf("slots held: shared %d, own %d; want 1, 0", len(shared.slots), len(own.slots))
	}
	free()
	// The cap is the reading Gate's: 16 KiB and a byte are over own's.
	big := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat(" ", 16<<10+1)))
	if _, _, f := own.ReadBody(httptest.NewRecorder(), big); f == nil || f.Status != 413 {
		t.Errorf("16 KiB and a byte through a 16 KiB Gate sharing a 64 KiB one: %+v, want 413", f)
	}
}
