package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// connect runs New(opts) over in-memory transports and returns a client
// session to it.
func connect(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls tool with args (raw JSON) and returns the result.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args []byte) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %.200s: protocol error %v", tool, args, err)
	}
	return res
}

// text returns the result's one text content.
func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d contents, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	return tc.Text
}

// CheckOutput fails unless res carries the output document want, both as
// structured content and as its text.
func checkOutput(t testing.TB, res *mcp.CallToolResult, want []byte) {
	t.Helper()
	if res.IsError {
		t.Fatalf("isError, text %s; want output %s", text(t, res), want)
	}
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if !conformance.JSONEqual(structured, want) {
		t.Fatalf("structuredContent %s, want %s", structured, want)
	}
	if txt := text(t, res); !conformance.JSONEqual([]byte(txt), want) {
		t.Fatalf("text %s, want %s", txt, want)
	}
}

// errorOf fails unless res is a tool error whose text is an error document,
// and returns that error.
func errorOf(t testing.TB, res *mcp.CallToolResult) *claimcheck.Error {
	t.Helper()
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("isError %v, structuredContent %v; want a tool error", res.IsError, res.StructuredContent)
	}
	return conformance.ParseErrorDoc(t, []byte(text(t, res)))
}

// asJSON marshals v (a schema as the client decoded it).
func asJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestListTools(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := schema.Tools()
	if len(res.Tools) != len(tools) {
		t.Fatalf("%d tools, want %d", len(res.Tools), len(tools))
	}
	byName := map[string]*mcp.Tool{}
	for _, mt := range res.Tools {
		byName[mt.Name] = mt
	}
	for _, tool := range tools {
		mt := byName[tool.ID]
		if mt == nil {
			t.Fatalf("no MCP tool %s", tool.ID)
		}
		if mt.Description != tool.Description || mt.Title == "" {
			t.Errorf("%s: title %q, description %q", tool.ID, mt.Title, mt.Description)
		}
		if !conformance.JSONEqual(asJSON(t, mt.InputSchema), tool.InputSchema) {
			t.Errorf("%s: inputSchema %s, want the descriptor's %s", tool.ID, asJSON(t, mt.InputSchema), tool.InputSchema)
		}
		if !conformance.JSONEqual(asJSON(t, mt.OutputSchema), tool.OutputSchema) {
			t.Errorf("%s: outputSchema %s, want the descriptor's %s", tool.ID, asJSON(t, mt.OutputSchema), tool.OutputSchema)
		}
		if a := mt.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint {
			t.Errorf("%s: annotations %+v, want read-only and idempotent", tool.ID, a)
		}
	}
}

func TestSeedExamples(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	for _, tool := range schema.Tools() {
		for _, ex := range tool.Examples {
			checkOutput(t, call(t, cs, tool.ID, ex.Input), ex.Output)
		}
	}
}

// TestConformance calls every conformance case whose input is a JSON value
// (arguments must be JSON): outputs come back as structured content, errors
// as tool errors with the case's code, path, position and limit. The
// arguments reach the tool as they were sent, so the strict rules hold
// (duplicate names, lone surrogates, numbers out of range).
func TestConformance(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	for _, tool := range schema.Tools() {
		sent := 0
		for _, c := range conformance.Load(t, tool.ID) {
			if !json.Valid(c.Input) {
				continue
			}
			sent++
			res := call(t, cs, tool.ID, c.Input)
			if c.Output != nil {
				checkOutput(t, res, c.Output)
			} else {
				conformance.CheckError(t, c, errorOf(t, res))
			}
		}
		if sent == 0 {
			t.Errorf("%s: no case sent", tool.ID)
		}
	}
}

func TestToolErrors(t *testing.T) {
	cs := connect(t, mcpserver.Options{MaxDocumentBytes: 80})
	eq, rat := schema.MultisetEquality, schema.RationalExpression
	tests := []struct {
		reason, tool, args string
		code, path, limit  string
		position           int
	}{
		{"duplicate member", eq, `{"source":[1],"claim":[1],"source":[2]}`, "invalid_input", "/source", "", -1},
		{"arguments not an object", eq, `[1]`, "invalid_input", "", "", -1},
		{"no arguments", eq, `{}`, "invalid_input", "/source", "", -1},
		{"wrong type", eq, `{"source":"x","claim":[]}`, "invalid_input", "/source", "", -1},
		{"expression syntax", rat, `{"expression":"1+a","claimed_value":"1","require_canonical":true}`, "invalid_input", "/expression", "", 2},
		{"over MaxDocumentBytes", eq, `{"source":[` + strings.Repeat("1,", 40) + `1],"claim":[]}`, "limit_exceeded", "", "max_document_bytes", -1},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("every row needs a reason")
		}
		e := errorOf(t, call(t, cs, tc.tool, []byte(tc.args)))
		if string(e.Code) != tc.code || e.Path != tc.path || e.Limit != tc.limit || e.Position != tc.position {
			t.Errorf("%s: got %+v, want %s %q %q %d", tc.reason, e, tc.code, tc.path, tc.limit, tc.position)
		}
	}
}

// TestToolLimit: a document over one of the tool's limits is a tool error
// with limit_exceeded.
func TestToolLimit(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	args := `{"source":[` + strings.Repeat("1,", 10000) + `1],"claim":[]}`
	e := errorOf(t, call(t, cs, schema.MultisetEquality, []byte(args)))
	if e.Code != claimcheck.LimitExceeded || e.Path != "/source" || e.Limit != "max_items" {
		t.Fatalf("got %+v, want limit_exceeded /source max_items", e)
	}
}

// TestUnknownTool: a tool that is not served is a protocol error (the
// client named something that does not exist), not a tool error.
func TestUnknownTool(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: json.RawMessage(`{}`)})
	if err == nil {
		t.Fatal("calling an unknown tool succeeded")
	}
}

// TestConcurrentCalls: concurrent calls on one session, with fewer check
// slots than callers, each get their own answer (run with -race).
func TestConcurrentCalls(t *testing.T) {
	cs := connect(t, mcpserver.Options{MaxConcurrent: 2})
	type ex struct {
		tool     string
		in, want []byte
	}
	var exs []ex
	for _, tool := range schema.Tools() {
		for _, e := range tool.Examples {
			exs = append(exs, ex{tool.ID, e.Input, e.Output})
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 10 {
				e := exs[(g*10+i)%len(exs)]
				checkOutput(t, call(t, cs, e.tool, e.in), e.want)
			}
		})
	}
	wg.Wait()
}

// TestHTTP: the same tools over stateless streamable HTTP, with the SDK's
// client and with a bare JSON-RPC POST (no initialize: the server is
// stateless).
func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{}))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != len(schema.Tools()) {
		t.Fatalf("list: %v, %d tools", err, len(list.Tools))
	}
	eq := schema.Tools()[0]
	checkOutput(t, call(t, cs, eq.ID, eq.Examples[0].Input), eq.Examples[0].Output)

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + eq.ID + `","arguments":` + string(eq.Examples[1].Input) + `}}`
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var rpc struct {
		Result struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
			IsError           bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(got, &rpc); err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q %s", res.StatusCode, res.Header.Get("Content-Type"), got)
	}
	if rpc.Result.IsError || !conformance.JSONEqual(rpc.Result.StructuredContent, eq.Examples[1].Output) {
		t.Fatalf("bare tools/call: %s", got)
	}
	if res.Header.Get("Mcp-Session-Id") != "" || bytes.Contains(got, []byte("Mcp-Session-Id")) {
		t.Fatalf("a stateless server set a session id")
	}
}
