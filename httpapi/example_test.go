package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"

	"github.com/claimcheck/claimcheck/httpapi"
)

// POST an input document to a tool's execute URL: the output document comes
// back 200 whatever the verdict.
func ExampleNew() {
	srv := httptest.NewServer(httpapi.New(httpapi.Options{}))
	defer srv.Close()

	res, err := srv.Client().Post(srv.URL+"/v1/tools/multiset-equality-check/versions/1.0.0/execute",
		"application/json", strings.NewReader(`{"source": [1, 1], "claim": [1]}`))
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var doc struct {
		Valid       bool
		Discrepancy json.RawMessage
	}
	json.NewDecoder(res.Body).Decode(&doc)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	fmt.Println(doc.Valid, string(doc.Discrepancy))
	// Output:
	// 200 application/json
	// false {"path":"/source/0","expected":"2","actual":"1"}
}

// NewServer wraps a handler in an http.Server with every timeout and the
// header cap set, for serving the tools to the network.
func ExampleNewServer() {
	srv := httpapi.NewServer("127.0.0.1:8080", httpapi.New(httpapi.Options{}))
	fmt.Println(srv.Addr, srv.ReadHeaderTimeout > 0, srv.ReadTimeout > 0, srv.IdleTimeout > 0, srv.MaxHeaderBytes > 0)
	// To serve: log.Fatal(srv.ListenAndServe())
	// Output:
	// 127.0.0.1:8080 true true true true
}

// OpenAPI is the OpenAPI 3.1 document of the routes, built from the tool
// descriptors; "claimcheck serve" answers it at GET /openapi.json.
func ExampleOpenAPI() {
	var doc struct {
		OpenAPI string
		Paths   map[string]json.RawMessage
	}
	json.Unmarshal(httpapi.OpenAPI(), &doc)
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fmt.Println(doc.OpenAPI)
	for _, p := range paths {
		fmt.Println(p)
	}
	// Output:
	// 3.1.0
	// /v1/tools
	// /v1/tools/multiset-difference-check/versions/1.0.0
	// /v1/tools/multiset-difference-check/versions/1.0.0/batch
	// /v1/tools/multiset-difference-check/versions/1.0.0/execute
	// /v1/tools/multiset-equality-check/versions/1.0.0
	// /v1/tools/multiset-equality-check/versions/1.0.0/batch
	// /v1/tools/multiset-equality-check/versions/1.0.0/execute
	// /v1/tools/rational-expression-check/versions/1.0.0
	// /v1/tools/rational-expression-check/versions/1.0.0/batch
	// /v1/tools/rational-expression-check/versions/1.0.0/execute
}

// A document the tool refuses is answered with an error document: 400 for
// invalid_input, 422 for limit_exceeded.
func ExampleNew_errorDocument() {
	h := httpapi.New(httpapi.Options{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/tools/multiset-equality-check/versions/1.0.0/execute",
		strings.NewReader(`{"source": [1], "claim": [[1]]}`)))
	fmt.Println(rec.Code)
	fmt.Print(rec.Body.String())
	// Output:
	// 400
	// {"error":{"code":"invalid_input","path":"/claim/0","message":"element is an array, not a scalar"}}
}

// Mounted under a prefix with http.StripPrefix, the handler is told the
// prefix in BasePath, so that every URL it advertises carries it: here the
// descriptors' execute_url, which a client posts to as it is.
func ExampleOptions_basePath() {
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", httpapi.New(httpapi.Options{BasePath: "/api"})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := srv.Client().Get(srv.URL + "/api/v1/tools")
	if err != nil {
		panic(err)
	}
	var tools []struct {
		ExecuteURL string `json:"execute_url"`
	}
	json.NewDecoder(res.Body).Decode(&tools)
	res.Body.Close()
	fmt.Println(tools[0].ExecuteURL)

	res, err = srv.Client().Post(srv.URL+tools[0].ExecuteURL, "application/json",
		strings.NewReader(`{"source":[1,2],"claim":[2,1]}`))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Println(res.StatusCode, string(body[:13]))

	var doc struct {
		Servers []struct{ URL string }
	}
	json.Unmarshal(httpapi.OpenAPIAt("/api"), &doc)
	fmt.Println(doc.Servers[0].URL)
	// Output:
	// /api/v1/tools/multiset-equality-check/versions/1.0.0/execute
	// 200 {"valid":true
	// /api
}

