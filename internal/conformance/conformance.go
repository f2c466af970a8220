// Package conformance loads the contract's conformance cases
// (testdata/conformance/TOOL.jsonl) for the tests of every package, and
// compares answers with them. It is used by tests only.
//
// A case is one JSON object per line:
//
//	{"name": "...", "tool": "...", "input": "<document text>", "output": {...}}
//	{"name": "...", "tool": "...", "input_base64": "<document bytes>", "error": {"code": ..., "path": ..., "position": ..., "limit": ...}}
//
// Outputs are compared as JSON values; errors by code, path, position and
// limit. [ParseErrorDoc] reads an error document that a command or handler
// wrote, for [CheckError] and for tests' own checks.
package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// Case is one conformance case.
type Case struct {
	Name  string
	Tool  string
	Input []byte // the input document's bytes

	// Exactly one of Output and Error is set.
	Output json.RawMessage
	Error  *WantError
}

// WantError is the expected error of a case. Position and Limit are compared
// when the case gives them; a case that omits position expects none.
type WantError struct {
	Code     string `json:"code"`
	Path     string `json:"path"`
	Position *int   `json:"position"`
	Limit    string `json:"limit"`
}

type rawCase struct {
	Name        string          `json:"name"`
	Tool        string          `json:"tool"`
	Input       *string         `json:"input"`
	InputBase64 *string         `json:"input_base64"`
	Output      json.RawMessage `json:"output"`
	Error       *WantError      `json:"error"`
}

// Dir returns the module's testdata directory, found from this source file so
// that every package's tests read the same files.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Load reads the cases of one tool. It fails the test on any malformed line:
// a case that cannot be read must never pass silently.
func Load(t testing.TB, tool string) []Case {
	t.Helper()
	path := filepath.Join(Dir(), "conformance", tool+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	var cases []Case
	seen := map[string]bool{}
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rc rawCase
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rc); err != nil {
			t.Fatalf("%s:%d: %v", path, n+1, err)
		}
		c := Case{Name: rc.Name, Tool: rc.Tool, Output: rc.Output, Error: rc.Error}
		switch {
		case rc.Input != nil && rc.InputBase64 == nil:
			c.Input = []byte(*rc.Input)
		case rc.InputBase64 != nil && rc.Input == nil:
			c.Input, err = base64.StdEncoding.DecodeString(*rc.InputBase64)
			if err != nil {
				t.Fatalf("%s:%d: input_base64: %v", path, n+1, err)
			}
		default:
			t.Fatalf("%s:%d: want exactly one of input and input_base64", path, n+1)
		}
		if (c.Output == nil) == (c.Error == nil) {
			t.Fatalf("%s:%d: want exactly one of output and error", path, n+1)
		}
		if c.Tool != tool {
			t.Fatalf("%s:%d: tool %q in the file of %q", path, n+1, c.Tool, tool)
		}
		if c.Name == "" || seen[c.Name] {
			t.Fatalf("%s:%d: missing or repeated name %q", path, n+1, c.Name)
		}
		seen[c.Name] = true
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// Surface returns the cases a surface's test (the CLI, HTTP, MCP, the
// batch route) carries: every case in the long run; in the normal run,
// every case whose input is not valid UTF-8 JSON text (what a transport
// may mangle: binary bytes, bad escapes, stray bytes, a BOM) and every
// fourth of the others. The tools' rules are run whole, on every case, by
// the packages that own them (schema, multiset, rational) in every run; a
// surface's part is to carry a document's bytes there and its answer back.
func Surface(t testing.TB, tool string) []Case {
	t.Helper()
	cases := Load(t, tool)
	if testutil.Long() {
		return cases
	}
	var out []Case
	for i, c := range cases {
		if i%4 == 0 || !utf8.Valid(c.Input) || !json.Valid(c.Input) {
			out = append(out, c)
		}
	}
	return out
}

// Run runs every case of tool as a parallel subtest named after the case.
func Run(t *testing.T, tool string, run func(t *testing.T, c Case)) {
	t.Helper()
	for _, c := range Load(t, tool) {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			run(t, c)
		})
	}
}

// Check compares an answer with the case: output (compared as a JSON value)
// when err is nil, otherwise err, which must be an *claimcheck.Error.
func Check(t testing.TB, c Case, output []byte, err error) {
	t.Helper()
	if c.Error != nil {
		if err == nil {
			t.Fatalf("input %q:\ngot output %s\nwant error %+v", trunc(c.Input), output, *c.Error)
		}
		CheckError(t, c, err)
		return
	}
	if err != nil {
		t.Fatalf("input %q:\ngot error %v\nwant output %s", trunc(c.Input), err, c.Output)
	}
	if !JSONEqual(output, c.Output) {
		t.Fatalf("input %q:\ngot  %s\nwant %s", trunc(c.Input), output, c.Output)
	}
}

// CheckError compares err with the case's expected error (see
// ExpectError).
func CheckError(t testing.TB, c Case, err error) {
	t.Helper()
	w := c.Error
	wantPos := claimcheck.NoPosition
	if w.Position != nil {
		wantPos = *w.Position
	}
	ExpectError(t, err, Expected{Code: claimcheck.Code(w.Code), Path: w.Path, Position: wantPos, Limit: w.Limit})
}

// ParseErrorDoc decodes an error document, {"error":{code, path, position,
// limit, message}}, with encoding/json, so that a test reads what a command
// or handler wrote without trusting the code that wrote it. A document
// without a position gives Position claimcheck.NoPosition; one without a
// limit, Limit "".
//
// The test fails unless doc is an error document: JSON whose "error" member
// is an object with a code, a path (the empty string for the whole input),
// a message and, when it has a position, one of 0 or more.
func ParseErrorDoc(t testing.TB, doc []byte) *claimcheck.Error {
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
	err := json.Unmarshal(doc, &d)
	if err != nil || d.Error == nil || d.Error.Code == "" || d.Error.Path == nil || d.Error.Message == "" ||
		d.Error.Position != nil && *d.Error.Position < 0 {
		t.Fatalf("not an error document: %.300s", doc)
	}
	e := &claimcheck.Error{Code: claimcheck.Code(d.Error.Code), Path: *d.Error.Path, Position: claimcheck.NoPosition,
		Limit: d.Error.Limit, Message: d.Error.Message}
	if d.Error.Position != nil {
		e.Position = *d.Error.Position
	}
	return e
}

// JSONEqual reports whether a and b are equal as JSON values (numbers
// compared as decimal text after decoding with UseNumber).
func JSONEqual(a, b []byte) bool {
	va, err1 := decode(a)
	vb, err2 := decode(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func trunc(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
