package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/jsonl"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// TestCommands runs every command in process: exit code, the start of
// stdout, and stderr.
func TestCommands(t *testing.T) {
	eq := schema.MultisetEquality
	valid := `{"source":[1],"claim":[1]}`
	mismatch := `{"source":[1],"claim":[2]}`
	dir := t.TempDir()
	file := filepath.Join(dir, "doc.json")
	if err := os.WriteFile(file, []byte("{\n  \"source\": [1],\n  \"claim\": [1]\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	const tools = "multiset-equality-check@1.0.0, multiset-difference-check@1.0.0, rational-expression-check@1.0.0"
	type row struct {
		reason string
		args   []string
		stdin  string
		code   int
		stdout string // a prefix of stdout ("" means empty)
		stderr string // a substring of stderr ("" means empty)
	}
	tests := []row{
		{"no command: usage on stderr", nil, "", 2, "", "Usage:"},
		{"help", []string{"help"}, "", 0, "Usage:", ""},
		{"-h", []string{"-h"}, "", 0, "Usage:", ""},
		{"--help", []string{"--help"}, "", 0, "Usage:", ""},
		{"unknown command", []string{"check"}, "", 2, "", `unknown command "check"`},

		{"run valid", []string{"run", eq}, valid, 0, `{"valid":true`, ""},
		{"run with a version", []string{"run", eq + "@1.0.0"}, valid, 0, `{"valid":true`, ""},
		{"a false verdict is still exit 0", []string{"run", eq}, mismatch, 0, `{"valid":false`, ""},
		{"-exit-code: a false verdict is 4", []string{"run", "-exit-code", eq}, mismatch, 4, `{"valid":false`, ""},
		{"-exit-code: a true verdict is 0", []string{"run", "-exit-code", eq}, valid, 0, `{"valid":true`, ""},
		{"-exit-code after the tool", []string{"run", eq, "-exit-code"}, mismatch, 4, `{"valid":false`, ""},
		{"-exit-code: an error document is still 1", []string{"run", "-exit-code", eq}, `{"source":[1]}`, 1, `{"error":{"code":"invalid_input"`, ""},
		{"run invalid input", []string{"run", eq}, `{"source":[1]}`, 1, `{"error":{"code":"invalid_input"`, ""},
		{"run empty input", []string{"run", eq}, ``, 1, `{"error":{"code":"invalid_input","path":""`, ""},
		{"run unknown tool: the tools on stderr", []string{"run", "nope"}, valid, 1, `{"error":{"code":"unknown_tool"`, "no tool nope; the tools are " + tools},
		{"run unknown version", []string{"run", eq + "@9"}, valid, 1, `{"error":{"code":"unknown_tool"`, "no tool " + eq + "@9"},
		{"run unknown tool with -exit-code is 1", []string{"run", "-exit-code", "nope"}, valid, 1, `{"error":{"code":"unknown_tool"`, "the tools are"},
		{"run a pretty-printed file", []string{"run", eq, file}, "", 0, `{"valid":true`, ""},
		{"run - is stdin", []string{"run", eq, "-"}, valid, 0, `{"valid":true`, ""},
		{"run a missing file", []string{"run", eq, missing}, "", 2, "", "missing.json"},
		{"run over the cap", []string{"run", "-max-document-bytes", "10", eq}, valid, 1,
			`{"error":{"code":"limit_exceeded","path":"","limit":"max_document_bytes"`, ""},
		{"run exactly at the cap", []string{"run", "-max-document-bytes", "26", eq}, valid, 0, `{"valid":true`, ""},
		{"run with a negative cap", []string{"run", "-max-document-bytes", "-1", eq}, valid, 2, "", "must not be negative"},
		{"flags after arguments", []string{"run", eq, "-max-document-bytes", "10"}, valid, 1, `{"error":{"code":"limit_exceeded"`, ""},
		{"-- ends flags", []string{"run", "--", eq, "-"}, valid, 0, `{"valid":true`, ""},
		{"run without a tool", []string{"run"}, valid, 2, "", "Usage: claimcheck run"},
		{"run with two files", []string{"run", eq, file, file}, "", 2, "", "at most one FILE"},
		{"run with an unknown flag", []string{"run", "-x", eq}, valid, 2, "", "-x"},
		{"run with an empty version", []string{"run", eq + "@"}, valid, 2, "", "malformed TOOL_ID"},
		{"run with an empty id", []string{"run", "@1.0.0"}, valid, 2, "", "malformed TOOL_ID"},
		{"run -h: flags and tools", []string{"run", "-h"}, "", 0, "Usage: claimcheck run [-exit-code]", ""},

		{"batch all outputs", []string{"batch", eq}, valid + "\n" + mismatch + "\n", 0, `{"valid":true`, ""},
		{"batch -exit-code with a false verdict", []string{"batch", "-exit-code", eq}, valid + "\n" + mismatch + "\n", 4, `{"valid":true`, ""},
		{"batch -exit-code, all true", []string{"batch", "-exit-code", eq}, valid + "\n" + valid + "\n", 0, `{"valid":true`, ""},
		{"batch with an error line", []string{"batch", eq}, valid + "\n[]\n", 1, `{"valid":true`, ""},
		{"batch -exit-code: an error line outranks a false verdict", []string{"batch", "-exit-code", eq}, mismatch + "\n[]\n", 1, `{"valid":false`, ""},
		{"batch: a blank line is an error line", []string{"batch", eq}, valid + "\n\n" + valid + "\n", 1, `{"valid":true`, ""},
		{"batch empty input", []string{"batch", eq}, "", 0, "", ""},
		{"batch only blank lines", []string{"batch", eq}, "\n \r\n\t\n", 1, `{"error":{"code":"invalid_input","path":"","message":"blank line`, ""},
		{"batch unknown tool is a usage error", []string{"batch", "nope"}, valid, 2, "", "no tool nope; the tools are " + tools},
		{"batch -j 0", []string{"batch", "-j", "0", eq}, valid, 2, "", "-j must be at least 1"},
		{"batch with a negative cap", []string{"batch", "-max-line-bytes", "-1", eq}, valid, 2, "", "must not be negative"},
		{"batch a missing file", []string{"batch", eq, missing}, "", 2, "", "missing.json"},
		{"batch the pretty file: lines are documents", []string{"batch", eq, file}, "", 1, `{"error"`, ""},
		{"batch without a tool", []string{"batch"}, "", 2, "", "Usage: claimcheck batch"},
		{"batch with a malformed tool id", []string{"batch", "@"}, "", 2, "", "malformed TOOL_ID"},
		{"batch -h", []string{"batch", "-h"}, "", 0, "Usage: claimcheck batch [-exit-code]", ""},

		{"tools", []string{"tools"}, "", 0, "[\n{", ""},
		{"tools takes no arguments", []string{"tools", "x"}, "", 2, "", "no arguments"},
		{"tools -h", []string{"tools", "-h"}, "", 0, "Usage: claimcheck tools\n", ""},
		{"version", []string{"version"}, "", 0, "claimcheck ", ""},
		{"version takes no arguments", []string{"version", "x"}, "", 2, "", "no arguments"},

		{"help TOOL", []string{"help", eq}, "", 0, eq + "@1.0.0\n", ""},
		{"help TOOL@VERSION", []string{"help", schema.RationalExpression + "@1.0.0"}, "", 0, schema.RationalExpression + "@1.0.0\n", ""},
		{"help COMMAND is its -h", []string{"help", "batch"}, "", 0, "Usage: claimcheck batch", ""},
		{"help help", []string{"help", "help"}, "", 0, "Usage: claimcheck help", ""},
		{"help of nothing known", []string{"help", "nope"}, "", 2, "", "the commands are run, batch, serve, mcp, openapi, tools, version, help; the tools are " + tools},
		{"help of an unknown version", []string{"help", eq + "@9"}, "", 2, "", "no command or tool"},
		{"help of two things", []string{"help", "run", "batch"}, "", 2, "", "at most one"},

		{"serve with a bad address", []string{"serve", "-addr", "127.0.0.1:notaport"}, "", 2, "", "notaport"},
		{"serve takes no arguments", []string{"serve", "x"}, "", 2, "", "no arguments"},
		{"serve with a zero body cap", []string{"serve", "-max-body-bytes", "0"}, "", 2, "", "must be positive"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		t.Parallel()
		stdout, stderr, code := runCLI([]byte(tc.stdin), tc.args...)
		if code != tc.code {
			t.Fatalf("exit %d, want %d; stdout %.200s; stderr %.300s", code, tc.code, stdout, stderr)
		}
		if tc.stdout == "" && stdout != "" || !strings.HasPrefix(stdout, tc.stdout) {
			t.Fatalf("stdout %.300q, want prefix %q", stdout, tc.stdout)
		}
		if tc.stderr == "" && stderr != "" || !strings.Contains(stderr, tc.stderr) {
			t.Fatalf("stderr %q, want it to contain %q", stderr, tc.stderr)
		}
	})
}

// TestUsage: the help lists every command with its synopsis (the flags
// included: serve's -max-concurrent, -exit-code), every tool, and every
// exit code, in lines that fit a terminal.
func TestUsage(t *testing.T) {
	stdout, _, _ := runCLI(nil, "help")
	for _, want := range []string{
		runSynopsis, batchSynopsis, serveSynopsis, toolsSynopsis, versionSynopsis, helpSynopsis,
		"-max-concurrent", "-exit-code", "blank line",
		"\n  0  ", "\n  1  ", "\n  2  ", "\n  3  ", "\n  4  ", "the first of 2, 3, 1, 4 is returned",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help does not mention %q", want)
		}
	}
	for _, c := range commands {
		if !strings.Contains(stdout, "\n  "+c.synopsis+"\n") {
			t.Errorf("help has no line for %s", c.name)
		}
	}
	for _, tool := range schema.Tools() {
		if !strings.Contains(stdout, "\n  "+tool.ID+"@"+tool.Version+"\n") {
			t.Errorf("help does not list %s", tool.ID)
		}
	}
	for line := range strings.Lines(stdout) {
		// The synopses are exempt: they do not break.
		if len(line) > 81 && !strings.HasPrefix(line, "  claimcheck ") {
			t.Errorf("line over 80 columns: %q", line)
		}
	}
}

// TestExitCode: the exit code of a run is its worst outcome's; a false
// verdict counts only with -exit-code.
func TestExitCode(t *testing.T) {
	type row struct {
		reason      string
		o           outcome
		invalidExit bool
		want        int
	}
	tests := []row{
		{"true verdict", gotValid, false, exitOK},
		{"true verdict, -exit-code", gotValid, true, exitOK},
		{"false verdict", gotInvalid, false, exitOK},
		{"false verdict, -exit-code", gotInvalid, true, exitInvalid},
		{"error document", gotError, false, exitDocError},
		{"error document, -exit-code", gotError, true, exitDocError},
		{"internal error", gotInternal, true, exitInternal},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		if got := exitCode(tc.o, tc.invalidExit); got != tc.want {
			t.Errorf("%d, want %d", got, tc.want)
		}
	})
	if len(map[int]bool{exitOK: true, exitDocError: true, exitUsage: true, exitInternal: true, exitInvalid: true}) != 5 {
		t.Error("exit codes are not distinct")
	}
}

