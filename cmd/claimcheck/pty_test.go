//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/claimcheck/claimcheck/schema"
)

// testProgressTerminal runs batch with stderr on a pseudo-terminal and
// stdin on a pipe the test feeds: after the first lines the progress line
// shows them, with no percentage (a pipe has no size); at the end it is
// erased before the summary; stdout is what it is without a terminal.
// Nothing here measures time: the test reads the terminal until the text
// it wants is there (a progress tick comes within a second of the lines),
// giving up only after hangGuard, so that a missing line fails the test
// rather than hangs it.
const hangGuard = 2 * time.Minute

func testProgressTerminal(t *testing.T, bin string) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	line := `{"source":[1,2],"claim":[2,1]}` + "\n"
	cmd := exec.Command(bin, "batch", "-summary", schema.MultisetEquality)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child has its own copy
	term := make(chan []byte)
	go func() { // everything the terminal shows, a read at a time
		defer close(term)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				term <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	var seen []byte
	until := func(want string) {
		t.Helper()
		for !bytes.Contains(seen, []byte(want)) {
			select {
			case b, ok := <-term:
				if !ok {
					t.Fatalf("the terminal closed before showing %q; it showed %q", want, seen)
				}
				seen = append(seen, b...)
			case <-time.After(hangGuard):
				cmd.Process.Kill()
				t.Fatalf("the terminal has not shown %q in %v (a guard against a hang, not a timing check); it showed %q", want, hangGuard, seen)
			}
		}
	}
	io.WriteString(stdin, strings.Repeat(line, 3))
	until("\r\x1b[Kclaimcheck: 3 lines, ")
	io.WriteString(stdin, strings.Repeat(line, 2))
	until("\r\x1b[Kclaimcheck: 5 lines, ")
	stdin.Close()
	until("claimcheck: summary of stdin: 5 lines")
	until("first line")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("batch: %v", err)
	}
	if s := string(seen); strings.Contains(s, "%") {
		t.Errorf("a percentage for a pipe: %q", s)
	}
	if i, j := bytes.LastIndex(seen, []byte("\r\x1b[K")), bytes.Index(seen, []byte("claimcheck: summary")); i < 0 || j < i || !bytes.Equal(bytes.TrimLeft(seen[i+4:j], "\r\n"), nil) {
		t.Errorf("the progress line is not erased right before the summary: %q", seen)
	}
	if stdout.String() != strings.Repeat(`{"valid":true,"reference_version":"`+refVersion(t)+`"}`+"\n", 5) {
		t.Errorf("stdout: %q", stdout.String())
	}
}

// TestProgressOnlyOnATerminal: batch starts a progress line for a terminal
// (a pseudo-terminal's tty) and for nothing else: not a pipe, a regular
// file, /dev/null (a character device, but no terminal), or a writer that
// is no file. The decision is made once, before anything is read.
func TestProgressOnlyOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	type row struct {
		reason string
		w      io.Writer
		want   bool
	}
	for _, r := range []row{
		{"a pseudo-terminal", tty, true},
		{"a pipe", pw, false},
		{"a regular file", file, false},
		{"/dev/null", null, false},
		{"a buffer", new(bytes.Buffer), false},
	} {
		p := startProgress(r.w, strings.NewReader(""))
		if (p != nil) != r.want {
			t.Errorf("%s: progress %v, want %v", r.reason, p != nil, r.want)
		}
		p.end()
	}
}

func refVersion(t *testing.T) string {
	tool, err := schema.Lookup(schema.MultisetEquality, "")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tool.Execute([]byte(`{"source":[],"claim":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, v, _ := strings.Cut(string(doc.Doc), `"reference_version":"`)
	return strings.TrimSuffix(v, `"}`)
}
