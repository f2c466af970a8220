package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// TestMCPCapAnswerAgrees: a tools/call whose arguments are over the cap,
// by far (over the document cap and its envelope, within /mcp's hard
// cap), is answered alike by "claimcheck mcp" (stdio) and by the /mcp of
// "claimcheck serve": a result with isError and the limit_exceeded error
// document, whose message names the flag that sets the cap there.
func TestMCPCapAnswerAgrees(t *testing.T) {
	const limit = 100 << 10
	args := `{"source":[` + strings.Repeat("1,", limit) + `1],"claim":[]}` // twice the cap: over it and its envelope
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + schema.MultisetEquality + `","arguments":` + args + `}}`
	want := func(flag string) string {
		return `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"error\":{\"code\":\"limit_exceeded\",\"path\":\"\",\"limit\":\"max_document_bytes\",` +
			`\"message\":\"the document is larger than 102400 bytes (set by ` + flag + `)\"}}"}],"isError":true}}`
	}

	var stdout, stderr bytes.Buffer
	if code := mcpCmd([]string{"-max-document-bytes", "102400"}, strings.NewReader(call+"\n"), &stdout, &stderr); code != 0 {
		t.Fatalf("mcp: exit %d, %s", code, stderr.String())
	}
	if got := strings.TrimSuffix(stdout.String(), "\n"); got != want("-max-document-bytes") {
		t.Errorf("stdio answered %.400s\nwant %s", got, want("-max-document-bytes"))
	}

	opts, _, code, ok := serveFlags([]string{"-max-body-bytes", "102400"}, io.Discard)
	if !ok {
		t.Fatalf("serve: exit %d", code)
	}
	srv := httptest.NewServer(service.New(opts))
	defer srv.Close()
	res, err := http.Post(srv.URL+service.RouteMCP, "application/json", strings.NewReader(call))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if got := strings.TrimSuffix(string(body), "\n"); res.StatusCode != 200 || got != want("-max-body-bytes") {
		t.Errorf("/mcp answered %d %.400s\nwant 200 %s", res.StatusCode, got, want("-max-body-bytes"))
	}
}
