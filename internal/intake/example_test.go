package intake_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/claimcheck/claimcheck/internal/intake"
)

// A handler reads the body through the gate, then takes a slot for the
// check; a refusal is answered with the Failure's status and document.
func ExampleGate() {
	g := intake.New(intake.Config{MaxBodyBytes: 16})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, release, f := g.ReadBody(w, r)
		defer release()
		if f == nil {
			var free func()
			free, f = g.Slot(w, r)
			defer free()
		}
		if f != nil {
			if !f.Gone() {
				w.WriteHeader(f.Status)
				w.Write(f.Err.AppendJSON(nil))
			}
			return
		}
		fmt.Fprintf(w, "checked %d bytes", len(body))
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, doc := range []string{`{"a":1}`, `{"a":"far too long"}`} {
		res, err := http.Post(srv.URL, "application/json", strings.NewReader(doc))
		if err != nil {
			panic(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Println(res.StatusCode, string(b))
	}
	fmt.Println(g.Free() == g.Config().MaxBufferedBytes)
	// Output:
	// 200 checked 7 bytes
	// 413 {"error":{"code":"limit_exceeded","path":"","limit":"max_document_bytes","message":"the document is larger than 16 bytes"}}
	// true
}
