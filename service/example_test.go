package service_test

import (
	"fmt"
	"net/http/httptest"

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
