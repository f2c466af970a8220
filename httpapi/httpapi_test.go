package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// checkHeaders fails unless the response is JSON, marked nosniff, and (for
// a non-HEAD request) its body is one JSON value. No response may ever be
// HTML or text.
func checkHeaders(t testing.TB, method string, h http.Header, body []byte) {
	t.Helper()
	if ct := h.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json (body %.200s)", ct, body)
	}
	if v := h.Get("X-Content-Type-Options"); v != "nosniff" {
		t.Errorf("X-Content-Type-Options %q, want nosniff", v)
	}
	if method == http.MethodHead {
		if len(body) != 0 {
			t.Errorf("HEAD response has a body: %.200s", body)
		}
		return
	}
	if !json.Valid(body) || !bytes.HasSuffix(body, []byte("\n")) {
		t.Errorf("body is not one JSON value and a newline: %.200s", body)
	}
}

// serve runs one request through h and checks its headers.
func serve(t testing.TB, h http.Handler, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body := rec.Body.Bytes()
	checkHeaders(t, req.Method, res.Header, body)
	return res, body
}

func executeURL(id, version string) string {
	return "/v1/tools/" + id + "/versions/" + version + "/execute"
}

// bigArray is an equality input over max_items.
func bigArray() string {
	return `{"source":[` + strings.Repeat("1,", 10000) + `1],"claim":[]}`
}

