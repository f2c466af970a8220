package httpapi

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// segmentsBySplit is what segments did before it stopped allocating: split
// the whole escaped path, unescape every segment.
func segmentsBySplit(u *url.URL) ([]string, bool) {
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		v, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		segs[i] = v
	}
	return segs, true
}

// TestSegments: routing splits paths as splitting and unescaping them
// whole did, cut to maxSegments (more than any route has), so every path
// is routed and answered as before.
func TestSegments(t *testing.T) {
	rows := []struct{ reason, path string }{
		{"the execute route", "/v1/tools/multiset-equality-check/versions/1.0.0/execute"},
		{"the list", "/v1/tools"},
		{"a trailing slash is an empty segment", "/v1/tools/"},
		{"an escaped slash stays in its segment", "/v1/tools/a%2Fb/versions/1.0.0"},
		{"escapes are unescaped", "/v1/tools/%6D%75/versions/1.0.0/execute"},
		{"a plus is not a space in a path", "/v1/tools/a+b/versions/1"},
		{"a percent sign is escaped, then unescaped", "/v1/tools/100%/versions/1"},
		{"an escape past the longest route", "/v1/tools/a/versions/1/execute/x/y/%41"},
		{"a long path is cut, not lost", "/v1/tools/a/versions/1/execute/x/y/z/w"},
		{"exactly maxSegments", "/v1/tools/a/versions/1/execute/x"},
		{"the root", "/"},
		{"empty segments", "//v1//tools"},
		{"a path that is not absolute", "v1/tools"},
		{"an escape that Path's own escaping reproduces (no RawPath)", "/v1/tools/a%20b/versions/1"},
		{"an escape that differs from Path's own (RawPath kept)", "/v1/tools/%61/versions/%31"},
		{"an asterisk, which EscapedPath leaves alone", "*"},
	}
	testutil.Run(t, rows, func(t *testing.T, row struct{ reason, path string }) {
		u, err := url.Parse(row.path)
		if err != nil { // a bare %: the path as a handler may be given it
			u = &url.URL{Path: row.path}
		}
		checkSegments(t, row.path, u)
	})
}

// checkSegments checks segments(u) against splitting and unescaping u's
// whole escaped path (segmentsBySplit), cut to maxSegments.
func checkSegments(t *testing.T, target string, u *url.URL) {
	t.Helper()
	want, wantOK := segmentsBySplit(u)
	if len(want) > maxSegments {
		want = want[:maxSegments]
	}
	var buf [maxSegments]string
	got, ok := segments(u, &buf)
	if ok != wantOK || !slices.Equal(got, want) {
		t.Errorf("%q (Path %q, RawPath %q): %q %v, want %q %v", target, u.Path, u.RawPath, got, ok, want, wantOK)
	}
}

// FuzzSegments: for any request target, segments splits as splitting and
// unescaping the whole escaped path does.
func FuzzSegments(f *testing.F) {
	for _, p := range []string{"/v1/tools/a%2Fb/versions/1", "/v1/tools/a%20b", "/%zz", "//a", "*", "/a/%41/b"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, target string) {
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return
		}
		checkSegments(t, target, u)
	})
}
