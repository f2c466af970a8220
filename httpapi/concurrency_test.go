package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// TestMaxConcurrent: no more execute requests than MaxConcurrent are read
// and checked at once; the others wait their turn and are all answered.
func TestMaxConcurrent(t *testing.T) {
	const limit, clients = 2, 12
	var now, peak atomic.Int32
	release := make(chan struct{})
	h := newHandler(Options{MaxConcurrent: limit}, func(tool *schema.Tool, in []byte) (schema.Output, error) {
		n := now.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		now.Add(-1)
		return tool.Execute(in)
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	url := srv.URL + "/v1/tools/multiset-equality-check/versions/1.0.0/execute"
	var wg sync.WaitGroup
	codes := make(chan int, clients)
	for range clients {
		wg.Go(func() {
			resp, err := http.Post(url, "application/json", strings.NewReader(`{"source":[1],"claim":[1]}`))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	for range clients {
		release <- struct{}{}
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Errorf("status %d, want 200", c)
		}
	}
	if p := peak.Load(); p > limit || p < 1 {
		t.Errorf("peak concurrent executions %d, want 1..%d", p, limit)
	}
}
