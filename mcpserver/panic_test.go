package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck/schema"
)

// TestPanic: a tool that panics (a bug) answers an internal_error tool
// error and logs the panic once; the server goes on.
func TestPanic(t *testing.T) {
	var logBuf bytes.Buffer
	opts := Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))}.withDefaults()
	eq := schema.Tools()[0]
	h := handler(eq, opts, make(chan struct{}, 1), func([]byte) ([]byte, error) { panic("boom") })
	res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: eq.ID, Arguments: json.RawMessage(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	txt := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(txt, `"code":"internal_error"`) || strings.Contains(txt, "boom") {
		t.Fatalf("isError %v, text %s: want internal_error without the panic value", res.IsError, txt)
	}
	if n := strings.Count(logBuf.String(), "\n"); n != 1 || !strings.Contains(logBuf.String(), "boom") {
		t.Fatalf("%d log records, want 1 naming the panic:\n%s", n, logBuf.String())
	}
}
