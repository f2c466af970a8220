package intake

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestShare: a Gate that shares another's (ShareWith) takes its bodies'
// bytes and its slots from the shared Gate, and keeps its own cap.
func TestShare(t *testing.T) {
	own := New(Config{MaxBodyBytes: 16, MaxConcurrent: 1})
	shared := New(Config{MaxBodyBytes: 64, MaxConcurrent: 1})
	own.ShareWith(shared)
	doc := `{"a":1}`
	r := httptest.NewRequest("POST", "/", strings.NewReader(doc))
	body, release, f := own.ReadBody(httptest.NewRecorder(), r)
	if f != nil || string(body) != doc {
		t.Fatalf("ReadBody: %q %v", body, f)
	}
	if got, want := shared.Free(), shared.Config().MaxBufferedBytes-int64(len(doc)+1); got != want {
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
	// The cap is the reading Gate's: 17 bytes are over own's 16.
	big := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat(" ", 17)))
	if _, _, f := own.ReadBody(httptest.NewRecorder(), big); f == nil || f.Status != 413 {
		t.Errorf("17 bytes through a 16-byte Gate sharing a 64-byte one: %+v, want 413", f)
	}
}
