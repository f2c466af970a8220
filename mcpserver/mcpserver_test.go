package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// A conn sends one message and returns the answers it got: for stdio the
// lines written in answer to it, for HTTP the body (none for a 202). want
// is the number of answers due (stdio reads that many lines). hdr are
// "Name: value" headers HTTP sends besides Content-Type and Accept.
type conn interface {
	name() string
	send(t testing.TB, msg []byte, want int, hdr ...string) (status int, answers [][]byte)
}

// stdioConn is a ServeStdio of its own over pipes.
type stdioConn struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startStdio(t testing.TB, opts mcpserver.Options) *stdioConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioConn{in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() {
		err := mcpserver.New(opts).ServeStdio(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		io.Copy(io.Discard, c.out)
		if err := <-c.done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	return c
}

func (c *stdioConn) name() string { return "stdio" }

func (c *stdioConn) send(t testing.TB, msg []byte, want int, _ ...string) (int, [][]byte) {
	t.Helper()
	go c.in.Write(append(bytes.Clone(msg), '\n'))
	var answers [][]byte
	for range want {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("stdio: reading an answer: %v", err)
		}
		answers = append(answers, bytes.TrimSuffix(line, []byte("\n")))
	}
	return 0, answers
}

// httpConn posts to a handler on a real socket.
type httpConn struct {
	url    string
	client *http.Client
}

func startHTTP(t testing.TB, opts mcpserver.Options) *httpConn {
	t.Helper()
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(opts))
	t.Cleanup(srv.Close)
	return &httpConn{url: srv.URL, client: srv.Client()}
}

func (c *httpConn) name() string { return "http" }

func (c *httpConn) send(t testing.TB, msg []byte, want int, hdr ...string) (int, [][]byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", c.url, bytes.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, h := range hdr {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	res, err := c.client.Do(req)
	if err != nil {
		t.Fatalf("http: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if ct := res.Header.Get("Content-Type"); len(body) > 0 && ct != "application/json" {
		t.Fatalf("http: %d %q %.200s: want application/json", res.StatusCode, ct, body)
	}
	if len(body) == 0 {
		if res.StatusCode != http.StatusAccepted {
			t.Fatalf("http: %d with no body", res.StatusCode)
		}
		return res.StatusCode, nil
	}
	return res.StatusCode, [][]byte{bytes.TrimSuffix(body, []byte("\n"))}
}

// both returns a stdio and an HTTP connection to servers of opts.
func both(t *testing.T, opts mcpserver.Options) []conn {
	return []conn{startStdio(t, opts), startHTTP(t, opts)}
}

// response is a JSON-RPC response as a client reads it.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ResultType        string          `json:"resultType"`
		Meta              *struct {
			ServerInfo struct{ Name, Title, Version string } `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	} `json:"result"`
	Error *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decode(t testing.TB, b []byte) response {
	t.Helper()
	var r response
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || r.JSONRPC != "2.0" || (r.Result == nil) == (r.Error == nil) {
		t.Fatalf("not a JSON-RPC response (%v): %.300s", err, b)
	}
	return r
}

// callMsg is a tools/call of tool with args as written.
func callMsg(id int, tool string, args []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(args) + `}}`)
}

// An era is how a client speaks: the 2025 revisions (legacy) or
// ModernVersion, whose requests name it and the client's capabilities in
// params._meta and, on HTTP, in headers.
type era bool

const (
	legacy era = false
	modern era = true
)

func (e era) String() string {
	if e == modern {
		return mcpserver.ModernVersion
	}
	return "2025"
}

// meta is the params._meta of a request at ModernVersion.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + mcpserver.ModernVersion + `",` +
	`"io.modelcontextprotocol/clientCapabilities":{}}`

