package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
)

func TestExitCodes(t *testing.T) {
	eq := schema.MultisetEquality
	valid := `{"source":[1],"claim":[1]}`
	mismatch := `{"source":[1],"claim":[2]}`
	dir := t.TempDir()
	file := filepath.Join(dir, "doc.json")
	if err := os.WriteFile(file, []byte("{\n  \"source\": [1],\n  \"claim\": [1]\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		reason     string
		args       []string
		stdin      string
		code       int
		stdout     string // a prefix of stdout ("" means empty)
		stderrNone bool
	}{
		{"no command", nil, "", 2, "", false},
		{"help", []string{"help"}, "", 0, "Usage:", true},
		{"-h", []string{"-h"}, "", 0, "Usage:", true},
		{"run -h", []string{"run", "-h"}, "", 0, "Usage: claimcheck run", true},
		{"unknown command", []string{"check"}, "", 2, "", false},
		{"run without a tool", []string{"run"}, valid, 2, "", false},
		{"run with two files", []string{"run", eq, file, file}, "", 2, "", false},
		{"run with an unknown flag", []string{"run", "-x", eq}, valid, 2, "", false},
		{"run with an empty version", []string{"run", eq + "@"}, valid, 2, "", false},
		{"run valid", []string{"run", eq}, valid, 0, `{"valid":true`, true},
		{"run with a version", []string{"run", eq + "@1.0.0"}, valid, 0, `{"valid":true`, true},
		{"a rejected claim is still exit 0", []string{"run", eq}, mismatch, 0, `{"valid":false`, true},
		{"run invalid input", []string{"run", eq}, `{"source":[1]}`, 1, `{"error":{"code":"invalid_input"`, true},
		{"run empty input", []string{"run", eq}, ``, 1, `{"error":{"code":"invalid_input"`, true},
		{"run unknown tool", []string{"run", "nope"}, valid, 1, `{"error":{"code":"unknown_tool"`, true},
		{"run unknown version", []string{"run", eq + "@9"}, valid, 1, `{"error":{"code":"unknown_tool"`, true},
		{"run a pretty-printed file", []string{"run", eq, file}, "", 0, `{"valid":true`, true},
		{"run - is stdin", []string{"run", eq, "-"}, valid, 0, `{"valid":true`, true},
		{"run a missing file", []string{"run", eq, missing}, "", 2, "", false},
		{"run over the cap", []string{"run", "-max-document-bytes", "10", eq}, valid, 1,
			`{"error":{"code":"limit_exceeded","path":"","limit":"max_document_bytes"`, true},
		{"run exactly at the cap", []string{"run", "-max-document-bytes", "26", eq}, valid, 0, `{"valid":true`, true},
		{"flags after arguments", []string{"run", eq, "-max-document-bytes", "10"}, valid, 1, `{"error":{"code":"limit_exceeded"`, true},
		{"-- ends flags", []string{"run", "--", eq, "-"}, valid, 0, `{"valid":true`, true},
		{"batch all outputs", []string{"batch", eq}, valid + "\n" + mismatch + "\n", 0, `{"valid":true`, true},
		{"batch with an error line", []string{"batch", eq}, valid + "\n[]\n", 1, `{"valid":true`, true},
		{"batch empty input", []string{"batch", eq}, "", 0, "", true},
		{"batch only blank lines", []string{"batch", eq}, "\n \r\n\t\n", 0, "", true},
		{"batch unknown tool is a usage error", []string{"batch", "nope"}, valid, 2, "", false},
		{"batch -j 0", []string{"batch", "-j", "0", eq}, valid, 2, "", false},
		{"batch a missing file", []string{"batch", eq, missing}, "", 2, "", false},
		{"batch the pretty file: lines are documents", []string{"batch", eq, file}, "", 1, `{"error"`, true},
		{"tools", []string{"tools"}, "", 0, "[", true},
		{"tools takes no arguments", []string{"tools", "x"}, "", 2, "", false},
		{"version", []string{"version"}, "", 0, "claimcheck ", true},
		{"serve with a bad address", []string{"serve", "-addr", "127.0.0.1:notaport"}, "", 2, "", false},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("table row without a reason")
		}
		t.Run(tc.reason, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := runBinary(t, []byte(tc.stdin), tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %.200s; stderr %.300s", code, tc.code, stdout, stderr)
			}
			if tc.stdout == "" && len(stdout) != 0 || !bytes.HasPrefix(stdout, []byte(tc.stdout)) {
				t.Fatalf("stdout %.300q, want prefix %q", stdout, tc.stdout)
			}
			if tc.stderrNone != (len(stderr) == 0) {
				t.Fatalf("stderr %q", stderr)
			}
		})
	}
}

func TestToolsAndVersion(t *testing.T) {
	stdout, _, _ := runBinary(t, nil, "tools")
	var list []json.RawMessage
	if err := json.Unmarshal(stdout, &list); err != nil {
		t.Fatal(err)
	}
	tools := schema.Tools()
	if len(list) != len(tools) {
		t.Fatalf("%d descriptors, want %d", len(list), len(tools))
	}
	for i, tool := range tools {
		if d, _ := tool.MarshalJSON(); !bytes.Equal(list[i], d) {
			t.Errorf("descriptor %d differs from %s's", i, tool.ID)
		}
	}
	stdout, _, _ = runBinary(t, nil, "version")
	lines := strings.Split(strings.TrimSuffix(string(stdout), "\n"), "\n")
	if len(lines) != 1+len(tools) || !strings.HasPrefix(lines[0], "claimcheck ") || len(lines[0]) == len("claimcheck ") {
		t.Fatalf("version output %q", stdout)
	}
	for i, tool := range tools {
		if lines[1+i] != tool.ID+"@"+tool.Version {
			t.Errorf("line %d %q, want %s@%s", 1+i, lines[1+i], tool.ID, tool.Version)
		}
	}
}

// TestServe starts "serve" on a free loopback port, posts every seed
// example and a bad body, gets the playground page, then stops it with
// SIGINT: it must exit 0.
func TestServe(t *testing.T) {
	cmd := exec.Command(binary, "serve", "-addr", "127.0.0.1:0")
	// An io.Pipe, not StderrPipe: Wait then waits for the copy to finish
	// instead of racing the reads.
	stderr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() // only if the test fails before the SIGINT
	sc := bufio.NewScanner(stderr)
	var base string
	for sc.Scan() {
		if _, addr, ok := strings.Cut(sc.Text(), "listening on "); ok {
			base = addr
			break
		}
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("no listening address on stderr (got %q)", base)
	}
	rest := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(stderr); rest <- b }()

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
		if e := parseErrorDoc(t, body); e.Code != "invalid_input" || e.Path != "" {
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

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after SIGINT: %v; stderr %s", err, <-rest)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after SIGINT")
	}
}
