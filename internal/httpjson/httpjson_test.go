package httpjson

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestContentLength: every answer goes out with its exact Content-Length
// and no chunked encoding, on HTTP/1.1 and HTTP/2, over a real connection,
// whether net/http sets it (a body of at most autoLength, 2048 bytes) or
// Write does (longer bodies, and HEAD).
func TestContentLength(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		var size int
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Write(w, r, 200, bytes.Repeat([]byte{' '}, size))
		}))
		srv.EnableHTTP2 = h2
		srv.StartTLS()
		for _, n := range []int{0, 1, 2047, 2048, 2049, 5000, 1 << 16} {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				size = n
				req, _ := http.NewRequest(method, srv.URL, nil)
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				want := n
				if method == http.MethodHead {
					want = 0
				}
				if err != nil || res.ContentLength != int64(n) || len(res.TransferEncoding) != 0 || len(body) != want || res.ProtoMajor != map[bool]int{false: 1, true: 2}[h2] {
					t.Errorf("%s %s, a body of %d: Content-Length %d, Transfer-Encoding %q, %d bytes read (%v)",
						res.Proto, method, n, res.ContentLength, res.TransferEncoding, len(body), err)
				}
			}
		}
		srv.Close()
	}
	// The shared header values have no room to grow: an Add copies them.
	w := httptest.NewRecorder()
	Write(w, nil, 200, []byte("{}\n"))
	w.Header().Add("Content-Type", "x")
	if jsonType[0] != "application/json" || len(jsonType) != 1 {
		t.Errorf("an Add changed the shared value: %q", jsonType)
	}
}

// TestHeaderValue: for the canonical keys the handlers ask for, HeaderValue
// is Header.Get, on headers as net/http parses them (canonical keys).
func TestHeaderValue(t *testing.T) {
	h := http.Header{}
	h.Set("content-type", "application/json")
	h.Add("Origin", "https://a.example")
	h.Add("Origin", "https://b.example")
	for _, key := range []string{"Content-Type", "Origin", "Content-Encoding"} {
		if got, want := HeaderValue(h, key), h.Get(key); got != want {
			t.Errorf("HeaderValue(%q) = %q, Get gives %q", key, got, want)
		}
	}
}
