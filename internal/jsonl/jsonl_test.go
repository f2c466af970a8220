package jsonl

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/claimcheck/claimcheck/internal/testutil"
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
