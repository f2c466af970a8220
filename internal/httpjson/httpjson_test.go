package httpjson

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestContentLength: the shared Content-Length values are the decimal
// lengths, each a slice of one string with no room to grow, so an Add to
// the header copies it instead of writing into the shared array.
func TestContentLength(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 99, 100, 999, len(smallLengths) - 1, len(smallLengths), 1 << 20} {
		v := contentLength(n)
		if len(v) != 1 || cap(v) != 1 || v[0] != strconv.Itoa(n) {
			t.Errorf("contentLength(%d) = %q (cap %d)", n, v, cap(v))
		}
	}
	w := httptest.NewRecorder()
	Write(w, nil, 200, []byte("{}\n"))
	w.Header().Add("Content-Length", "x")
	if v := contentLength(3); len(v) != 1 || v[0] != "3" {
		t.Errorf("an Add changed the shared value: %q", v)
	}
	if got := w.Header().Values("Content-Type"); len(got) != 1 || got[0] != "application/json" {
		t.Errorf("Content-Type %q", got)
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
