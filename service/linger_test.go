package service_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// lingerBody is the size of the bodies TestEarlyAnswerReachesWriter
// sends: more than the kernel's socket buffers of a loopback connection
// hold (a few MiB each side), so that a server that closes without
// reading them resets the connection while the client still writes.
var lingerBody = testutil.Size(8<<20, 16<<20)

// TestEarlyAnswerReachesWriter: a client that writes its whole request,
// body and all, before it reads (as Python's http.client and Node's fetch
// do) gets the answer to a request refused before its body was read, on
// every kind of early refusal of /v1 and /mcp: the server drains the body
// after the answer instead of closing on it. Before, the server closed the
// connection with megabytes unread, the kernel reset it, and the client's
// write failed (or its read found the answer discarded).
func TestEarlyAnswerReachesWriter(t *testing.T) {
	const docCap = 64 << 10
	srv := httptest.NewServer(service.New(service.Options{
		API: httpapi.Options{MaxBodyBytes: docCap},
		MCP: mcpserver.Options{MaxDocumentBytes: docCap},
	}))
	defer srv.Close()
	execute := schema.Tools()[0].ExecuteURL
	type row struct {
		reason, method, path string
		hdr                  []string // beside Host, and Content-Type application/json unless one is given
		chunked              bool     // else Content-Length
		status               int
		want                 string // in the answer's body
	}
	cl := `"limit":"max_document_bytes"`
	testutil.Run(t, []row{
		{reason: "/v1: declared over the cap", method: "POST", path: execute, status: 413, want: cl},
		{reason: "/mcp: declared over the cap", method: "POST", path: service.RouteMCP, status: 413, want: cl},
		{reason: "/v1: chunked, over the cap once read", method: "POST", path: execute, chunked: true, status: 413, want: cl},
		{reason: "/mcp: chunked, over the cap once read", method: "POST", path: service.RouteMCP, chunked: true, status: 413, want: cl},
		{reason: "/v1: a Content-Type not read", method: "POST", path: execute, hdr: []string{"Content-Type: text/plain"}, status: 415, want: `"unsupported_media_type"`},
		{reason: "/mcp: a Content-Type not read", method: "POST", path: service.RouteMCP, hdr: []string{"Content-Type: text/plain"}, status: 415, want: `"unsupported_media_type"`},
		{reason: "/v1: a Content-Encoding not read", method: "POST", path: execute, hdr: []string{"Content-Encoding: br"}, status: 415, want: `"unsupported_media_type"`},
		{reason: "/v1: a method not served", method: "PUT", path: execute, status: 405, want: `"method_not_allowed"`},
		{reason: "/mcp: a method not served", method: "PUT", path: service.RouteMCP, status: 405, want: `"method_not_allowed"`},
		{reason: "a probe: a method not served", method: "POST", path: service.RouteHealthz, status: 405, want: `"method_not_allowed"`},
		{reason: "/mcp: a foreign Origin", method: "POST", path: service.RouteMCP, hdr: []string{"Origin: https://attacker.example"}, status: 403, want: `"forbidden"`},
		{reason: "/v1: a foreign Host", method: "POST", path: execute, hdr: []string{"Host: rebound.attacker.example"}, status: 403, want: `"forbidden"`},
	}, func(t *testing.T, tc row) {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Minute)) // a hang fails, not blocks
		var head bytes.Buffer
		fmt.Fprintf(&head, "%s %s HTTP/1.1\r\n", tc.method, tc.path)
		hdr := map[string]string{"Host": "127.0.0.1", "Content-Type": "application/json"}
		for _, h := range tc.hdr {
			k, v, _ := strings.Cut(h, ": ")
			hdr[k] = v
		}
		for _, k := range []string{"Host", "Content-Type", "Content-Encoding", "Origin"} {
			if v, ok := hdr[k]; ok {
				fmt.Fprintf(&head, "%s: %s\r\n", k, v)
			}
		}
		body := bytes.Repeat([]byte(" "), lingerBody)
		copy(body, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if tc.chunked {
			head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
			for i := 0; i < len(body); i += 1 << 20 {
				fmt.Fprintf(&head, "%x\r\n%s\r\n", 1<<20, body[i:i+1<<20])
			}
			head.WriteString("0\r\n\r\n")
		} else {
			fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n%s", len(body), body)
		}
		if _, err := c.Write(head.Bytes()); err != nil {
			t.Fatalf("writing the request: %v (the server closed on the unread body)", err)
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != tc.status || !strings.Contains(string(b), tc.want) || !res.Close {
			t.Fatalf("%d %.300s (%v), close %v; want %d with %s, and the connection closed", res.StatusCode, b, err, res.Close, tc.status, tc.want)
		}
	})
}
