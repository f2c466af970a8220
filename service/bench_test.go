package service_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// BenchmarkPerCall compares one call of the equality tool's second example
// through /v1 execute and through /mcp (tools/call), each from a real
// net/http client with keep-alive, at the same concurrency (RunParallel).
func BenchmarkPerCall(b *testing.B) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	eq := schema.Tools()[0]
	doc := eq.Examples[1].Input
	mcpBody := append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+eq.ID+`","arguments":`), doc...), "}}"...)
	for _, bc := range []struct {
		name, path string
		body       []byte
	}{
		{"v1", "/v1/tools/" + eq.ID + "/versions/" + eq.Version + "/execute", doc},
		{"mcp", "/mcp", mcpBody},
	} {
		b.Run(bc.name, func(b *testing.B) {
			client := srv.Client()
			client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					res, err := client.Post(srv.URL+bc.path, "application/json", bytes.NewReader(bc.body))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						b.Errorf("%s: %d", bc.name, res.StatusCode)
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