func TestStatusCodes(t *testing.T) {
	eq := schema.Tools()[0]
	exec := executeURL(eq.ID, eq.Version)
	valid := `{"source":[1],"claim":[1]}`
	type row struct {
		reason      string
		method      string
		path        string
		contentType string
		body        string
		noLength    bool // send the body chunked, without Content-Length
		status      int
		code        string // error code, or "" for success
		limit       string
		allow       string
	}
	tests := []row{
		{"list", "GET", "/v1/tools", "", "", false, 200, "", "", ""},
		{"HEAD is served where GET is", "HEAD", "/v1/tools", "", "", false, 200, "", "", ""},
		{"the list is read-only", "POST", "/v1/tools", "", "", false, 405, "method_not_allowed", "", "GET, HEAD"},
		{"one descriptor", "GET", "/v1/tools/" + eq.ID + "/versions/" + eq.Version, "", "", false, 200, "", "", ""},
		{"descriptor is read-only", "PUT", "/v1/tools/" + eq.ID + "/versions/" + eq.Version, "", "", false, 405, "method_not_allowed", "", "GET, HEAD"},
		{"descriptor of an unknown tool", "GET", "/v1/tools/nope/versions/1.0.0", "", "", false, 404, "unknown_tool", "", ""},
		{"descriptor of an unknown version", "GET", "/v1/tools/" + eq.ID + "/versions/9.9.9", "", "", false, 404, "unknown_tool", "", ""},
		{"execute", "POST", exec, "application/json", valid, false, 200, "", "", ""},
		{"absent Content-Type is fine", "POST", exec, "", valid, false, 200, "", "", ""},
		{"charset utf-8 is fine", "POST", exec, "application/json; charset=utf-8", valid, false, 200, "", "", ""},
		{"media types are case-insensitive", "POST", exec, "Application/JSON;Charset=UTF-8", valid, false, 200, "", "", ""},
		{"chunked body", "POST", exec, "", valid, true, 200, "", "", ""},
		{"a mismatch verdict is still 200", "POST", exec, "", `{"source":[1,1],"claim":[1]}`, false, 200, "", "", ""},
		{"malformed JSON", "POST", exec, "", `{"source":[1],`, false, 400, "invalid_input", "", ""},
		{"empty body", "POST", exec, "", ``, false, 400, "invalid_input", "", ""},
		{"wrong shape", "POST", exec, "", `{"source":1,"claim":[]}`, false, 400, "invalid_input", "", ""},
		{"tool limit", "POST", exec, "", bigArray(), false, 422, "limit_exceeded", "max_items", ""},
		{"execute an unknown tool", "POST", executeURL("nope", "1.0.0"), "", valid, false, 404, "unknown_tool", "", ""},
		{"execute an unknown version", "POST", executeURL(eq.ID, "0.0.1"), "", valid, false, 404, "unknown_tool", "", ""},
		{"execute is POST only", "GET", exec, "", "", false, 405, "method_not_allowed", "", "POST"},
		{"no PUT either", "PUT", exec, "", valid, false, 405, "method_not_allowed", "", "POST"},
		{"text is not JSON", "POST", exec, "text/plain", valid, false, 415, "unsupported_media_type", "", ""},
		{"form is not JSON", "POST", exec, "application/x-www-form-urlencoded", valid, false, 415, "unsupported_media_type", "", ""},
		{"JSON is UTF-8 only", "POST", exec, "application/json; charset=latin1", valid, false, 415, "unsupported_media_type", "", ""},
		{"malformed Content-Type", "POST", exec, "application/json; charset", valid, false, 415, "unsupported_media_type", "", ""},
		{"unknown path", "GET", "/", "", "", false, 404, "not_found", "", ""},
		{"unknown path outside the API", "GET", "/index.html", "", "", false, 404, "not_found", "", ""},
		{"a prefix is not the route", "GET", "/v1/toolsx", "", "", false, 404, "not_found", "", ""},
		{"under /v1/tools: unknown_tool", "GET", "/v1/tools/" + eq.ID, "", "", false, 404, "unknown_tool", "", ""},
		{"trailing slash", "GET", "/v1/tools/", "", "", false, 404, "unknown_tool", "", ""},
		{"extra segment", "POST", exec + "/now", "", valid, false, 404, "unknown_tool", "", ""},
		{"escaped slash stays in the id", "GET", "/v1/tools/" + eq.ID + "%2Fx/versions/" + eq.Version, "", "", false, 404, "unknown_tool", "", ""},
		{"escaped id is decoded", "GET", "/v1/tools/" + strings.Replace(eq.ID, "-", "%2D", 1) + "/versions/" + eq.Version, "", "", false, 200, "", "", ""},
	}
	h := New(Options{})
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		var body io.Reader = strings.NewReader(tc.body)
		if tc.noLength {
			body = io.MultiReader(body) // hides the length from NewRequest
		}
		req := httptest.NewRequest(tc.method, tc.path, body)
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
		res, got := serve(t, h, req)
		if res.StatusCode != tc.status {
			t.Fatalf("status %d, want %d; body %.300s", res.StatusCode, tc.status, got)
		}
		if a := res.Header.Get("Allow"); a != tc.allow {
			t.Errorf("Allow %q, want %q", a, tc.allow)
		}
		if tc.method == http.MethodHead || tc.code == "" && !bytes.HasPrefix(got, []byte("{")) {
			return
		}
		if tc.code == "" {
			var doc struct {
				Error json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(got, &doc); err != nil || doc.Error != nil {
				t.Fatalf("a success answered with %.300s (%v)", got, err)
			}
			return
		}
		// conformance.ParseErrorDoc fails unless the document has a path and a message.
		if e := conformance.ParseErrorDoc(t, got); string(e.Code) != tc.code || e.Limit != tc.limit {
			t.Fatalf("code %q limit %q, want %q %q; body %.300s", e.Code, e.Limit, tc.code, tc.limit, got)
		}
	})
}

