package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// oaValidator checks requests and responses against the OpenAPI document
// with an independent implementation, getkin/kin-openapi (OpenAPI 3.1
// schemas validated as JSON Schema 2020-12).
type oaValidator struct{ router routers.Router }

// newValidator loads and validates the OpenAPI document.
func newValidator(t *testing.T) *oaValidator {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("the OpenAPI document is invalid: %v", err)
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &oaValidator{r}
}

func (v *oaValidator) input(r *http.Request) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		return nil, err
	}
	return &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}, nil
}

// request validates r (body included).
func (v *oaValidator) request(r *http.Request) error {
	in, err := v.input(r)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateRequest(context.Background(), in)
}

// response validates rec as the response to r's operation (found by r's
// method and path; r's body is not read).
func (v *oaValidator) response(r *http.Request, rec *httptest.ResponseRecorder) error {
	in, err := v.input(r)
	if err != nil {
		return err
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Options: in.Options}
	out.SetBodyBytes(rec.Body.Bytes())
	return openapi3filter.ValidateResponse(context.Background(), out)
}

func request(method, path string, body []byte) *http.Request {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// checkResponse validates rec's response to a method request at path
// against the document's operation there.
func checkResponse(t *testing.T, v *oaValidator, method, path string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if err := v.response(request(method, path, nil), rec); err != nil {
		t.Errorf("%s %s: response %d %.300s does not match the document: %v", method, path, rec.Code, rec.Body.Bytes(), err)
	}
}

// TestOpenAPIDocument: the document is valid OpenAPI 3.1, stable, and embeds
// the descriptors' schemas as they are.
func TestOpenAPIDocument(t *testing.T) {
	newValidator(t)
	doc := OpenAPI()
	if !bytes.Equal(doc, OpenAPI()) {
		t.Fatal("OpenAPI is not stable")
	}
	var d struct {
		OpenAPI    string                                `json:"openapi"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", d.OpenAPI)
	}
	for _, tool := range schema.Tools() {
		if _, ok := d.Paths[tool.ExecuteURL]["post"]; !ok {
			t.Errorf("no POST %s", tool.ExecuteURL)
		}
		// The descriptors' schemas are embedded as they are.
		name := tool.ID + "-" + tool.Version
		for suffix, want := range map[string][]byte{"-input": tool.InputSchema, "-output": tool.OutputSchema} {
			var got bytes.Buffer
			json.Compact(&got, d.Components.Schemas[name+suffix])
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s%s differs from the descriptor's:\n%s\n%s", name, suffix, got.Bytes(), want)
			}
		}
	}
}

// TestOpenAPIConformance sends every conformance case through the handler
// and validates the request (when the tool accepts it) and the response
// against the OpenAPI document.
func TestOpenAPIConformance(t *testing.T) {
	h := New(Options{})
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			t.Parallel()
			checkConformance(t, newValidator(t), h, tool)
		})
	}
}

func checkConformance(t *testing.T, v *oaValidator, h http.Handler, tool *schema.Tool) {
	refused := 0
	for _, c := range conformance.Surface(t, tool.ID) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request("POST", tool.ExecuteURL, c.Input))
		if c.Output != nil {
			if rec.Code != 200 {
				t.Fatalf("%s: %d %s", c.Name, rec.Code, rec.Body.Bytes())
			}
			if err := v.request(request("POST", tool.ExecuteURL, c.Input)); err != nil {
				t.Errorf("%s: the request %q is accepted by the tool but not by the document: %v", c.Name, c.Input, err)
			}
		} else if v.request(request("POST", tool.ExecuteURL, c.Input)) != nil {
			refused++
		}
		checkResponse(t, v, "POST", tool.ExecuteURL, rec)
	}
	// The schemas cannot say everything the tools check (duplicate
	// names, the expression grammar), but they do refuse many.
	t.Logf("the document refuses %d of the requests the tool refuses", refused)
	if refused == 0 {
		t.Errorf("the document refuses none of the invalid requests")
	}
}

// TestOpenAPIRoutes validates the other responses: the list, each
// descriptor, and an error document of every status an execute route
// documents.
func TestOpenAPIRoutes(t *testing.T) {
	v := newValidator(t)
	h := newHandler(Options{MaxBodyBytes: 100, Logger: discardLogger()}, func(tool *schema.Tool, in []byte) (schema.Output, error) {
		if string(in) == "panic" {
			panic("test")
		}
		return tool.Execute(in)
	})
	serve := func(r *http.Request) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	checkResponse(t, v, "GET", "/v1/tools", serve(request("GET", "/v1/tools", nil)))
	for _, tool := range schema.Tools() {
		desc := "/v1/tools/" + tool.ID + "/versions/" + tool.Version
		checkResponse(t, v, "GET", desc, serve(request("GET", desc, nil)))
		exec := tool.ExecuteURL
		wrongType := request("POST", exec, []byte(`{}`))
		wrongType.Header.Set("Content-Type", "text/plain")
		var limitDoc []byte
		switch tool.ID {
		case schema.RationalExpression:
			limitDoc = []byte(`{"expression":"` + strings.Repeat("(", 65) + `","claimed_value":"1","require_canonical":true}`)
		case schema.MultisetDifference:
			limitDoc = []byte(`{"left":[` + strings.Repeat("1,", 10000) + `1],"right":[],"claim":{"left_only":[],"right_only":[]}}`)
		default:
			limitDoc = []byte(`{"source":[` + strings.Repeat("1,", 10000) + `1],"claim":[]}`)
		}
		bigH := New(Options{})
		bigRec := httptest.NewRecorder()
		bigH.ServeHTTP(bigRec, request("POST", exec, limitDoc))
		for _, tc := range []struct {
			reason string
			status int
			rec    *httptest.ResponseRecorder
		}{
			{"invalid_input", 400, serve(request("POST", exec, []byte(`[`)))},
			{"unknown version", 404, serve(request("POST", "/v1/tools/"+tool.ID+"/versions/0.0.0/execute", []byte(`{}`)))},
			{"wrong method", 405, serve(request("GET", exec, nil))},
			{"too large", 413, serve(request("POST", exec, bytes.Repeat([]byte(" "), 101)))},
			{"not JSON", 415, serve(wrongType)},
			{"over a tool limit", 422, bigRec},
			{"a bug", 500, serve(request("POST", exec, []byte("panic")))},
			{"request_timeout", 408, errorRecorder(func(http.Header) *claimcheck.Error { return httpjson.Timeout() })},
			{"overloaded", 503, errorRecorder(func(h http.Header) *claimcheck.Error { return httpjson.Busy(h, "m") })},
		} {
			if tc.rec.Code != tc.status {
				t.Fatalf("%s %s: status %d, want %d: %s", tool.ID, tc.reason, tc.rec.Code, tc.status, tc.rec.Body.Bytes())
			}
			// The operation is found by the documented method; the
			// response is checked against that operation's status.
			checkResponse(t, v, "POST", exec, tc.rec)
		}
	}
}

// errorRecorder holds the answer to the error that newError makes for a
// response with the given header.
func errorRecorder(newError func(http.Header) *claimcheck.Error) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	httpjson.WriteError(rec, newError(rec.Header()))
	return rec
}

// TestOpenAPIRefusesWrongDocuments: the validator is not vacuous; a wrong
// status or a body that is not the documented one fails.
func TestOpenAPIRefusesWrongDocuments(t *testing.T) {
	v := newValidator(t)
	eq := schema.Tools()[0]
	for _, tc := range []struct {
		reason string
		status int
		body   string
	}{
		{"an output document with an unknown member", 200, `{"valid":true,"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020","x":1}`},
		{"an error code that status does not carry", 400, `{"error":{"code":"limit_exceeded","path":"","limit":"max_items","message":"m"}}`},
		{"a limit the tool does not have", 422, `{"error":{"code":"limit_exceeded","path":"","limit":"max_tokens","message":"m"}}`},
		{"an undocumented status", 418, `{"error":{"code":"internal_error","path":"","message":"m"}}`},
	} {
		rec := httptest.NewRecorder()
		httpjson.Write(rec, nil, tc.status, []byte(tc.body))
		if v.response(request("POST", eq.ExecuteURL, nil), rec) == nil {
			t.Errorf("%s: accepted", tc.reason)
		}
	}
}

// TestOpenAPIBatch: the document carries each tool's batch route, and
// kin-openapi accepts its requests (both media types) and its answers (a
// 200 of JSON Lines with the Trailer header, a 415, a 404), and refuses
// an answer of a media type the route does not document.
func TestOpenAPIBatch(t *testing.T) {
	// JSON Lines is text to the validator: its schema is a string.
	openapi3filter.RegisterBodyDecoder(httpjson.JSONLines, openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder(httpjson.NDJSON, openapi3filter.PlainBodyDecoder)
	v := newValidator(t)
	h := New(Options{})
	for _, tool := range schema.Tools() {
		path := "/v1/tools/" + tool.ID + "/versions/" + tool.Version + "/batch"
		for _, ct := range []string{httpjson.JSONLines, httpjson.NDJSON} {
			body := append(append([]byte{}, tool.Examples[0].Input...), '\n')
			req := httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			if err := v.request(req); err != nil {
				t.Errorf("%s %s: request refused: %v", path, ct, err)
			}
			req = httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Trailer") == "" {
				t.Fatalf("%s: %d %v", path, rec.Code, rec.Header())
			}
			if err := v.response(req, rec); err != nil {
				t.Errorf("%s %s: answer refused: %v", path, ct, err)
			}
		}
		wrong := httptest.NewRequest("POST", path, strings.NewReader("{}\n"))
		wrong.Header.Set("Content-Type", "text/plain")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, wrong)
		if rec.Code != 415 {
			t.Fatalf("%s text/plain: %d", path, rec.Code)
		}
		if err := v.response(wrong, rec); err != nil {
			t.Errorf("%s 415: %v", path, err)
		}
		bad := httptest.NewRecorder()
		bad.Header().Set("Content-Type", "text/html")
		bad.WriteHeader(200)
		bad.WriteString("<p>")
		if v.response(wrong, bad) == nil {
			t.Errorf("%s: an HTML 200 is accepted", path)
		}
	}
}
