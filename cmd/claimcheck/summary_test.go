package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// TestSummaryOrdersLinesFarApart: rows are in order of first line however
// far apart their lines are: the difference of two line numbers past 2^31
// apart, cut to an int of 32 bits, put a row seen at line 2^31+2 before one
// seen at line 1.
func TestSummaryOrdersLinesFarApart(t *testing.T) {
	s := newSummary()
	s.add(1, lineClass{"error", "invalid_input"})
	s.add(1<<31+2, lineClass{"valid", ""})
	var b strings.Builder
	s.write(&b, "in")
	if out := b.String(); strings.Index(out, "valid") < strings.Index(out, "error") {
		t.Errorf("the class first seen at line 2^31+2 is listed before the one seen at line 1:\n%s", out)
	}
}

// TestBatchSummary: -summary writes, at the end of stderr, the lines by
// verdict, reason and error code with the first line of each, and leaves
// stdout and the exit code as they are without it.
func TestBatchSummary(t *testing.T) {
	in := strings.Join([]string{
		`{"source":[1],"claim":[1]}`,
		`{"source":[1],"claim":[2]}`,
		``,
		`{"source":[1],"claim":[[1]]}`,
		`{"source":[1],"claim":[3]}`,
		`{"source":[` + strings.Repeat("1,", 40) + `1],"claim":[]}`,
		`{"source":[1],"claim":[1]}`,
	}, "\n") + "\n"
	want := `claimcheck: summary of stdin: 7 lines
  verdict           lines  first line
    valid               2           1
    invalid             2           2
    error               3           3
  reason            lines  first line
    claim_mismatch      2           2
  error code        lines  first line
    invalid_input       2           3
    limit_exceeded      1           6
`
	plainOut, plainErr, plainCode := runCLI([]byte(in), "batch", "-max-line-bytes", "60", schema.MultisetEquality)
	for _, j := range []string{"1", "3"} {
		out, stderr, code := runCLI([]byte(in), "batch", "-summary", "-j", j, "-max-line-bytes", "60", schema.MultisetEquality)
		if out != plainOut || code != plainCode || plainErr != "" {
			t.Errorf("-j %s: -summary changed the output or exit code (%d, %d), or the plain run wrote %q", j, code, plainCode, plainErr)
		}
		if stderr != want {
			t.Errorf("-j %s: stderr\n%s\nwant\n%s", j, stderr, want)
		}
	}
	_, stderr, _ := runCLI(nil, "batch", "-summary", schema.MultisetEquality)
	if stderr != "claimcheck: summary of stdin: 0 lines\n" {
		t.Errorf("empty input: %q", stderr)
	}
}

// TestSummaryCountsEveryConformanceCase runs every tool's one-line
// conformance cases through batch -summary and checks its counts against
// the answers read with encoding/json: the classification by the
// documents' first members agrees with their content.
func TestSummaryCountsEveryConformanceCase(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			var in []byte
			for _, c := range conformance.Load(t, tool.ID) {
				if line, ok := oneLine(c.Input); ok && len(line) < 64<<10 {
					in = append(append(in, line...), '\n')
				}
			}
			stdout, stderr, _ := runCLI(in, "batch", "-summary", tool.ID)
			type stat struct{ count, first int }
			want := map[string]*stat{}
			count := func(k string, line int) {
				if want[k] == nil {
					want[k] = &stat{first: line}
				}
				want[k].count++
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			for i, l := range lines {
				var doc struct {
					Valid  *bool
					Reason *string
					Error  *struct{ Code string }
				}
				if err := json.Unmarshal([]byte(l), &doc); err != nil {
					t.Fatal(err)
				}
				switch {
				case doc.Error != nil:
					count("error", i+1)
					count("code "+doc.Error.Code, i+1)
				case *doc.Valid:
					count("valid", i+1)
				default:
					count("invalid", i+1)
					count("reason "+*doc.Reason, i+1)
				}
			}
			got := map[string]*stat{}
			section := ""
			for _, l := range strings.Split(stderr, "\n")[1:] {
				f := strings.Fields(l)
				switch {
				case len(f) == 0:
				case f[len(f)-1] == "line":
					section = map[string]string{"verdict": "", "reason": "reason ", "error": "code "}[f[0]]
				default:
					var s stat
					fmt.Sscan(f[1]+" "+f[2], &s.count, &s.first)
					got[section+f[0]] = &s
				}
			}
			if len(got) != len(want) || len(want) < 4 {
				t.Errorf("summary has %d entries, the answers %d:\n%s", len(got), len(want), stderr)
			}
			for k, w := range want {
				if g := got[k]; g == nil || *g != *w {
					t.Errorf("%s: summary %v, answers %v", k, g, *w)
				}
			}
			if !strings.HasPrefix(stderr, fmt.Sprintf("claimcheck: summary of stdin: %d lines\n", len(lines))) {
				t.Errorf("summary's total: %q", stderr[:min(len(stderr), 80)])
			}
		})
	}
}

