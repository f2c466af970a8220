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

func TestReadLine(t *testing.T) {
	type line struct {
		kind lineKind
		text string
	}
	type row struct {
		reason string
		in     string
		max    int64
		want   []line
	}
	tests := []row{
		{"empty input has no lines", "", 10, nil},
		{"final newline ends the last line", "a\n", 10, []line{{lineDoc, "a"}}},
		{"no final newline", "a\nb", 10, []line{{lineDoc, "a"}, {lineDoc, "b"}}},
		{"CRLF", "a\r\nb\r\n", 10, []line{{lineDoc, "a"}, {lineDoc, "b"}}},
		{"final CR", "a\r", 10, []line{{lineDoc, "a"}}},
		{"only one CR is a line ending", "a\r\r\n", 10, []line{{lineDoc, "a\r"}}},
		{"CR inside a line stays", "a\rb\n", 10, []line{{lineDoc, "a\rb"}}},
		{"blank lines are lines", "\n \t\n\r\n \r \n", 10, []line{{lineDoc, ""}, {lineDoc, " \t"}, {lineDoc, ""}, {lineDoc, " \r "}}},
		{"a lone CR at the end is an empty line", "a\n\r", 10, []line{{lineDoc, "a"}, {lineDoc, ""}}},
		{"exactly the cap", "abc\nabc\r\n", 3, []line{{lineDoc, "abc"}, {lineDoc, "abc"}}},
		{"one over the cap", "abcd\nx\n", 3, []line{{lineOver, ""}, {lineDoc, "x"}}},
		{"one over with CR", "abcd\r\nx", 3, []line{{lineOver, ""}, {lineDoc, "x"}}},
		{"blank over the cap is over", "      \nx", 3, []line{{lineOver, ""}, {lineDoc, "x"}}},
		{"cap zero", "a\n\n", 0, []line{{lineOver, ""}, {lineDoc, ""}}},
		{"longer than the reader's buffer", strings.Repeat("y", 100) + "\nx", 50, []line{{lineOver, ""}, {lineDoc, "x"}}},
		{"kept across buffer refills", strings.Repeat("y", 40) + "\r\n", 40, []line{{lineDoc, strings.Repeat("y", 40)}}},
		{"over across buffer refills", strings.Repeat(" ", 100) + "z\n", 10, []line{{lineOver, ""}}},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		// A 16-byte buffer (bufio's minimum) makes long lines span
		// several ReadSlice calls; OneByteReader makes every read short.
		br := bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(tc.in)), 16)
		var got []line
		var buf []byte
		for {
			start := len(buf)
			var k lineKind
			var err error
			buf, k, err = readLine(br, buf, tc.max)
			if err != nil {
				t.Fatal(err)
			}
			if k == lineEOF {
				break
			}
			got = append(got, line{k, string(buf[start:])})
			if k != lineDoc && len(buf) != start {
				t.Fatalf("a %v line left %q in the buffer", k, buf[start:])
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Fatalf("got %q, want %q", got, tc.want)
		}
	})
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
