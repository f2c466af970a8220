package httpapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

const batchPath = "/v1/tools/multiset-equality-check/versions/1.0.0/batch"

func postBatch(t *testing.T, url, ct string, body io.Reader, encoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+batchPath, body)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, b
}

// TestBatchRoute: limits, media types and trailers of the batch route.
func TestBatchRoute(t *testing.T) {
	srv := httptest.NewServer(New(Options{MaxBodyBytes: 40, MaxBufferedBytes: 64 << 20, MaxBatchLines: 3, Logger: discardLogger()}))
	defer srv.Close()
	ok := `{"source":[1],"claim":[1]}` + "\n"
	long := `{"source":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"claim":[1]}` + "\n"
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(ok + ok))
	zw.Close()
	type row struct {
		reason      string
		ct, body    string
		encoding    string
		status      int
		lines, cut  string
		answerLines int
	}
	testutil.Run(t, []row{
		{reason: "an over-long line gets limit_exceeded and the stream goes on", ct: "application/jsonl", body: ok + long + ok,
			status: 200, lines: "3", answerLines: 3},
		{reason: "more lines than the cap: cut after it, the trailer says why", ct: "application/jsonl", body: ok + ok + ok + ok + ok,
			status: 200, lines: "3", cut: "max_batch_lines", answerLines: 3},
		{reason: "exactly the cap is not cut", ct: "application/x-ndjson; charset=utf-8", body: ok + ok + ok, status: 200, lines: "3", answerLines: 3},
		{reason: "no Content-Type is JSON Lines", body: ok, status: 200, lines: "1", answerLines: 1},
		{reason: "gzip, as the other routes", ct: "application/jsonl", body: zipped.String(), encoding: "gzip", status: 200, lines: "2", answerLines: 2},
		{reason: "an empty body has no lines", ct: "application/jsonl", body: "", status: 200, lines: "0"},
		{reason: "application/json is not JSON Lines", ct: "application/json", body: ok, status: 415},
		{reason: "a broken gzip body before any line is a 400", ct: "application/jsonl", body: "not gzip", encoding: "gzip", status: 400},
		{reason: "a coding but gzip and identity is refused, as on the other routes", ct: "application/jsonl", body: ok, encoding: "br", status: 415},
	}, func(t *testing.T, tc row) {
		resp, b := postBatch(t, srv.URL, tc.ct, strings.NewReader(tc.body), tc.encoding)
		if resp.StatusCode != tc.status {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		if tc.status != 200 {
			if !bytes.HasPrefix(b, []byte(`{"error":`)) {
				t.Fatalf("not an error document: %s", b)
			}
			return
		}
		if n := bytes.Count(b, []byte("\n")); n != tc.answerLines {
			t.Fatalf("%d answer lines, want %d: %s", n, tc.answerLines, b)
		}
		if got := resp.Trailer.Get(TrailerLines); got != tc.lines {
			t.Errorf("Claimcheck-Lines %q, want %q", got, tc.lines)
		}
		if got := resp.Trailer.Get(TrailerCut); got != tc.cut {
			t.Errorf("Claimcheck-Cut %q, want %q", got, tc.cut)
		}
		if strings.Contains(tc.body, long) && !bytes.Contains(b, []byte(`"limit":"max_document_bytes"`)) {
			t.Errorf("no limit_exceeded line: %s", b)
		}
	})
}

