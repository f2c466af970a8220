package httpapi_test

import (
	"fmt"
	"io"
	"net/http/httptest"
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
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	fmt.Print(string(body))
	// Output:
	// 200 application/json
	// {"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/source/0","expected":"2","actual":"1"},"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
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
