package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck/mcpserver"
)

// Call a tool through an MCP client: the output document is the result's
// structured content; a document the tool refuses is a tool error whose
// text is the error document.
func ExampleNew() {
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(mcpserver.Options{}).Connect(ctx, serverEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for _, args := range []string{`{"source": [1, 1], "claim": [1]}`, `{"source": [1], "claim": [[1]]}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "multiset-equality-check", Arguments: json.RawMessage(args)})
		if err != nil {
			log.Fatal(err)
		}
		if res.IsError {
			var doc struct {
				Error struct{ Code, Path, Message string }
			}
			json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &doc)
			fmt.Println("tool error:", doc.Error.Code, doc.Error.Path, doc.Error.Message)
			continue
		}
		out := res.StructuredContent.(map[string]any)
		fmt.Println("valid:", out["valid"], "reason:", out["reason"], "discrepancy:", out["discrepancy"])
	}
	// Output:
	// valid: false reason: claim_mismatch discrepancy: map[actual:1 expected:2 path:/source/0]
	// tool error: invalid_input /claim/0 element is an array, not a scalar
}

// NewHTTPHandler answers MCP over streamable HTTP without sessions: one
// JSON-RPC request, one JSON response. Here a bare tools/call, as an agent's
// client would send it.
func ExampleNewHTTPHandler() {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{}))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rational-expression-check",` +
		`"arguments":{"expression":"1/2 + 1/3","claimed_value":"5/6","require_canonical":true}}}`
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var rpc struct {
		Result struct {
			StructuredContent struct{ Valid bool }
			IsError           bool
		}
	}
	json.NewDecoder(res.Body).Decode(&rpc)
	fmt.Println(res.StatusCode, rpc.Result.StructuredContent.Valid, rpc.Result.IsError)
	// Output:
	// 200 true false
}
