package mcpserver_test

import (
	"bufio"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

var update = flag.Bool("update", false, "rewrite the transcripts in testdata/ from the current answers")

// A step is one message of a transcript. On HTTP it is sent with
// Content-Type and Accept, and with the headers of its era (none for the
// first 2025 message, which opens the session; the negotiated
// MCP-Protocol-Version after it; at 2026-07-28 the version, Mcp-Method and
// Mcp-Name its body implies) unless hdr replaces them.
type step struct {
	note     string
	msg      string
	hdr      []string // "Name: value" lines, replacing the era's headers; nil: the era's
	httpOnly bool     // stdio has no headers to get wrong
	quiet    bool     // a notification: no answer is due
}

// transcriptOptions are the options of the transcripts' servers.
var transcriptOptions = mcpserver.Options{Version: "v0.0.0-transcript"}

// modernMeta is the _meta of a 2026-07-28 request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"transcript","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

func call(id, name, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

func modernCall(id, name, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + modernMeta + `,"name":"` + name + `","arguments":` + args + `}}`
}

func modernReq(id, method string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + modernMeta + `}}`
}

// v2025 is the MCP-Protocol-Version header of the 2025 steps after the
// first.
const v2025 = "MCP-Protocol-Version: 2025-11-25"

// legacySteps are a 2025 client's session: the handshake, every method
// served, each tool's first example, and the errors of each rule.
func legacySteps() []step {
	eq := schema.MultisetEquality
	steps := []step{
		{note: "initialize: the client's version", msg: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"transcript","version":"1"}}}`},
		{note: "a notification: no answer", msg: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, quiet: true},
		{note: "ping", msg: `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{note: "tools/list", msg: `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`},
	}
	for _, t := range schema.Tools() {
		steps = append(steps, step{note: "tools/call: " + t.ID + "'s first example", msg: call(`"`+t.ID+`"`, t.ID, string(t.Examples[0].Input))})
	}
	return append(steps,
		step{note: "a document the tool refuses: its error document", msg: call("4", eq, `{"source":[1],"claim":[[1]]}`)},
		step{note: "a tool's version", msg: call("5", eq+"@1.0.0", `{"source":["a"],"claim":["a"]}`)},
		step{note: "a tool not served", msg: call("6", "nope", `{}`)},
		step{note: "a cursor: the list has one page", msg: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"x"}}`},
		step{note: "a method not served", msg: `{"jsonrpc":"2.0","id":8,"method":"resources/list"}`},
		step{note: "server/discover without a claim: not a 2025 method", msg: `{"jsonrpc":"2.0","id":9,"method":"server/discover"}`},
		step{note: "arguments that are not JSON", msg: call("10", eq, `{"source":[1,],"claim":[]}`)},
		step{note: "not a request: an unknown member", msg: `{"jsonrpc":"2.0","id":11,"method":"ping","extra":1}`},
		step{note: "not a request: id null", msg: `{"jsonrpc":"2.0","id":null,"method":"ping"}`},
		step{note: "a batch", msg: `[{"jsonrpc":"2.0","id":12,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`},
		step{note: "an empty batch", msg: `[]`},
		step{note: "initialize: an older version", msg: `{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`},
		step{note: "initialize: a version it cannot negotiate gets the newest 2025 one", msg: `{"jsonrpc":"2.0","id":14,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}`},
		step{note: "a page on localhost (any port): served", msg: `{"jsonrpc":"2.0","id":15,"method":"ping"}`, hdr: []string{v2025, "Origin: http://localhost:3000"}, httpOnly: true},
		step{note: "an Origin of another site: 403 (MCP 2025-11-25: Origin is validated, against DNS rebinding)", msg: `{"jsonrpc":"2.0","id":16,"method":"ping"}`, hdr: []string{v2025, "Origin: https://attacker.example"}, httpOnly: true},
		step{note: "Origin null (a sandboxed page, a file): 403", msg: `{"jsonrpc":"2.0","id":17,"method":"ping"}`, hdr: []string{v2025, "Origin: null"}, httpOnly: true},
		step{note: "a Host that is not an allowed name (DNS rebinding): 403", msg: `{"jsonrpc":"2.0","id":18,"method":"ping"}`, hdr: []string{v2025, "Host: rebound.attacker.example:8080"}, httpOnly: true},
	)
}

// modernSteps are 2026-07-28 requests: every method served, each tool's
// first example, the removed methods, and each protocol refusal.
func modernSteps() []step {
	eq := schema.MultisetEquality
	steps := []step{
		{note: "server/discover", msg: modernReq(`"d"`, "server/discover")},
		{note: "tools/list, with its cache hints", msg: modernReq("1", "tools/list")},
	}
	for _, t := range schema.Tools() {
		steps = append(steps, step{note: "tools/call: " + t.ID + "'s first example", msg: modernCall(`"`+t.ID+`"`, t.ID, string(t.Examples[0].Input))})
	}
	v := "MCP-Protocol-Version: 2026-07-28"
	return append(steps,
		step{note: "a document the tool refuses: its error document", msg: modernCall("2", eq, `{"source":[1],"claim":[[1]]}`)},
		step{note: "a tool not served: -32602 in the answer", msg: modernCall("3", "nope", `{}`)},
		step{note: "initialize: removed", msg: modernReq("4", "initialize")},
		step{note: "ping: removed", msg: modernReq("5", "ping")},
		step{note: "_meta without the client capabilities", msg: `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		step{note: "a version not served", msg: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			hdr: []string{"MCP-Protocol-Version: 2099-01-01", "Mcp-Method: tools/list"}},
		step{note: "a batch: none at 2026-07-28", msg: "[" + modernReq("8", "tools/list") + "]", hdr: []string{v}},
		step{note: "arguments that are not JSON", msg: modernCall("9", eq, `{"source":[1,],"claim":[]}`)},
		step{note: "not a request: id null, which the 2026-07-28 schema has not", msg: `{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{` + modernMeta + `}}`},
		step{note: "a notification: no answer", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{` + modernMeta + `,"requestId":1}}`, quiet: true},
		step{note: "no _meta, the header names 2026-07-28", msg: `{"jsonrpc":"2.0","id":10,"method":"tools/list"}`, hdr: []string{v, "Mcp-Method: tools/list"}, httpOnly: true},
		step{note: "the MCP-Protocol-Version header missing", msg: modernReq("11", "tools/list"), hdr: []string{"Mcp-Method: tools/list"}, httpOnly: true},
		step{note: "the header and _meta name other versions", msg: modernReq("12", "tools/list"), hdr: []string{"MCP-Protocol-Version: 2025-11-25", "Mcp-Method: tools/list"}, httpOnly: true},
		step{note: "Mcp-Method missing", msg: modernReq("13", "tools/list"), hdr: []string{v}, httpOnly: true},
		step{note: "Mcp-Method not the body's", msg: modernReq("14", "tools/list"), hdr: []string{v, "Mcp-Method: TOOLS/LIST"}, httpOnly: true},
		step{note: "Mcp-Name missing", msg: modernCall("15", eq, `{}`), hdr: []string{v, "Mcp-Method: tools/call"}, httpOnly: true},
		step{note: "Mcp-Name not the body's", msg: modernCall("16", eq, `{}`), hdr: []string{v, "Mcp-Method: tools/call", "Mcp-Name: other"}, httpOnly: true},
		step{note: "Mcp-Name in Base64", msg: modernCall("17", eq, `{"source":[],"claim":[]}`), hdr: []string{v, "Mcp-Method: tools/call", "Mcp-Name: =?base64?bXVsdGlzZXQtZXF1YWxpdHktY2hlY2s=?="}, httpOnly: true},
		step{note: "a version not served, named by the header only", msg: `{"jsonrpc":"2.0","id":18,"method":"tools/list"}`, hdr: []string{"MCP-Protocol-Version: 1999-01-01"}, httpOnly: true},
		step{note: "not JSON, sent with the 2026-07-28 header: no id to give", msg: `{"jsonrpc":"2.0","id":`, hdr: []string{v, "Mcp-Method: tools/list"}, httpOnly: true},
		step{note: "an Origin of another site: 403", msg: modernReq("19", "tools/list"), hdr: []string{v, "Mcp-Method: tools/list", "Origin: https://attacker.example"}, httpOnly: true},
	)
}

// TestTranscripts runs each era's steps over stdio and over HTTP and
// compares what was sent and answered with testdata/transcripts/, byte for
// byte (go test -update rewrites them). The 2025 transcripts were made
// before the 2026-07-28 revision was served: they show that its answers
// did not change.
func TestTranscripts(t *testing.T) {
	for _, tc := range []struct {
		era   string
		steps []step
	}{{"2025", legacySteps()}, {"2026-07-28", modernSteps()}} {
		t.Run(tc.era+" stdio", func(t *testing.T) { golden(t, "stdio-"+tc.era, stdioTranscript(t, tc.steps)) })
		t.Run(tc.era+" http", func(t *testing.T) { golden(t, "http-"+tc.era, httpTranscript(t, tc.era, tc.steps)) })
	}
}

func stdioTranscript(t *testing.T, steps []step) string {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.New(transcriptOptions).ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	var b strings.Builder
	for _, s := range steps {
		if s.httpOnly {
			continue
		}
		b.WriteString("# " + s.note + "\n> " + s.msg + "\n")
		if _, err := io.WriteString(inW, s.msg+"\n"); err != nil {
			t.Fatal(err)
		}
		if s.quiet {
			b.WriteString("< (no answer)\n\n")
			continue
		}
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("< " + line + "\n")
	}
	inW.Close()
	io.Copy(io.Discard, out)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func httpTranscript(t *testing.T, era string, steps []step) string {
	srv := httptest.NewServer(mcpserver.NewHTTPHandler(transcriptOptions))
	defer srv.Close()
	var b strings.Builder
	for i, s := range steps {
		hdr := s.hdr
		if hdr == nil {
			hdr = eraHeaders(era, i, s.msg)
		}
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(s.msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for _, h := range hdr {
			k, v, _ := strings.Cut(h, ": ")
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		b.WriteString("# " + s.note + "\n> POST")
		for _, h := range hdr {
			b.WriteString(" | " + h)
		}
		b.WriteString("\n> " + s.msg + "\n< " + res.Status + " " + res.Header.Get("Content-Type") + "\n")
		if len(body) > 0 {
			b.WriteString("< " + string(body))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// eraHeaders are the MCP headers of step i of era with body msg.
func eraHeaders(era string, i int, msg string) []string {
	if era == "2025" {
		if i == 0 {
			return nil
		}
		return []string{"MCP-Protocol-Version: 2025-11-25"}
	}
	h := []string{"MCP-Protocol-Version: 2026-07-28"}
	if m := field(msg, `"method":"`); m != "" {
		h = append(h, "Mcp-Method: "+m)
		if m == "tools/call" {
			h = append(h, "Mcp-Name: "+field(msg, `},"name":"`)) // after _meta, whose clientInfo has a name
		}
	}
	return h
}

// field returns the string after the first occurrence of prefix in msg,
// up to the next quote.
func field(msg, prefix string) string {
	_, rest, ok := strings.Cut(msg, prefix)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// golden compares got with testdata/transcripts/name.txt, or rewrites it
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "transcripts", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("%s differs from %s at line %d (go test -update rewrites it, once the change is checked):\ngot  %.600s\nwant %.600s", name, path, i+1, g[i], w[i])
		}
	}
	t.Fatalf("%s: %d lines, %s %d", name, len(g), path, len(w))
}
