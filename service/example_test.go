package service_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/claimcheck/claimcheck/service"
)

// /readyz answers 503 once shutdown has begun, while /healthz and the API
// go on serving the requests still coming.
func ExampleService_BeginShutdown() {
	svc := service.New(service.Options{})
	probe := func(path string) {
		rec := httptest.NewRecorder()
		svc.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+path, nil))
		fmt.Print(path, " ", rec.Code, " ", rec.Body.String())
	}
	probe("/readyz")
	svc.BeginShutdown()
	probe("/readyz")
	probe("/healthz")
	// Output:
	// /readyz 200 {"status":"ready"}
	// /readyz 503 {"status":"shutting_down"}
	// /healthz 200 {"status":"alive"}
}

// New assembles the whole service: the tools API, MCP, the OpenAPI
// document, the probes and the metrics, in one http.Handler.
func ExampleNew() {
	svc := service.New(service.Options{})
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		svc.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+path, nil))
		return rec
	}
	fmt.Print(get("/healthz").Body.String())
	fmt.Println(get("/openapi.json").Header().Get("Content-Type"))
	fmt.Println(strings.Contains(get("/metrics").Body.String(), "claimcheck_http_requests_total"))
	// Output:
	// {"status":"alive"}
	// application/json
	// true
}

// The whole service, page included, mounted under /api/ of the caller's own
// mux at example.com: strip the prefix and name it in BasePath, so that
// every URL the service advertises carries it, and allow the site's name.
func ExampleOptions_basePath() {
	mux := http.NewServeMux()
	svc := service.New(service.Options{BasePath: "/api", AllowedHosts: []string{"example.com"}})
	mux.Handle("/api/", http.StripPrefix("/api", svc))
	for _, path := range []string{"/api/", "/api/playground/app.mjs", "/api/v1/tools", "/api/openapi.json"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		body := rec.Body.String()
		fmt.Println(path, rec.Code, strings.Contains(body, `"/api/v1/tools/`) || strings.Contains(body, `"url": "/api"`))
	}
	// Output:
	// /api/ 200 false
	// /api/playground/app.mjs 200 false
	// /api/v1/tools 200 true
	// /api/openapi.json 200 true
}

// A Service is one http.Handler of every route; it serves the tools as
// httpapi does, under the same paths.
func ExampleService() {
	svc := service.New(service.Options{})
	rec := httptest.NewRecorder()
	svc.ServeHTTP(rec, httptest.NewRequest("POST", "http://localhost/v1/tools/multiset-equality-check/versions/1.0.0/execute",
		strings.NewReader(`{"source":[1,2],"claim":[2,1]}`)))
	fmt.Println(rec.Code, strings.HasPrefix(rec.Body.String(), `{"valid":true`))
	// Output: 200 true
}

// A request naming a host that is not allowed is refused, whatever address
// it came to: the page of a site whose name was pointed at the server's
// address (DNS rebinding) sends that name.
func ExampleOptions_allowedHosts() {
	svc := service.New(service.Options{AllowedHosts: []string{".example.com"}})
	for _, url := range []string{"http://127.0.0.1:8080/healthz", "http://localhost/healthz", "http://api.example.com/healthz", "http://rebound.example.net/healthz"} {
		rec := httptest.NewRecorder()
		svc.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		fmt.Print(rec.Code, " ", rec.Body.String())
	}
	// Output:
	// 200 {"status":"alive"}
	// 200 {"status":"alive"}
	// 200 {"status":"alive"}
	// 403 {"error":{"code":"forbidden","path":"","message":"Host \"rebound.example.net\" is not an allowed name"}}
}
