package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
)

// These tests call cli in the test process, with in-memory stdin, stdout
// and stderr: a process start per case made this package's tests take tens
// of seconds. binary_test.go keeps the few checks that need a real process.

// runCLI runs the command line args with stdin and returns its stdout,
// stderr and exit code.
func runCLI(stdin []byte, args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = cli(args, bytes.NewReader(stdin), &o, &e)
	return o.String(), e.String(), code
}

// checkAnswer compares one answer document with a case.
func checkAnswer(t testing.TB, c conformance.Case, doc []byte) {
	t.Helper()
	if c.Output != nil {
		if !conformance.JSONEqual(doc, c.Output) {
			t.Fatalf("input %.200q:\ngot  %.300s\nwant %s", c.Input, doc, c.Output)
		}
		return
	}
	conformance.CheckError(t, c, conformance.ParseErrorDoc(t, doc))
}

// wantValid reads the verdict of a case's output document with
// encoding/json, not with the CLI's reading of it.
func wantValid(t testing.TB, c conformance.Case) bool {
	t.Helper()
	var out struct {
		Valid *bool `json:"valid"`
	}
	if err := json.Unmarshal(c.Output, &out); err != nil || out.Valid == nil {
		t.Fatalf("case %s: output without a verdict: %s", c.Name, c.Output)
	}
	return *out.Valid
}

// TestRunConformance runs every conformance case through "run -exit-code";
// every case of at most 4 KiB that json.Indent can print (grammatical JSON)
// runs again pretty-printed over several lines, without -exit-code:
// whitespace changes no answer, and a false verdict exits 0.
func TestRunConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			conformance.Run(t, tool.ID, func(t *testing.T, c conformance.Case) {
				type variant struct {
					in   []byte
					args []string
					code int
				}
				id := tool.ID + "@" + tool.Version
				flagged := variant{c.Input, []string{"run", "-exit-code", id}, exitOK}
				plain := variant{nil, []string{"run", id}, exitOK}
				switch {
				case c.Error != nil:
					flagged.code, plain.code = exitDocError, exitDocError
				case !wantValid(t, c):
					flagged.code = exitInvalid
				}
				variants := []variant{flagged}
				var pretty bytes.Buffer
				if len(c.Input) <= 4<<10 && json.Indent(&pretty, c.Input, "", "  ") == nil {
					plain.in = pretty.Bytes()
					variants = append(variants, plain)
				}
				for _, v := range variants {
					stdout, stderr, code := runCLI(v.in, v.args...)
					if code != v.code || stderr != "" {
						t.Fatalf("%q: exit %d, want %d; stderr %s", v.args, code, v.code, stderr)
					}
					if !strings.HasSuffix(stdout, "\n") || strings.Count(stdout, "\n") != 1 {
						t.Fatalf("stdout is not one line: %q", stdout)
					}
					checkAnswer(t, c, []byte(stdout))
				}
			})
		})
	}
}

// oneLine rewrites a document onto one line: "\n" and "\r" outside strings
// are JSON whitespace and become spaces. It reports false for a document
// with "\n" or "\r" inside a string (a grammar error that cannot be put on
// one line).
func oneLine(in []byte) ([]byte, bool) {
	out := bytes.Clone(in)
	inString, escaped := false, false
	for i, b := range out {
		switch {
		case inString && (b == '\n' || b == '\r'):
			return nil, false
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case b == '\n' || b == '\r':
			out[i] = ' '
		}
	}
	return out, true
}

// docOf returns the document of an Execute's Output.
func docOf(out schema.Output, err error) ([]byte, error) { return out.Doc, err }