// TestAnswerOutcome: answer takes a document's outcome from the verdict
// Execute hands back with it, for every example.
func TestAnswerOutcome(t *testing.T) {
	for _, tool := range schema.Tools() {
		for _, ex := range tool.Examples {
			var want struct{ Valid bool }
			if err := json.Unmarshal(ex.Output, &want); err != nil {
				t.Fatal(err)
			}
			_, o, _, _ := answer(nil, tool, ex.Input)
			if o != map[bool]outcome{true: gotValid, false: gotInvalid}[want.Valid] {
				t.Errorf("%s example %s: outcome %d", tool.ID, ex.Input, o)
			}
		}
	}
}

// TestAnswerPanic: a tool that panics gives an internal_error document and
// a report with the stack.
func TestAnswerPanic(t *testing.T) {
	doc, o, _, report := answer([]byte("x"), nil, []byte("{}"))
	if o != gotInternal || !bytes.HasPrefix(doc, []byte(`x{"error":{"code":"internal_error","path":""`)) || !strings.Contains(report, "goroutine") {
		t.Fatalf("outcome %d, doc %s, report %q", o, doc, report)
	}
}

func TestTools(t *testing.T) {
	stdout, _, _ := runCLI(nil, "tools")
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
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
	if n := strings.Count(stdout, "\n"); n != len(tools)+2 {
		t.Errorf("%d lines, want one per descriptor and the brackets", n)
	}
}

