package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// Answer one message: the arguments are the input document, and the
// result is the CLI's answer, as structuredContent and as text.
func ExampleServer_Answer() {
	s := mcpserver.New(mcpserver.Options{})
	res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call",`+
		`"params":{"name":"multiset-equality-check","arguments":{"source":[1],"claim":[[1]]}}}`))
	fmt.Println(string(res))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"error\":{\"code\":\"invalid_input\",\"path\":\"/claim/0\",\"message\":\"element is an array, not a scalar\"}}"}],"isError":true}}
}

// ServeStdio answers every line, and every message already read before it
// returns, here at the end of input. Notifications get no answer.
func ExampleServer_ServeStdio() {
	in := strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rational-expression-check",` +
		`"arguments":{"expression":"1/2 + 1/3","claimed_value":"5/6","require_canonical":true}}}` + "\n")
	s := mcpserver.New(mcpserver.Options{MaxConcurrent: 1})
	if err := s.ServeStdio(context.Background(), in, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"valid\":true,\"reason\":null,\"value\":\"5/6\",\"first_discrepancy\":null,\"reference_version\":\"ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings\"}"}],"structuredContent":{"valid":true,"reason":null,"value":"5/6","first_discrepancy":null,"reference_version":"ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings"},"isError":false}}
}

// NewHTTPHandler answers MCP over streamable HTTP without sessions: one
// JSON-RPC message, one JSON response. Here a bare tools/call naming a
// tool's version.
func ExampleNewHTTPHandler() {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{}))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"multiset-equality-check@1.0.0",` +
		`"arguments":{"source":[1,1],"claim":[1]}}}`
	res, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	// Output:
	// 200 application/json
}

// Description is what tools/list gives a model to read before its first
// call: what the tool decides, its limits, and where its full rules are.
func ExampleDescription() {
	eq, _ := schema.Lookup(schema.MultisetEquality, "")
	d := mcpserver.Description(eq, mcpserver.DefaultMaxDocumentBytes)
	fmt.Println(len(d) <= mcpserver.MaxDescription, strings.Contains(d, "max_items 10000"), strings.Contains(d, "claimcheck help multiset-equality-check"))
	// Output:
	// true true true
}

var _ http.Handler = mcpserver.New(mcpserver.Options{}).HTTPHandler()

// New makes one Server of the tools; its transports (stdio, HTTP) share
// its check slots.
func ExampleNew() {
	s := mcpserver.New(mcpserver.Options{Version: "1.2.3"})
	res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	fmt.Println(string(res))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
}

// Options bound what a Server holds and checks at once; the zero value is
// ready to use. A document over MaxDocumentBytes is refused as the CLI
// refuses it.
func ExampleOptions() {
	s := mcpserver.New(mcpserver.Options{MaxDocumentBytes: 32})
	res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call",`+
		`"params":{"name":"multiset-equality-check","arguments":{"source":[1,2,3,4,5,6,7,8],"claim":[1,2,3,4,5,6,7,8]}}}`))
	fmt.Println(strings.Contains(string(res), `max_document_bytes`))
	// Output: true
}

// A Server answers each message, whatever the transport: here the
// initialize handshake, which names the server and its version.
func ExampleServer() {
	s := mcpserver.New(mcpserver.Options{Version: "1.2.3"})
	res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize",`+
		`"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`))
	fmt.Println(strings.Contains(string(res), `"serverInfo":{"name":"claimcheck","title":"claimcheck","version":"1.2.3"}`))
	// Output: true
}
