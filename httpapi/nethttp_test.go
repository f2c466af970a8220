package httpapi

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestNetHTTPAnswersFirst pins what the package documentation says net/http
// answers by itself, before any handler runs: plain text (or nothing), not
// JSON. If a Go release changes one of these, this test says which, and the
// documentation must follow.
func TestNetHTTPAnswersFirst(t *testing.T) {
	var ran atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran.Add(1)
		New(Options{}).ServeHTTP(w, r)
	}))
	srv.Config = NewServer("", srv.Config.Handler)
	srv.Start()
	t.Cleanup(srv.Close) // after the parallel subtests
	tests := []struct {
		reason, request string
		status          int
		contentType     string
	}{
		{"malformed request line", "GARBAGE\r\n\r\n", 400, "text/plain; charset=utf-8"},
		{"negative Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, "text/plain; charset=utf-8"},
		{"two Content-Lengths", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "text/plain; charset=utf-8"},
		{"HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n", 400, "text/plain; charset=utf-8"},
		{"invalid header name", "GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "text/plain; charset=utf-8"},
		{"unsupported transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "text/plain; charset=utf-8"},
		{"unsupported HTTP version", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "text/plain; charset=utf-8"},
		{"headers over MaxHeaderBytes", "GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", MaxHeaderBytes+8192) + "\r\n\r\n", 431, "text/plain; charset=utf-8"},
		{"an expectation other than 100-continue", "POST / HTTP/1.1\r\nHost: x\r\nExpect: x\r\nContent-Length: 1\r\n\r\na", 417, ""},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 200, ""},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("every row needs a reason")
		}
		t.Run(tc.reason, func(t *testing.T) {
			t.Parallel()
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			go io.WriteString(c, tc.request) // a large request may be answered before it is all sent
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || res.Header.Get("Content-Type") != tc.contentType {
				t.Errorf("%d %q %q, want %d %q", res.StatusCode, res.Header.Get("Content-Type"), body, tc.status, tc.contentType)
			}
			if n := ran.Load(); n != 0 {
				t.Errorf("the handler ran %d times", n)
			}
		})
	}
}