// TestHelpTool: "help TOOL" shows every input member and limit of the
// descriptor, and its examples as commands that print, byte for byte, the
// output shown under them.
func TestHelpTool(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			stdout, stderr, code := runCLI(nil, "help", tool.ID)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			var names []string
			var collect func(s json.RawMessage)
			collect = func(s json.RawMessage) {
				kws, _ := objectMembers(s)
				for _, k := range kws {
					switch k.name {
					case "properties":
						ps, _ := objectMembers(k.schema)
						for _, p := range ps {
							names = append(names, p.name)
							collect(p.schema)
						}
					case "items":
						collect(k.schema)
					}
				}
			}
			collect(tool.InputSchema)
			if len(names) < 2 {
				t.Fatalf("input schema members %q", names)
			}
			for _, n := range names {
				if !strings.Contains(stdout, "  "+n+" ") {
					t.Errorf("no line for member %s", n)
				}
			}
			for _, l := range tool.Limits {
				if !strings.Contains(stdout, l.Name) {
					t.Errorf("limit %s missing", l.Name)
				}
			}
			// The newest version's examples name the tool by its id alone,
			// as a user types it; an older version's would add @VERSION.
			if !strings.Contains(stdout, "| claimcheck run "+tool.ID+"\n") {
				t.Errorf("the examples do not run the newest version as %q", tool.ID)
			}
			lines := strings.Split(stdout, "\n")
			examples := 0
			for i, line := range lines {
				cmdline, ok := strings.CutPrefix(line, "  $ ")
				if !ok {
					continue
				}
				examples++
				quoted, args, ok := strings.Cut(strings.TrimPrefix(cmdline, "echo "), " | claimcheck ")
				if !ok || !strings.HasPrefix(quoted, "'") || !strings.HasSuffix(quoted, "'") {
					t.Fatalf("example %q is not echo '...' | claimcheck ...", cmdline)
				}
				doc := strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, `'`)
				out, _, _ := runCLI([]byte(doc), strings.Fields(args)...)
				if want := strings.TrimPrefix(lines[i+1], "  ") + "\n"; out != want {
					t.Errorf("%s prints\n%s, help shows\n%s", cmdline, out, want)
				}
			}
			if examples != len(tool.Examples) {
				t.Errorf("%d examples shown, want %d", examples, len(tool.Examples))
			}
			for line := range strings.Lines(stdout) {
				if len(line) > 81 && !strings.HasPrefix(line, "  $ ") && !strings.HasPrefix(line, "  {") && !strings.Contains(line, "required  ") {
					t.Errorf("line over 80 columns: %q", line)
				}
			}
		})
	}
}

