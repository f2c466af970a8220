package mcpserver

import (
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
		BodyTimeout: 90 * time.Second, BodyIdleTimeout: 3 * time.Second, WriteTimeout: 7 * time.Second}
	if got != want {
		t.Errorf("gate config %+v, want %+v", got, want)
	}
}
