package connlimit_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/connlimit"
)

// TestLimit: at the cap, a new connection is served by closing the longest
// idle one; Drain then ends once the idle connections are closed.
func TestLimit(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := connlimit.New(inner, 2)
	if ln.Max() != 2 {
		t.Fatalf("Max %d", ln.Max())
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }),
		ConnState: ln.ConnState}
	go srv.Serve(ln)
	defer srv.Close()
	get := func(tr *http.Transport) {
		t.Helper()
		res, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get("http://" + inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(res.Body)
		res.Body.Close()
	}
	for range 5 { // each client keeps its connection open, idle
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		get(tr)
		if n := ln.Open(); n > 2 {
			t.Fatalf("%d connections open, cap 2", n)
		}
	}
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ln.Drain(ctx, 10*time.Millisecond); err != nil || ln.Open() != 0 {
		t.Fatalf("Drain: %v, %d open", err, ln.Open())
	}
}
