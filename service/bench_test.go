package service_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// BenchmarkPerCall compares one call of the equality tool's second example
// through /v1 execute and through /mcp (tools/call) at a 2025 revision and
// at 2026-07-28, each from a real net/http client with keep-alive, at the
// same concurrency (RunParallel). Each /mcp request carries what an MCP
// client sends: Accept, and at 2026-07-28 the claim in params._meta (with
// clientInfo) and the MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers. v1-mcp-headers is /v1 sent those four headers, which it
// ignores: what writing and parsing them costs client and server alone
// (most of the difference between v1 and the 2026-07-28 row). Every row's
// answer holds the same output document (checked once before timing).
func BenchmarkPerCall(b *testing.B) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	eq := schema.Tools()[0]
	doc := eq.Examples[1].Input
	want, err := eq.Execute(doc)
	if err != nil {
		b.Fatal(err)
	}
	call := func(meta string) []byte {
		return append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`"name":"`+eq.ID+`","arguments":`), doc...), "}}"...)
	}
	accept := "Accept: application/json, text/event-stream"
	modernHeaders := []string{accept, "MCP-Protocol-Version: " + mcpserver.ModernVersion, "Mcp-Method: tools/call", "Mcp-Name: " + eq.ID}
	for _, bc := range []struct {
		name, path string
		body       []byte
		hdr        []string
	}{
		{"v1", "/v1/tools/" + eq.ID + "/versions/" + eq.Version + "/execute", doc, nil},
		{"v1-mcp-headers", "/v1/tools/" + eq.ID + "/versions/" + eq.Version + "/execute", doc, modernHeaders},
		{"mcp", "/mcp", call(""), []string{accept, "MCP-Protocol-Version: 2025-11-25"}},
		{"mcp-" + mcpserver.ModernVersion, "/mcp", call(`"_meta":{"io.modelcontextprotocol/protocolVersion":"` + mcpserver.ModernVersion + `",` +
			`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"}},`),
			modernHeaders},
	} {
		client := srv.Client()
		client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
		// post sends the request and copies the answer to w.
		post := func(w io.Writer) (int, error) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+bc.path, bytes.NewReader(bc.body))
			if err != nil {
				return 0, err
			}
			req.Header.Set("Content-Type", "application/json")
			for _, h := range bc.hdr {
				k, v, _ := strings.Cut(h, ": ")
				req.Header.Set(k, v)
			}
			res, err := client.Do(req)
			if err != nil {
				return 0, err
			}
			defer res.Body.Close()
			_, err = io.Copy(w, res.Body)
			return res.StatusCode, err
		}
		var body bytes.Buffer
		if st, err := post(&body); err != nil || st != 200 || !bytes.Contains(body.Bytes(), want.Doc) {
			b.Fatalf("%s: %d %s (%v), want 200 with %s", bc.name, st, body.Bytes(), err, want.Doc)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if st, err := post(io.Discard); err != nil || st != 200 {
						b.Errorf("%s: %d (%v)", bc.name, st, err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkSmallExecute is one small execute request (the request of
// bench/load.sh) through the whole service handler (in-flight gauge,
// routing, metrics, the intake gate, the check and the answer), without a
// network: the per-request cost the service adds to net/http's. The
// response writer supports deadlines, as net/http's does, and counts the
// calls (deadlines/op), since on a real connection each one is a runtime
// timer update.
func BenchmarkSmallExecute(b *testing.B) {
	svc := service.New(service.Options{})
	eq := schema.Tools()[0]
	body := []byte(`{"source":[1,2,3],"claim":[3,2,1]}`)
	r := httptest.NewRequest(http.MethodPost, "/v1/tools/"+eq.ID+"/versions/"+eq.Version+"/execute", nil)
	r.Host = "localhost" // httptest's example.com is not an allowed name
	r.Header.Set("Content-Type", "application/json")
	var src bytes.Reader
	w := &deadlineWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(body)
		r.Body, r.ContentLength = io.NopCloser(&src), int64(len(body))
		clear(w.h)
		w.status = 0
		svc.ServeHTTP(w, r)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
	b.ReportMetric(float64(w.deadlines)/float64(b.N), "deadlines/op")
}

// A deadlineWriter is a ResponseWriter that discards the body and counts
// the deadlines set through http.ResponseController.
type deadlineWriter struct {
	h         http.Header
	status    int
	deadlines int
}

func (w *deadlineWriter) Header() http.Header { return w.h }
func (w *deadlineWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(p), nil
}
func (w *deadlineWriter) SetReadDeadline(time.Time) error  { w.deadlines++; return nil }
func (w *deadlineWriter) SetWriteDeadline(time.Time) error { w.deadlines++; return nil }
