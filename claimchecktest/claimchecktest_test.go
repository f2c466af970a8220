package claimchecktest_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current reports")

// recorder is a stand-in testing.TB that keeps what a helper reports.
// Calling a method it does not override panics (the embedded TB is nil), so
// a helper that did anything else would be caught.
type recorder struct {
	testing.TB
	helpers int
	msgs    []string
}

func (r *recorder) Helper() { r.helpers++ }
func (r *recorder) Errorf(format string, args ...any) {
	if r.helpers == 0 {
		panic("Errorf before Helper: the failure would point into the helper")
	}
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// run calls a helper on a recorder and returns its result and report.
func run(f func(t testing.TB) bool) (ok bool, report string) {
	r := &recorder{}
	ok = f(r)
	return ok, strings.Join(r.msgs, "\n---\n")
}

func decode(doc string, useNumber bool) []any {
	dec := json.NewDecoder(strings.NewReader(doc))
	if useNumber {
		dec.UseNumber()
	}
	var xs []any
	if err := dec.Decode(&xs); err != nil {
		panic(err)
	}
	return xs
}

// TestValidClaimsPass: a valid claim returns true and reports nothing, for
// typed slices, JSON-decoded []any (with and without UseNumber) and bags
// larger than the JSON tools' 10,000-item limit.
func TestValidClaimsPass(t *testing.T) {
	big := make([]int, 50000)
	shuffled := make([]int, len(big))
	for i := range big {
		big[i] = i % 7919
		shuffled[len(big)-1-i] = big[i]
	}
	bigAny := make([]any, len(big))
	for i, x := range big {
		bigAny[i] = float64(x)
	}
	type row struct {
		reason string
		check  func(t testing.TB) bool
	}
	rows := []row{
		{"typed []int", func(t testing.TB) bool { return claimchecktest.Equality(t, []int{1, 2, 2}, []int{2, 1, 2}) }},
		{"typed []string", func(t testing.TB) bool { return claimchecktest.Equality(t, []string{"a", "b"}, []string{"b", "a"}) }},
		{"JSON-decoded []any", func(t testing.TB) bool {
			return claimchecktest.Equality(t, decode(`[1, "x", null, 1.0]`, false), decode(`[1e0, null, "x", 1]`, false))
		}},
		{"JSON-decoded []any with UseNumber", func(t testing.TB) bool {
			return claimchecktest.Equality(t, decode(`[1, 2.50]`, true), decode(`[2.5, 1.0]`, true))
		}},
		{"50,000 typed elements, over the JSON tools' limit", func(t testing.TB) bool { return claimchecktest.Equality(t, big, shuffled) }},
		{"a typed []int reference against a JSON-decoded []any answer of 50,000 elements", func(t testing.TB) bool {
			return claimchecktest.Equality(t, big, bigAny)
		}},
		{"a typed reference against a JSON-decoded answer with UseNumber", func(t testing.TB) bool {
			return claimchecktest.Equality(t, []float64{0.5, 2}, decode(`[2, 5e-1]`, true))
		}},
		{"a difference of typed slices", func(t testing.TB) bool {
			return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 2, 3}, []int{4})
		}},
		{"a difference with JSON-decoded residuals", func(t testing.TB) bool {
			return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, decode(`[1, 2, 3]`, false), decode(`[4]`, true))
		}},
		{"a rational claim", func(t testing.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "25/12") }},
		{"Rational accepts a claim of the right value in any form", func(t testing.TB) bool { return claimchecktest.Rational(t, "1/2", "2/4") }},
		{"RationalCanonical accepts the canonical form", func(t testing.TB) bool { return claimchecktest.RationalCanonical(t, "2/4", "1/2") }},
		{"a difference of 50,000 elements", func(t testing.TB) bool {
			return claimchecktest.Difference(t, big, big[:25000], big[25000:], nil)
		}},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		ok, report := run(r.check)
		if !ok || report != "" {
			t.Errorf("returned %v, reported %q", ok, report)
		}
	})
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got+"\n" != string(want) {
		t.Errorf("report differs from %s (run go test -update after checking the change)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestReports pins every report shape in golden files: a failing helper
// returns false and reports once.
func TestReports(t *testing.T) {
	many := make([]int, 30)
	for i := range many {
		many[i] = i
	}
	long := make([]int, 25)
	type row struct {
		name, reason string // name: the golden file's, testdata/name.golden
		check        func(t testing.TB) bool
	}
	rows := []row{
		{"equality-every-value", "every differing value, in contract order, aligned; strings and numbers apart",
			func(t testing.TB) bool {
				return claimchecktest.Equality(t, []any{2, 2, "2", 3, 3, 5}, []any{2, "x", 3, 3, 7, 7})
			}},
		{"equality-one-value", "a single differing value",
			func(t testing.TB) bool { return claimchecktest.Equality(t, []string{"a", "b"}, []string{"a"}) }},
		{"equality-capped", "at most 20 rows, then how many more",
			func(t testing.TB) bool { return claimchecktest.Equality(t, many, []int{}) }},
		{"equality-long-value", "a long string is cut in the table",
			func(t testing.TB) bool {
				return claimchecktest.Equality(t, []string{strings.Repeat("abcdefghij", 10)}, []string{"short"})
			}},
		{"equality-refused", "input the check refuses is reported with its path",
			func(t testing.TB) bool { return claimchecktest.Equality(t, []any{1}, []any{1, map[string]any{}}) }},
		{"equality-inexact-integer", "an integer no double holds is refused, not rounded",
			func(t testing.TB) bool { return claimchecktest.Equality(t, []int64{1 << 53}, []int64{1<<53 + 1}) }},
		{"difference-wrong-element", "the first discrepancy and the expected residuals",
			func(t testing.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3}, []int{4})
			}},
		{"difference-long-residual", "a residual too long to print is counted",
			func(t testing.TB) bool { return claimchecktest.Difference(t, long, nil, long[1:], nil) }},
		{"rational-value-mismatch", "the true value, the claim and their difference",
			func(t testing.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6") }},
		{"rational-division-by-zero", "a caret under the division, tildes under the zero divisor",
			func(t testing.TB) bool { return claimchecktest.Rational(t, "1/3 + 1 ÷ (2 - 2)", "1/3") }},
		{"rational-expression-error", "a caret under the offending character, counted in code points",
			func(t testing.TB) bool { return claimchecktest.Rational(t, "1 × (2 +) ^ 3", "8") }},
		{"rational-line-breaks", "line breaks in the expression are shown as spaces, so the caret stays aligned",
			func(t testing.TB) bool { return claimchecktest.Rational(t, "1 +\n\t2 +", "3") }},
		{"rational-not-canonical", "RationalCanonical says what to write instead",
			func(t testing.TB) bool { return claimchecktest.RationalCanonical(t, "1/2 + 1/2", "2/2") }},
		{"rational-claim-refused", "a malformed claim has no position",
			func(t testing.TB) bool { return claimchecktest.Rational(t, "1", "1.0") }},
		{"difference-refused", "a refused element in a claimed list",
			func(t testing.TB) bool {
				return claimchecktest.Difference(t, []any{1}, []any{}, []any{1}, []any{"\xff"})
			}},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		ok, report := run(r.check)
		if ok || report == "" || strings.Contains(report, "\n---\n") {
			t.Fatalf("%s: returned %v with report %q; want false and one report", r.name, ok, report)
		}
		golden(t, r.name, report)
	})
}

// TestEqualityNamesEveryDifferingValue: the report lists every value whose
// counts differ, checked against the inputs directly rather than a golden
// file, on a larger input.
func TestEqualityNamesEveryDifferingValue(t *testing.T) {
	src := []string{"a", "b", "b", "c", "d", "e"}
	claim := []string{"b", "c", "c", "d", "f", "e"}
	_, report := run(func(t testing.TB) bool { return claimchecktest.Equality(t, src, claim) })
	for _, v := range []string{`"a"`, `"b"`, `"c"`, `"f"`} {
		if !strings.Contains(report, "\n  "+v+" ") {
			t.Errorf("report does not name %s:\n%s", v, report)
		}
	}
	for _, v := range []string{`"d"`, `"e"`} {
		if strings.Contains(report, v) {
			t.Errorf("report names %s, whose counts agree:\n%s", v, report)
		}
	}
}

const childEnv = "CLAIMCHECKTEST_CHILD"

// TestFailsAtCallersLine runs a failing grading test in a child process and
// checks that the failure is reported at the line of the helper's call, not
// inside the helper, and that the test goes on after it.
func TestFailsAtCallersLine(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		claimchecktest.Equality(t, []int{1, 2}, []int{2, 2}) // line A
		t.Log("still running")
		return
	}
	_, file, line, _ := runtime.Caller(0)
	lineA := line - 4 // the call above
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailsAtCallersLine$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child test passed:\n%s", out)
	}
	want := fmt.Sprintf("%s:%d: claimchecktest.Equality:", filepath.Base(file), lineA)
	if !bytes.Contains(out, []byte(want)) {
		t.Errorf("child output does not report at %q:\n%s", want, out)
	}
	if !regexp.MustCompile(`still running`).Match(out) {
		t.Errorf("the test did not go on after the failure:\n%s", out)
	}
}