// OpenAPIAt is the document of a handler mounted under a prefix: one
// server, the prefix, under which every path resolves.
func ExampleOpenAPIAt() {
	var doc struct {
		Servers []struct{ URL string }
	}
	json.Unmarshal(httpapi.OpenAPIAt("/api"), &doc)
	fmt.Println(doc.Servers)
	fmt.Println(string(httpapi.OpenAPIAt("")) == string(httpapi.OpenAPI()))
	// Output:
	// [{/api}]
	// true
}

// Options.Observe receives an Observation per answered request: the
// route, the tool, the status and the verdict, for metrics or an access
// log of the caller's own.
func ExampleObservation() {
	var seen []httpapi.Observation
	h := httpapi.New(httpapi.Options{Observe: func(_ *http.Request, o httpapi.Observation) { seen = append(seen, o) }})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/tools/rational-expression-check/versions/1.0.0/execute",
		strings.NewReader(`{"expression":"1/2","claimed_value":"1/3","require_canonical":false}`)))
	o := seen[0]
	fmt.Println(o.Route == httpapi.RouteExecute, o.Tool, o.Version, o.Status, o.Verdict)
	// Output: true rational-expression-check 1.0.0 200 value_mismatch
}

// POST JSON Lines to a tool's batch URL: the answers come back in order,
// line N answering line N, and the trailers (and Observation.Batch) count
// them.
func ExampleBatch() {
	var seen *httpapi.Batch
	srv := httptest.NewServer(httpapi.New(httpapi.Options{
		Observe: func(_ *http.Request, o httpapi.Observation) { seen = o.Batch },
	}))
	defer srv.Close()

	res, err := srv.Client().Post(srv.URL+"/v1/tools/multiset-equality-check/versions/1.0.0/batch",
		"application/jsonl", strings.NewReader("{\"source\":[1],\"claim\":[1]}\n{\"source\":[1],\"claim\":[]}\n[\n"))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for line := range strings.Lines(string(body)) {
		fmt.Print(line[:min(len(line), 40)], "\n")
	}
	fmt.Println(res.Trailer.Get(httpapi.TrailerLines), res.Trailer.Get(httpapi.TrailerValid),
		res.Trailer.Get(httpapi.TrailerInvalid), res.Trailer.Get(httpapi.TrailerErrors))
	fmt.Println(seen.Lines, seen.Verdicts)
	// Output:
	// {"valid":true,"reference_version":"ISO/I
	// {"valid":false,"reason":"claim_mismatch"
	// {"error":{"code":"invalid_input","path":
	// 3 1 1 1
	// 3 [{valid 1} {claim_mismatch 1} {error 1}]
}

// Observation.Batch.Verdicts counts a batch request's lines by verdict,
// for metrics of one's own.
func ExampleLineCount() {
	counts := map[string]int64{}
	h := httpapi.New(httpapi.Options{Observe: func(_ *http.Request, o httpapi.Observation) {
		if o.Batch != nil {
			for _, c := range o.Batch.Verdicts {
				counts[c.Verdict] += c.Count
			}
		}
	}})
	req := httptest.NewRequest("POST", "/v1/tools/multiset-equality-check/versions/1.0.0/batch",
		strings.NewReader("{\"source\":[1],\"claim\":[1]}\n{\"source\":[2],\"claim\":[2]}\n"))
	req.Header.Set("Content-Type", "application/x-ndjson")
	h.ServeHTTP(httptest.NewRecorder(), req)
	fmt.Println(counts["valid"])
	// Output: 2
}
