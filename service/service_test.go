package service_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func do(t *testing.T, srv *httptest.Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, b
}

func TestRoutes(t *testing.T) {
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>playground</title>")
	})
	svc := service.New(service.Options{Root: root})
	srv := httptest.NewServer(svc)
	defer srv.Close()
	eq := schema.Tools()[0]
	tests := []struct {
		reason, method, path, body string
		status                     int
		contentType, contains      string
	}{
		{"alive", "GET", "/healthz", "", 200, "application/json", `{"status":"alive"}`},
		{"ready", "GET", "/readyz", "", 200, "application/json", `{"status":"ready"}`},
		{"HEAD of a probe", "HEAD", "/healthz", "", 200, "application/json", ""},
		{"probes are read-only", "POST", "/healthz", "", 405, "application/json", `"code":"method_not_allowed"`},
		{"the OpenAPI document", "GET", "/openapi.json", "", 200, "application/json", `"openapi": "3.1.0"`},
		{"metrics", "GET", "/metrics", "", 200, "text/plain; version=0.0.4; charset=utf-8; escaping=underscores", "claimcheck_http_requests_in_flight"},
		{"the root page", "GET", "/", "", 200, "text/html; charset=utf-8", "playground"},
		{"the root page is read-only", "DELETE", "/", "", 405, "application/json", `"code":"method_not_allowed"`},
		{"the tools API", "POST", eq.ExecuteURL, `{"source":[1],"claim":[1]}`, 200, "application/json", `"valid":true`},
		{"any other path is the API's 404", "GET", "/index.html", "", 404, "application/json", `"code":"not_found"`},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("every row needs a reason")
		}
		res, body := do(t, srv, tc.method, tc.path, tc.body)
		if res.StatusCode != tc.status || res.Header.Get("Content-Type") != tc.contentType || !strings.Contains(string(body), tc.contains) {
			t.Errorf("%s: %d %q %.200s; want %d %q containing %q", tc.reason, res.StatusCode, res.Header.Get("Content-Type"), body, tc.status, tc.contentType, tc.contains)
		}
	}
	if _, body := do(t, srv, "GET", "/openapi.json", ""); !bytes.Equal(body, httpapi.OpenAPI()) {
		t.Error("/openapi.json is not httpapi.OpenAPI()")
	}
}

// TestPage: without a Root handler, "/" is the playground page, and its
// assets are served (the defect: service.New served neither, so
// /playground/app.mjs was a 404); with one, Root answers "/" and the assets
// are still served.
func TestPage(t *testing.T) {
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "my root") })
	for _, tc := range []struct {
		reason string
		opts   service.Options
		path   string
		status int
		want   string
	}{
		{"the page at /", service.Options{}, "/", 200, `src="playground/app.mjs"`},
		{"its script", service.Options{}, "/playground/app.mjs", 200, `from "./logic.mjs"`},
		{"an unknown asset", service.Options{}, "/playground/nope.js", 404, `"code":"not_found"`},
		{"Root replaces the page at /", service.Options{Root: root}, "/", 200, "my root"},
		{"Root leaves the assets", service.Options{Root: root}, "/playground/app.css", 200, "mark"},
	} {
		srv := httptest.NewServer(service.New(tc.opts))
		res, body := do(t, srv, "GET", tc.path, "")
		srv.Close()
		if res.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: GET %s = %d %.100s; want %d containing %q", tc.reason, tc.path, res.StatusCode, body, tc.status, tc.want)
		}
	}
}

// TestReadyz: /readyz turns 503 once shutdown begins; /healthz and the API
// go on.
func TestReadyz(t *testing.T) {
	svc := service.New(service.Options{})
	srv := httptest.NewServer(svc)
	defer srv.Close()
	if res, _ := do(t, srv, "GET", "/readyz", ""); res.StatusCode != 200 {
		t.Fatalf("readyz %d before shutdown", res.StatusCode)
	}
	svc.BeginShutdown()
	if res, body := do(t, srv, "GET", "/readyz", ""); res.StatusCode != 503 || !strings.Contains(string(body), "shutting_down") {
		t.Fatalf("readyz after BeginShutdown: %d %s", res.StatusCode, body)
	}
	if res, _ := do(t, srv, "GET", "/healthz", ""); res.StatusCode != 200 {
		t.Fatalf("healthz after BeginShutdown: %d", res.StatusCode)
	}
	if res, _ := do(t, srv, "GET", "/v1/tools", ""); res.StatusCode != 200 {
		t.Fatalf("the API after BeginShutdown: %d", res.StatusCode)
	}
}