func TestListAndDescriptors(t *testing.T) {
	h := New(Options{})
	_, body := serve(t, h, httptest.NewRequest("GET", "/v1/tools", nil))
	var list []json.RawMessage
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	tools := schema.Tools()
	if len(list) != len(tools) {
		t.Fatalf("%d descriptors, want %d", len(list), len(tools))
	}
	for i, tool := range tools {
		want, _ := tool.MarshalJSON()
		if !bytes.Equal(list[i], want) {
			t.Errorf("list[%d] = %.100s, want %.100s", i, list[i], want)
		}
		_, one := serve(t, h, httptest.NewRequest("GET", "/v1/tools/"+tool.ID+"/versions/"+tool.Version, nil))
		if !bytes.Equal(one, append(want, '\n')) {
			t.Errorf("descriptor of %s = %.100s, want %.100s", tool.ID, one, want)
		}
		if tool.ExecuteURL != executeURL(tool.ID, tool.Version) {
			t.Errorf("%s: execute_url %q is not the served route", tool.ID, tool.ExecuteURL)
		}
	}
}

func TestBodyCap(t *testing.T) {
	const max = 64
	h := New(Options{MaxBodyBytes: max})
	eq := schema.Tools()[0]
	exact := `{"source":[1],"claim":[1]}`
	exact += strings.Repeat(" ", max-len(exact))
	type row struct {
		reason   string
		body     string
		chunked  bool
		wantCode int
	}
	testutil.Run(t, []row{
		{"exactly the cap", exact, false, 200},
		{"exactly the cap, chunked", exact, true, 200},
		{"one byte over, declared", exact + " ", false, 413},
		{"one byte over, chunked", exact + " ", true, 413},
		{"far over, chunked", strings.Repeat(" ", 1<<20), true, 413},
	}, func(t *testing.T, tc row) {
		var body io.Reader = strings.NewReader(tc.body)
		if tc.chunked {
			body = io.MultiReader(body)
		}
		res, got := serve(t, h, httptest.NewRequest("POST", eq.ExecuteURL, body))
		if res.StatusCode != tc.wantCode {
			t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.wantCode, got)
		}
		if tc.wantCode == 413 {
			e := conformance.ParseErrorDoc(t, got)
			if e.Code != "limit_exceeded" || e.Path != "" || e.Limit != "max_document_bytes" || e.Position != claimcheck.NoPosition {
				t.Fatalf("413 body %s", got)
			}
		}
	})
}

// TestSeedExamples posts every descriptor example and compares the answer.
func TestSeedExamples(t *testing.T) {
	h := New(Options{})
	for _, tool := range schema.Tools() {
		for i, ex := range tool.Examples {
			res, got := serve(t, h, httptest.NewRequest("POST", tool.ExecuteURL, bytes.NewReader(ex.Input)))
			if res.StatusCode != 200 || !conformance.JSONEqual(got, ex.Output) {
				t.Errorf("%s example %d: %d %s, want 200 %s", tool.ID, i, res.StatusCode, got, ex.Output)
			}
		}
	}
}

// TestConformance runs every conformance case through the handler: an
// output is 200, invalid_input 400, limit_exceeded 422.
func TestConformance(t *testing.T) {
	h := New(Options{})
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			conformance.Run(t, tool.ID, func(t *testing.T, c conformance.Case) {
				res, got := serve(t, h, httptest.NewRequest("POST", tool.ExecuteURL, bytes.NewReader(c.Input)))
				if c.Output != nil {
					if res.StatusCode != 200 || !conformance.JSONEqual(got, c.Output) {
						t.Fatalf("got %d %s, want 200 %s", res.StatusCode, got, c.Output)
					}
					return
				}
				want := map[string]int{"invalid_input": 400, "limit_exceeded": 422}[c.Error.Code]
				if res.StatusCode != want {
					t.Fatalf("status %d, want %d: %s", res.StatusCode, want, got)
				}
				conformance.CheckError(t, c, conformance.ParseErrorDoc(t, got))
			})
		})
	}
}

