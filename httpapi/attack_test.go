package httpapi

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

	"github.com/claimcheck/claimcheck/schema"
)

// An upload is a raw execute request sent in two parts: head (headers and
// the first part of the body) at once, rest when told. Its response is read
// concurrently with the writing, as a browser or net/http's client does.
type upload struct {
	conn net.Conn
	go_  chan struct{}
	res  chan int // the status, or -1 when the connection ended unanswered
}

func startUpload(t *testing.T, addr, head, rest string) *upload {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	u := &upload{conn: c, go_: make(chan struct{}), res: make(chan int, 1)}
	go func() {
		c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a guard against a hang
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			u.res <- -1
			return
		}
		io.Copy(io.Discard, res.Body)
		u.res <- res.StatusCode
	}()
	go func() {
		if _, err := io.WriteString(c, head); err != nil {
			return // answered and closed early
		}
		<-u.go_
		io.WriteString(c, rest)
	}()
	return u
}

// TestBudgetCannotDeadlock runs, scaled down 64 times, the three ways the
// old budget deadlocked (each request reserved buffer in doubling steps and
// held what it had while waiting for the next): 20 uploads of 60/64 of the
// cap with a Content-Length, 12 chunked uploads of 70/64 of the cap, and 8
// that send half the cap and a byte and then stall. While every upload is
// stalled, a small request is answered 200 (before any upload can
// complete); then the uploads send the rest and each is answered: 200 for
// those admitted, 413 for the ones over the cap, 503 for those the budget
// refused at once. Before the fix the small request waited behind the
// uploads' partial reservations until the body timeout (a minute here), and
// so did the uploads.
func TestBudgetCannotDeadlock(t *testing.T) {
	const capBytes = 1 << 20 // 64 MiB / 64
	doc := `{"source":[1],"claim":[1]}`
	eq := schema.Tools()[0]
	headers := "POST " + eq.ExecuteURL + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
	withLength := func(n, sent int) (string, string) {
		body := doc + strings.Repeat(" ", n-len(doc))
		return headers + fmt.Sprintf("Content-Length: %d\r\n\r\n", n) + body[:sent], body[sent:]
	}
	chunked := func(n, sent int) (string, string) {
		body := doc + strings.Repeat(" ", n-len(doc))
		chunk := func(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }
		return headers + "Transfer-Encoding: chunked\r\n\r\n" + chunk(body[:sent]), chunk(body[sent:]) + "0\r\n\r\n"
	}
	for _, tc := range []struct {
		name    string
		n       int
		request func() (string, string)
		want    []int // the statuses an upload may get
		reason  string
	}{
		{"20 uploads of 60/64 of the cap with a length", 20, func() (string, string) { return withLength(capBytes*60/64, capBytes/4) },
			[]int{200, 503}, "each is admitted whole at once or refused at once"},
		{"12 chunked uploads of 70/64 of the cap", 12, func() (string, string) { return chunked(capBytes*70/64, capBytes/2) },
			[]int{413, 503}, "over the cap once the rest arrives, unless refused growing"},
		{"8 uploads of half the cap and a byte, then a stall", 8, func() (string, string) { return withLength(capBytes, capBytes/2+1) },
			[]int{200, 503}, "the old doubling step to the whole cap is never waited for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandler(Options{MaxBodyBytes: capBytes, MaxConcurrent: 4, BodyTimeout: time.Minute, BodyIdleTimeout: time.Minute}, nil)
			srv, entered := countingServer(t, h)
			addr := srv.Listener.Addr().String()
			var ups []*upload
			for range tc.n {
				head, rest := tc.request()
				ups = append(ups, startUpload(t, addr, head, rest))
			}
			waitFor(t, "the uploads to reach the handler", func() bool { return entered.Load() == int32(tc.n) })
			// Let the budget settle: the uploads have read what they were
			// sent (or been refused) once it stops changing.
			for last, same := int64(-1), 0; same < 200; time.Sleep(time.Millisecond) {
				if f := h.gate.Free(); f == last {
					same++
				} else {
					last, same = f, 0
				}
			}
			client := &http.Client{Timeout: 10 * time.Second} // a guard: the uploads' deadlines are a minute away
			res, err := client.Post(srv.URL+eq.ExecuteURL, "application/json", strings.NewReader(doc))
			if err != nil {
				t.Fatalf("small request with %d uploads stalled: %v (free %d of %d)", tc.n, err, h.gate.Free(), h.gate.Config().MaxBufferedBytes)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("small request: %d %s, want 200", res.StatusCode, body)
			}
			// The small request is answered; the uploads are still stalled
			// (none can have completed), so ordering holds. Now each must
			// get its answer.
			for _, u := range ups {
				close(u.go_)
			}
			counts := map[int]int{}
			for i, u := range ups {
				code := <-u.res
				counts[code]++
				ok := false
				for _, w := range tc.want {
					ok = ok || code == w
				}
				if !ok {
					t.Errorf("upload %d: status %d, want one of %v (%s)", i, code, tc.want, tc.reason)
				}
			}
			t.Logf("statuses %v", counts)
			waitFor(t, "the budget to be given back", func() bool { return h.gate.Free() == h.gate.Config().MaxBufferedBytes })
		})
	}
}