// call is callMsg in era e, with the HTTP headers it is sent with.
func (e era) call(id int, tool string, args []byte) ([]byte, []string) {
	if e == legacy {
		return callMsg(id, tool, args), []string{"MCP-Protocol-Version: 2025-11-25"}
	}
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{` + meta + `,"name":"` + tool + `","arguments":` + string(args) + `}}`),
		[]string{"MCP-Protocol-Version: " + mcpserver.ModernVersion, "Mcp-Method: tools/call", "Mcp-Name: " + tool}
}

// callOne sends one tools/call and returns its response.
func callOne(t testing.TB, c conn, id int, tool string, args []byte) response {
	t.Helper()
	return legacy.callOne(t, c, id, tool, args)
}

// callOne sends one tools/call in era e and returns its response, checking
// the era's result fields.
func (e era) callOne(t testing.TB, c conn, id int, tool string, args []byte) response {
	t.Helper()
	msg, hdr := e.call(id, tool, args)
	_, ans := c.send(t, msg, 1, hdr...)
	r := decode(t, ans[0])
	if string(r.ID) != strconv.Itoa(id) {
		t.Fatalf("%s: answer for id %s, want %d: %.300s", c.name(), r.ID, id, ans[0])
	}
	if r.Result != nil && (e == modern) != (r.Result.ResultType == "complete" && r.Result.Meta != nil && r.Result.Meta.ServerInfo.Name == "claimcheck") {
		t.Fatalf("%s at %s: resultType %q, _meta %+v", c.name(), e, r.Result.ResultType, r.Result.Meta)
	}
	return r
}

// cliAnswer is what "claimcheck run" writes for input: the executor's
// document, and whether it is an error document.
func cliAnswer(t testing.TB, tool *schema.Tool, input []byte) (doc []byte, isError bool) {
	out, err := tool.Execute(input)
	if err != nil {
		b, _ := json.Marshal(err)
		return b, true
	}
	return out.Doc, false
}

// checkCLI fails unless r is the tool result of doc, byte for byte: an
// output document as structuredContent and text, an error document as
// text with isError.
func checkCLI(t testing.TB, where string, r response, doc []byte, isError bool) {
	t.Helper()
	if r.Result == nil {
		t.Fatalf("%s: error %+v, want the CLI's %.300s", where, r.Error, doc)
	}
	if len(r.Result.Content) != 1 || r.Result.Content[0].Type != "text" || r.Result.Content[0].Text != string(doc) {
		t.Fatalf("%s: content %+v, want the text %.300s", where, r.Result.Content, doc)
	}
	if r.Result.IsError != isError {
		t.Fatalf("%s: isError %v, want %v", where, r.Result.IsError, isError)
	}
	if !isError && !bytes.Equal(r.Result.StructuredContent, doc) || isError && r.Result.StructuredContent != nil {
		t.Fatalf("%s: structuredContent %.300s, want %.300s", where, r.Result.StructuredContent, doc)
	}
}

// TestConformance sends every conformance case's input, as written, as
// the arguments of a tools/call over both transports. An input that is
// JSON gets the CLI's answer byte for byte (and the case's); one that is
// not makes the message not JSON, answered -32700. On stdio a message is
// one line, so each line feed of an input is sent as a carriage return,
// which the grammar treats the same (whitespace between tokens, a control
// character in a string); HTTP sends the bytes unchanged.
func TestConformance(t *testing.T) {
	for _, c := range both(t, mcpserver.Options{}) {
		for _, e := range []era{legacy, modern} {
			testConformance(t, c, e)
		}
	}
}

func testConformance(t *testing.T, c conn, e era) {
	for _, tool := range schema.Tools() {
		sent, notJSON := 0, 0
		for i, cs := range conformance.Surface(t, tool.ID) {
			input := cs.Input
			if c.name() == "stdio" {
				input = bytes.ReplaceAll(input, []byte("\n"), []byte("\r"))
			}
			where := c.name() + " " + e.String() + " " + cs.Name
			sent++
			if _, err := jsontape.Parse(string(input), jsontape.Options{}); err != nil {
				notJSON++
				msg, hdr := e.call(i, tool.ID, input)
				_, ans := c.send(t, msg, 1, hdr...)
				r := decode(t, ans[0])
				// The id is absent (2026-07-28) or null (2025) when the
				// envelope cannot be followed past the bad bytes.
				noID := map[era]string{legacy: "null", modern: ""}[e]
				if r.Error == nil || r.Error.Code != mcpserver.CodeParseError || string(r.ID) != noID && string(r.ID) != strconv.Itoa(i) {
					t.Errorf("%s: %s, want -32700 with id %q or %d", where, ans[0], noID, i)
				}
				continue
			}
			r := e.callOne(t, c, i, tool.ID, input)
			doc, isError := cliAnswer(t, tool, input)
			checkCLI(t, where, r, doc, isError)
			if cs.Output != nil {
				if !conformance.JSONEqual(r.Result.StructuredContent, cs.Output) {
					t.Errorf("%s: %s, want %s", where, r.Result.StructuredContent, cs.Output)
				}
			} else {
				conformance.CheckError(t, cs, conformance.ParseErrorDoc(t, doc))
			}
		}
		if sent == 0 || notJSON == 0 {
			t.Errorf("%s %s %s: %d sent, %d not JSON", c.name(), e, tool.ID, sent, notJSON)
		}
	}
}

// TestConformanceLineFeeds: over stdio, a document with line feeds sent
// as written is several lines; each gets an answer (-32700 for the pieces
// that are not JSON) and the server goes on.
func TestConformanceLineFeeds(t *testing.T) {
	c := startStdio(t, mcpserver.Options{})
	eq := schema.Tools()[0]
	for i, cs := range conformance.Load(t, eq.ID) {
		msg := callMsg(i, eq.ID, cs.Input)
		lines := 0
		for _, l := range bytes.Split(msg, []byte("\n")) {
			if jsonwire.SkipSpace(string(l), 0) < len(l) {
				lines++
			}
		}
		if lines < 2 {
			continue
		}
		_, ans := c.send(t, msg, lines)
		for _, a := range ans {
			if r := decode(t, a); r.Error == nil || r.Error.Code != mcpserver.CodeParseError && r.Error.Code != mcpserver.CodeInvalidRequest {
				t.Errorf("%s: a piece got %.200s, want -32700 or -32600", cs.Name, a)
			}
		}
		r := callOne(t, c, 9999, eq.ID, eq.Examples[0].Input)
		checkCLI(t, cs.Name+": the call after", r, eq.Examples[0].Output, false)
	}
}

const ping = `{"jsonrpc":"2.0","id":"after","method":"ping"}`

// TestHostile sends each hostile message over both transports, then a
// normal call, which must be answered. Arguments over the cap use a
// server whose MaxDocumentBytes is 1 MiB.
func TestHostile(t *testing.T) {
	const maxDoc = 1 << 20
	eq := schema.MultisetEquality
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	over := func(n int) string { return `{"source":[` + strings.Repeat("1,", n/2) + `1],"claim":[]}` }
	env := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	call := func(args string) string { return env("1", `{"name":"`+eq+`","arguments":`+args+`}`) }
	tooLarge := `{"error":{"code":"limit_exceeded","path":"","limit":"max_document_bytes","message":"the document is larger than 1048576 bytes (set by -cap)"}}`
	type row struct {
		reason string
		msg    string
		// Expected: a JSON-RPC error code (with id, "null" for null), or a
		// tool result with text (isError when the text is an error doc);
		// none: no answer is due. httpCode, when set, is what HTTP answers
		// instead (a body it refuses unread).
		code     int
		id       string
		text     string
		none     bool
		httpCode int
		batch    bool // the answer is a batch's: its one element is checked
	}
	rows := []row{
		{reason: "malformed arguments", msg: call(`{"source":[1,],"claim":[]}`), code: -32700, id: "1"},
		{reason: "truncated message", msg: `{"jsonrpc":"2.0","id":1,"method":"pi`, code: -32700, id: "null"},
		{reason: "a stray brace after the message", msg: call(`{"source":[1],"claim":[1]}`) + `}`, code: -32700, id: "null"},
		{reason: "a stray brace inside the arguments", msg: call(`{"source":[1],"claim":[1]}}`), code: -32700, id: "null"},
		{reason: "two messages on one line", msg: ping + ping, code: -32700, id: "null"},
		{reason: "a leading byte order mark", msg: "\ufeff" + ping, code: -32700, id: "null"},
		{reason: "a NUL byte", msg: "\x00" + ping, code: -32700, id: "null"},
		{reason: "invalid UTF-8 outside a string", msg: ping[:len(ping)-1] + "\xff}", code: -32700, id: "null"},
		{reason: "just whitespace and a number", msg: ` 5 `, code: -32600, id: "null"},
		{reason: "null", msg: `null`, code: -32600, id: "null"},
		{reason: "an empty batch", msg: `[]`, code: -32600, id: "null"},
		{reason: "a batch over MaxBatch", msg: "[" + strings.Repeat(ping+",", mcpserver.MaxBatch) + ping + "]", code: -32600, id: "null"},
		{reason: "a batch of notifications only", msg: `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, none: true},
		{reason: "a notification", msg: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, none: true},
		{reason: "a notification of an unknown method", msg: `{"jsonrpc":"2.0","method":"nope","params":{"x":[[[[1]]]]}}`, none: true},
		{reason: "duplicate id", msg: `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, code: -32600, id: "2"},
		{reason: "duplicate method", msg: `{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}`, code: -32600, id: "1"},
		{reason: "duplicate params", msg: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"params":{}}`, code: -32600, id: "1"},
		{reason: "duplicate jsonrpc", msg: `{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}`, code: -32600, id: "1"},
		{reason: "duplicate name in params", msg: env("1", `{"name":"`+eq+`","arguments":{"source":[1],"claim":[1]},"name":"x"}`), code: -32602, id: "1"},
		{reason: "duplicate arguments in params", msg: env("1", `{"name":"`+eq+`","arguments":{"source":[1],"claim":[1]},"arguments":{}}`), code: -32602, id: "1"},
		{reason: "invalid UTF-8 in the method", msg: `{"jsonrpc":"2.0","id":1,"method":"pi` + "\xff" + `ng"}`, code: -32600, id: "1"},
		{reason: "invalid UTF-8 in a member name", msg: `{"jsonrpc":"2.0","id":1,"method":"ping","` + "\xff" + `":1}`, code: -32600, id: "1"},
		{reason: "invalid UTF-8 in a string id", msg: `{"jsonrpc":"2.0","id":"` + "\xff" + `","method":"ping"}`, code: -32600, id: "null"},
		{reason: "invalid UTF-8 in the tool name", msg: env("1", `{"name":"`+"\xff"+`","arguments":{}}`), code: -32602, id: "1"},
		{reason: "invalid UTF-8 in the arguments: the tool's answer", msg: call(`{"source":["` + "\xff" + `"],"claim":[]}`),
			text: `{"error":{"code":"invalid_input","path":"/source/0","message":"string is not valid UTF-8 (byte offset 0)"}}`},
		{reason: "arguments just over the cap", msg: call(over(maxDoc + 10)), text: tooLarge},
		{reason: "arguments over the cap by half, within HTTP's hard cap: the same tool error on both", msg: call(over(maxDoc * 3 / 2)), text: tooLarge},
		{reason: "arguments over the cap by half, id last, not JSON: the same tool error on both",
			msg: `{"method":"tools/call","params":{"name":"` + eq + `","arguments":{"source":[` + strings.Repeat("1,,", maxDoc/2) + `]}},"jsonrpc":"2.0","id":1}`, text: tooLarge},
		{reason: "arguments over the cap by far, id last", msg: `{"method":"tools/call","params":{"name":"` + eq + `","arguments":` + over(3*maxDoc) + `},"jsonrpc":"2.0","id":1}`,
			text: tooLarge, httpCode: -32600},
		{reason: "arguments over the cap by far and not JSON", msg: call(`{"source":[` + strings.Repeat("1,,", maxDoc) + `]}`), text: tooLarge, httpCode: -32600},
		{reason: "a huge id", msg: `{"jsonrpc":"2.0","id":"` + strings.Repeat("a", 2*maxDoc) + `","method":"ping"}`, code: -32600, id: "null"},
		{reason: "a huge member besides the arguments", msg: env("1", `{"name":"`+eq+`","_meta":"`+strings.Repeat("a", 2*maxDoc)+`","arguments":{}}`), code: -32600, id: "1", httpCode: -32600},
		{reason: "nesting 10^5 levels in the arguments: the tool's answer", msg: call(`{"source":[` + deep(100000) + `],"claim":[]}`),
			text: `{"error":{"code":"invalid_input","path":"/source/0","message":"element is an array, not a scalar"}}`},
		{reason: "nesting 10^5 levels in _meta", msg: env("1", `{"name":"`+eq+`","_meta":`+deep(100000)+`,"arguments":{"source":[],"claim":[]}}`),
			text: string(schema.Tools()[0].Examples[0].Output)},
		{reason: "nesting 10^5 levels as the id", msg: `{"jsonrpc":"2.0","id":` + deep(100000) + `,"method":"ping"}`, code: -32600, id: "null"},
		{reason: "nesting 10^5 levels as the message: a batch of one", msg: deep(100000), code: -32600, id: "null", batch: true},
		{reason: "unclosed nesting of 10^5 levels", msg: strings.Repeat("[", 100000), code: -32700, id: "null"},
		{reason: "id null", msg: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, code: -32600, id: "null"},
		{reason: "id an object", msg: `{"jsonrpc":"2.0","id":{},"method":"ping"}`, code: -32600, id: "null"},
		{reason: "params missing from tools/call", msg: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, code: -32602, id: "1"},
		{reason: "params an array", msg: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}`, code: -32600, id: "1"},
		{reason: "tool name a number", msg: env("1", `{"name":5}`), code: -32602, id: "1"},
		{reason: "an unknown method", msg: `{"jsonrpc":"2.0","id":1,"method":"resources/list"}`, code: -32601, id: "1"},
		{reason: "jsonrpc 1.0", msg: `{"jsonrpc":"1.0","id":1,"method":"ping"}`, code: -32600, id: "1"},
		{reason: "no jsonrpc", msg: `{"id":1,"method":"ping"}`, code: -32600, id: "1"},
		{reason: "a response sent to the server", msg: `{"jsonrpc":"2.0","id":1,"result":{}}`, code: -32600, id: "1"},
		{reason: "an unknown envelope member", msg: `{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}`, code: -32600, id: "1"},
		{reason: "an unknown tool", msg: env("1", `{"name":"nope","arguments":{}}`), code: -32602, id: "1"},
		{reason: "an unknown tool version", msg: env("1", `{"name":"`+eq+`@9.9.9","arguments":{}}`), code: -32602, id: "1"},
	}
	opts := mcpserver.Options{MaxDocumentBytes: maxDoc, MaxDocumentBytesFlag: "-cap"}
	for _, c := range both(t, opts) {
		testutil.Run(t, rows, func(t *testing.T, r row) {
			want := 1
			if r.none {
				want = 0
			}
			_, ans := c.send(t, []byte(r.msg), want)
			if r.none {
				if len(ans) != 0 {
					t.Fatalf("%s: answered %.300s, want no answer", c.name(), ans[0])
				}
			} else {
				a := ans[0]
				if r.batch {
					if a[0] != '[' || a[len(a)-1] != ']' {
						t.Fatalf("%s: %.300s, want a batch answer", c.name(), a)
					}
					a = a[1 : len(a)-1]
				}
				got := decode(t, a)
				code, text := r.code, r.text
				if c.name() == "http" && r.httpCode != 0 {
					code, text = r.httpCode, ""
				}
				switch {
				case text != "":
					if got.Result == nil || len(got.Result.Content) != 1 || got.Result.Content[0].Text != text ||
						got.Result.IsError != strings.HasPrefix(text, `{"error"`) || string(got.ID) != "1" {
						t.Fatalf("%s: %.300s, want a tool result with text %s", c.name(), ans[0], text)
					}
				case got.Error == nil || got.Error.Code != code || r.id != "" && c.name() != "http" && string(got.ID) != r.id:
					t.Fatalf("%s: %.300s, want error %d id %s", c.name(), ans[0], code, r.id)
				}
			}
			_, after := c.send(t, []byte(ping), 1)
			if got := decode(t, after[0]); string(got.ID) != `"after"` || got.Result == nil {
				t.Fatalf("%s: the ping after got %.300s", c.name(), after[0])
			}
		})
	}
}

