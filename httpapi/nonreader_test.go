package httpapi

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// bigAnswer is a difference document of about 2n bytes whose answer (its
// discrepancy: the expected and the claimed element) is about 2n bytes
// too.
func bigAnswer(n int) []byte {
	a, b := strings.Repeat("a", n), strings.Repeat("b", n)
	return []byte(`{"left":["` + a + `"],"right":[],"claim":{"left_only":["` + b + `"],"right_only":[]}}`)
}

// smallBuffers is a listener whose connections have small socket buffers,
// so that an answer its client does not read blocks its writer at once.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// TestNonReadersHoldNoSlot: clients that send a document and never read
// its (large) answer, as many as there are check slots, over HTTP/1 and
// over HTTP/2 with a one-byte window, hold no slot while their answers
// wait: another client's call is answered 200 at once. Their answers'
// bytes are held in the budget until their write deadline ends them.
// Before, the slot was held until the answer's write returned, so the
// other call waited half the write timeout and was answered 503.
func TestNonReadersHoldNoSlot(t *testing.T) {
	const slots = 4
	doc := bigAnswer(256 << 10)
	diff := schema.Tools()[1]
	if diff.ID != "multiset-difference-check" {
		t.Fatalf("tool 1 is %s", diff.ID)
	}
	type row struct {
		reason string
		h2     bool
	}
	testutil.Run(t, []row{
		{reason: "HTTP/1, answers never read"},
		{reason: "HTTP/2 with a window of one byte", h2: true},
	}, func(t *testing.T, tc row) {
		h := newHandler(Options{MaxConcurrent: slots, WriteTimeout: 4 * time.Second}, nil)
		srv := httptest.NewUnstartedServer(h)
		srv.Listener = smallBuffers{srv.Listener}
		srv.Config.ConnContext = intake.ConnContext
		tr := &http.Transport{}
		if tc.h2 {
			srv.Config.Protocols = new(http.Protocols)
			srv.Config.Protocols.SetHTTP1(true)
			srv.Config.Protocols.SetUnencryptedHTTP2(true)
			tr.Protocols = new(http.Protocols)
			tr.Protocols.SetUnencryptedHTTP2(true)
			tr.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerStream: 1}
		} else {
			tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				if tc, ok := c.(*net.TCPConn); ok {
					tc.SetReadBuffer(4 << 10)
				}
				return c, err
			}
		}
		srv.Start()
		defer srv.Close()
		defer tr.CloseIdleConnections()
		url := srv.URL + diff.ExecuteURL
		var held []*http.Response
		for range slots {
			res, err := (&http.Client{Transport: tr}).Post(url, "application/json", bytes.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, res) // its body is never read
		}
		defer func() {
			for _, res := range held {
				res.Body.Close()
			}
		}()
		waitFor(t, "the answers to be held", func() bool { return h.gate.Free() < h.gate.Config().MaxBufferedBytes })
		client := &http.Client{Timeout: 10 * time.Second}
		res, err := client.Post(srv.URL+schema.Tools()[0].ExecuteURL, "application/json", strings.NewReader(`{"source":[1],"claim":[1]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("a call beside %d unread answers: %d %s, want 200", slots, res.StatusCode, body)
		}
		for _, res := range held {
			res.Body.Close()
		}
		waitFor(t, "the answers' bytes to be given back", func() bool { return h.gate.Free() == h.gate.Config().MaxBufferedBytes })
	})
}
