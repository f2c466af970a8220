package playground_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/playground"
)

// api stands in for the HTTP API: it answers every request it gets with 299
// and X-Api: yes, so a test sees which requests reached it.
var api = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Api", "yes")
	w.WriteHeader(299)
})

func TestHandler(t *testing.T) {
	h := playground.Handler(api)
	for _, tc := range []struct {
		method, target string
		status         int
		contentType    string // "" for a request that must reach the API
		bodyHas        string
		reason         string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", `<script type="module" src="playground/app.mjs">`, "the page, its files relative to it so that it works under a prefix"},
		{"HEAD", "/", 200, "text/html; charset=utf-8", "", "HEAD is served wherever GET is"},
		{"GET", "/?x=1", 200, "text/html; charset=utf-8", "<!doctype html>", "a query does not change the page"},
		{"GET", "/playground/app.mjs", 200, "text/javascript; charset=utf-8", `from "./logic.mjs"`, "the script"},
		{"GET", "/playground/logic.mjs", 200, "text/javascript; charset=utf-8", "export function locate", "the module it imports"},
		{"GET", "/playground/app.css", 200, "text/css; charset=utf-8", "mark", "the stylesheet"},
		{"GET", "/playground/icon.svg", 200, "image/svg+xml", "<svg", "the icon, so the browser asks the API for no favicon"},
		{"GET", "/playground/", 404, "application/json", `{"error":{"code":"not_found","path":"","message":"no route for /playground/"}}`, "no index of the assets"},
		{"GET", "/playground/index.html", 404, "application/json", `"code":"not_found"`, "the page has one address"},
		{"GET", "/playground/../v1/tools", 404, "application/json", `"code":"not_found"`, "an unclean path is not cleaned into the API"},
		{"POST", "/", 405, "application/json", `"code":"method_not_allowed"`, "the page is read-only"},
		{"DELETE", "/playground/app.css", 405, "application/json", `allowed: GET, HEAD`, "so are its files"},
		{"GET", "/v1/tools", 299, "", "", "the API's routes pass through"},
		{"POST", "/v1/tools/x/versions/1/execute", 299, "", "", "execute passes through"},
		{"GET", "/index.html", 299, "", "", "any other path is the API's to refuse"},
		{"GET", "//", 299, "", "", "not the root: the API's"},
	} {
		if tc.reason == "" {
			t.Fatalf("%s %s: row without a reason", tc.method, tc.target)
		}
		req := httptest.NewRequest(tc.method, tc.target, nil)
		req.URL.Path = strings.SplitN(tc.target, "?", 2)[0] // keep "/.." and "//" uncleaned
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != tc.status {
			t.Errorf("%s %s (%s): status %d, want %d", tc.method, tc.target, tc.reason, res.StatusCode, tc.status)
		}
		if tc.contentType == "" {
			if res.Header.Get("X-Api") != "yes" || res.Header.Get("Content-Security-Policy") != "" {
				t.Errorf("%s %s (%s): did not reach the API untouched", tc.method, tc.target, tc.reason)
			}
			continue
		}
		if got := res.Header.Get("Content-Type"); got != tc.contentType {
			t.Errorf("%s %s (%s): Content-Type %q, want %q", tc.method, tc.target, tc.reason, got, tc.contentType)
		}
		for k, want := range map[string]string{
			"Content-Security-Policy": playground.CSP,
			"X-Content-Type-Options":  "nosniff",
			"Referrer-Policy":         "no-referrer",
		} {
			if got := res.Header.Get(k); got != want {
				t.Errorf("%s %s (%s): %s %q, want %q", tc.method, tc.target, tc.reason, k, got, want)
			}
		}
		if !strings.Contains(string(body), tc.bodyHas) {
			t.Errorf("%s %s (%s): body lacks %q:\n%.300s", tc.method, tc.target, tc.reason, tc.bodyHas, body)
		}
		if tc.method == "HEAD" && len(body) != 0 {
			t.Errorf("HEAD %s: a body of %d bytes", tc.target, len(body))
		}
		if tc.status == 405 && res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s %s: Allow %q", tc.method, tc.target, res.Header.Get("Allow"))
		}
	}
}

// TestRevalidation: a browser that has the page asks again with its ETag and
// gets 304 until the page changes.
func TestRevalidation(t *testing.T) {
	h := playground.Handler(api)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/playground/app.mjs", nil))
	etag := rec.Header().Get("ETag")
	if etag == "" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("ETag %q, Cache-Control %q: want an ETag and no-cache", etag, rec.Header().Get("Cache-Control"))
	}
	req := httptest.NewRequest("GET", "/playground/app.mjs", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag: status %d, want 304", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/playground/logic.mjs", nil))
	if rec.Header().Get("ETag") == etag {
		t.Errorf("two files share the ETag %s", etag)
	}
}

// TestNothingFromOutside reads the served files for references that would
// leave the origin. The CSP refuses them anyway; this says which file has one.
func TestNothingFromOutside(t *testing.T) {
	h := playground.Handler(api)
	outside := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?(https?:|//)|@import|fetch\(\s*["'](https?:|//)|\bstyle\s*=|<script>`)
	for _, path := range []string{"/", "/playground/app.mjs", "/playground/logic.mjs", "/playground/app.css", "/playground/icon.svg"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if m := outside.FindString(rec.Body.String()); m != "" {
			t.Errorf("%s has %q: an outside resource or inline code the CSP refuses", path, m)
		}
	}
}

// TestLogicJS runs the page logic's unit tests with node --test. Without
// node it is skipped, except in CI (CI=true), where it fails.
func TestLogicJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node (Node.js 20 or later)")
	}
	out, err := exec.Command(node, "--test", "testdata/logic.test.mjs").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test testdata/logic.test.mjs: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "# fail 0") {
		t.Fatalf("node --test reported failures:\n%s", out)
	}
}

// missing skips a test that needs a program this machine lacks, unless the
// test runs in CI, where the program must be there.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing, and CI=true: .ci/run must install it", what)
	}
	t.Skipf("%s is missing (in CI this fails)", what)
}
