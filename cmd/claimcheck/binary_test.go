package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// TestBinary builds the command once, with go build, and checks what only
// a real process shows: exit statuses, stdin and stdout as pipes, the build
// information of a real build, and signals. Everything else is tested in
// process. The binary is built without -race even under -race: a
// race-enabled binary starts slowly, and the code is race-tested in
// process. The normal run keeps one pass of each process-level rule (exit
// statuses, pipes, signals, the MCP and HTTP transports, the flags); the
// slower passes (memory under load, TLS and HTTP/2, the connection cap, a
// terminal) are the long run's.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "claimcheck")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// First and alone: it measures a process's memory under load.
	t.Run("serve memory under 60 MB calls", func(t *testing.T) { longOnly(t); testServeMemory(t, bin) })
	t.Run("exit codes", func(t *testing.T) { t.Parallel(); testExitCodes(t, bin) })
	t.Run("batch -j 1000000000", func(t *testing.T) { t.Parallel(); testBatchHugeJ(t, bin) })
	t.Run("batch route clients", func(t *testing.T) { t.Parallel(); testBatchClients(t, bin) })
	t.Run("pipes", func(t *testing.T) { t.Parallel(); testPipes(t, bin) })
	t.Run("version", func(t *testing.T) { t.Parallel(); testVersion(t, bin) })
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run("serve until "+sig.String(), func(t *testing.T) { t.Parallel(); testServe(t, bin, sig) })
	}
	t.Run("mcp", func(t *testing.T) { t.Parallel(); testMCPBinary(t, bin) })
	t.Run("mcp document cap", func(t *testing.T) { t.Parallel(); testMCPBinaryDocumentCap(t, bin) })
	t.Run("mcp drain", func(t *testing.T) { t.Parallel(); testMCPDrain(t, bin) })
	t.Run("mcp hostile", func(t *testing.T) { longOnly(t); t.Parallel(); testMCPHostile(t, bin) })
	t.Run("mcp official clients and suite", func(t *testing.T) { t.Parallel(); testMCPClients(t, bin) })
	t.Run("openapi", func(t *testing.T) { t.Parallel(); testOpenAPICommand(t, bin) })
	t.Run("serve operations", func(t *testing.T) { longOnly(t); t.Parallel(); testServeOperations(t, bin) })
	t.Run("serve -base-path", func(t *testing.T) { longOnly(t); t.Parallel(); testServeBasePath(t, bin) })
	t.Run("serve shutdown loses nothing", func(t *testing.T) { t.Parallel(); testServeShutdown(t, bin) })
	t.Run("serve shutdown ends batch streams", func(t *testing.T) { t.Parallel(); testServeStreamShutdown(t, bin) })
	t.Run("serve connection limit", func(t *testing.T) { longOnly(t); t.Parallel(); testServeConnLimit(t, bin) })
	t.Run("serve behind haproxy and nginx", func(t *testing.T) { longOnly(t); t.Parallel(); testServeBehindProxies(t, bin) })
	t.Run("serve unfinished gzip lines", func(t *testing.T) { longOnly(t); testServeGzipLines(t, bin) })
	t.Run("serve HTTP/2 streams share the allowance", func(t *testing.T) { t.Parallel(); testServeHTTP2Share(t, bin) })
	t.Run("serve -metrics-addr connection limit", func(t *testing.T) { longOnly(t); t.Parallel(); testServeMetricsConnLimit(t, bin) })
	t.Run("serve second signal", func(t *testing.T) { longOnly(t); t.Parallel(); testServeSecondSignal(t, bin) })
	t.Run("serve TLS and h2c", func(t *testing.T) { longOnly(t); t.Parallel(); testServeHTTP2(t, bin) })
	t.Run("serve flags", func(t *testing.T) { t.Parallel(); testServeFlags(t, bin) })
	t.Run("serve probes at the connection cap", func(t *testing.T) { longOnly(t); t.Parallel(); testServeProbesAtCap(t, bin) })
	t.Run("serve HTTP/2 shutdown", func(t *testing.T) { longOnly(t); t.Parallel(); testServeHTTP2Shutdown(t, bin) })
	t.Run("serve refuses smuggling", func(t *testing.T) { t.Parallel(); testServeSmuggling(t, bin) })
	t.Run("serve TLS error log", func(t *testing.T) { longOnly(t); t.Parallel(); testServeTLSErrorLog(t, bin) })
	t.Run("serve -metrics-addr", func(t *testing.T) { longOnly(t); t.Parallel(); testServeMetricsAddr(t, bin) })
	t.Run("serve -allowed-hosts", func(t *testing.T) { t.Parallel(); testServeAllowedHosts(t, bin) })
	t.Run("serve early answers reach writers", func(t *testing.T) { t.Parallel(); testServeEarlyAnswers(t, bin) })
	t.Run("serve trickle attack", func(t *testing.T) { testServeTrickle(t, bin) })
	t.Run("serve 20,000 connections", func(t *testing.T) { testServeManyConnections(t, bin) })
	t.Run("progress on a terminal", func(t *testing.T) { longOnly(t); t.Parallel(); testProgressTerminal(t, bin) })
	t.Run("no progress off a terminal", func(t *testing.T) { t.Parallel(); testNoProgressOffTerminal(t, bin) })
}