// scrape fetches /metrics and parses it.
func scrape(t *testing.T, srv *httptest.Server) map[string]*dto.MetricFamily {
	t.Helper()
	res, body := do(t, srv, "GET", "/metrics", "")
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value returns the counter, gauge or histogram count of the family's
// series with exactly these labels, or -1.
func value(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range labels {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

// TestMetricsAfterTraffic sends requests of every kind and checks the
// scrape: requests by route, tool, version and status, latency and body
// size per tool, verdicts by reason, in-flight.
func TestMetricsAfterTraffic(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	eq := schema.Tools()[0]
	rat, _ := schema.Lookup(schema.RationalExpression, "")
	valid := `{"source":[1],"claim":[1]}`
	for range 3 {
		do(t, srv, "POST", eq.ExecuteURL, valid)
	}
	do(t, srv, "POST", eq.ExecuteURL, `{"source":[1,1],"claim":[1]}`)
	do(t, srv, "POST", eq.ExecuteURL, `{"source":`)
	do(t, srv, "POST", rat.ExecuteURL, `{"expression":"1/0","claimed_value":"1","require_canonical":true}`)
	do(t, srv, "POST", "/v1/tools/attacker-chosen/versions/1/execute", valid)
	do(t, srv, "GET", "/healthz", "")

	fams := scrape(t, srv)
	exec := httpapi.RouteExecute
	for _, tc := range []struct {
		reason string
		name   string
		labels map[string]string
		want   float64
	}{
		{"valid executes", "claimcheck_http_requests_total", map[string]string{"route": exec, "tool": eq.ID, "version": eq.Version, "status": "200"}, 4},
		{"invalid documents", "claimcheck_http_requests_total", map[string]string{"route": exec, "tool": eq.ID, "version": eq.Version, "status": "400"}, 1},
		{"an unknown tool is not a label", "claimcheck_http_requests_total", map[string]string{"route": exec, "tool": "", "version": "", "status": "404"}, 1},
		{"the service's own routes", "claimcheck_http_requests_total", map[string]string{"route": "/healthz", "tool": "", "status": "200"}, 1},
		{"valid verdicts", "claimcheck_verdicts_total", map[string]string{"tool": eq.ID, "version": eq.Version, "verdict": "valid"}, 3},
		{"mismatch verdicts", "claimcheck_verdicts_total", map[string]string{"tool": eq.ID, "verdict": "claim_mismatch"}, 1},
		{"rational verdicts", "claimcheck_verdicts_total", map[string]string{"tool": rat.ID, "verdict": "division_by_zero"}, 1},
		{"latency per tool", "claimcheck_http_request_duration_seconds", map[string]string{"route": exec, "tool": eq.ID}, 5},
		{"body bytes per tool", "claimcheck_http_request_body_bytes", map[string]string{"tool": eq.ID}, 5},
		{"in flight: the scrape itself", "claimcheck_http_requests_in_flight", nil, 1},
	} {
		if tc.reason == "" {
			t.Fatal("every row needs a reason")
		}
		if got := value(fams, tc.name, tc.labels); got != tc.want {
			t.Errorf("%s: %s%v = %v, want %v", tc.reason, tc.name, tc.labels, got, tc.want)
		}
	}
	if fams["go_goroutines"] == nil || fams["process_open_fds"] == nil {
		t.Error("no Go runtime or process metrics")
	}
	for _, m := range fams["claimcheck_http_requests_total"].Metric {
		for _, l := range m.Label {
			if strings.Contains(l.GetValue(), "attacker") {
				t.Errorf("a request's path became a label value: %v", m.Label)
			}
		}
	}
}

// TestAccessLog: one JSON record per request with method, route, status,
// duration and bytes.
func TestAccessLog(t *testing.T) {
	var logBuf syncBuffer
	srv := httptest.NewServer(service.New(service.Options{AccessLog: slog.New(slog.NewJSONHandler(&logBuf, nil))}))
	defer srv.Close()
	eq := schema.Tools()[0]
	_, body := do(t, srv, "POST", eq.ExecuteURL, `{"source":[1,1],"claim":[1]}`)
	do(t, srv, "GET", "/readyz", "")
	sc := bufio.NewScanner(strings.NewReader(logBuf.String()))
	var recs []map[string]any
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not a JSON record: %s", sc.Bytes())
		}
		recs = append(recs, m)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2:\n%s", len(recs), logBuf.String())
	}
	r := recs[0]
	if r["msg"] != "request" || r["method"] != "POST" || r["route"] != httpapi.RouteExecute || r["status"] != 200.0 ||
		r["tool"] != eq.ID || r["verdict"] != "claim_mismatch" || r["bytes"] != float64(len(body)) || r["body_bytes"] != 28.0 {
		t.Errorf("execute record %v", r)
	}
	if d, ok := r["duration"].(float64); !ok || d <= 0 {
		t.Errorf("duration %v", r["duration"])
	}
	if r := recs[1]; r["route"] != "/readyz" || r["status"] != 200.0 || r["method"] != "GET" {
		t.Errorf("readyz record %v", r)
	}
}

// TestMCP: /mcp serves the tools over streamable HTTP.
func TestMCP(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != len(schema.Tools()) {
		t.Fatalf("tools/list: %v", err)
	}
	eq := schema.Tools()[0]
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: eq.ID, Arguments: json.RawMessage(eq.Examples[1].Input)})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	got, _ := json.Marshal(res.StructuredContent)
	if !conformance.JSONEqual(got, eq.Examples[1].Output) {
		t.Fatalf("structuredContent %s, want %s", got, eq.Examples[1].Output)
	}
}

