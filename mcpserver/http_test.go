package mcpserver_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// TestHTTPRulesShared runs each request through /v1 execute (httpapi) and
// /mcp, each on its own socket: the HTTP rules both apply (method,
// Content-Type, Content-Encoding) give the same status and the same
// response headers on both, each in its own envelope: /v1 the error
// document, /mcp a JSON-RPC error without an id whose message is that
// error's and whose data is that error document, byte for byte. A request
// both admit gets the same document (/mcp's structuredContent).
func TestHTTPRulesShared(t *testing.T) {
	tool := schema.Tools()[0]
	doc := tool.Examples[1].Input
	v1 := httptest.NewServer(httpapi.New(httpapi.Options{}))
	defer v1.Close()
	mcp := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{}))
	defer mcp.Close()
	execute := v1.URL + "/v1/tools/" + tool.ID + "/versions/" + tool.Version + "/execute"

	type row struct {
		reason, method string
		hdr            []string // "Name: value"; no Content-Type unless one is given
		status         int
	}
	ct := func(v string) string { return "Content-Type: " + v }
	rows := []row{
		{reason: "application/json", method: "POST", hdr: []string{ct("application/json")}, status: 200},
		{reason: "charset UTF-8, in any case", method: "POST", hdr: []string{ct("Application/JSON; Charset=UTF-8")}, status: 200},
		{reason: "no Content-Type and no Origin: a script's JSON", method: "POST", status: 200},
		{reason: "charset latin1: JSON is UTF-8 (RFC 8259 section 8.1)", method: "POST", hdr: []string{ct("application/json; charset=latin1")}, status: 415},
		{reason: "text/plain", method: "POST", hdr: []string{ct("text/plain")}, status: 415},
		{reason: "a suffix makes another type", method: "POST", hdr: []string{ct("application/jsonx")}, status: 415},
		{reason: "a malformed Content-Type", method: "POST", hdr: []string{ct("application/json; charset")}, status: 415},
		{reason: "a browser's POST without Content-Type", method: "POST", hdr: []string{"Origin: " + mcp.URL}, status: 415},
		{reason: "a Content-Encoding not read", method: "POST", hdr: []string{ct("application/json"), "Content-Encoding: br"}, status: 415},
		{reason: "GET", method: "GET", status: 405},
		{reason: "PUT, with a JSON body", method: "PUT", hdr: []string{ct("application/json")}, status: 405},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		send := func(url string, body []byte) (*http.Response, []byte) {
			t.Helper()
			req, _ := http.NewRequest(r.method, url, bytes.NewReader(body))
			for _, h := range r.hdr {
				k, v, _ := strings.Cut(h, ": ")
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return res, bytes.TrimSuffix(b, []byte("\n"))
		}
		vRes, vBody := send(execute, doc)
		mRes, mBody := send(mcp.URL, callMsg(1, tool.ID, doc))
		if vRes.StatusCode != r.status || mRes.StatusCode != r.status {
			t.Fatalf("/v1 %d %s, /mcp %d %s; want %d on both", vRes.StatusCode, vBody, mRes.StatusCode, mBody, r.status)
		}
		for _, h := range []string{"Content-Type", "X-Content-Type-Options", "Allow", "Connection"} {
			if v, m := vRes.Header.Get(h), mRes.Header.Get(h); v != m {
				t.Errorf("%s: /v1 %q, /mcp %q", h, v, m)
			}
		}
		if vRes.Close != mRes.Close {
			t.Errorf("connection closed after the answer: /v1 %v, /mcp %v", vRes.Close, mRes.Close)
		}
		got := decode(t, mBody)
		if r.status == 200 {
			if got.Result == nil || !bytes.Equal(got.Result.StructuredContent, vBody) {
				t.Fatalf("/mcp %s, want the result %s", mBody, vBody)
			}
			return
		}
		if got.Error == nil || string(got.ID) != "null" || got.Error.Code != mcpserver.CodeInvalidRequest {
			t.Fatalf("/mcp %s: want a -32600 error with id null", mBody)
		}
		if !bytes.Equal(got.Error.Data, vBody) {
			t.Errorf("/mcp's data %s; /v1's error document %s", got.Error.Data, vBody)
		}
		if !strings.Contains(string(vBody), `"message":`+string(jsonwire.AppendString(nil, got.Error.Message))) {
			t.Errorf("/mcp's message %q is not the error document's: %s", got.Error.Message, vBody)
		}
	})
}
