package service_test

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/h2raw"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// TestHTTP2RefusalEndsOneStream: over HTTP/2 (cleartext and TLS) a stream
// refused 415, one refused 413 unread, and one the client resets in the
// middle of its upload end only themselves: the connection's other
// streams, one beside them and one sent after their answers, are answered,
// and the server never sends GOAWAY. Before, each refusal set
// Connection: close, which net/http's HTTP/2 server turns into GOAWAY, and
// the stream sent after it was never answered.
func TestHTTP2RefusalEndsOneStream(t *testing.T) {
	execute := schema.Tools()[0].ExecuteURL
	for _, tlsOn := range []bool{false, true} {
		t.Run(map[bool]string{false: "h2c", true: "TLS"}[tlsOn], func(t *testing.T) {
			srv := httptest.NewUnstartedServer(service.New(service.Options{API: httpapi.Options{MaxBodyBytes: 1 << 20}}))
			var cfg *tls.Config
			if tlsOn {
				srv.EnableHTTP2 = true
				srv.StartTLS()
				cfg = &tls.Config{RootCAs: srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs}
			} else {
				srv.Config.Protocols = new(http.Protocols)
				srv.Config.Protocols.SetHTTP1(true)
				srv.Config.Protocols.SetUnencryptedHTTP2(true)
				srv.Start()
			}
			defer srv.Close()
			c := h2raw.Dial(t, srv.Listener.Addr().String(), cfg)
			c.Headers(1, false, "POST", execute, "content-type", "text/plain", "content-length", "100")
			c.Headers(3, false, "POST", execute, "content-type", "application/json", "content-length", strconv.Itoa(2<<20))
			c.Headers(5, false, "POST", execute, "content-type", "application/json", "content-length", "1000")
			c.Data(5, false, []byte(`{"source":[`))
			c.Headers(7, true, "GET", service.RouteHealthz)
			want := map[uint32]int{1: 415, 3: 413, 7: 200}
			got := map[uint32]int{}
			reset := false
			for len(got) < len(want) || !reset {
				if len(got) == len(want) && !reset {
					c.Reset(5, http2.ErrCodeCancel) // the client gives up its upload
					reset = true
					c.Headers(9, true, "GET", service.RouteHealthz)
					want[9] = 200
				}
				ev, err := c.Next(10 * time.Second)
				if err != nil {
					t.Fatalf("answered %v of %v, then: %v", got, want, err)
				}
				if ev.GoAway != nil {
					t.Fatalf("answered %v of %v, then %v", got, want, ev)
				}
				if ev.Status != 0 {
					got[ev.Stream] = ev.Status
				}
			}
			for id, st := range want {
				if got[id] != st {
					t.Errorf("stream %d: %d, want %d", id, got[id], st)
				}
			}
		})
	}
}

