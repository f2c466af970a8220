package httpapi

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// hidden is the request an attacker hides in a body: the descriptors, which
// the server answers 200 to any client.
const hidden = "GET /v1/tools HTTP/1.1\r\nHost: x\r\n\r\n"

// smuggleServer serves New(opts) as NewServer configures it, in cleartext
// or over TLS, and returns how to dial it.
func smuggleServer(t *testing.T, opts Options, overTLS bool) func() net.Conn {
	t.Helper()
	opts.Logger = discardLogger()
	ns := NewServer("", New(opts))
	srv := httptest.NewUnstartedServer(ns.Handler)
	srv.Config.ConnContext = ns.ConnContext
	srv.Config.ReadHeaderTimeout = ns.ReadHeaderTimeout
	if overTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	return func() net.Conn {
		var c net.Conn
		var err error
		if overTLS {
			c, err = tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
		} else {
			c, err = net.Dial("tcp", addr)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

// answers reads the answers on c until it is closed or quiet for a second,
// and returns their statuses and the Claimcheck-Cut trailer of each.
func answers(c net.Conn) []string {
	br := bufio.NewReader(c)
	var got []string
	for {
		c.SetReadDeadline(time.Now().Add(time.Second))
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			return got
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		got = append(got, fmt.Sprint(res.StatusCode, " ", res.Trailer.Get(TrailerCut)))
	}
}

// TestCutClosesConnection: when a batch answer ends before its body was
// read to its end (each reason the server cuts a stream, with a
// Content-Length body and a chunked one, in cleartext and over TLS), the
// connection is closed after the answer, and a request hidden in the rest
// of the body is never answered. Before, net/http under full duplex kept
// the connection and read that rest as the next requests.
func TestCutClosesConnection(t *testing.T) {
	ok := `{"source":[1],"claim":[1]}` + "\n"
	head := "POST " + batchPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/jsonl\r\n"
	type row struct {
		reason string
		cut    string
		// first is sent at once; rest once the answer to first has come
		// (the handler has returned), or at once when wait is false.
		first, rest string
		wait        bool
	}
	lines := strings.Repeat(ok, 5) // MaxBatchLines is 3
	rows := []row{
		{reason: "max_batch_lines, a Content-Length body whose rest comes after the cut", cut: "max_batch_lines",
			first: head + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(lines)+len(hidden)) + lines, rest: hidden, wait: true},
		{reason: "max_batch_lines, a chunk whose rest comes after the cut", cut: "max_batch_lines",
			first: head + "Transfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n", len(lines)+len(hidden)) + lines, rest: hidden + "\r\n0\r\n\r\n", wait: true},
		{reason: "request_timeout, a Content-Length body whose rest comes after the cut", cut: "request_timeout",
			first: head + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(ok)+len(hidden)) + ok, rest: hidden, wait: true},
		{reason: "request_timeout, a chunk whose rest comes after the cut", cut: "request_timeout",
			first: head + "Transfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n", len(ok)+len(hidden)) + ok, rest: hidden + "\r\n0\r\n\r\n", wait: true},
		{reason: "invalid_input, a chunk line net/http refuses", cut: "invalid_input",
			first: head + "Transfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\r\n", len(ok), ok) + "5d ;x\r\n" + hidden},
	}
	for _, overTLS := range []bool{false, true} {
		dial := smuggleServer(t, Options{MaxBatchLines: 3, BodyIdleTimeout: 300 * time.Millisecond, MaxBufferedBytes: 64 << 20}, overTLS)
		testutil.Run(t, rows, func(t *testing.T, tc row) {
			c := dial()
			io.WriteString(c, tc.first)
			if tc.wait {
				// The answer, cut by the timeout, before the rest is sent.
				time.Sleep(600 * time.Millisecond)
			}
			io.WriteString(c, tc.rest)
			got := answers(c)
			if len(got) != 1 || got[0] != "200 "+tc.cut {
				t.Errorf("TLS %v: answers %q, want one: 200 with Claimcheck-Cut %s (a second answers the hidden request)", overTLS, got, tc.cut)
			}
		})
	}
}

// TestFaultyFramingCloses: a request with both Content-Length and
// Transfer-Encoding is read by its chunks alone and answered, and its
// connection closed, so that what a proxy that went by the Content-Length
// saw as its body's end (here: a hidden request) is never served (RFC 9112
// section 6.1); so is an HTTP/1.0 request with a body, and a
// Transfer-Encoding request of any route. A request framed plainly keeps
// its connection.
func TestFaultyFramingCloses(t *testing.T) {
	doc := `{"source":[1],"claim":[1]}`
	exec := "POST /v1/tools/multiset-equality-check/versions/1.0.0/execute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(doc), doc)
	type row struct {
		reason  string
		request string
		want    []string
	}
	rows := []row{
		{reason: "the smuggling pair: Content-Length beside Transfer-Encoding",
			request: exec + fmt.Sprintf("Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n", len(chunked)+len(hidden)) + chunked + hidden,
			want:    []string{"200 "}},
		{reason: "Transfer-Encoding alone, on a route that reads no body",
			request: "GET /v1/tools HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden,
			want:    []string{"200 "}},
		{reason: "HTTP/1.0 with a body and keep-alive",
			request: strings.Replace(exec, "HTTP/1.1", "HTTP/1.0", 1) + fmt.Sprintf("Connection: keep-alive\r\nContent-Length: %d\r\n\r\n", len(doc)) + doc + hidden,
			want:    []string{"200 "}},
		{reason: "a Content-Length body alone keeps its connection: both answered",
			request: exec + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(doc)) + doc + hidden,
			want:    []string{"200 ", "200 "}},
	}
	for _, overTLS := range []bool{false, true} {
		dial := smuggleServer(t, Options{}, overTLS)
		testutil.Run(t, rows, func(t *testing.T, tc row) {
			c := dial()
			io.WriteString(c, tc.request)
			if got := answers(c); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("TLS %v: answers %q, want %q", overTLS, got, tc.want)
			}
		})
	}
}
