package intake

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestLingerBounded: the drain after an early answer cannot hold a
// connection past its bounds. A client that trickles its body is cut at
// LingerTime, or at the server's ReadTimeout when that is shorter; one
// that sends without end is cut at LingerBytes. In each case the answer
// comes first, while the client is still sending (it is flushed before
// the drain). The bounds are short or long by orders of magnitude, and
// the test's own deadline (a minute) only catches a drain without bound.
func TestLingerBounded(t *testing.T) {
	type row struct {
		reason      string
		lingerTime  time.Duration
		lingerBytes int64
		readTimeout time.Duration
		trickle     bool // a byte every 10 ms, else as fast as the connection goes
	}
	testutil.Run(t, []row{
		{reason: "a trickling body is cut at LingerTime", lingerTime: 200 * time.Millisecond, lingerBytes: 1 << 30, trickle: true},
		{reason: "and at the server's ReadTimeout, when shorter", lingerTime: time.Hour, lingerBytes: 1 << 30, readTimeout: 200 * time.Millisecond, trickle: true},
		{reason: "a body without end is cut at LingerBytes", lingerTime: time.Hour, lingerBytes: 1 << 20},
	}, func(t *testing.T, tc row) {
		g := New(Config{MaxBodyBytes: 1 << 10, LingerTime: tc.lingerTime, LingerBytes: tc.lingerBytes})
		drained := make(chan int64, 1)
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _, f := g.ReadBody(w, r)
			if f == nil {
				t.Error("a body over the cap was admitted")
				return
			}
			httpjson.WriteError(w, f.Err)
			body := &countReader{r: r.Body}
			r.Body = body
			g.Linger(w, r)
			drained <- body.n
		}))
		srv.Config.ReadTimeout = tc.readTimeout
		srv.Start()
		defer srv.Close()
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Minute))
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n", int64(1)<<40)
		wrote := make(chan error, 1)
		go func() {
			chunk := []byte(strings.Repeat(" ", 64<<10))
			if tc.trickle {
				chunk = chunk[:1]
			}
			for {
				if _, err := c.Write(chunk); err != nil {
					wrote <- err
					return
				}
				if tc.trickle {
					time.Sleep(10 * time.Millisecond)
				}
			}
		}()
		br := bufio.NewReader(c)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("reading the answer while sending: %v", err)
		}
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "max_document_bytes") {
			t.Fatalf("%d %s, want 413", res.StatusCode, b)
		}
		// Then the connection ends: the read finds its end, or a reset.
		if _, err := br.ReadByte(); errors.Is(err, os.ErrDeadlineExceeded) || err == nil {
			t.Fatalf("after the answer: %v; want the connection closed by the server", err)
		}
		if n := <-drained; !tc.trickle && n != tc.lingerBytes {
			t.Errorf("drained %d bytes, want LingerBytes %d", n, tc.lingerBytes)
		}
		c.Close()
		<-wrote
	})
}

type countReader struct {
	r io.ReadCloser
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) Close() error { return c.r.Close() }

// TestLingerSkips: Linger leaves alone an answer it has nothing to drain
// for: one not marked (the body was read whole), one drained already, and
// one refused unread whose client waits for 100 Continue (its body is not
// coming); and it does nothing on HTTP/2, or under a Gate that shares
// another's (the composition drains).
func TestLingerSkips(t *testing.T) {
	type row struct {
		reason string
		proto  int
		mark   func(h http.Header, r *http.Request)
		expect bool
		share  bool
	}
	unread := func(h http.Header, r *http.Request) { httpjson.Unread(h, r, false) }
	testutil.Run(t, []row{
		{reason: "not marked", proto: 1, mark: func(http.Header, *http.Request) {}},
		{reason: "drained already", proto: 1, mark: func(h http.Header, r *http.Request) { unread(h, r); httpjson.Lingered(h) }},
		{reason: "unread, and 100 Continue awaited", proto: 1, mark: unread, expect: true},
		{reason: "HTTP/2", proto: 2, mark: unread},
		{reason: "a Gate that shares another's", proto: 1, mark: unread, share: true},
	}, func(t *testing.T, tc row) {
		g := New(Config{})
		if tc.share {
			g.ShareWith(New(Config{}))
		}
		r, _ := http.NewRequest("POST", "/", &failReader{t: t})
		r.ProtoMajor, r.ContentLength = tc.proto, 100
		if tc.expect {
			r.Header.Set("Expect", "100-continue")
		}
		w := httptest.NewRecorder()
		tc.mark(w.Header(), r)
		g.Linger(w, r)
		if w.Flushed {
			t.Error("the answer was flushed")
		}
	})
}

type failReader struct{ t *testing.T }

func (f *failReader) Read([]byte) (int, error) {
	f.t.Error("the body was read")
	return 0, io.EOF
}
