package httpapi

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// countingServer serves h and counts the requests that reached it.
func countingServer(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var entered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &entered
}

// stall opens a connection and sends the headers of an execute request
// declaring length bytes and then prefix, and nothing more.
func stall(t *testing.T, srv *httptest.Server, length int, prefix string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	eq := schema.Tools()[0]
	_, err = io.WriteString(c, "POST "+eq.ExecuteURL+" HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"+
		"Content-Length: "+itoa(length)+"\r\n\r\n"+prefix)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// waitFor polls cond every millisecond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// readResponse reads one response from c.
func readResponse(t *testing.T, c net.Conn) (*http.Response, []byte) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, body
}

// TestStalledUploadsDoNotStarve: twelve uploads that sent their headers and
// part of their body and then stopped hold only their own connections. With
// one check slot, a normal request is still answered at once (before any
// stalled upload is, since their deadlines are a minute away). Before the
// body was read ahead of the slot, the stalled uploads took every slot and
// the normal request waited for their deadlines.
func TestStalledUploadsDoNotStarve(t *testing.T) {
	const stalled = 12
	h := newHandler(Options{MaxConcurrent: 1, BodyIdleTimeout: time.Minute, BodyTimeout: time.Minute}, nil)
	srv, entered := countingServer(t, h)
	var conns []net.Conn
	for range stalled {
		conns = append(conns, stall(t, srv, 100, `{"source":`))
	}
	waitFor(t, "the stalled uploads to reach the handler", func() bool { return entered.Load() == stalled })

	client := &http.Client{Timeout: 10 * time.Second} // a guard: the stalls last a minute
	eq := schema.Tools()[0]
	start := time.Now()
	res, err := client.Post(srv.URL+eq.ExecuteURL, "application/json", strings.NewReader(`{"source":[1],"claim":[1]}`))
	if err != nil {
		t.Fatalf("normal request with %d stalled uploads open: %v", stalled, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	t.Logf("answered in %v with %d stalled uploads open", time.Since(start), stalled)
	if res.StatusCode != 200 || !strings.Contains(string(body), `"valid":true`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now())
		if n, err := c.Read(make([]byte, 1)); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("stalled upload %d was answered (%d, %v) before the normal request", i, n, err)
		}
	}
}

