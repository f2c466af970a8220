package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

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
			buf, k, err = readLine(br, buf, tc.max, nil)
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

// TestRunTakesWhatItHolds: with Take and Give, a run takes its buffers'
// bytes as they grow, a line still being read included, and gives every
// byte back by its end; a Take that refuses stops the run after the lines
// before it, which are answered.
func TestRunTakesWhatItHolds(t *testing.T) {
	tool, _ := schema.Lookup("multiset-equality-check", "")
	line := `{"source":[1,2],"claim":[2,1]}` + "\n"
	var mu sync.Mutex
	var held, peak int64
	take := func(n int64) error {
		mu.Lock()
		defer mu.Unlock()
		held += n
		peak = max(peak, held)
		return nil
	}
	give := func(n int64) {
		mu.Lock()
		defer mu.Unlock()
		held -= n
	}
	now := func() int64 {
		mu.Lock()
		defer mu.Unlock()
		return held
	}

	// A whole input: everything is given back.
	var out bytes.Buffer
	res := Run(Config{Tool: tool, Workers: 2, MaxLine: 1 << 20, Take: take, Give: give},
		strings.NewReader(strings.Repeat(line, 5000)), &out)
	if res.Lines != 5000 || res.Stop != nil || now() != 0 || peak == 0 {
		t.Fatalf("%d lines, stop %v, %d bytes still held (peak %d)", res.Lines, res.Stop, now(), peak)
	}

	// A line of 1 MiB still being read is held as it arrives.
	pr, pw := io.Pipe()
	done := make(chan Result, 1)
	go func() {
		done <- Run(Config{Tool: tool, Workers: 1, MaxLine: 4 << 20, Take: take, Give: give}, pr, io.Discard)
	}()
	pw.Write(bytes.Repeat([]byte(" "), 1<<20))
	for end := time.Now().Add(5 * time.Second); now() < 1<<20 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if h := now(); h < 1<<20 || h > 4<<20 {
		t.Errorf("an unfinished line of 1 MiB: %d bytes held", h)
	}
	pw.Write([]byte("1\n"))
	pw.Close()
	if r := <-done; r.Lines != 1 || now() != 0 {
		t.Errorf("%d lines, %d bytes still held", r.Lines, now())
	}

	// A Take that refuses past 64 KiB stops the run; what came before is
	// answered, and nothing is left held.
	refused := errors.New("no room")
	capped := func(n int64) error {
		mu.Lock()
		defer mu.Unlock()
		if held+n > 64<<10 {
			return refused
		}
		held += n
		return nil
	}
	out.Reset()
	pr, pw = io.Pipe()
	go func() {
		pw.Write([]byte(strings.Repeat(line, 10)))
		time.Sleep(50 * time.Millisecond) // the ten are answered first
		pw.Write(bytes.Repeat([]byte(" "), 1<<20))
		pw.Close()
	}()
	res = Run(Config{Tool: tool, Workers: 1, MaxLine: 4 << 20, Take: capped, Give: give}, pr, &out)
	pr.Close()
	if !errors.Is(res.Stop, refused) || res.Lines != 10 || strings.Count(out.String(), "\n") != 10 || now() != 0 {
		t.Errorf("stop %v, %d lines, %d answers, %d bytes still held", res.Stop, res.Lines, strings.Count(out.String(), "\n"), now())
	}
}