// TestDescribeSchema: the outline of an input schema, for the keywords the
// descriptors use and for others, which are shown as written.
func TestDescribeSchema(t *testing.T) {
	type row struct {
		reason  string
		schema  string
		line    string
		members string // name:required:line, one per member
	}
	tests := []row{
		{"a string with a pattern", `{"type":"string","pattern":"^a$"}`, "string, matching ^a$", ""},
		{"a non-empty string", `{"type":"string","minLength":1}`, "string, at least 1 character", ""},
		{"length bounds, plural", `{"type":"string","minLength":2,"maxLength":3}`, "string, at least 2 characters, at most 3 characters", ""},
		{"a list of types", `{"type":["string","null"]}`, "string or null", ""},
		{"three types", `{"type":["string","number","null"]}`, "string, number or null", ""},
		{"one type in a list", `{"type":["boolean"]}`, "boolean", ""},
		{"an array of scalars", `{"type":"array","maxItems":5,"items":{"type":"number"}}`, "array, at most 5 items, each number", ""},
		{"at least one item", `{"type":"array","minItems":1}`, "array, at least 1 item", ""},
		{"a closed object, in schema order, required or not",
			`{"type":"object","additionalProperties":false,"required":["b"],"properties":{"b":{"type":"boolean"},"a":{"type":"string"}}}`,
			"object, no other members", "b:true:boolean a:false:string"},
		{"members of an array's objects", `{"type":"array","items":{"type":"object","properties":{"x":{}}}}`, "array, each object", "x:false:any value"},
		{"a required member without a schema", `{"type":"object","required":["z"]}`, "object", "z:true:"},
		{"unknown keywords are shown as written", `{"type":"integer","minimum":0,"multipleOf":2}`, "integer, minimum 0, multipleOf 2", ""},
		{"additionalProperties other than false", `{"type":"object","additionalProperties":{"type":"string"}}`, `object, additionalProperties {"type":"string"}`, ""},
		{"a malformed count is shown as written", `{"maxItems":"5"}`, `maxItems "5"`, ""},
		{"the empty schema", `{}`, "any value", ""},
		{"a boolean schema", `true`, "true", ""},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		line, members := describeSchema(json.RawMessage(tc.schema))
		var ms []string
		for _, m := range members {
			l := ""
			if m.schema != nil {
				l, _ = describeSchema(m.schema)
			}
			ms = append(ms, m.name+":"+map[bool]string{true: "true", false: "false"}[m.required]+":"+l)
		}
		if line != tc.line || strings.Join(ms, " ") != tc.members {
			t.Errorf("got  %q %q\nwant %q %q", line, ms, tc.line, tc.members)
		}
	})
}

