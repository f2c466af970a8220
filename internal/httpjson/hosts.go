package httpjson

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// Hosts is an allow-list of the host names a request may name in its Host
// header, against DNS rebinding: a page on another site whose name the
// attacker points at the server's address (127.0.0.1, or one inside a
// private network) makes the browser send its own name as Host, and reach
// the server as if it were that site. (Any page can also make a browser
// send a request to any address, with its own Origin: [Origins].)
//
// A Host is allowed when it is an IP address (a page at that address is
// the server itself, or a client names it directly), or what a browser
// writes as one (digits and dots, or brackets), localhost or one of its
// subdomains (RFC 6761: they name the loopback interface whatever DNS
// says), or listed. The zero value lists no name.
type Hosts struct {
	any   bool     // "*": every name
	names []string // lower case; ".example.com" is example.com and its subdomains
}

// ParseHosts returns the allow-list of list: host names without a port,
// compared without regard to case; ".example.com" allows example.com and
// every name under it; "*" allows every name (no check, for a server
// behind a proxy that checks names itself). An IP address or a name with
// a port or a scheme is refused: addresses are always allowed, and the
// list is of names.
func ParseHosts(list []string) (Hosts, error) {
	var h Hosts
	for _, n := range list {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "*":
			h.any = true
		case n == "" || n == ".":
			return Hosts{}, errHost(n, "is empty")
		case strings.ContainsAny(n, ":/[]@ "):
			return Hosts{}, errHost(n, "is not a host name (no scheme, port or address)")
		default:
			if _, err := netip.ParseAddr(n); err == nil {
				return Hosts{}, errHost(n, "is an address; addresses are always allowed")
			}
			h.names = append(h.names, n)
		}
	}
	return h, nil
}

type hostError struct{ msg string }

func (e hostError) Error() string { return e.msg }

func errHost(n, why string) error { return hostError{"allowed host " + strconv.Quote(n) + " " + why} }

// Any reports whether h allows every name ("*").
func (h Hosts) Any() bool { return h.any }

// allows reports whether host (a Host header's or an Origin's host, with
// or without a port) is listed or a localhost name, or an IP address
// that addr accepts.
func (h Hosts) allows(host string, addr func(netip.Addr) bool) bool {
	if h.any {
		return true
	}
	host = bareHost(host)
	if a, err := netip.ParseAddr(host); err == nil {
		return addr(a)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	for _, n := range h.names {
		if host == n || n[0] == '.' && (host == n[1:] || strings.HasSuffix(host, n)) {
			return true
		}
	}
	return false
}

// bareHost is host without its port, brackets and final dot, in lower
// case.
func bareHost(host string) string {
	if hn, _, err := net.SplitHostPort(host); err == nil {
		host = hn
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// literal reports, at a glance, whether host is an IP address as a
// browser writes one, with or without a port: in brackets (IPv6), or digits
// and dots. A browser never sends such a Host for a name (a host whose
// last label is a number is an IPv4 address to it), and the common Host,
// an address and a port, needs no parsing.
func literal(host string) bool {
	if host[0] == '[' {
		return true
	}
	for i := range len(host) {
		switch c := host[i]; {
		case c == ':':
			return i > 0 && allDigits(host[i+1:])
		case c != '.' && (c < '0' || c > '9'):
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func anyAddr(netip.Addr) bool    { return true }
func loopback(a netip.Addr) bool { return a.Unmap().IsLoopback() }

// Host returns nil when r's Host is allowed (or r has none: a client of
// HTTP/1.0, never a browser), else the forbidden error.
func (h Hosts) Host(r *http.Request) *claimcheck.Error {
	if r.Host == "" || literal(r.Host) || h.allows(r.Host, anyAddr) {
		return nil
	}
	return errs.Coded(Forbidden, "Host "+strconv.Quote(r.Host)+" is not an allowed name")
}

// Origins is an allow-list of the origins (RFC 6454: scheme, host and
// port) whose pages may send a request, checked on the Origin header a
// browser sends with it, as the MCP transport must (revision 2025-11-25:
// servers validate Origin on every request against DNS rebinding, and
// answer an invalid one 403). A request without Origin (not from a
// browser: an SDK, curl, an agent) is allowed. An Origin is allowed when
// its host is the request's Host's, any port (a page the server itself
// serves: the Host was checked first, [Hosts]), a loopback address or a
// localhost name, any port (a page on the user's own machine: a DNS
// rebinding page has neither), or listed; "null" (a sandboxed page, a
// file) and any other are foreign. The zero value lists none.
type Origins struct {
	any  bool
	list []string // normalized (origin)
}

// ParseOrigins returns the allow-list of list: origins as a browser writes
// them, scheme://host or scheme://host:port (https://app.example.com),
// compared without regard to the case of scheme and host, a default port
// (80 of http, 443 of https) the same as none; "*" allows every origin
// (no check, for a server behind a proxy that checks them itself). An
// entry with a path, a query or user information, or "null", is refused.
func ParseOrigins(list []string) (Origins, error) {
	var o Origins
	for _, e := range list {
		e = strings.TrimSpace(e)
		if e == "*" {
			o.any = true
			continue
		}
		n, ok := origin(e)
		if !ok {
			return Origins{}, hostError{"allowed origin " + strconv.Quote(e) + " is not an origin (scheme://host[:port], such as https://app.example.com)"}
		}
		o.list = append(o.list, n)
	}
	return o, nil
}

// origin returns o in normal form, scheme://host[:port] in lower case
// with a default port left out, or !ok when o is not such an origin.
func origin(o string) (string, bool) {
	u, err := url.Parse(o)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Opaque != "" ||
		u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.HasSuffix(o, "#") {
		return "", false
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if port := u.Port(); scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		host = strings.TrimSuffix(host, ":"+port)
	}
	return scheme + "://" + host, true
}

// Check returns nil when r has no Origin header or its Origin is allowed,
// else the forbidden error.
func (o Origins) Check(r *http.Request) *claimcheck.Error {
	v := HeaderValue(r.Header, "Origin")
	if v == "" || o.any {
		return nil
	}
	if n, ok := origin(v); ok {
		_, host, _ := strings.Cut(n, "://")
		if h := bareHost(host); h == bareHost(r.Host) || isLoopback(h) || slices.Contains(o.list, n) {
			return nil
		}
	}
	return errs.Coded(Forbidden, "Origin "+strconv.Quote(v)+" is not an allowed origin")
}

// isLoopback reports whether host (bare: bareHost) is a loopback address
// or a localhost name.
func isLoopback(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil {
		return loopback(a)
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