// longOnly skips a process-level pass outside the long run.
func longOnly(t *testing.T) {
	t.Helper()
	if !testutil.Long() {
		t.Skip("a slower process-level pass: run with " + testutil.LongEnv + "=1")
	}
}

// testServeBasePath: "serve -base-path /api" serves everything under /api/
// (the page, its files, the tools, the OpenAPI document with its server, the
// probes), advertises execute_url under it, and answers a path outside it
// with a JSON not_found.
func testServeBasePath(t *testing.T, bin string) {
	p := startServe(t, bin, "-base-path", "/api/")
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		res, err := client.Get(p.base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, body
	}
	for _, tc := range []struct{ reason, path, contains string }{
		{"the page", "/api/", `src="playground/app.mjs"`},
		{"its script", "/api/playground/app.mjs", "logic.mjs"},
		{"the tools, with prefixed execute URLs", "/api/v1/tools", `"execute_url":"/api/v1/tools/`},
		{"the OpenAPI document names its server", "/api/openapi.json", `"url": "/api"`},
		{"the probes", "/api/healthz", "alive"},
	} {
		if res, body := get(tc.path); res.StatusCode != 200 || !strings.Contains(string(body), tc.contains) {
			t.Errorf("%s: GET %s = %d %.120s; want 200 containing %q", tc.reason, tc.path, res.StatusCode, body, tc.contains)
		}
	}
	for _, tool := range schema.Tools() {
		res, err := client.Post(p.base+"/api"+tool.ExecuteURL, "application/json", bytes.NewReader(tool.Examples[0].Input))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !conformance.JSONEqual(body, tool.Examples[0].Output) {
			t.Errorf("%s under /api: %d %s", tool.ID, res.StatusCode, body)
		}
	}
	if res, body := get("/v1/tools"); res.StatusCode != 404 || !strings.Contains(string(body), `"code":"not_found"`) {
		t.Errorf("outside the prefix: %d %s; want a 404 not_found document", res.StatusCode, body)
	}
	if res, _ := get("/api"); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/api/" {
		t.Errorf("GET /api: %d to %q; want a redirect to /api/", res.StatusCode, res.Header.Get("Location"))
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.stop(t, syscall.SIGTERM)
}