// TestEarlyAnswersDelivered: a 408 is delivered even when the server's own
// write timeout is no longer than the body timeout (the defaults were both
// 60 s, and the write deadline, which starts first, passed before the 408
// was written: 30 of 32 clients got nothing). The handler sets the write
// deadline itself.
func TestEarlyAnswersDelivered(t *testing.T) {
	const d = 300 * time.Millisecond
	h := newHandler(Options{BodyTimeout: d, BodyIdleTimeout: time.Minute}, nil)
	srv := httptest.NewUnstartedServer(h)
	srv.Config.WriteTimeout = d
	srv.Start()
	t.Cleanup(srv.Close)
	c := stall(t, srv, 100, `{"source":`)
	res, body := readResponse(t, c)
	if res.StatusCode != http.StatusRequestTimeout || !res.Close {
		t.Fatalf("%d close=%v %s, want 408 and the connection closed", res.StatusCode, res.Close, body)
	}
}

// TestNoDrainAfterEarlyAnswer: after a 408 the server closes the
// connection at once, though the client goes on sending its body a byte at
// a time. Before, net/http drained up to 256 KiB of leftover body after the
// handler with the read deadline lifted, so a dripping client held the
// connection open past every timeout.
func TestNoDrainAfterEarlyAnswer(t *testing.T) {
	h := newHandler(Options{BodyIdleTimeout: 50 * time.Millisecond}, nil)
	srv, _ := countingServer(t, h)
	c := stall(t, srv, 200<<10, `{"source":`)
	br := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // drip the rest of the body
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a guard: the old drain took 256 KiB
	if n, err := br.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("after the 408 the connection stayed open while the client dripped (read %d, %v)", n, err)
	}
}

// TestWhatAnAttackerNeeds measures, scaled down 64 times in the cap and
// 32 times in the budget, the first three rows of docs/serving.md's table
// "What an attacker needs to refuse service": uploads that stall hold at
// most twice what they sent; with the budget's large part held, a body
// over 64 KiB is refused 503 while bodies of at most 64 KiB are still
// admitted from the reserve; with the reserve held too, bodies of up to
// 4 KiB are still admitted, since they take nothing from the budget.
func TestWhatAnAttackerNeeds(t *testing.T) {
	const budget, maxBody = 16 << 20, 1 << 20 // reserve: budget/16 = 1 MiB
	h := New(Options{MaxBodyBytes: maxBody, MaxBufferedBytes: budget, BodyIdleTimeout: time.Minute,
		BodyTimeout: time.Minute, Logger: discardLogger()})
	gate := h.(*handler).gate
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	url := srv.URL + schema.Tools()[0].ExecuteURL
	head := func(declared, sent int) string {
		return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			schema.Tools()[0].ExecuteURL, declared, "["+strings.Repeat(" ", sent-1))
	}
	post := func(n int) int {
		t.Helper()
		doc := `{"source":[1],"claim":[1]}`
		body := doc + strings.Repeat(" ", max(0, n-len(doc)))
		res, err := (&http.Client{Timeout: 20 * time.Second}).Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	settle := func(want int64) int64 {
		for end := time.Now().Add(2 * time.Second); gate.Free() > want && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
		return gate.Free()
	}
	// The large part: uploads declaring the cap, each stalled after half
	// of it and a byte.
	var sent int64
	n := 0
	for ; gate.Free() > 1<<20+maxBody; n++ {
		startUpload(t, addr, head(maxBody, maxBody/2+1), "")
		sent += maxBody/2 + 1
		settle(budget - int64(n+1)*(maxBody-4<<10))
	}
	held := budget - gate.Free()
	t.Logf("%d uploads, %d bytes sent, hold %d of %d bytes (%.2f × sent); %d free", n, sent, held, int64(budget), float64(held)/float64(sent), gate.Free())
	if held > 2*sent {
		t.Errorf("uploads hold %d bytes for %d sent: more than twice", held, sent)
	}
	if st := post(100 << 10); st != http.StatusServiceUnavailable {
		t.Errorf("a 100 KiB body beside the held budget: %d, want 503", st)
	}
	if st := post(32 << 10); st != 200 {
		t.Errorf("a 32 KiB body beside the held budget: %d, want 200 (the reserve)", st)
	}
	// The reserve: uploads of 60 KiB, each stalled after half and a byte.
	for i := 0; gate.Free() >= 60<<10 && i < 64; i++ {
		before := gate.Free()
		startUpload(t, addr, head(60<<10, 30<<10+1), "")
		sent += 30<<10 + 1
		settle(before - 1)
	}
	t.Logf("and the reserve: %d bytes sent in all, %d free", sent, gate.Free())
	if st := post(60 << 10); st != http.StatusServiceUnavailable {
		t.Errorf("a 60 KiB body beside the held reserve: %d, want 503", st)
	}
	if st := post(2 << 10); st != 200 {
		t.Errorf("a 2 KiB body beside the held budget and reserve: %d, want 200 (it takes nothing)", st)
	}
}