// TestStalledUploadTimesOut: an upload that stops sending for
// BodyIdleTimeout is answered 408 request_timeout and its connection closed.
func TestStalledUploadTimesOut(t *testing.T) {
	h := newHandler(Options{BodyIdleTimeout: 50 * time.Millisecond}, nil)
	srv, _ := countingServer(t, h)
	c := stall(t, srv, 100, `{"source":`)
	res, body := readResponse(t, c)
	checkHeaders(t, "POST", res.Header, body)
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"code":"request_timeout"`) || !res.Close {
		t.Fatalf("%d close=%v %s, want 408 request_timeout and the connection closed", res.StatusCode, res.Close, body)
	}
	waitFor(t, "the budget to be released", func() bool { return h.gate.Free() == h.gate.Config().MaxBufferedBytes })
}

// TestTrickleTimesOut: a body that keeps arriving, but too slowly to be in
// within BodyTimeout, is answered 408 as well.
func TestTrickleTimesOut(t *testing.T) {
	h := newHandler(Options{BodyTimeout: 200 * time.Millisecond, BodyIdleTimeout: time.Minute}, nil)
	srv, _ := countingServer(t, h)
	c := stall(t, srv, 1000, `{"source":[`)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := io.WriteString(c, "1,"); err != nil {
					return
				}
			}
		}
	}()
	res, body := readResponse(t, c)
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"code":"request_timeout"`) {
		t.Fatalf("%d %s, want 408 request_timeout", res.StatusCode, body)
	}
}

// TestSlowCheckAfterBody: the read deadlines end with the body; a check
// that outlasts BodyIdleTimeout is still answered, with the deadlines set
// through http.ResponseController (httptest's server) and on the
// connection (NewServer's ConnContext), and after a wait for a slot.
func TestSlowCheckAfterBody(t *testing.T) {
	type row struct {
		reason  string
		conn    bool // NewServer's ConnContext
		waitFor bool // a second request waits for the one slot
	}
	testutil.Run(t, []row{
		{reason: "deadlines through ResponseController"},
		{reason: "deadlines on the connection", conn: true},
		{reason: "through ResponseController, after a wait for a slot", waitFor: true},
		{reason: "on the connection, after a wait for a slot", conn: true, waitFor: true},
	}, func(t *testing.T, tc row) {
		h := newHandler(Options{BodyIdleTimeout: 20 * time.Millisecond, MaxConcurrent: 1}, func(tool *schema.Tool, in []byte) (schema.Output, error) {
			time.Sleep(100 * time.Millisecond)
			return tool.Execute(in)
		})
		srv := httptest.NewUnstartedServer(h)
		if tc.conn {
			srv.Config.ConnContext = NewServer("", nil).ConnContext
		}
		srv.Start()
		t.Cleanup(srv.Close)
		eq := schema.Tools()[0]
		n := 1
		if tc.waitFor {
			n = 2
		}
		errs := make(chan error, n)
		for range n {
			go func() {
				res, err := srv.Client().Post(srv.URL+eq.ExecuteURL, "application/json", strings.NewReader(`{"source":[1],"claim":[1]}`))
				if err != nil {
					errs <- err
					return
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					err = errors.New(res.Status + " " + string(body))
				}
				errs <- err
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// A deadlineConn counts the calls of its SetDeadline.
type deadlineConn struct {
	net.Conn
	both *atomic.Int32
}

func (c deadlineConn) SetDeadline(d time.Time) error {
	c.both.Add(1)
	return c.Conn.SetDeadline(d)
}

type deadlineListener struct {
	net.Listener
	both atomic.Int32
}

func (l *deadlineListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return deadlineConn{c, &l.both}, nil
}

// TestDeadlinesOnTheConnection: with NewServer's ConnContext, the end of a
// body sets its read and write deadlines with one call on the connection
// instead of one each (SetDeadline, which net/http never calls), and every
// request is answered as without it.
func TestDeadlinesOnTheConnection(t *testing.T) {
	const n = 20
	count := func(connContext bool) int32 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dl := &deadlineListener{Listener: ln}
		srv := NewServer("", New(Options{}))
		if !connContext {
			srv.ConnContext = nil
		}
		go srv.Serve(dl)
		defer srv.Close()
		eq := schema.Tools()[0]
		c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
		defer c.CloseIdleConnections()
		for range n {
			res, err := c.Post("http://"+ln.Addr().String()+eq.ExecuteURL, "application/json", strings.NewReader(`{"source":[1,2],"claim":[2,1]}`))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(body), `"valid":true`) {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
		}
		c.CloseIdleConnections()
		return dl.both.Load()
	}
	// How often net/http itself sets the read deadline depends on timing
	// (its watch for a closed connection), so only SetDeadline is counted.
	if without, with := count(false), count(true); without != 0 || with != n {
		t.Errorf("SetDeadline per %d requests: %d without ConnContext, %d with it; want 0 and %d", n, without, with, n)
	}
}

// TestBufferedBytesBudget: body bytes in memory beyond intake.ReadAhead
// per request are capped by MaxBufferedBytes, and a body is held until its
// check is done. While one request being checked holds most of the budget,
// a body that does not fit what is left is answered 503 overloaded at
// once, and a small one, within ReadAhead, is still checked; once the
// first is done, the larger body is served too, and every byte is given
// back.
func TestBufferedBytesBudget(t *testing.T) {
	const maxBody = 64 << 10
	release := make(chan struct{})
	h := newHandler(Options{MaxBodyBytes: maxBody, MaxBufferedBytes: 1, BodyTimeout: 5 * time.Second},
		func(tool *schema.Tool, in []byte) (schema.Output, error) {
			if len(in) == 32<<10 {
				<-release
			}
			return tool.Execute(in)
		})
	total := h.gate.Config().MaxBufferedBytes
	if total != maxBody+1 {
		t.Fatalf("budget %d, want MaxBodyBytes+1 = %d", total, maxBody+1)
	}
	srv, _ := countingServer(t, h)
	eq := schema.Tools()[0]
	post := func(doc string) (*http.Response, []byte) {
		res, err := srv.Client().Post(srv.URL+eq.ExecuteURL, "application/json", strings.NewReader(doc))
		if err != nil {
			t.Error(err)
			return nil, nil
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, body
	}
	small := `{"source":[1],"claim":[1]}`
	pad := func(n int) string { return small + strings.Repeat(" ", n-len(small)) }
	held := make(chan int, 1)
	go func() {
		res, _ := post(pad(32 << 10))
		if res != nil {
			held <- res.StatusCode
		}
		close(held)
	}()
	// 32 KiB, less what the connection holds itself.
	heldBytes := int64(32<<10 - intake.ReadAhead)
	waitFor(t, "the first request to hold its bytes", func() bool { return h.gate.Free() == total-heldBytes })

	res, body := post(pad(48 << 10))
	checkHeaders(t, "POST", res.Header, body)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"code":"overloaded"`) {
		t.Fatalf("%d Retry-After %q %s, want 503 overloaded with Retry-After", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, body := post(small); res.StatusCode != 200 {
		t.Fatalf("a small request beside the held budget: %d %s, want 200", res.StatusCode, body)
	}
	close(release)
	if code := <-held; code != 200 {
		t.Fatalf("the request holding the budget: %d", code)
	}
	waitFor(t, "the budget to be released", func() bool { return h.gate.Free() == total })
	if res, body := post(pad(48 << 10)); res.StatusCode != 200 {
		t.Fatalf("after the release: %d %s", res.StatusCode, body)
	}
	if free := h.gate.Free(); free != total {
		t.Fatalf("budget %d free after the requests, want %d", free, total)
	}
}