// runBinary runs bin with stdin and returns its stdout, stderr and exit
// code.
func runBinary(t testing.TB, bin string, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.Bytes(), e.Bytes(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.Bytes(), e.Bytes(), 0
}

// testExitCodes: each exit status reaches the shell.
func testExitCodes(t *testing.T, bin string) {
	eq := schema.MultisetEquality
	valid := `{"source":[1],"claim":[1]}`
	mismatch := `{"source":[1],"claim":[2]}`
	type row struct {
		reason string
		args   []string
		stdin  string
		code   int
		stdout string // a prefix of stdout ("" means empty)
	}
	tests := []row{
		{"0: a verdict", []string{"run", eq}, mismatch, 0, `{"valid":false`},
		{"1: an error document", []string{"run", eq}, "[]", 1, `{"error":{"code":"invalid_input"`},
		{"2: a usage error", []string{"check"}, "", 2, ""},
		{"4: run -exit-code, a false verdict", []string{"run", "-exit-code", eq}, mismatch, 4, `{"valid":false`},
		{"4: batch -exit-code", []string{"batch", "-exit-code", eq}, valid + "\n" + mismatch + "\n", 4, `{"valid":true`},
		{"1: batch, a blank line", []string{"batch", eq}, valid + "\n\n", 1, `{"valid":true`},
		{"serve -h writes to the process's stdout", []string{"serve", "-h"}, "", 0, "Usage: claimcheck serve"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		stdout, stderr, code := runBinary(t, bin, []byte(tc.stdin), tc.args...)
		if code != tc.code || tc.stdout == "" && len(stdout) != 0 || !bytes.HasPrefix(stdout, []byte(tc.stdout)) {
			t.Errorf("exit %d (want %d), stdout %.200q (want prefix %q); stderr %.300s", code, tc.code, stdout, tc.stdout, stderr)
		}
	})
}

// testPipes: over pipes, batch answers each line as soon as it is in,
// while stdin stays open, and exits when stdin closes.
func testPipes(t *testing.T, bin string) {
	cmd := exec.Command(bin, "batch", "-exit-code", schema.MultisetEquality)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() // only if the test fails before stdin closes
	answers := bufio.NewReader(stdout)
	for i := range 3 {
		fmt.Fprintf(stdin, "{\"source\":[%d],\"claim\":[%d]}\n", i, i)
		got := make(chan string, 1)
		go func() { s, _ := answers.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if !strings.HasPrefix(s, `{"valid":true`) {
				t.Fatalf("answer %d: %q", i, s)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to line %d while stdin stays open", i)
		}
	}
	stdin.Close()
	if rest, _ := io.ReadAll(answers); len(rest) != 0 {
		t.Errorf("more output after the last answer: %q", rest)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after stdin closed: %v", err)
	}
}

// testVersion: a real build prints what its build information says, in the
// shape versionText documents.
func testVersion(t *testing.T, bin string) {
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runBinary(t, bin, nil, "version")
	if code != 0 || len(stderr) != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if want := versionText(bi, schema.Tools()); string(stdout) != want {
		t.Errorf("version:\n%s\nwant (from the binary's build information):\n%s", stdout, want)
	}
	lines := strings.Split(strings.TrimSuffix(string(stdout), "\n"), "\n")
	version, ok := strings.CutPrefix(lines[0], "claimcheck ")
	if !ok || version == "" || strings.ContainsRune(version, ' ') {
		t.Errorf("first line %q, want claimcheck VERSION", lines[0])
	}
	for _, want := range []string{
		"module github.com/claimcheck/claimcheck",
		"go " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
	} {
		if !strings.Contains(string(stdout), "\n"+want+"\n") {
			t.Errorf("no line %q in\n%s", want, stdout)
		}
	}
	tools := schema.Tools()
	if tail := lines[len(lines)-len(tools):]; fmt.Sprint(tail) != fmt.Sprint(toolLines(tools)) {
		t.Errorf("last lines %q, want the tools", tail)
	}
}

func toolLines(tools []*schema.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, "tool "+t.ID+"@"+t.Version)
	}
	return out
}

// serveProcess is a running "serve" of the built binary.
type serveProcess struct {
	cmd     *exec.Cmd
	base    string         // http://127.0.0.1:PORT
	metrics string         // the URL of -metrics-addr's /metrics, if any
	bound   int64          // the memory bound it printed
	rest    chan []byte    // stderr after the "memory bound" line, once it exits
	pw      *io.PipeWriter // stderr's writing end, closed once it exits
}

// startServe starts "serve -addr 127.0.0.1:0 args..." and waits for its
// listening address; the process is killed at the end of the test unless it
// was stopped.
func startServe(t *testing.T, bin string, args ...string) *serveProcess {
	t.Helper()
	return startServeCommand(t, exec.Command(bin, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...))
}

