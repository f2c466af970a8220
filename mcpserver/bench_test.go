package mcpserver_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// BenchmarkCall is one tools/call of the equality tool's second example,
// as an MCP client sends it, answered without a network: by Answer (a
// stdio line) and by the HTTP handler at a 2025 revision and at
// ModernVersion (the request's headers included, the response written to
// a writer that discards it). It is the per-call cost of mcpserver beside
// the check itself; service's BenchmarkPerCall times the same calls over
// a socket.
func BenchmarkCall(b *testing.B) {
	eq := schema.Tools()[0]
	doc := eq.Examples[1].Input
	want, err := eq.Execute(doc)
	if err != nil {
		b.Fatal(err)
	}
	legacyMsg, legacyHdr := legacy.call(1, eq.ID, doc)
	modernMsg, modernHdr := modern.call(1, eq.ID, doc)
	modernMsg = bytes.Replace(modernMsg, []byte(`"_meta":{`), []byte(`"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},`), 1)
	s := mcpserver.New(mcpserver.Options{})
	b.Run("answer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if res := s.Answer(context.Background(), legacyMsg); !bytes.Contains(res, want.Doc) {
				b.Fatalf("%s", res)
			}
		}
	})
	h := s.HTTPHandler()
	for _, bc := range []struct {
		name string
		msg  []byte
		hdr  []string
	}{{"http-2025", legacyMsg, legacyHdr}, {"http-" + mcpserver.ModernVersion, modernMsg, modernHdr}} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			r.Host = "localhost" // httptest's example.com is not an allowed name
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			for _, kv := range bc.hdr {
				k, v, _ := strings.Cut(kv, ": ")
				r.Header.Set(k, v)
			}
			var src bytes.Reader
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				src.Reset(bc.msg)
				r.Body, r.ContentLength = io.NopCloser(&src), int64(len(bc.msg))
				clear(w.h)
				w.status, w.body = 0, w.body[:0]
				h.ServeHTTP(w, r)
				if w.status != http.StatusOK {
					b.Fatalf("status %d: %s", w.status, w.body)
				}
			}
			if !bytes.Contains(w.body, want.Doc) {
				b.Fatalf("%s", w.body)
			}
		})
	}
}

// A discardWriter is a ResponseWriter that keeps the last body written and
// takes deadlines, as net/http's does.
type discardWriter struct {
	h      http.Header
	status int
	body   []byte
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.body = append(w.body, p...)
	return len(p), nil
}
func (w *discardWriter) SetReadDeadline(time.Time) error  { return nil }
func (w *discardWriter) SetWriteDeadline(time.Time) error { return nil }
