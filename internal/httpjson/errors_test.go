package httpjson

import (
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestStatusOfEveryCode: every code, the contract's and the request-level
// ones, has a status of its own kind (4xx, or 503 for overloaded); only
// internal_error, and a code no one declared, are 500.
func TestStatusOfEveryCode(t *testing.T) {
	for _, c := range append([]claimcheck.Code{claimcheck.InvalidInput, claimcheck.LimitExceeded, claimcheck.UnknownTool}, Codes()...) {
		s := Status(&claimcheck.Error{Code: c})
		if (s == http.StatusInternalServerError) != (c == InternalError) || s < 400 {
			t.Errorf("%s: status %d", c, s)
		}
	}
	if s := Status(&claimcheck.Error{Code: "x"}); s != http.StatusInternalServerError {
		t.Errorf("an undeclared code: status %d, want 500", s)
	}
	// The byte cap of a body is the request's (413); a tool's limit is the
	// document's (422).
	if s, t2 := Status(TooLarge("the document", 1, "")), Status(&claimcheck.Error{Code: claimcheck.LimitExceeded, Limit: "max_items"}); s != 413 || t2 != 422 {
		t.Errorf("limit_exceeded: %d for max_document_bytes, %d for max_items; want 413 and 422", s, t2)
	}
}

// TestWriteErrorStatus: WriteError answers with the error's status, its
// document and a newline, and a Recorder records its code.
func TestWriteErrorStatus(t *testing.T) {
	rec := httptest.NewRecorder()
	w := &Recorder{ResponseWriter: rec}
	e := Busy(w.Header(), "try again")
	WriteError(w, e)
	want := `{"error":{"code":"overloaded","path":"","message":"try again"}}` + "\n"
	if rec.Code != 503 || rec.Body.String() != want || w.Code != Overloaded || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("status %d, body %q, recorded code %q, Retry-After %q; want 503, %q, overloaded, 1",
			rec.Code, rec.Body, w.Code, rec.Header().Get("Retry-After"), want)
	}
}

// TestMethod: a listed method passes; any other is method_not_allowed with
// the Allow header.
func TestMethod(t *testing.T) {
	type row struct{ reason, method, want string }
	testutil.Run(t, []row{
		{"the first listed", "GET", ""},
		{"a later one", "HEAD", ""},
		{"another", "POST", "method POST not allowed; allowed: GET, HEAD"},
		{"case matters", "get", "method get not allowed; allowed: GET, HEAD"},
	}, func(t *testing.T, row row) {
		h := http.Header{}
		e := Method(h, httptest.NewRequest(row.method, "/", nil), "GET, HEAD")
		switch {
		case row.want == "" && (e != nil || len(h) != 0):
			t.Errorf("refused (%v), header %v", e, h)
		case row.want != "" && (e == nil || e.Code != MethodNotAllowed || e.Message != row.want || h.Get("Allow") != "GET, HEAD"):
			t.Errorf("error %v, Allow %q; want %q", e, h.Get("Allow"), row.want)
		}
	})
}

// TestContentType: which requests are read as JSON, on Content-Type and
// Origin.
func TestContentType(t *testing.T) {
	type row struct {
		reason, ct, origin string
		ok                 bool
	}
	testutil.Run(t, []row{
		{reason: "application/json", ct: "application/json", ok: true},
		{reason: "any case and a utf-8 charset", ct: "Application/JSON; Charset=UTF-8", ok: true},
		{reason: "another parameter", ct: "application/json; profile=x", ok: true},
		{reason: "none, from a script", ok: true},
		{reason: "none, from a browser", origin: "https://elsewhere.example"},
		{reason: "JSON is UTF-8 only", ct: "application/json; charset=latin1"},
		{reason: "text", ct: "text/plain"},
		{reason: "a suffix is another type", ct: "application/jsonx"},
		{reason: "malformed", ct: "application/json; charset"},
		{reason: "a browser's JSON", ct: "application/json", origin: "https://elsewhere.example", ok: true},
	}, func(t *testing.T, row row) {
		r := httptest.NewRequest("POST", "/", nil)
		if row.ct != "" {
			r.Header.Set("Content-Type", row.ct)
		}
		if row.origin != "" {
			r.Header.Set("Origin", row.origin)
		}
		e := ContentType(r)
		if (e == nil) != row.ok || e != nil && (e.Code != UnsupportedMediaType || Status(e) != 415) {
			t.Errorf("Content-Type %q, Origin %q: %v", row.ct, row.origin, e)
		}
	})
}

// mediaTypeByParsing is mediaType without its fast path.
func mediaTypeByParsing(ct string) bool {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}

// TestMediaTypeFastPath: the Content-Types accepted without parsing are
// accepted by parsing too, and the rest are decided by parsing.
func TestMediaTypeFastPath(t *testing.T) {
	rows := []struct{ reason, ct string }{
		{"the common one", "application/json"},
		{"any case", "Application/JSON"},
		{"with charset utf-8", "application/json; charset=utf-8"},
		{"with charset UTF-8", "application/json; charset=UTF-8"},
		{"without a space", "application/json;charset=utf-8"},
		{"another charset", "application/json; charset=latin1"},
		{"another type", "text/plain"},
		{"a suffix is another type", "application/jsonx"},
		{"a malformed one", "application/json; charset"},
		{"another parameter", "application/json; profile=x"},
	}
	testutil.Run(t, rows, func(t *testing.T, row struct{ reason, ct string }) {
		if got, want := mediaType(row.ct) == "", mediaTypeByParsing(row.ct); got != want {
			t.Errorf("%q accepted %v, by parsing %v", row.ct, got, want)
		}
	})
}

// TestAccepts: Accept admits application/json by its most specific range.
func TestAccepts(t *testing.T) {
	type row struct {
		reason string
		accept []string // header values; none: no header
		ok     bool
	}
	testutil.Run(t, []row{
		{reason: "no header", ok: true},
		{reason: "anything", accept: []string{"*/*"}, ok: true},
		{reason: "the type", accept: []string{"application/json"}, ok: true},
		{reason: "any case", accept: []string{"Application/JSON"}, ok: true},
		{reason: "MCP's pair", accept: []string{"application/json, text/event-stream"}, ok: true},
		{reason: "in a second header", accept: []string{"text/html", "application/json"}, ok: true},
		{reason: "the type's wildcard", accept: []string{"application/*;q=0.5"}, ok: true},
		{reason: "another type only", accept: []string{"text/event-stream"}},
		{reason: "refused by q=0", accept: []string{"application/json;q=0"}},
		{reason: "refused by q=0.000", accept: []string{"application/json; q=0.000, text/html"}},
		{reason: "refused specifically, anything else welcome", accept: []string{"*/*, application/json;q=0"}},
		{reason: "welcome specifically, nothing else", accept: []string{"*/*;q=0, application/json"}, ok: true},
		{reason: "a low q is still a yes", accept: []string{"application/json;q=0.001"}, ok: true},
		{reason: "a suffix is another type", accept: []string{"application/jsonx"}},
	}, func(t *testing.T, row row) {
		r := httptest.NewRequest("POST", "/", nil)
		for _, v := range row.accept {
			r.Header.Add("Accept", v)
		}
		if got := Accepts(r, "application/json"); got != row.ok {
			t.Errorf("Accept %q: %v", row.accept, got)
		}
	})
}
