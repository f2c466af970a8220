package httpjson

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestOrigins: which Origin headers a request to a server at Host may
// carry, under an allow-list (MCP 2025-11-25: an Origin that is present
// and not valid is answered 403, against DNS rebinding; a client that is
// not a browser sends none).
func TestOrigins(t *testing.T) {
	type row struct {
		reason, host, origin string
		list                 []string
		ok                   bool
	}
	app := []string{"https://app.example.com", "http://tools.example.org:8443"}
	testutil.Run(t, []row{
		{reason: "no Origin: not a browser (SDKs, curl)", host: "127.0.0.1:8080", ok: true},
		{reason: "a page on localhost, another port", host: "127.0.0.1:8080", origin: "http://localhost:3000", ok: true},
		{reason: "a page on a name under localhost", host: "127.0.0.1:8080", origin: "http://app.localhost:5173", ok: true},
		{reason: "a page on 127.0.0.1", host: "localhost:8080", origin: "http://127.0.0.1:9999", ok: true},
		{reason: "a page on another loopback address", host: "127.0.0.1:8080", origin: "http://127.1.2.3", ok: true},
		{reason: "a page on [::1]", host: "[::1]:8080", origin: "http://[::1]:3000", ok: true},
		{reason: "the server's own page: its host is the Host's", host: "api.example.com", origin: "https://API.example.com", ok: true},
		{reason: "the server's own page, on another port", host: "10.0.0.5:8080", origin: "http://10.0.0.5:9000", ok: true},
		{reason: "a foreign site", host: "127.0.0.1:8080", origin: "https://attacker.example"},
		{reason: "a rebinding page's name is not the Host it reached", host: "127.0.0.1:8080", origin: "http://rebound.attacker.example:8080"},
		{reason: "a name that only starts like localhost", host: "127.0.0.1:8080", origin: "http://localhost.attacker.example"},
		{reason: "another address of the network", host: "10.0.0.5:8080", origin: "http://10.0.0.6:8080"},
		{reason: "null: a sandboxed page or a file", host: "127.0.0.1:8080", origin: "null"},
		{reason: "not a URL", host: "127.0.0.1:8080", origin: "::"},
		{reason: "a listed origin", host: "api.example.com", origin: "https://app.example.com", list: app, ok: true},
		{reason: "a listed origin, in another case and with its default port", host: "api.example.com", origin: "HTTPS://App.Example.com:443", list: app, ok: true},
		{reason: "a listed origin with its port", host: "api.example.com", origin: "http://tools.example.org:8443", list: app, ok: true},
		{reason: "a listed host on another port is another origin", host: "api.example.com", origin: "http://tools.example.org", list: app},
		{reason: "a listed host with another scheme is another origin", host: "api.example.com", origin: "http://app.example.com", list: app},
		{reason: "a subdomain of a listed origin is not listed", host: "api.example.com", origin: "https://evil.app.example.com", list: app},
		{reason: "*: any origin", host: "api.example.com", origin: "https://attacker.example", list: []string{"*"}, ok: true},
		{reason: "*: null too", host: "api.example.com", origin: "null", list: []string{"*"}, ok: true},
	}, func(t *testing.T, tc row) {
		o, err := ParseOrigins(tc.list)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Host = tc.host
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		e := o.Check(r)
		if (e == nil) != tc.ok || e != nil && (e.Code != Forbidden || Status(e) != 403 || !strings.Contains(e.Message, tc.origin)) {
			t.Errorf("Host %q, Origin %q, list %q: %v; want allowed %v", tc.host, tc.origin, tc.list, e, tc.ok)
		}
	})
}

// TestParseOrigins: an allow-list holds origins only.
func TestParseOrigins(t *testing.T) {
	type row struct {
		reason, entry string
		ok            bool
	}
	testutil.Run(t, []row{
		{reason: "an origin", entry: "https://app.example.com", ok: true},
		{reason: "with a port", entry: "http://app.example.com:8080", ok: true},
		{reason: "spaces around it (a list after a comma)", entry: " https://app.example.com", ok: true},
		{reason: "*", entry: "*", ok: true},
		{reason: "a host name alone is not an origin", entry: "app.example.com"},
		{reason: "a path", entry: "https://app.example.com/page"},
		{reason: "a trailing slash is a path", entry: "https://app.example.com/"},
		{reason: "a query", entry: "https://app.example.com?x"},
		{reason: "user information", entry: "https://user@app.example.com"},
		{reason: "null is never allowed by name", entry: "null"},
		{reason: "empty", entry: ""},
	}, func(t *testing.T, tc row) {
		if _, err := ParseOrigins([]string{tc.entry}); (err == nil) != tc.ok {
			t.Errorf("%q: %v; want accepted %v", tc.entry, err, tc.ok)
		}
	})
}
