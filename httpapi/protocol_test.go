package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

// TestProtocol: Content-Encoding gzip is decompressed within the cap (a
// zip bomb is 413), other codings are 415; a POST without Content-Type is
// checked unless a browser sent it (Origin set). Before, gzip bytes were
// parsed as JSON (400) and a cross-site POST without a type was checked.
func TestProtocol(t *testing.T) {
	const capBytes = 1000
	srv, _ := countingServer(t, newHandler(Options{MaxBodyBytes: capBytes}, nil))
	eq := schema.Tools()[0]
	doc := `{"source":[1],"claim":[1]}`
	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    []byte
		status  int
		code    string
		reason  string
	}{
		{"gzip", map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, gzipped(doc), 200, "",
			"decompressed, then checked"},
		{"gzip, any case", map[string]string{"Content-Type": "application/json", "Content-Encoding": "GZip"}, gzipped(doc), 200, "",
			"codings are case-insensitive"},
		{"identity", map[string]string{"Content-Type": "application/json", "Content-Encoding": "identity"}, []byte(doc), 200, "",
			"identity is no coding"},
		{"zip bomb", map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"},
			gzipped(doc + strings.Repeat(" ", 1<<20)), 413, "limit_exceeded", "the decompressed bytes count against the cap"},
		{"broken gzip", map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, []byte(doc), 400, "invalid_input",
			"not gzip at all"},
		{"brotli", map[string]string{"Content-Type": "application/json", "Content-Encoding": "br"}, []byte(doc), 415, "unsupported_media_type",
			"only gzip is decoded"},
		{"no Content-Type", map[string]string{}, []byte(doc), 200, "",
			"scripts and curl --data-binary send none"},
		{"no Content-Type from a browser", map[string]string{"Origin": "https://elsewhere.example"}, []byte(doc), 415, "unsupported_media_type",
			"a page can send it cross-site without a preflight"},
		{"JSON from a browser", map[string]string{"Origin": "https://elsewhere.example", "Content-Type": "application/json"}, []byte(doc), 200, "",
			"cross-site, this needs a preflight the server never grants; same-site it is the playground"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+eq.ExecuteURL, bytes.NewReader(tc.body))
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			// Keep net/http's client from adding or undoing codings.
			req.Header.Set("Accept-Encoding", "identity")
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status || !strings.Contains(string(body), `"code":"`+tc.code+`"`) && tc.code != "" {
				t.Fatalf("%d %s, want %d %s (%s)", res.StatusCode, body, tc.status, tc.code, tc.reason)
			}
		})
	}
}