// TestListTools: tools/list, the same on both transports: one tool per
// id, a description with the limits and where the full semantics are,
// and the examples in _meta (the schemas: TestListingPortable).
func TestListTools(t *testing.T) {
	var lists []string
	for _, c := range both(t, mcpserver.Options{}) {
		_, ans := c.send(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), 1)
		var r struct {
			Result struct {
				Tools []struct {
					Name, Title, Description  string
					InputSchema, OutputSchema json.RawMessage
					Annotations               struct{ ReadOnlyHint, IdempotentHint bool }
					Meta                      struct {
						Version  string `json:"claimcheck/version"`
						Examples []struct {
							Arguments, StructuredContent json.RawMessage
						} `json:"claimcheck/examples"`
					} `json:"_meta"`
				}
			}
		}
		if err := json.Unmarshal(ans[0], &r); err != nil {
			t.Fatal(err)
		}
		lists = append(lists, string(ans[0]))
		tools := schema.Tools()
		if len(r.Result.Tools) != len(tools) {
			t.Fatalf("%d tools, want %d", len(r.Result.Tools), len(tools))
		}
		for i, mt := range r.Result.Tools {
			tool := tools[i]
			if mt.Name != tool.ID || mt.Title == "" || !mt.Annotations.ReadOnlyHint || !mt.Annotations.IdempotentHint {
				t.Errorf("%s: %+v", tool.ID, mt)
			}
			if mt.Description != mcpserver.Description(tool, mcpserver.DefaultMaxDocumentBytes) {
				t.Errorf("%s: description is not Description's", tool.ID)
			}
			// The semantics are one call away: the description names where.
			for _, want := range []string{tool.Description, "max_document_bytes", "claimcheck help " + tool.ID, "/v1/tools"} {
				if !strings.Contains(mt.Description, want) {
					t.Errorf("%s: description lacks %q", tool.ID, want)
				}
			}
			for _, l := range tool.Limits {
				if !strings.Contains(mt.Description, l.Name+" "+strconv.Itoa(l.Value)) {
					t.Errorf("%s: description lacks limit %s", tool.ID, l.Name)
				}
			}
			if mt.Meta.Version != tool.Version || len(mt.Meta.Examples) != len(tool.Examples) {
				t.Fatalf("%s: _meta %+v", tool.ID, mt.Meta)
			}
			for k, ex := range tool.Examples {
				if !bytes.Equal(mt.Meta.Examples[k].Arguments, ex.Input) || !bytes.Equal(mt.Meta.Examples[k].StructuredContent, ex.Output) {
					t.Errorf("%s: example %d not in tools/list", tool.ID, k)
				}
			}
		}
	}
	if lists[0] != lists[1] {
		t.Errorf("stdio and HTTP list different tools")
	}
}

