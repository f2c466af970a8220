package service_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

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
