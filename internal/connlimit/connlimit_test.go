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

// TestDrainLeavesHTTP2: a cleartext connection that begins with the HTTP/2
// preface, however its first bytes are split into reads, is left open by
// Drain for the server's Shutdown (GOAWAY first); one that begins as
// HTTP/1 is closed once idle.
func TestDrainLeavesHTTP2(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := connlimit.New(inner, 10)
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }),
		ConnState: ln.ConnState, Protocols: &p}
	go srv.Serve(ln)
	defer srv.Close()
	// The preface in three writes, a pause between them, then an empty
	// SETTINGS frame.
	h2, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	for _, part := range []string{"PRI * HT", "TP/2.0\r\n", "\r\nSM\r\n\r\n", "\x00\x00\x00\x04\x00\x00\x00\x00\x00"} {
		io.WriteString(h2, part)
		time.Sleep(20 * time.Millisecond)
	}
	h1, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Close()
	io.WriteString(h1, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	h1.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := h1.Read(make([]byte, 512)); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); ln.Open() != 2; {
		if time.Now().After(end) {
			t.Fatalf("%d connections open, want 2", ln.Open())
		}
		time.Sleep(time.Millisecond)
	}
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ln.Drain(ctx, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if n := ln.Open(); n != 1 {
		t.Errorf("%d connections open after Drain, want 1: the HTTP/2 one", n)
	}
	h1.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := h1.Read(make([]byte, 512)); err == nil {
		t.Error("the idle HTTP/1 connection is still open after Drain")
	}
}