// TestBatchLinesMetric: /metrics counts a batch request's lines by
// verdict (valid, the reason, error), with the tool and version labels.
func TestBatchLinesMetric(t *testing.T) {
	svc := service.New(service.Options{})
	req := httptest.NewRequest("POST", "/v1/tools/multiset-equality-check/versions/1.0.0/batch", strings.NewReader(
		"{\"source\":[1],\"claim\":[1]}\n{\"source\":[2],\"claim\":[2]}\n{\"source\":[1],\"claim\":[]}\n[\n"))
	req.Header.Set("Content-Type", "application/jsonl")
	req.Host = "127.0.0.1"
	rec := httptest.NewRecorder()
	svc.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("batch: %d %s", rec.Code, rec.Body.Bytes())
	}
	rec = httptest.NewRecorder()
	m := httptest.NewRequest("GET", "/metrics", nil)
	m.Host = "127.0.0.1"
	svc.ServeHTTP(rec, m)
	for _, want := range []string{
		`claimcheck_batch_lines_total{tool="multiset-equality-check",verdict="valid",version="1.0.0"} 2`,
		`claimcheck_batch_lines_total{tool="multiset-equality-check",verdict="claim_mismatch",version="1.0.0"} 1`,
		`claimcheck_batch_lines_total{tool="multiset-equality-check",verdict="error",version="1.0.0"} 1`,
		`claimcheck_http_requests_total{route="/v1/tools/{id}/versions/{version}/batch",status="200",tool="multiset-equality-check",version="1.0.0"} 1`,
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
}

// TestBatchUnderBasePath: the batch route is served under a prefix too.
func TestBatchUnderBasePath(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", service.New(service.Options{BasePath: "/api"})))
	req := httptest.NewRequest("POST", "/api/v1/tools/rational-expression-check/versions/1.0.0/batch",
		strings.NewReader(`{"expression":"1/2","claimed_value":"1/2","require_canonical":true}`+"\n"))
	req.Host = "127.0.0.1"
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), `{"valid":true`) {
		t.Fatalf("%d %s", rec.Code, rec.Body.Bytes())
	}
}

// TestEndStreams: once EndStreams is called, a batch request that arrives
// is answered 503 overloaded with Retry-After before any line (its client
// sends it to another replica), while execute is still answered.
func TestEndStreams(t *testing.T) {
	svc := service.New(service.Options{})
	srv := httptest.NewServer(svc)
	defer srv.Close()
	eq := schema.Tools()[0]
	batch := srv.URL + "/v1/tools/" + eq.ID + "/versions/" + eq.Version + "/batch"
	line := `{"source":[1],"claim":[1]}` + "\n"
	post := func(url, ct, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Host = "localhost"
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	if res, b := post(batch, "application/jsonl", line); res.StatusCode != 200 || !strings.Contains(b, `"valid":true`) {
		t.Fatalf("batch before EndStreams: %d %s", res.StatusCode, b)
	}
	svc.BeginShutdown()
	svc.EndStreams()
	res, b := post(batch, "application/jsonl", line)
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" || !strings.Contains(b, `"overloaded"`) {
		t.Errorf("batch after EndStreams: %d Retry-After %q %s, want 503 overloaded", res.StatusCode, res.Header.Get("Retry-After"), b)
	}
	if res, b := post(srv.URL+eq.ExecuteURL, "application/json", line); res.StatusCode != 200 {
		t.Errorf("execute after EndStreams: %d %s", res.StatusCode, b)
	}
}