// TestBatchRouteSlots: batch requests check at most as many chunks at
// once as there are slots (here 1), however many lines they send and
// however many of them run at once.
func TestBatchRouteSlots(t *testing.T) {
	var running, most atomic.Int32
	h := newHandler(Options{MaxConcurrent: 1, Logger: discardLogger()}, func(tool *schema.Tool, in []byte) (schema.Output, error) {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		defer running.Add(-1)
		return tool.Execute(in)
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := strings.Repeat(`{"source":[1,2],"claim":[2,1]}`+"\n", 20000)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			resp, b := postBatch(t, srv.URL, "application/jsonl", strings.NewReader(body), "")
			if resp.StatusCode != 200 || resp.Trailer.Get(TrailerValid) != "20000" {
				t.Errorf("%d %v %.200s", resp.StatusCode, resp.Trailer, b)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m != 1 {
		t.Errorf("%d lines checked at once with one slot", m)
	}
}

// TestBatchRouteNonReader: a client that sends lines and never reads the
// answers stops the server reading (backpressure), and the write timeout
// ends the request, giving back its slot: a single execute request is
// answered afterwards with the only slot.
func TestBatchRouteNonReader(t *testing.T) {
	done := make(chan Observation, 4)
	h := New(Options{MaxConcurrent: 1, WriteTimeout: 300 * time.Millisecond, BodyIdleTimeout: time.Minute, Logger: discardLogger(),
		Observe: func(_ *http.Request, o Observation) { done <- o }})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST "+batchPath+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked\r\n\r\n")
	line := strings.Repeat(`{"source":[1,2,3,4,5,6,7,8],"claim":[8,7,6,5,4,3,2,1]}`+"\n", 1000)
	sent := 0
	for {
		// Stop once the server stops reading: writes block.
		c.SetWriteDeadline(time.Now().Add(2 * time.Second))
		if _, err := io.WriteString(c, hexLen(len(line))+"\r\n"+line+"\r\n"); err != nil {
			break
		}
		sent += len(line)
		if sent > 1<<30 {
			t.Fatal("the server read 1 GiB from a client that does not read")
		}
	}
	select {
	case o := <-done:
		if o.Route != RouteBatch {
			t.Fatalf("observed %+v", o)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the batch request did not end after its write timeout")
	}
	t.Logf("sent %d bytes before the server stopped reading", sent)
	resp, err := http.Post(srv.URL+"/v1/tools/multiset-equality-check/versions/1.0.0/execute", "application/json", strings.NewReader(`{"source":[],"claim":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("execute after the non-reader: %d", resp.StatusCode)
	}
}

func hexLen(n int) string {
	const digits = "0123456789abcdef"
	s := ""
	for ; n > 0; n /= 16 {
		s = string(digits[n%16]) + s
	}
	return s
}

// TestBatchRouteBudget: a batch stream holds budget in proportion to
// what it has received and not yet answered, as it arrives: streams that
// have sent next to nothing hold nothing (before, each held a window of
// 3.1 MiB for its life, so a few idle streams left every other one 503),
// an unfinished line, plain or decompressed, is charged as its bytes
// arrive (before, not until its end), one that outgrows the budget is
// refused 503, and everything comes back once the streams end.
func TestBatchRouteBudget(t *testing.T) {
	const budget = 8 << 20
	h := New(Options{MaxBodyBytes: 6 << 20, MaxBufferedBytes: budget, BodyIdleTimeout: 5 * time.Second, Logger: discardLogger()})
	gate := h.(*handler).gate
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close) // after the connections are closed (cleanups run last first)
	open := func(encoding string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(20 * time.Second))
		head := "POST " + batchPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked\r\n"
		if encoding != "" {
			head += "Content-Encoding: " + encoding + "\r\n"
		}
		io.WriteString(c, head+"\r\n")
		return c
	}
	chunk := func(c net.Conn, b []byte) {
		t.Helper()
		if _, err := io.WriteString(c, hexLen(len(b))+"\r\n"+string(b)+"\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	waitFree := func(what string, ok func(free int64) bool) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); !ok(gate.Free()); {
			if time.Now().After(end) {
				t.Fatalf("%s: %d of %d bytes free", what, gate.Free(), int64(budget))
			}
			time.Sleep(time.Millisecond)
		}
	}
	// 40 streams that have sent a byte each, half of them gzip.
	for i := range 40 {
		if i%2 == 0 {
			chunk(open(""), []byte("{"))
		} else {
			chunk(open("gzip"), []byte{0x1f})
		}
	}
	time.Sleep(200 * time.Millisecond)
	if free := gate.Free(); free < budget-64<<10*20-64<<10 {
		t.Errorf("40 streams of a byte each hold %d of %d bytes", budget-free, int64(budget))
	}
	// Beside them, a stream is answered.
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Post(srv.URL+batchPath, "application/jsonl", strings.NewReader(`{"source":[],"claim":[]}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"valid":true`)) {
		t.Fatalf("a stream beside 40 idle ones: %d %s", resp.StatusCode, b)
	}
	// An unfinished plain line of 3 MiB is charged as it arrives.
	before := gate.Free()
	plain := open("")
	chunk(plain, bytes.Repeat([]byte(" "), 3<<20))
	waitFree("an unfinished line of 3 MiB", func(free int64) bool { return before-free >= 3<<20 })
	// An unfinished gzip line that decompresses past the budget: 503.
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(bytes.Repeat([]byte(" "), 5<<20))
	zw.Flush()
	bomb := open("gzip")
	chunk(bomb, zb.Bytes())
	bomb.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(bomb), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 503 || !bytes.Contains(body, []byte(`"overloaded"`)) {
		t.Errorf("an unfinished line of %d compressed bytes past the budget: %d %s", zb.Len(), res.StatusCode, body)
	}
	plain.Close()
	srv.CloseClientConnections()
	waitFree("once every stream ended", func(free int64) bool { return free == budget })
}