// startServeCommand is startServe with the command given (another wrapper
// around the binary, such as prlimit).
func startServeCommand(t *testing.T, cmd *exec.Cmd) *serveProcess {
	t.Helper()
	// An io.Pipe, not StderrPipe: Wait then waits for the copy to finish
	// instead of racing the reads.
	stderr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() }) // a no-op once it has exited
	sc := bufio.NewScanner(stderr)
	p := &serveProcess{cmd: cmd, rest: make(chan []byte, 1), pw: pw}
	for sc.Scan() {
		line := sc.Text()
		if _, addr, ok := strings.Cut(line, "listening on "); ok {
			p.base = addr
		}
		if _, url, ok := strings.Cut(line, "metrics on "); ok {
			p.metrics = url
		}
		if _, b, ok := strings.Cut(line, "memory bound "); ok {
			_, b, _ = strings.Cut(b, "(")
			p.bound, _ = strconv.ParseInt(strings.Fields(b)[0], 10, 64)
			break
		}
	}
	if !strings.HasPrefix(p.base, "http://127.0.0.1:") && !strings.HasPrefix(p.base, "https://127.0.0.1:") || p.bound <= 0 {
		t.Fatalf("no listening address and memory bound on stderr (got %q, %d)", p.base, p.bound)
	}
	go func() { b, _ := io.ReadAll(stderr); p.rest <- b }()
	return p
}

// stop waits for the process, signalled beforehand, to exit 0 within 15 s
// and returns the rest of its stderr.
func (p *serveProcess) stop(t *testing.T, sig os.Signal) []byte {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait(); p.pw.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after %v: %v; stderr %s", sig, err, <-p.rest)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not stop after %v", sig)
	}
	return <-p.rest
}

// testServe starts "serve" on a free loopback port, posts every seed
// example and a bad body, then stops it with sig: it must exit 0.
func testServe(t *testing.T, bin string, sig os.Signal) {
	p := startServe(t, bin)
	base := p.base

	client := &http.Client{Timeout: 10 * time.Second}
	for _, tool := range schema.Tools() {
		for i, ex := range tool.Examples {
			res, err := client.Post(base+tool.ExecuteURL, "application/json", bytes.NewReader(ex.Input))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !conformance.JSONEqual(body, ex.Output) {
				t.Errorf("%s example %d: %d %s, want %s", tool.ID, i, res.StatusCode, body, ex.Output)
			}
		}
		res, err := client.Post(base+tool.ExecuteURL, "application/json", strings.NewReader(`{"a":`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 400 || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("bad body: %d %s", res.StatusCode, body)
		}
		if e := conformance.ParseErrorDoc(t, body); e.Code != "invalid_input" || e.Path != "" {
			t.Errorf("bad body: %s", body)
		}
	}
	// The playground page answers GET / beside the API.
	if res, err := client.Get(base + "/"); err != nil {
		t.Fatal(err)
	} else {
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" || res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET /: %d, Content-Type %q, CSP %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Security-Policy"))
		}
	}

	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	p.stop(t, sig)
}

// testBatchHugeJ: "batch -j 1000000000" on a 10-line input is held at
// GOMAXPROCS workers and allocates nothing in proportion to the flag: its
// peak RSS stays under 100 MB (a window made up front for the flag was
// 16.7 GB), and its answers are those of -j 1.
func testBatchHugeJ(t *testing.T, bin string) {
	var in bytes.Buffer
	for i := range 10 {
		fmt.Fprintf(&in, "{\"source\":[%d],\"claim\":[%d]}\n", i, i+i%2)
	}
	// The peak is read from /proc while the process runs, its input still
	// open: the rusage of a process that a fork of this (large) test
	// process exec'd keeps the parent's peak.
	cmd := exec.Command(bin, "batch", "-j", "1000000000", schema.MultisetEquality)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	stdin.Write(in.Bytes())
	br := bufio.NewReader(stdout)
	var out bytes.Buffer
	for range 10 {
		line, err := br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("batch -j 1000000000: %v after %q", err, out.Bytes())
		}
		out.Write(line)
	}
	peak, ok := peakRSS(cmd.Process.Pid)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("batch -j 1000000000: %v", err)
	}
	if !ok {
		t.Skip("no /proc here")
	}
	if peak >= 100e6 {
		t.Errorf("peak RSS %d bytes, want under 100 MB", peak)
	} else {
		t.Logf("peak RSS %.1f MiB", float64(peak)/(1<<20))
	}
	want, _, _ := runBinary(t, bin, in.Bytes(), "batch", "-j", "1", schema.MultisetEquality)
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("-j 1000000000 answered\n%s\nwant (-j 1)\n%s", out.Bytes(), want)
	}
}
