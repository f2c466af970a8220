package connlimit

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// stream is a connection's worth of requests net/http serves one after
// the other: every framing it reads (a Content-Length, chunks with
// extensions and a trailer, HTTP/1.0, bare LF line ends, CR/LF net/http
// skips after a POST, a body that looks like a head), none of them
// ambiguous.
var stream = strings.Join([]string{
	withBody("POST /a HTTP/1.1\r\nHost: x\r\n", "Transfer-Encoding: chunked\r\nX: y\r\n\r\n"),
	"\r\n",
	"POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"1a;ext=1\r\nContent-Length: 5\r\n\r\nabcde\r\n0\r\nTrailer-X: 1\r\n\r\n",
	"GET /c HTTP/1.1\nhost: x\ncontent-length:  3 \n\nabc",
	"GET /d HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
	"GET /e HTTP/1.1\r\nHost: x\r\nX-Transfer-Encoding: chunked\r\nContent-Lengthy: 4\r\n\r\n",
}, "")

// withBody is the request of head and body, with its Content-Length.
func withBody(head, body string) string {
	return fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", head, len(body), body)
}

// TestFramingFollows: the framing reads every request of stream, cut in
// two at any byte and fed one byte at a time, as net/http does: it hands
// over every byte, stays on, and ends at the start of a request line.
func TestFramingFollows(t *testing.T) {
	check := func(t *testing.T, parts ...string) {
		t.Helper()
		var f framing
		for _, p := range parts {
			if n := f.scan([]byte(p)); n != len(p) || f.err != nil {
				t.Fatalf("scan handed over %d of %d bytes, err %v", n, len(p), f.err)
			}
		}
		if f.state != stRequest || f.tail != 0 {
			t.Fatalf("after the stream: state %d, tail %x; want the start of a request line", f.state, f.tail)
		}
	}
	for i := range len(stream) {
		check(t, stream[:i], stream[i:])
	}
	check(t, strings.Split(stream, "")...)
}

// TestFramingAmbiguous: a head with both Content-Length and
// Transfer-Encoding, or Transfer-Encoding in HTTP/1.0, has its last byte
// withheld, and every read fails after it, however the bytes are cut; the
// requests before it are handed over whole.
func TestFramingAmbiguous(t *testing.T) {
	type row struct{ reason, head string }
	testutil.Run(t, []row{
		{"Content-Length, then Transfer-Encoding", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"},
		{"Transfer-Encoding, then Content-Length", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"},
		{"in any case, with bare LF", "POST / HTTP/1.1\ntransfer-ENCODING: chunked\ncontent-length: 4\n\n"},
		{"Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"},
		{"any HTTP/1.x other than 1.0 honours it", "POST / HTTP/1.7\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n"},
	}, func(t *testing.T, tc row) {
		in := stream + tc.head + "4\r\nGET /smuggled HTTP/1.1\r\n\r\n"
		want := len(stream) + len(tc.head) - 1
		for i := range len(in) {
			var f framing
			n1 := f.scan([]byte(in[:i]))
			n2 := 0
			if f.err == nil {
				n2 = f.scan([]byte(in[i:]))
			}
			if f.err != errAmbiguous || n1+n2 != want {
				t.Fatalf("cut at %d: %d+%d bytes handed over, err %v; want %d and errAmbiguous", i, n1, n2, f.err, want)
			}
		}
	})
}

// TestFramingOff: a connection that does not begin with an HTTP/1 request
// line (TLS, HTTP/2's preface) is not followed: every byte is handed over
// as it is, whatever follows; HTTP/2's preface is told apart.
func TestFramingOff(t *testing.T) {
	type row struct {
		reason, in string
		h2         bool
	}
	testutil.Run(t, []row{
		{reason: "a TLS ClientHello", in: "\x16\x03\x01\x02\x00\x01"},
		{reason: "HTTP/2 with prior knowledge", in: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", h2: true},
	}, func(t *testing.T, tc row) {
		var f framing
		in := tc.in + "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
		if n := f.scan([]byte(in)); n != len(in) || f.err != nil || f.state != stOff || f.h2 != tc.h2 {
			t.Fatalf("%d of %d bytes, err %v, state %d, h2 %v", n, len(in), f.err, f.state, f.h2)
		}
	})
}

// TestAmbiguousRefused: through a Listener, net/http answers a request
// with both Content-Length and Transfer-Encoding 400 and closes the
// connection, after serving the pipelined request before it (its answer
// not cut short by the refusal: it is slow, and its request's context must
// not end); the request the ambiguous one's body would smuggle is never
// served. On a bare listener net/http reads the ambiguous request as
// chunked, keeps the connection and serves the smuggled request too (a
// proxy in front that went by the Content-Length took it for body).
func TestAmbiguousRefused(t *testing.T) {
	const pipeline = "GET /first HTTP/1.1\r\nHost: x\r\n\r\n" +
		"POST /ambiguous HTTP/1.1\r\nHost: x\r\nContent-Length: 35\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
	serve := func(guarded bool) (answers, served string) {
		inner, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var paths atomic.Value
		paths.Store("")
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			time.Sleep(50 * time.Millisecond)
			if r.Context().Err() != nil {
				w.WriteHeader(http.StatusInternalServerError)
			}
			paths.Store(paths.Load().(string) + r.URL.Path + " ")
		})}
		ln := inner
		if guarded {
			l := New(inner, 10)
			srv.ConnState, ln = l.ConnState, l
		}
		go srv.Serve(ln)
		defer srv.Close()
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, pipeline)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(c)
		var statuses []string
		for range 3 {
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				break
			}
			io.Copy(io.Discard, res.Body)
			statuses = append(statuses, fmt.Sprint(res.StatusCode, res.Close))
		}
		return strings.Join(statuses, ", "), paths.Load().(string)
	}
	if answers, served := serve(true); answers != "200 false, 400 true" || served != "/first " {
		t.Errorf("through a Listener: answers %q, served %q; want 200 false, 400 true and /first only", answers, served)
	}
	if answers, served := serve(false); answers != "200 false, 200 false, 200 false" || served != "/first /ambiguous /smuggled " {
		t.Errorf("net/http alone: answers %q, served %q; the premise of this test is that it serves all three", answers, served)
	}
}
