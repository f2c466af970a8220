package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/schema"
)

// DefaultMaxDocumentBytes is the default [Options.MaxDocumentBytes]: 64 MiB,
// the CLI's and the HTTP API's default.
const DefaultMaxDocumentBytes = 64 << 20

// Options configure [New] and [NewHTTPHandler]. The zero value is ready to
// use.
type Options struct {
	// Version is the server version reported to clients; "" means
	// "(devel)".
	Version string
	// MaxDocumentBytes caps the bytes of a call's arguments (the input
	// document). Zero or negative means DefaultMaxDocumentBytes.
	MaxDocumentBytes int64
	// MaxConcurrent caps the calls checked at once, over every session of
	// the server; the others wait their turn. Zero or negative means
	// 2 × GOMAXPROCS: the checks are CPU-bound.
	MaxConcurrent int
	// Logger receives one record per recovered panic in a tool (a bug).
	// Nil means slog.Default().
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Version == "" {
		o.Version = "(devel)"
	}
	if o.MaxDocumentBytes <= 0 {
		o.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// New returns an MCP server of the claimcheck tools. Where two served
// versions share a tool id, the newest is the MCP tool of that name.
func New(opts Options) *mcp.Server {
	opts = opts.withDefaults()
	s := mcp.NewServer(&mcp.Implementation{Name: "claimcheck", Title: "claimcheck", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Exact checks of claimed results. Call a tool with its input document as the arguments; " +
			"the output document says whether the claim is valid and, if not, where it first goes wrong.",
		// Tools only; the list never changes.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	slots := make(chan struct{}, opts.MaxConcurrent)
	seen := map[string]bool{}
	for _, t := range schema.Tools() {
		if seen[t.ID] {
			continue
		}
		seen[t.ID] = true
		t, _ = schema.Lookup(t.ID, "") // the newest version
		s.AddTool(mcpTool(t), handler(t, opts, slots, func(in []byte) ([]byte, error) { o, err := t.Execute(in); return o.Doc, err }))
	}
	return s
}

// NewHTTPHandler returns an http.Handler serving New(opts) over MCP's
// streamable HTTP transport, statelessly (no Mcp-Session-Id; each POST is
// one exchange) and with application/json responses rather than event
// streams. Requests carrying a non-loopback Host on a loopback address are
// refused (DNS rebinding protection). Its answers to HTTP-level failures
// are the SDK's, some of them plain text.
func NewHTTPHandler(opts Options) http.Handler {
	opts = opts.withDefaults()
	s := New(opts)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// The JSON-RPC envelope around a document of the largest size.
		MaxRequestBodyBytes: opts.MaxDocumentBytes + 64<<10,
	})
}

// mcpTool returns the MCP tool of t: name t.ID, a title made from the id,
// description, inputSchema and outputSchema from the descriptor, and the
// annotations of a read-only, idempotent, closed-world tool.
func mcpTool(t *schema.Tool) *mcp.Tool {
	no := false
	return &mcp.Tool{
		Name:         t.ID,
		Title:        title(t.ID),
		Description:  t.Description,
		InputSchema:  json.RawMessage(t.InputSchema),
		OutputSchema: json.RawMessage(t.OutputSchema),
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &no,
		},
	}
}

// title turns "multiset-equality-check" into "Multiset equality check".
func title(id string) string {
	s := strings.ReplaceAll(id, "-", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// result returns the tools/call result for an Execute answer: the output
// document as structured content and as text, or, for an error, isError
// with the error document as text.
func result(out []byte, err error) *mcp.CallToolResult {
	if err != nil {
		e, ok := err.(*claimcheck.Error)
		if !ok {
			e = &claimcheck.Error{Code: httpapi.InternalError, Position: claimcheck.NoPosition, Message: "internal error"}
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(e.AppendJSON(nil))}}}
	}
	return &mcp.CallToolResult{
		StructuredContent: json.RawMessage(out),
		Content:           []mcp.Content{&mcp.TextContent{Text: string(out)}},
	}
}

// handler answers a tools/call of t with execute (t.Execute but in tests).
// A panic is logged and answered as an internal_error tool error.
func handler(t *schema.Tool, opts Options, slots chan struct{}, execute func([]byte) ([]byte, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		args := req.Params.Arguments
		if int64(len(args)) > opts.MaxDocumentBytes {
			return result(nil, errs.Limit("", "max_document_bytes",
				"the document is larger than "+strconv.FormatInt(opts.MaxDocumentBytes, 10)+" bytes")), nil
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() {
			if v := recover(); v != nil {
				opts.Logger.LogAttrs(context.Background(), slog.LevelError, "mcpserver: panic in a tool",
					slog.String("tool", t.ID), slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
				res = result(nil, fmt.Errorf("panic"))
			}
		}()
		return result(execute(args)), nil
	}
}
