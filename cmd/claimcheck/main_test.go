package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
)

// binary is the claimcheck command, built once by TestMain. It is built
// without -race even under -race: a race-enabled binary takes about a
// second to start here, and the pipeline is race-tested in process
// (batch_test.go).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "claimcheck-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "claimcheck")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runBinary runs the binary with stdin and returns its stdout, stderr and
// exit code.
func runBinary(t testing.TB, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
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

// parseErrorDoc decodes an error document into an *claimcheck.Error; it fails
// the test when doc is not one.
func parseErrorDoc(t testing.TB, doc []byte) *claimcheck.Error {
	t.Helper()
	var d struct {
		Error *struct {
			Code     string  `json:"code"`
			Path     *string `json:"path"`
			Position *int    `json:"position"`
			Limit    string  `json:"limit"`
			Message  string  `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(doc, &d); err != nil || d.Error == nil || d.Error.Path == nil {
		t.Fatalf("not an error document: %.300s", doc)
	}
	e := &claimcheck.Error{Code: claimcheck.Code(d.Error.Code), Path: *d.Error.Path, Position: claimcheck.NoPosition, Limit: d.Error.Limit, Message: d.Error.Message}
	if d.Error.Position != nil {
		e.Position = *d.Error.Position
	}
	return e
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
	conformance.CheckError(t, c, parseErrorDoc(t, doc))
}

// TestRunConformance runs every conformance case through "run"; the seed
// examples and a fixed quarter of the cases (by a hash of the name) run again pretty-printed over several
// lines when json.Indent can print them (grammatical JSON): whitespace
// changes no answer. (Not every case: each is a process start.)
func TestRunConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			conformance.Run(t, tool.ID, func(t *testing.T, c conformance.Case) {
				inputs := [][]byte{c.Input}
				var pretty bytes.Buffer
				if (crc32.ChecksumIEEE([]byte(c.Name))%4 == 0 || strings.Contains(c.Name, "seed")) && json.Indent(&pretty, c.Input, "", "  ") == nil {
					inputs = append(inputs, pretty.Bytes())
				}
				for _, in := range inputs {
					stdout, stderr, code := runBinary(t, in, "run", tool.ID+"@"+tool.Version)
					want := exitOK
					if c.Error != nil {
						want = exitDocError
					}
					if code != want || len(stderr) != 0 {
						t.Fatalf("exit %d, want %d; stderr %s", code, want, stderr)
					}
					if !bytes.HasSuffix(stdout, []byte("\n")) || bytes.Count(stdout, []byte("\n")) != 1 {
						t.Fatalf("stdout is not one line: %q", stdout)
					}
					checkAnswer(t, c, stdout)
				}
			})
		})
	}
}

// oneLine rewrites a document onto one line: "\n" and "\r" outside strings
// are JSON whitespace and become spaces. It reports false for a document
// with "\n" or "\r" inside a string (a grammar error that cannot be put on
// one line) and for a blank one (batch skips it).
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
	return out, !isBlank(out)
}

// TestBatchConformance puts every conformance case that fits on one line
// into a JSON Lines file and checks "batch" answers each, in order, with
// "\n" and with "\r\n" line endings, with one worker and with eight.
func TestBatchConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			t.Parallel()
			var cases []conformance.Case
			var lf, crlf []byte
			for _, c := range conformance.Load(t, tool.ID) {
				line, ok := oneLine(c.Input)
				if !ok {
					continue
				}
				cases = append(cases, c)
				lf = append(append(lf, line...), '\n')
				crlf = append(append(crlf, line...), "\r\n"...)
			}
			if len(cases) < 100 {
				t.Fatalf("only %d cases fit on one line", len(cases))
			}
			dir := t.TempDir()
			var first []byte
			for _, v := range []struct {
				name, j string
				data    []byte
			}{{"lf", "8", lf}, {"crlf", "8", crlf}, {"lf-j1", "1", lf}} {
				file := filepath.Join(dir, v.name+".jsonl")
				if err := os.WriteFile(file, v.data, 0o600); err != nil {
					t.Fatal(err)
				}
				stdout, stderr, code := runBinary(t, nil, "batch", "-j", v.j, tool.ID, file)
				if code != exitDocError || len(stderr) != 0 {
					t.Fatalf("%s: exit %d, want 1 (there are error cases); stderr %s", v.name, code, stderr)
				}
				lines := bytes.Split(bytes.TrimSuffix(stdout, []byte("\n")), []byte("\n"))
				if len(lines) != len(cases) {
					t.Fatalf("%s: %d answers for %d lines", v.name, len(lines), len(cases))
				}
				for i, c := range cases {
					t.Run(v.name+"/"+c.Name, func(t *testing.T) { checkAnswer(t, c, lines[i]) })
				}
				if first == nil {
					first = stdout
				} else if !bytes.Equal(stdout, first) {
					t.Fatalf("%s: answers differ from the first run's", v.name)
				}
			}
		})
	}
}

// TestBatchLines checks the line rules: blank lines get no answer, "\r\n"
// and a final "\r" are line endings, a line over -max-line-bytes gets
// limit_exceeded (max_document_bytes) and the next line is still read, a
// line that is not JSON gets invalid_input at "", and a line of invalid
// UTF-8 does not stop the run.
func TestBatchLines(t *testing.T) {
	const max = 40
	ok := `{"source":[1],"claim":[1]}`
	exact := ok + strings.Repeat(" ", max-len(ok))
	in := strings.Join([]string{
		ok,
		"",
		" \t ",
		"\r",
		`{"source":[` + strings.Repeat("1,", 1000) + `1],"claim":[]}`, // over
		ok + "\r",
		strings.Repeat(" ", 10*max), // over, but blank: no answer
		exact,
		exact + "\r",
		exact + " ",                            // over by one
		"not JSON",                             // invalid_input at ""
		"{\"source\":[\"\xff\"],\"claim\":[]}", // invalid UTF-8 in a string
		"\xff\xfe",                             // invalid UTF-8 outside one: a grammar error
		strings.Repeat("x", 1<<20),
		ok + "\r", // a final "\r" without "\n" ends the line too
	}, "\n")
	type want struct{ code, path, limit string }
	wants := []want{
		{"", "", ""},
		{"limit_exceeded", "", "max_document_bytes"},
		{"", "", ""},
		{"", "", ""},
		{"", "", ""},
		{"limit_exceeded", "", "max_document_bytes"},
		{"invalid_input", "", ""},
		{"invalid_input", "/source/0", ""},
		{"invalid_input", "", ""},
		{"limit_exceeded", "", "max_document_bytes"},
		{"", "", ""},
	}
	for _, j := range []string{"1", "3"} {
		stdout, stderr, code := runBinary(t, []byte(in), "batch", "-j", j, "-max-line-bytes", fmt.Sprint(max), schema.MultisetEquality)
		if code != exitDocError || len(stderr) != 0 {
			t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(string(stdout), "\n"), "\n")
		if len(lines) != len(wants) {
			t.Fatalf("-j %s: %d answers, want %d:\n%s", j, len(lines), len(wants), stdout)
		}
		for i, w := range wants {
			if w.code == "" {
				if !strings.HasPrefix(lines[i], `{"valid":true`) {
					t.Errorf("answer %d: %s, want valid", i, lines[i])
				}
				continue
			}
			e := parseErrorDoc(t, []byte(lines[i]))
			if string(e.Code) != w.code || e.Path != w.path || e.Limit != w.limit || e.Position != claimcheck.NoPosition {
				t.Errorf("answer %d: %s, want %+v", i, lines[i], w)
			}
		}
	}
}

// TestBatchParallelOrder: one worker and eight give the same bytes on a
// large file mixing every kind of answer and blank lines, and those bytes
// are schema.Execute's answers in input order.
func TestBatchParallelOrder(t *testing.T) {
	var in, want bytes.Buffer
	for i := range 30000 {
		var line string
		switch i % 7 {
		case 0:
			line = fmt.Sprintf(`{"source":[%d,%d,"a"],"claim":["a",%d,%d]}`, i, i+1, i+1, i)
		case 1:
			line = fmt.Sprintf(`{"source":[%d,%d],"claim":[%d]}`, i, i, i)
		case 2:
			line = fmt.Sprintf(`{"source":[%d],"claim":{}}`, i)
		case 3:
			line = fmt.Sprintf(`{"source":[%d],"claim":[%d]`, i, i) // malformed
		case 4:
			line = "" // blank: no answer
		case 5:
			line = fmt.Sprintf(`{"source":[%d.5e3,null,true],"claim":[true,null,%d50]}`, i, i)
		case 6:
			line = fmt.Sprintf(`  {"claim":[], "source":["x%d"]}  `, i)
		}
		in.WriteString(line + "\n")
		if line == "" {
			continue
		}
		out, err := schema.Execute(schema.MultisetEquality, "", []byte(line))
		if err != nil {
			out = err.(*claimcheck.Error).AppendJSON(nil)
		}
		want.Write(append(out, '\n'))
	}
	file := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(file, in.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, j := range []string{"1", "8"} {
		stdout, stderr, code := runBinary(t, nil, "batch", "-j", j, schema.MultisetEquality, file)
		if code != exitDocError || len(stderr) != 0 {
			t.Fatalf("-j %s: exit %d; stderr %s", j, code, stderr)
		}
		if !bytes.Equal(stdout, want.Bytes()) {
			t.Fatalf("-j %s: answers differ from schema.Execute's in input order", j)
		}
	}
}