// TestProgressLine: the progress line's text, for stdin (no size) and for a
// regular file (percentage and time left).
func TestProgressLine(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type row struct {
		reason      string
		size, bytes int64
		lines       int64
		after       time.Duration
		want        string
	}
	testutil.Run(t, []row{
		{"stdin: lines and rate only", 0, 5000, 1200, 2 * time.Second, "claimcheck: 1200 lines, 600 lines/s"},
		{"a file: a quarter read in 10s leaves 30s", 4000, 1000, 50, 10 * time.Second, "claimcheck: 50 lines, 5 lines/s, 25%, ETA 0:30"},
		{"nothing read yet: no ETA", 4000, 0, 0, time.Second, "claimcheck: 0 lines, 0 lines/s, 0%"},
		{"hours", 3601*100 + 100, 100, 1, time.Second, "claimcheck: 1 lines, 1 lines/s, 0%, ETA 1:00:01"},
		{"at the start: no rate", 10, 0, 0, 0, "claimcheck: 0 lines, 0%"},
	}, func(t *testing.T, r row) {
		p := &progress{size: r.size, start: start}
		p.lines.Store(r.lines)
		p.bytes.Store(r.bytes)
		if got := p.line(start.Add(r.after)); got != r.want {
			t.Errorf("got %q, want %q", got, r.want)
		}
	})
}

// TestRegularSize: a regular file's remaining size, 0 for anything else.
func TestRegularSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(3, 0)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	got := []int64{regularSize(f), regularSize(r), regularSize(strings.NewReader("x"))}
	if !slices.Equal(got, []int64{7, 0, 0}) {
		t.Errorf("sizes %v, want [7 0 0]: a file from its offset, a pipe and a non-file unknown", got)
	}
}

// TestMessagesReachTheCLI: the rational package's message for a malformed
// claimed value, quoting it with a hint, and canon's JSON-kind wording
// reach the CLI's error documents as they are; code and path are the
// contract's.
func TestMessagesReachTheCLI(t *testing.T) {
	type row struct {
		reason, tool, in, want string
	}
	testutil.Run(t, []row{
		{"a trailing space", schema.RationalExpression, `{"expression":"1/2","claimed_value":"1/2 ","require_canonical":false}`,
			`{"error":{"code":"invalid_input","path":"/claimed_value","message":"claimed value \"1/2 \" is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?: there is white space after the value; remove it (write \"1/2\")"}}` + "\n"},
		{"U+2212", schema.RationalExpression, `{"expression":"1/3 - 1/2","claimed_value":"−1/6","require_canonical":false}`,
			`{"error":{"code":"invalid_input","path":"/claimed_value","message":"claimed value \"−1/6\" is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?: the minus sign must be the ASCII hyphen-minus '-', not U+2212 '−' (write \"-1/6\")"}}` + "\n"},
		{"an empty claim", schema.RationalExpression, `{"expression":"1","claimed_value":"","require_canonical":true}`,
			`{"error":{"code":"invalid_input","path":"/claimed_value","message":"claimed value is empty: want an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?"}}` + "\n"},
		{"an object element", schema.MultisetEquality, `{"source":[{}],"claim":[]}`,
			`{"error":{"code":"invalid_input","path":"/source/0","message":"element is an object, not a scalar"}}` + "\n"},
	}, func(t *testing.T, r row) {
		out, _, code := runCLI([]byte(r.in), "run", r.tool)
		if out != r.want || code != exitDocError {
			t.Errorf("exit %d\n got %s\nwant %s", code, out, r.want)
		}
	})
}
