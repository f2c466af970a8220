package mcpserver

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// TestPanic: a tool that panics (a bug) answers an internal_error tool
// error and logs the panic once; the server goes on.
func TestPanic(t *testing.T) {
	var logBuf bytes.Buffer
	s := New(Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	s.execute = func(*schema.Tool, []byte) (schema.Output, error) { panic("boom") }
	res := string(s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":{}}}`)))
	if !strings.Contains(res, `"isError":true`) || !strings.Contains(res, `internal_error`) || strings.Contains(res, "boom") {
		t.Fatalf("%s: want an internal_error tool error without the panic value", res)
	}
	if n := strings.Count(logBuf.String(), "\n"); n != 1 || !strings.Contains(logBuf.String(), "boom") {
		t.Fatalf("%d log records, want 1 naming the panic:\n%s", n, logBuf.String())
	}
	if res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); string(res) != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("after the panic: %s", res)
	}
}