// TestExamples: every example, by id and by id@version, gets the CLI's
// answer on both transports.
func TestExamples(t *testing.T) {
	for _, c := range both(t, mcpserver.Options{}) {
		for _, tool := range schema.Tools() {
			for k, ex := range tool.Examples {
				for _, name := range []string{tool.ID, tool.ID + "@" + tool.Version} {
					checkCLI(t, fmt.Sprintf("%s %s example %d", c.name(), name, k), callOne(t, c, k, name, ex.Input), ex.Output, false)
				}
			}
		}
	}
}

// TestUnknownTool: the same answer on both transports: -32602 with the
// unknown_tool error document as data.
func TestUnknownTool(t *testing.T) {
	var got []string
	for _, c := range both(t, mcpserver.Options{}) {
		_, ans := c.send(t, callMsg(1, "nope", []byte(`{}`)), 1)
		got = append(got, string(ans[0]))
	}
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no tool nope","data":{"error":{"code":"unknown_tool","path":"","message":"no tool nope"}}}}`
	if got[0] != want || got[1] != want {
		t.Fatalf("stdio %s\nhttp  %s\nwant  %s", got[0], got[1], want)
	}
}

// TestInitialize: the client's protocol version when a 2025 revision is
// served, else the newest of those (an initialize cannot select
// ModernVersion, which has no initialize).
func TestInitialize(t *testing.T) {
	for _, c := range both(t, mcpserver.Options{Version: "v1.2.3"}) {
		for _, tc := range []struct{ sent, want string }{
			{"2025-06-18", "2025-06-18"}, {"2024-11-05", "2024-11-05"}, {"1999-01-01", "2025-11-25"}, {mcpserver.ModernVersion, "2025-11-25"},
		} {
			_, ans := c.send(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+tc.sent+
				`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`), 1)
			var r struct {
				Result struct {
					ProtocolVersion string
					Capabilities    struct{ Tools *struct{} }
					ServerInfo      struct{ Name, Version string }
				}
			}
			json.Unmarshal(ans[0], &r)
			if r.Result.ProtocolVersion != tc.want || r.Result.Capabilities.Tools == nil || r.Result.ServerInfo.Version != "v1.2.3" {
				t.Errorf("%s: sent %s, got %s", c.name(), tc.sent, ans[0])
			}
		}
	}
}