// TestConcurrent checks that concurrent requests (run it with -race) get
// the same answers as sequential ones.
func TestConcurrent(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	type ex struct{ url, in, out string }
	var exs []ex
	for _, tool := range schema.Tools() {
		for _, e := range tool.Examples {
			exs = append(exs, ex{srv.URL + tool.ExecuteURL, string(e.Input), string(e.Output)})
		}
		exs = append(exs, ex{srv.URL + tool.ExecuteURL, "[", ""})
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				e := exs[(g*50+i)%len(exs)]
				res, err := srv.Client().Post(e.url, "application/json", strings.NewReader(e.in))
				if err != nil {
					t.Error(err)
					return
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				checkHeaders(t, "POST", res.Header, body)
				if e.out == "" {
					if res.StatusCode != 400 {
						t.Errorf("%s: %d %s, want 400", e.in, res.StatusCode, body)
					}
				} else if res.StatusCode != 200 || !conformance.JSONEqual(body, []byte(e.out)) {
					t.Errorf("%s: %d %s, want %s", e.in, res.StatusCode, body, e.out)
				}
			}
		})
	}
	wg.Wait()
}

// TestPanic reaches the recover middleware through the real routes with a
// panicking tool: a 500 with an internal_error document, logged once.
func TestPanic(t *testing.T) {
	var logBuf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logBuf, nil))
	h := newHandler(Options{Logger: log}, func(*schema.Tool, []byte) (schema.Output, error) { panic("boom") })
	eq := schema.Tools()[0]
	res, body := serve(t, h, httptest.NewRequest("POST", eq.ExecuteURL, strings.NewReader(`{}`)))
	if res.StatusCode != 500 {
		t.Fatalf("status %d, want 500", res.StatusCode)
	}
	if e := conformance.ParseErrorDoc(t, body); e.Code != "internal_error" || strings.Contains(string(body), "boom") {
		t.Fatalf("body %s: want internal_error without the panic value", body)
	}
	if n := strings.Count(logBuf.String(), "\n"); n != 1 || !strings.Contains(logBuf.String(), "boom") {
		t.Fatalf("%d log records, want 1 naming the panic:\n%s", n, logBuf.String())
	}
}

// panicking returns a handler whose routing is replaced by f.
func panicking(log *slog.Logger, observe func(*http.Request, Observation), f func(w http.ResponseWriter)) http.Handler {
	h := newHandler(Options{Logger: log, Observe: observe}, nil)
	h.serve = func(w *httpjson.Recorder, _ *http.Request, _ *Observation) { f(w) }
	return h
}

// TestPanicAfterWrite: once the response has started, the handler can
// only abort it (http.ErrAbortHandler), still logging once and observing it.
func TestPanicAfterWrite(t *testing.T) {
	var logBuf bytes.Buffer
	var seen []Observation
	h := panicking(slog.New(slog.NewJSONHandler(&logBuf, nil)), func(_ *http.Request, o Observation) { seen = append(seen, o) },
		func(w http.ResponseWriter) {
			w.WriteHeader(200)
			panic("late")
		})
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Fatalf("recovered %v, want http.ErrAbortHandler", v)
		}
		if n := strings.Count(logBuf.String(), "\n"); n != 1 {
			t.Fatalf("%d log records, want 1", n)
		}
		if len(seen) != 1 || seen[0].Status != 200 {
			t.Fatalf("observations %+v, want one with status 200", seen)
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

// TestAbortHandlerPassesThrough: http.ErrAbortHandler is not a bug and is
// neither logged nor answered.
func TestAbortHandlerPassesThrough(t *testing.T) {
	var logBuf bytes.Buffer
	h := panicking(slog.New(slog.NewJSONHandler(&logBuf, nil)), nil, func(http.ResponseWriter) {
		panic(http.ErrAbortHandler)
	})
	rec := httptest.NewRecorder()
	defer func() {
		if v := recover(); v != http.ErrAbortHandler || logBuf.Len() != 0 || rec.Body.Len() != 0 {
			t.Fatalf("recovered %v, log %q, body %q", v, logBuf.String(), rec.Body.String())
		}
	}()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
}

func TestNewServer(t *testing.T) {
	s := NewServer("127.0.0.1:0", New(Options{}))
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Fatalf("a timeout or the header cap is unset: %+v", s)
	}
}
