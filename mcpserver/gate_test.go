package mcpserver

import (
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/intake"
)

// TestHTTPGateOptions: the /mcp handler admits bodies under the options it
// was given, as the HTTP API does under its own: the frame cap, the budget,
// the slots and the three timeouts reach its intake gate.
func TestHTTPGateOptions(t *testing.T) {
	o := Options{MaxDocumentBytes: 1000, MaxBufferedBytes: 1 << 20, MaxConcurrent: 3,
		BodyTimeout: 90 * time.Second, BodyIdleTimeout: 3 * time.Second, WriteTimeout: 7 * time.Second}
	got := New(o).HTTPHandler().(*httpHandler).gate.Config()
	want := intake.Config{MaxBodyBytes: 1000 + EnvelopeBytes, MaxBufferedBytes: 1 << 20, MaxConcurrent: 3,
		BodyTimeout: 90 * time.Second, BodyIdleTimeout: 3 * time.Second, WriteTimeout: 7 * time.Second,
		LingerBytes: intake.DefaultLingerBytes, LingerTime: intake.DefaultLingerTime}
	if got != want {
		t.Errorf("gate config %+v, want %+v", got, want)
	}
}

// TestHugeDocumentCap: a document cap past what one message buffer holds
// is held at math.MaxInt − 1 − EnvelopeBytes, so that the frame does not
// wrap negative (as it did with math.MaxInt64, no cap in effect), and a
// default budget whose product passes math.MaxInt64 is held there; a call
// over HTTP is then answered.
func TestHugeDocumentCap(t *testing.T) {
	o := Options{MaxDocumentBytes: math.MaxInt64, MaxConcurrent: 2}.withDefaults()
	if o.MaxDocumentBytes != math.MaxInt-1-EnvelopeBytes || o.maxFrame() != math.MaxInt-1 || o.MaxBufferedBytes <= o.maxFrame() {
		t.Fatalf("in effect: MaxDocumentBytes %d, frame %d, MaxBufferedBytes %d", o.MaxDocumentBytes, o.maxFrame(), o.MaxBufferedBytes)
	}
	if strconv.IntSize == 64 {
		// 2 × 2 × (2^62 + EnvelopeBytes) wraps to 4 × EnvelopeBytes.
		if o := (Options{MaxDocumentBytes: 1 << 62, MaxConcurrent: 2}).withDefaults(); o.MaxBufferedBytes != math.MaxInt64 {
			t.Errorf("a 2^62 document cap: MaxBufferedBytes %d, want math.MaxInt64", o.MaxBufferedBytes)
		}
	}
	h := New(Options{MaxDocumentBytes: math.MaxInt64}).HTTPHandler()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":{"source":[1,2],"claim":[2,1]}}}`
	r := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `\"valid\":true`) {
		t.Errorf("a call: %d %s", w.Code, w.Body)
	}
}