// TestExpectContinueEveryRoute: a client that asks for 100 Continue and
// waits for it is answered at once by every route that answers without
// reading the body (the probes, /metrics, /openapi.json, the page and its
// files, /mcp's refusals, /v1's refusals and its GET routes), and is sent
// 100 Continue by a route that reads it. Checked with a raw client that
// never sends the body, and with curl, which waits 60 s for 100 Continue
// before it sends the body anyway (it is given 20 s in all). Before, every
// route of the service's own (all but /v1) withheld both: the service
// wrapped the body to count it, net/http no longer saw a request that
// expected 100 Continue, and tried to read the unsent body before
// answering, until the client gave up.
func TestExpectContinueEveryRoute(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{API: httpapi.Options{MaxBodyBytes: 1 << 20},
		MCP: mcpserver.Options{MaxDocumentBytes: 1 << 20}}))
	t.Cleanup(srv.Close) // after the parallel rows
	execute := schema.Tools()[0].ExecuteURL
	type row struct {
		reason, method, path, ctype string
		length                      int
		status                      int // 100: the route reads the body
	}
	rows := []row{
		{"the liveness probe", "GET", service.RouteHealthz, "", 10, 200},
		{"the readiness probe", "GET", service.RouteReadyz, "", 10, 200},
		{"a probe refuses POST", "POST", service.RouteHealthz, "application/json", 10, 405},
		{"the metrics", "GET", service.RouteMetrics, "", 10, 200},
		{"the OpenAPI document", "GET", service.RouteOpenAPI, "", 10, 200},
		{"the page", "GET", "/", "", 10, 200},
		{"a file of the page", "GET", "/playground/app.css", "", 10, 200},
		{"/mcp refuses GET", "GET", service.RouteMCP, "", 10, 405},
		{"/mcp refuses a body that is not JSON", "POST", service.RouteMCP, "text/plain", 10, 415},
		{"/mcp refuses a body over its hard cap, 2 × (cap + envelope), unread", "POST", service.RouteMCP, "application/json", 3 << 20, 413},
		{"/mcp reads a body over its cap and within its hard cap: a call there gets its tool error", "POST", service.RouteMCP, "application/json", 3 << 19, 100},
		{"/mcp reads a call", "POST", service.RouteMCP, "application/json", 10, 100},
		{"the tools", "GET", "/v1/tools", "", 10, 200},
		{"execute refuses a body that is not JSON", "POST", execute, "text/plain", 10, 415},
		{"execute refuses a body over the cap unread", "POST", execute, "application/json", 2 << 20, 413},
		{"execute refuses GET", "GET", execute, "", 10, 405},
		{"no route", "GET", "/nope", "", 10, 404},
		{"execute reads a document", "POST", execute, "application/json", 10, 100},
	}
	testutil.Run(t, rows, func(t *testing.T, tc row) {
		t.Parallel() // before, each row waited out its guard
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\nExpect: 100-continue\r\n", tc.method, tc.path, tc.length)
		if tc.ctype != "" {
			head += "Content-Type: " + tc.ctype + "\r\n"
		}
		io.WriteString(c, head+"\r\n")
		c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a guard: before, the answer came after 60 s
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to a client waiting for 100 Continue: %v", err)
		}
		if want := fmt.Sprintf("HTTP/1.1 %d ", tc.status); !strings.HasPrefix(line, want) {
			t.Fatalf("answered %q, want %q", strings.TrimSpace(line), want)
		}
	})
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Log("no curl: only the raw client was run")
		return
	}
	dir := t.TempDir()
	for _, tc := range rows { // written before the parallel rows read them: rows share lengths
		os.WriteFile(filepath.Join(dir, strconv.Itoa(tc.length)), []byte(strings.Repeat(" ", tc.length)), 0o600)
	}
	t.Run("curl", func(t *testing.T) {
		testutil.Run(t, rows, func(t *testing.T, tc row) {
			if tc.status == 100 {
				return // the document is no document: whatever it is answered is the route's
			}
			t.Parallel()
			body := filepath.Join(dir, strconv.Itoa(tc.length))
			args := []string{"-sS", "-o", os.DevNull, "-w", "%{http_code}", "--expect100-timeout", "60", "--max-time", "20",
				"-X", tc.method, "-H", "Expect: 100-continue", "--data-binary", "@" + body, srv.URL + tc.path}
			if tc.ctype != "" {
				args = append(args, "-H", "Content-Type: "+tc.ctype)
			}
			out, err := exec.Command(curl, args...).Output()
			if err != nil || string(out) != strconv.Itoa(tc.status) {
				t.Fatalf("curl: %s %v, want %d", out, err, tc.status)
			}
		})
	})
}

// TestRangeNotSatisfiableJSON: a Range that selects nothing of a file of
// the page is answered with the range_not_satisfiable error document (and
// the Content-Range of the file's size), not net/http's plain text; a
// Range that selects part of it is answered 206 as before.
func TestRangeNotSatisfiableJSON(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	get := func(rng string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+"/playground/app.css", nil)
		req.Header.Set("Range", rng)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, b
	}
	res, body := get("bytes=100000000-")
	if res.StatusCode != 416 || res.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(string(body), `"code":"range_not_satisfiable"`) || !strings.HasPrefix(res.Header.Get("Content-Range"), "bytes */") {
		t.Errorf("%d %q Content-Range %q: %s; want a 416 range_not_satisfiable document", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Range"), body)
	}
	if res, body := get("bytes=0-3"); res.StatusCode != 206 || len(body) != 4 {
		t.Errorf("a satisfiable Range: %d, %d bytes; want 206 and 4", res.StatusCode, len(body))
	}
}

// TestHostChecked: a request whose Host is a name that is not allowed is
// answered 403 forbidden on every route but /mcp (which answers it in
// MCP's own form), wherever the server listens; an address, localhost and
// an allowed name are served. Before, only /mcp checked Host, and only on
// a loopback listener.
func TestHostChecked(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{AllowedHosts: []string{"claimcheck.internal", ".example.com"}}))
	defer srv.Close()
	execute := schema.Tools()[0].ExecuteURL
	type row struct {
		reason, host, path string
		status             int
	}
	testutil.Run(t, []row{
		{"an address", "10.1.2.3:8080", service.RouteHealthz, 200},
		{"localhost", "localhost:8080", service.RouteHealthz, 200},
		{"a listed name", "claimcheck.internal", service.RouteHealthz, 200},
		{"a name under a listed domain, in any case", "API.Example.COM:443", service.RouteHealthz, 200},
		{"another name, at a probe", "rebound.attacker.test", service.RouteHealthz, 403},
		{"at the page", "rebound.attacker.test", "/", 403},
		{"at the tools", "rebound.attacker.test", "/v1/tools", 403},
		{"at execute", "rebound.attacker.test", execute, 403},
		{"a listed domain's suffix is not its subdomain", "badexample.com", service.RouteHealthz, 403},
	}, func(t *testing.T, tc row) {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		req.Host = tc.host
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || tc.status == 403 && !strings.Contains(string(b), `"code":"forbidden"`) {
			t.Errorf("%d %.100s, want %d", res.StatusCode, b, tc.status)
		}
	})
}
