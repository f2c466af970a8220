package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/jsonl"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// These tests call batch in the test process, so -race sees the pipeline.

func equalityTool(t testing.TB) *schema.Tool {
	tool, err := schema.Lookup(schema.MultisetEquality, "")
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestBatchReadError: the lines before a read error are answered, then
// the run stops with exit 2 and a message.
func TestBatchReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader("{\"source\":[],\"claim\":[]}\n[]\n"), iotest.ErrReader(errors.New("disk on fire")))
	var out, errOut bytes.Buffer
	code := batch(batchConfig{tool: equalityTool(t), workers: 4, maxLine: 1 << 20}, in, "in.jsonl", &out, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "disk on fire") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Fatalf("%d answers before the error, want 2: %s", n, out.String())
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("no space")
	}
	w.n--
	return len(p), nil
}

// TestBatchWriteError: a failing output stops the run with exit 2, without
// deadlocking the reader or the workers.
func TestBatchWriteError(t *testing.T) {
	in := strings.Repeat("{\"source\":[1],\"claim\":[1]}\n", 20000)
	var errOut bytes.Buffer
	code := batch(batchConfig{tool: equalityTool(t), workers: 4, maxLine: 1 << 20}, strings.NewReader(in), "in", &failWriter{n: 1}, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "no space") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestBatchInteractive: over a pipe, each answer comes out as soon as its
// line is in, without waiting for a full chunk or the end of input.
func TestBatchInteractive(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- batch(batchConfig{tool: equalityTool(t), workers: 2, maxLine: 1 << 20}, inR, "stdin", outW, io.Discard)
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for i := range 5 {
		fmt.Fprintf(inW, "{\"source\":[%d],\"claim\":[%d]}\n", i, i)
		got := make(chan string, 1)
		go func() { s, _ := answers.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if !strings.HasPrefix(s, `{"valid":true`) {
				t.Fatalf("answer %d: %q", i, s)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to line %d while the input stays open", i)
		}
	}
	inW.Close()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d", code)
	}
}

// TestBatchPanic: a panicking tool gives its line an internal_error
// document, the other lines their answers, and exit 3 with the panic on
// stderr.
func TestBatchPanic(t *testing.T) {
	// A Tool with an id Execute does not know answers unknown_tool, not a
	// panic; the panic is reached through a nil *Tool instead.
	var out, errOut bytes.Buffer
	code := batch(batchConfig{tool: nil, workers: 2, maxLine: 100}, strings.NewReader("{}\n"+strings.Repeat("x", 200)+"\n"), "in", &out, &errOut)
	if code != exitInternal || !strings.Contains(errOut.String(), "in line 1: panic") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"error":{"code":"internal_error"`) || !strings.Contains(lines[1], "max_document_bytes") {
		t.Fatalf("answers %q", lines)
	}
}

func BenchmarkBatch(b *testing.B) {
	var in bytes.Buffer
	for i := range 10000 {
		fmt.Fprintf(&in, "{\"source\":[%d,1,\"a\",null],\"claim\":[null,\"a\",1,%d]}\n", i, i)
	}
	tool := equalityTool(b)
	b.SetBytes(int64(in.Len()))
	for b.Loop() {
		if code := batch(batchConfig{tool: tool, workers: 4, maxLine: 1 << 20}, bytes.NewReader(in.Bytes()), "in", io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestBatchConformance puts every conformance case that fits on one line
// into JSON Lines and checks "batch" answers each, in order, with "\n" and
// with "\r\n" line endings, with one worker and with several, with the
// same bytes every time; and that the
// exit code is that of the worst answer: the error cases decide it, with
// or without -exit-code; without them, -exit-code gives 4 for the false
// verdicts, and 0 when only true ones remain.
func TestBatchConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			t.Parallel()
			// The first row runs every case; the others, the small ones
			// (the large ones add time, not kinds of answers).
			var cases, small, outputs, valids []conformance.Case
			for _, c := range conformance.Load(t, tool.ID) {
				line, ok := oneLine(c.Input)
				if !ok {
					continue
				}
				c.Input = line
				cases = append(cases, c)
				if len(line) > 4<<10 {
					continue
				}
				small = append(small, c)
				if c.Output != nil {
					outputs = append(outputs, c)
					if wantValid(t, c) {
						valids = append(valids, c)
					}
				}
			}
			if len(cases) < 100 || len(outputs) == len(small) || len(valids) == len(outputs) || len(valids) == 0 {
				t.Fatalf("%d cases fit on one line, %d small ones, %d outputs, %d valid: want some of each kind", len(cases), len(small), len(outputs), len(valids))
			}
			jsonl := func(cs []conformance.Case, eol string) []byte {
				var b []byte
				for _, c := range cs {
					b = append(append(b, c.Input...), eol...)
				}
				return b
			}
			type row struct {
				reason string
				cases  []conformance.Case
				args   []string
				eol    string
				code   int
			}
			tests := []row{
				{"all cases, eight workers", cases, []string{"-j", "8"}, "\n", exitDocError},
				{"CRLF, one worker; an error document outranks a false verdict", small, []string{"-j", "1", "-exit-code"}, "\r\n", exitDocError},
				{"outputs only: a false verdict is exit 0", outputs, nil, "\n", exitOK},
				{"outputs only, -exit-code: 4", outputs, []string{"-exit-code"}, "\n", exitInvalid},
				{"true verdicts only, -exit-code: 0", valids, []string{"-exit-code", "-j", "3"}, "\r\n", exitOK},
			}
			// The first row's answers are checked against the cases; the
			// others', line for line, against the first row's.
			var first map[string]string
			testutil.Run(t, tests, func(t *testing.T, tc row) {
				args := append(append([]string{"batch"}, tc.args...), tool.ID)
				stdout, stderr, code := runCLI(jsonl(tc.cases, tc.eol), args...)
				if code != tc.code || stderr != "" {
					t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, stderr)
				}
				lines := strings.SplitAfter(stdout, "\n")
				if lines[len(lines)-1] != "" || len(lines)-1 != len(tc.cases) {
					t.Fatalf("%d answers for %d lines", len(lines)-1, len(tc.cases))
				}
				if first == nil {
					first = map[string]string{}
					for i, c := range tc.cases {
						first[c.Name] = lines[i]
						t.Run(c.Name, func(t *testing.T) { checkAnswer(t, c, []byte(lines[i])) })
					}
					return
				}
				for i, c := range tc.cases {
					if lines[i] != first[c.Name] {
						t.Errorf("case %s: %.200s, first row's %.200s", c.Name, lines[i], first[c.Name])
					}
				}
			})
		})
	}
}

// TestBatchLines checks the line rules: output line N answers input line N;
// a blank line gets invalid_input at ""; "\r\n" and a final "\r" are line
// endings; a line over -max-line-bytes gets limit_exceeded
// (max_document_bytes), even a blank one, and the next line is still read;
// a line that is not JSON gets invalid_input at ""; a line of invalid UTF-8
// does not stop the run.
func TestBatchLines(t *testing.T) {
	const max = 40
	ok := `{"source":[1],"claim":[1]}`
	exact := ok + strings.Repeat(" ", max-len(ok))
	blank := jsonl.BlankLine().Message
	type row struct {
		reason string
		text   string
		code   claimcheck.Code // "" for a valid verdict
		path   string
		limit  string
		msg    string // when not "", the message
	}
	lines := []row{
		{"a document", ok, "", "", "", ""},
		{"an empty line", "", claimcheck.InvalidInput, "", "", blank},
		{"spaces and a tab", " \t ", claimcheck.InvalidInput, "", "", blank},
		{"CR before the LF is the line ending: empty", "\r", claimcheck.InvalidInput, "", "", blank},
		{"a line over the cap", `{"source":[` + strings.Repeat("1,", 1000) + `1],"claim":[]}`, claimcheck.LimitExceeded, "", "max_document_bytes", ""},
		{"a CRLF line", ok + "\r", "", "", "", ""},
		{"a blank line over the cap is over the cap", strings.Repeat(" ", 10*max), claimcheck.LimitExceeded, "", "max_document_bytes", ""},
		{"exactly the cap", exact, "", "", "", ""},
		{"exactly the cap, CRLF", exact + "\r", "", "", "", ""},
		{"over by one", exact + " ", claimcheck.LimitExceeded, "", "max_document_bytes", ""},
		{"not JSON", "not JSON", claimcheck.InvalidInput, "", "", ""},
		{"invalid UTF-8 in a string", "{\"source\":[\"\xff\"],\"claim\":[]}", claimcheck.InvalidInput, "/source/0", "", ""},
		{"invalid UTF-8 outside one: a grammar error", "\xff\xfe", claimcheck.InvalidInput, "", "", ""},
		{"a megabyte line", strings.Repeat("x", 1<<20), claimcheck.LimitExceeded, "", "max_document_bytes", ""},
		{"two blank lines in a row (1)", "", claimcheck.InvalidInput, "", "", blank},
		{"two blank lines in a row (2)", "  ", claimcheck.InvalidInput, "", "", blank},
		{"a final CR without LF ends the line", ok + "\r", "", "", "", ""},
	}
	// The rows are the lines of one input; each row's subtest checks its
	// line's answer.
	var texts []string
	at := make(map[string]int, len(lines)) // a row's index, by its reason
	for i, l := range lines {
		texts = append(texts, l.text)
		at[l.reason] = i
	}
	in := strings.Join(texts, "\n") // no final "\n": the last line ends with "\r"
	for _, j := range []string{"1", "3"} {
		t.Run("-j "+j, func(t *testing.T) {
			stdout, stderr, code := runCLI([]byte(in), "batch", "-j", j, "-max-line-bytes", fmt.Sprint(max), schema.MultisetEquality)
			if code != exitDocError || stderr != "" {
				t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
			}
			answers := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(answers) != len(lines) {
				t.Fatalf("%d answers, want %d:\n%s", len(answers), len(lines), stdout)
			}
			testutil.Run(t, lines, func(t *testing.T, w row) {
				i := at[w.reason]
				if w.code == "" {
					if !strings.HasPrefix(answers[i], `{"valid":true`) {
						t.Errorf("line %d: %s, want valid", i+1, answers[i])
					}
					return
				}
				e := conformance.ParseErrorDoc(t, []byte(answers[i]))
				if e.Code != w.code || e.Path != w.path || e.Limit != w.limit || e.Position != claimcheck.NoPosition || w.msg != "" && e.Message != w.msg {
					t.Errorf("line %d: %s, want %+v", i+1, answers[i], w)
				}
			})
		})
	}
}

// TestBatchEnds: the end of input ends the last line and starts none.
func TestBatchEnds(t *testing.T) {
	ok := `{"source":[],"claim":[]}`
	type row struct {
		reason  string
		in      string
		answers int
		code    int
	}
	tests := []row{
		{"empty input: no lines", "", 0, exitOK},
		{"a final newline ends the last line", ok + "\n", 1, exitOK},
		{"no final newline", ok, 1, exitOK},
		{"a final CRLF", ok + "\r\n", 1, exitOK},
		{"a lone newline is one blank line", "\n", 1, exitDocError},
		{"an extra newline at the end is a blank line", ok + "\n\n", 2, exitDocError},
		{"spaces after the last newline are a line", ok + "\n  ", 2, exitDocError},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		stdout, stderr, code := runCLI([]byte(tc.in), "batch", schema.MultisetEquality)
		if code != tc.code || stderr != "" || strings.Count(stdout, "\n") != tc.answers {
			t.Errorf("exit %d (want %d), %d answers (want %d); stderr %q", code, tc.code, strings.Count(stdout, "\n"), tc.answers, stderr)
		}
	})
}

// TestBatchParallelOrder: one worker and eight give the same bytes on a
// large input mixing every kind of answer and blank lines, and those bytes
// are schema.Execute's answers in input order, blank lines answered with
// the blank-line document.
func TestBatchParallelOrder(t *testing.T) {
	var in, want bytes.Buffer
	blank := jsonl.BlankLine().AppendJSON(nil)
	for i := range 6000 {
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
			line = "" // blank
		case 5:
			line = fmt.Sprintf(`{"source":[%d.5e3,null,true],"claim":[true,null,%d50]}`, i, i)
		case 6:
			line = fmt.Sprintf(`  {"claim":[], "source":["x%d"]}  `, i)
		}
		in.WriteString(line + "\n")
		out, err := docOf(schema.Execute(schema.MultisetEquality, "", []byte(line)))
		switch {
		case line == "":
			out = blank
		case err != nil:
			out = err.(*claimcheck.Error).AppendJSON(nil)
		}
		want.Write(append(out, '\n'))
	}
	for _, j := range []string{"1", "8"} {
		stdout, stderr, code := runCLI(in.Bytes(), "batch", "-j", j, schema.MultisetEquality)
		if code != exitDocError || stderr != "" {
			t.Fatalf("-j %s: exit %d; stderr %s", j, code, stderr)
		}
		if stdout != want.String() {
			t.Fatalf("-j %s: answers differ from schema.Execute's in input order", j)
		}
	}
}