// TestConcurrentCalls: concurrent calls with fewer slots than callers
// each get their own answer (run with -race).
func TestConcurrentCalls(t *testing.T) {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{MaxConcurrent: 2}))
	defer srv.Close()
	c := &httpConn{url: srv.URL, client: srv.Client()}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			tool := schema.Tools()[g%3]
			for i := range 10 {
				ex := tool.Examples[i%len(tool.Examples)]
				checkCLI(t, tool.ID, callOne(t, c, i, tool.ID, ex.Input), ex.Output, false)
			}
		})
	}
	wg.Wait()
}

// TestStdioDrain: 500 calls written at once and the input closed: 500
// answers, each to its own id, before ServeStdio returns.
func TestStdioDrain(t *testing.T) {
	var in bytes.Buffer
	eq := schema.Tools()[0]
	for i := range 500 {
		in.Write(callMsg(i, eq.ID, eq.Examples[i%2].Input))
		in.WriteByte('\n')
	}
	var out bytes.Buffer
	if err := mcpserver.New(mcpserver.Options{MaxConcurrent: 2}).ServeStdio(context.Background(), &in, &out); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for line := range bytes.Lines(out.Bytes()) {
		seen[string(decode(t, line).ID)] = true
	}
	if len(seen) != 500 {
		t.Fatalf("%d answers, want 500", len(seen))
	}
}

