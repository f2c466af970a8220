package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

const (
	sharedCap    = 1 << 20 // each route's document cap
	sharedBudget = 2 << 20 // -max-buffered-bytes
)

// sharedService serves a service whose routes have sharedCap documents and
// share a sharedBudget budget and one check slot.
func sharedService(t *testing.T) (*Service, *httptest.Server) {
	t.Helper()
	s := New(Options{
		API: httpapi.Options{MaxBodyBytes: sharedCap, MaxBufferedBytes: sharedBudget, MaxConcurrent: 1,
			BodyIdleTimeout: time.Minute, BodyTimeout: time.Minute, WriteTimeout: 400 * time.Millisecond},
		MCP: mcpserver.Options{MaxDocumentBytes: sharedCap, MaxBufferedBytes: sharedBudget, MaxConcurrent: 1,
			BodyIdleTimeout: time.Minute, BodyTimeout: time.Minute, WriteTimeout: 400 * time.Millisecond},
	})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

// executeBody is a /v1 execute body of n bytes: an example padded with
// spaces. mcpBody is the /mcp tools/call of the same document.
func executeBody(n int) []byte {
	ex := schema.Tools()[0].Examples[0].Input
	return append(bytes.Clone(ex), bytes.Repeat([]byte(" "), n-len(ex))...)
}

func mcpBody(n int) []byte {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":%q,"arguments":`, schema.Tools()[0].ID)
	return append([]byte(head), append(executeBody(n-len(head)-2), "}}"...)...)
}

// post posts body to path and returns the status and, for /mcp, the
// JSON-RPC error code (0 for a result), else the error document's code.
//
// The request asks for 100-continue, as a client of large uploads should:
// a body the server refuses unread is then never sent, so the refusal
// arrives whole (a client that sends on while the server closes the
// connection may see it reset before the answer).
func post(t *testing.T, srv *httptest.Server, path string, body []byte) (status int, code string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
	defer client.CloseIdleConnections()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var doc struct {
		Error struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %d %.200s: %v", path, res.StatusCode, b, err)
	}
	return res.StatusCode, strings.Trim(string(doc.Error.Code), `"`)
}

// hold starts an upload of a body of n bytes declared with Content-Length
// to path and sends all but its last byte: the server holds a buffer of at
// least n bytes, all but intake.ReadAhead of them from the budget, until
// the connection is closed.
func hold(t *testing.T, srv *httptest.Server, path string, n int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{%s", path, n, strings.Repeat(" ", n-2))
	return c
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSharedBudget: /v1 execute and /mcp take their bodies from one
// budget. While an upload to one route holds most of it, a large body to
// the other is refused at once (503: overloaded, or -32000 on /mcp); once
// the upload is gone, the same body is admitted.
func TestSharedBudget(t *testing.T) {
	execute := schema.Tools()[0].ExecuteURL
	// The budget less its small-body reserve holds one body of the cap and
	// not a second of this size.
	const probe = sharedCap * 15 / 16
	testutil.Run(t, []struct {
		reason      string
		holdPath    string
		probePath   string
		probeBody   []byte
		refusedCode string
	}{
		{"a /v1 upload holds the budget a /mcp call needs", execute, RouteMCP, mcpBody(probe), "-32000"},
		{"a /mcp upload holds the budget a /v1 execute needs", RouteMCP, execute, executeBody(probe), string(httpapi.Overloaded)},
	}, func(t *testing.T, tc struct {
		reason      string
		holdPath    string
		probePath   string
		probeBody   []byte
		refusedCode string
	}) {
		s, srv := sharedService(t)
		total := s.gate.Config().MaxBufferedBytes
		if st, code := post(t, srv, tc.probePath, tc.probeBody); st != http.StatusOK {
			t.Fatalf("alone: %d %s, want 200", st, code)
		}
		c := hold(t, srv, tc.holdPath, sharedCap)
		waitFor(t, "the upload to take its bytes", func() bool { return s.gate.Free() <= total-(sharedCap-intake.ReadAhead) })
		if st, code := post(t, srv, tc.probePath, tc.probeBody); st != http.StatusServiceUnavailable || code != tc.refusedCode {
			t.Errorf("beside the upload: %d %s, want 503 %s", st, code, tc.refusedCode)
		}
		c.Close()
		waitFor(t, "the budget to be given back", func() bool { return s.gate.Free() == total })
		if st, code := post(t, srv, tc.probePath, tc.probeBody); st != http.StatusOK {
			t.Errorf("after the upload: %d %s, want 200", st, code)
		}
	})
}

// TestSharedSlots: /v1 execute and /mcp take their check slots from one
// set. With the one slot held, a call on either route waits half the write
// timeout and is answered 503; with it free, both are answered.
func TestSharedSlots(t *testing.T) {
	s, srv := sharedService(t)
	execute := schema.Tools()[0].ExecuteURL
	small := schema.Tools()[0].Examples[0].Input
	call := mcpBody(len(small) + 200)
	// The service's own slot, taken as a request would take it.
	release, f := s.gate.Slot(httptest.NewRecorder(), httptest.NewRequest("POST", "/", nil))
	if f != nil {
		t.Fatal(f.Err)
	}
	if st, code := post(t, srv, execute, small); st != http.StatusServiceUnavailable || code != string(httpapi.Overloaded) {
		t.Errorf("/v1 with the slot held: %d %s, want 503 overloaded", st, code)
	}
	if st, code := post(t, srv, RouteMCP, call); st != http.StatusServiceUnavailable || code != "-32000" {
		t.Errorf("/mcp with the slot held: %d %s, want 503 -32000", st, code)
	}
	release()
	if st, code := post(t, srv, execute, small); st != http.StatusOK {
		t.Errorf("/v1 with the slot free: %d %s, want 200", st, code)
	}
	if st, code := post(t, srv, RouteMCP, call); st != http.StatusOK || code != "" {
		t.Errorf("/mcp with the slot free: %d %s, want 200", st, code)
	}
}

// TestSharedGateHugeCaps: the shared gate's cap is the larger of the two
// routes' without overflowing: an MCP document cap of math.MaxInt64 (no cap,
// in effect) plus the envelope wrapped negative, and the gate kept the HTTP
// API's 64 MiB, refusing the MCP documents it had been told to take.
func TestSharedGateHugeCaps(t *testing.T) {
	s := New(Options{MCP: mcpserver.Options{MaxDocumentBytes: math.MaxInt64}})
	if got := s.gate.Config().MaxBodyBytes; got != math.MaxInt-1 {
		t.Errorf("shared cap %d, want %d", got, int64(math.MaxInt-1))
	}
}

// TestMemoryBound: the bound is 2 × (budget + slots × the larger cap) +
// 64 MiB + the connections' cost, held at math.MaxInt64 where a cap of
// math.MaxInt64 (no cap) would make it wrap.
func TestMemoryBound(t *testing.T) {
	s := New(Options{API: httpapi.Options{MaxBodyBytes: 1 << 20, MaxBufferedBytes: 8 << 20, MaxConcurrent: 2},
		MCP: mcpserver.Options{MaxDocumentBytes: 1 << 20}})
	// The larger cap is /mcp's: 1 MiB and its 64 KiB envelope.
	if got, want := s.MemoryBound(10), int64(2*(8<<20+2*(1<<20+64<<10))+64<<20+10*56<<10); got != want {
		t.Errorf("MemoryBound(10) = %d, want %d", got, want)
	}
	got := New(Options{MCP: mcpserver.Options{MaxDocumentBytes: math.MaxInt64}}).MemoryBound(1)
	heldCap := int64(math.MaxInt - 1) // the shared cap with no cap
	switch {
	case strconv.IntSize == 64 && got != math.MaxInt64:
		t.Errorf("with no cap: %d, want math.MaxInt64", got)
	case strconv.IntSize == 32 && got < 2*heldCap:
		// A 32-bit int holds the caps at math.MaxInt-1: the bound is finite
		// and holds at least one slot's document twice.
		t.Errorf("with no cap: %d, want at least %d", got, 2*heldCap)
	}
}