// TestEcho: the example commands are valid POSIX shell printing the
// document unchanged.
func TestEcho(t *testing.T) {
	type row struct {
		reason, doc, want string
	}
	tests := []row{
		{"plain", `{"a":1}`, `echo '{"a":1}'`},
		{"a single quote is closed, escaped and reopened", `{"a":"it's"}`, `echo '{"a":"it'\''s"}'`},
		{"a backslash needs printf: dash's echo reads escapes", `{"a":"\n"}`, `printf '%s\n' '{"a":"\n"}'`},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		if got := echo([]byte(tc.doc)); got != tc.want {
			t.Errorf("%s, want %s", got, tc.want)
		}
	})
}

func TestWrap(t *testing.T) {
	type row struct {
		reason, in, want string
	}
	tests := []row{
		{"short", "a b  c", "> a b c\n"},
		{"lines of at most 76 columns", strings.Repeat("word ", 20), "> " + strings.TrimSpace(strings.Repeat("word ", 15)) + "\n  " + strings.TrimSpace(strings.Repeat("word ", 5)) + "\n"},
		{"a long word keeps its own line", "a " + strings.Repeat("x", 80) + " b", "> a\n  " + strings.Repeat("x", 80) + "\n  b\n"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		var b strings.Builder
		wrap(&b, tc.in, "> ", "  ")
		if b.String() != tc.want {
			t.Errorf("got  %q\nwant %q", b.String(), tc.want)
		}
	})
}

// TestRunMatchesBatch: run and batch give the same bytes for the same
// document, for a sample of conformance cases of every tool.
func TestRunMatchesBatch(t *testing.T) {
	for _, tool := range schema.Tools() {
		var in []byte
		var want string
		for i, c := range conformance.Load(t, tool.ID) {
			line, ok := oneLine(c.Input)
			if !ok || i%5 != 0 || len(line) > 4<<10 || isBlank(line) { // batch's message for a blank line is its own
				continue
			}
			out, _, _ := runCLI(line, "run", tool.ID)
			in = append(append(in, line...), '\n')
			want += out
		}
		if got, _, _ := runCLI(in, "batch", tool.ID); got != want {
			t.Errorf("%s: batch and run answer differently", tool.ID)
		}
	}
}

// TestDocBlankLine: the package doc shows the document a blank line gets.
func TestDocBlankLine(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := "//\t" + string(jsonl.BlankLine().AppendJSON(nil)) + "\n"; !strings.Contains(string(src), want) {
		t.Errorf("main.go does not show %q", want)
	}
}

// TestExitCodeDocs: the exit codes are stated once, in exitCodes; the
// README's table holds the same rows, the precedence of the usage text is
// the one exitCode applies, and every code is listed once.
func TestExitCodeDocs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, c := range exitCodes {
		if seen[c.code] {
			t.Errorf("exit code %d listed twice", c.code)
		}
		seen[c.code] = true
		if row := fmt.Sprintf("| %d | %s |\n", c.code, c.text); !strings.Contains(string(readme), row) {
			t.Errorf("README.md lacks the row %q", row)
		}
	}
	for _, c := range []int{exitOK, exitDocError, exitUsage, exitInternal, exitInvalid} {
		if !seen[c] {
			t.Errorf("exit code %d is not in exitCodes", c)
		}
	}
	// The README states the precedence of the usage text.
	var prec []string
	for _, c := range exitPrecedence {
		prec = append(prec, fmt.Sprint(c))
	}
	if want := "the first of " + strings.Join(prec, ", ") + " is returned"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q", want)
	}
	// exitCode's order of outcomes, worst first, is the precedence stated.
	if got := []int{exitCode(gotInternal, true), exitCode(gotError, true), exitCode(gotInvalid, true)}; fmt.Sprint(got) != fmt.Sprint(exitPrecedence[1:]) {
		t.Errorf("exitCode gives %v for internal, error, invalid; the usage text states %v", got, exitPrecedence[1:])
	}
}