// TestHTTPRefusals: what HTTP refuses is answered with a JSON-RPC error in
// application/json.
func TestHTTPRefusals(t *testing.T) {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.Options{MaxDocumentBytes: 1000}))
	defer srv.Close()
	type row struct {
		reason, method, ct, accept, host, origin, body string
		length                                         int64
		status                                         int
	}
	rows := []row{
		{reason: "GET: no event stream", method: "GET", status: 405},
		{reason: "DELETE: no sessions", method: "DELETE", status: 405},
		{reason: "text/plain", method: "POST", ct: "text/plain", body: ping, status: 415},
		{reason: "Accept text/event-stream alone: no answer is a stream", method: "POST", accept: "text/event-stream", body: ping, status: 406},
		{reason: "Accept refusing application/json (q=0) over */*", method: "POST", accept: "application/json;q=0, */*", body: ping, status: 406},
		{reason: "DNS rebinding: a foreign Host on loopback", method: "POST", host: "evil.example", body: ping, status: 403},
		{reason: "a foreign Origin (MCP 2025-11-25)", method: "POST", origin: "https://attacker.example", body: ping, status: 403},
		{reason: "Origin null", method: "POST", origin: "null", body: ping, status: 403},
		{reason: "a page on localhost", method: "POST", origin: "http://localhost:6274", body: ping, status: 200},
		{reason: "the server's own origin", method: "POST", origin: "http://" + strings.TrimPrefix(srv.URL, "http://"), body: ping, status: 200},
		{reason: "declared over the held size, within the hard cap: followed and answered", method: "POST", body: ping, length: 1000 + mcpserver.EnvelopeBytes + 1, status: 200},
		{reason: "declared over the hard cap: refused unread", method: "POST", body: ping, length: 2*(1000+mcpserver.EnvelopeBytes) + 1, status: 413},
		{reason: "an empty body", method: "POST", body: "", status: 400},
		{reason: "a notification: 202", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, status: 202},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		req, _ := http.NewRequest(r.method, srv.URL, strings.NewReader(r.body))
		if r.ct != "" {
			req.Header.Set("Content-Type", r.ct)
		}
		if r.accept != "" {
			req.Header.Set("Accept", r.accept)
		}
		if r.host != "" {
			req.Host = r.host
		}
		if r.origin != "" {
			req.Header.Set("Origin", r.origin)
			req.Header.Set("Content-Type", "application/json") // a browser's POST without one is 415
		}
		client := srv.Client()
		if r.length > 0 {
			req.ContentLength = r.length
			req.Body = io.NopCloser(io.MultiReader(strings.NewReader(r.body), strings.NewReader(strings.Repeat(" ", int(r.length)-len(r.body)))))
			// As a client of large uploads should: the body refused unread
			// is then never sent, so the refusal arrives whole (sending on
			// while the server closes could see the connection reset first).
			req.Header.Set("Expect", "100-continue")
			client = &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
			defer client.CloseIdleConnections()
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != r.status {
			t.Fatalf("%d %s, want %d", res.StatusCode, body, r.status)
		}
		if r.status == 202 {
			if len(body) != 0 {
				t.Fatalf("202 with body %s", body)
			}
			return
		}
		if r.status == 200 {
			return
		}
		if res.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("Content-Type %q", res.Header.Get("Content-Type"))
		}
		got := decode(t, body)
		if got.Error == nil || string(got.ID) != "null" {
			t.Fatalf("%s, want an error with id null", body)
		}
		if r.status == 403 && !strings.Contains(string(got.Error.Data), `"code":"forbidden"`) {
			t.Fatalf("403 data %s, want the forbidden error document", got.Error.Data)
		}
		if r.status == 413 && !strings.Contains(string(got.Error.Data), `"limit":"max_document_bytes"`) {
			t.Fatalf("413 data %s, want limit_exceeded max_document_bytes", got.Error.Data)
		}
	})
}
