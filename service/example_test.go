package service_test

import (
	"fmt"
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
		svc.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
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
		svc.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
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
