package claimchecktest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current reports")

// recorder is a harness of its own, as claimchecktest.TB allows: it keeps
// what a helper reports. It has no other method, so a helper that needed
// one would not compile against it.
type recorder struct {
	helpers  int
	msgs     []string
	failNows int  // calls of FailNow
	afterNow bool // something was reported after FailNow
}

func (r *recorder) Helper() { r.helpers++ }
func (r *recorder) Errorf(format string, args ...any) {
	if r.helpers == 0 {
		panic("Errorf before Helper: the failure would point into the helper")
	}
	if r.failNows > 0 {
		r.afterNow = true
	}
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// FailNow records the call; a real one would end the test's goroutine.
func (r *recorder) FailNow() { r.failNows++ }

// run calls a helper on a recorder and returns its result and report.
func run(f func(t claimchecktest.TB) bool) (ok bool, report string) {
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
		check  func(t claimchecktest.TB) bool
	}
	rows := []row{
		{"typed []int", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1, 2, 2}, []int{2, 1, 2}) }},
		{"typed []string", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []string{"a", "b"}, []string{"b", "a"})
		}},
		{"JSON-decoded []any", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, decode(`[1, "x", null, 1.0]`, false), decode(`[1e0, null, "x", 1]`, false))
		}},
		{"JSON-decoded []any with UseNumber", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, decode(`[1, 2.50]`, true), decode(`[2.5, 1.0]`, true))
		}},
		{"50,000 typed elements, over the JSON tools' limit", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, big, shuffled) }},
		{"a typed []int reference against a JSON-decoded []any answer of 50,000 elements", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, big, bigAny)
		}},
		{"a typed reference against a JSON-decoded answer with UseNumber", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []float64{0.5, 2}, decode(`[2, 5e-1]`, true))
		}},
		{"a difference of typed slices", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 2, 3}, []int{4})
		}},
		{"a difference with JSON-decoded residuals", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, decode(`[1, 2, 3]`, false), decode(`[4]`, true))
		}},
		{"a rational claim", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "25/12") }},
		{"Rational accepts a claim of the right value in any form", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1/2", "2/4") }},
		{"RationalCanonical accepts the canonical form", func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "2/4", "1/2") }},
		{"a difference of 50,000 elements", func(t claimchecktest.TB) bool {
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
		check        func(t claimchecktest.TB) bool
	}
	rows := []row{
		{"equality-every-value", "every differing value, in contract order, aligned; strings and numbers apart",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []any{2, 2, "2", 3, 3, 5}, []any{2, "x", 3, 3, 7, 7})
			}},
		{"equality-one-value", "a single differing value",
			func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []string{"a", "b"}, []string{"a"}) }},
		{"equality-capped", "at most 20 rows, then how many more",
			func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, many, []int{}) }},
		{"equality-long-value", "a long string is cut in the table",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []string{strings.Repeat("abcdefghij", 10)}, []string{"short"})
			}},
		{"equality-refused", "input the check refuses is reported with its path",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []any{1}, []any{1, map[string]any{}})
			}},
		{"equality-exact-integer", "an integer no double holds is that integer, not the double 2^53 (refused before)",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int64{1 << 53}, []int64{1<<53 + 1})
			}},
		{"difference-wrong-element", "the first discrepancy and the expected residuals",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3}, []int{4})
			}},
		{"difference-long-residual", "a residual too long to print is counted",
			func(t claimchecktest.TB) bool { return claimchecktest.Difference(t, long, []int(nil), long[1:], nil) }},
		{"rational-value-mismatch", "the true value, the claim and their difference",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6") }},
		{"rational-division-by-zero", "a caret under the division, tildes under the zero divisor",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1/3 + 1 ÷ (2 - 2)", "1/3") }},
		{"rational-expression-error", "a caret under the offending character, counted in code points",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 × (2 +) ^ 3", "8") }},
		{"rational-line-breaks", "line breaks in the expression are shown as spaces, so the caret stays aligned",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 +\n\t2 +", "3") }},
		{"rational-not-canonical", "RationalCanonical says what to write instead",
			func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "1/2 + 1/2", "2/2") }},
		{"rational-claim-refused", "a malformed claim has no position",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1", "1.0") }},
		{"difference-refused", "a refused element in a claimed list",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []any{1}, []any{}, []any{1}, []any{"\xff"})
			}},
		{"equality-message", "Messagef and Message label the first line, labels in order",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{1}, []int{2}, claimchecktest.Messagef("Q%d", 1), claimchecktest.Message("factors"))
			}},
		{"equality-message-percent", "Message writes its label as it is: a % is no verb",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{1}, []int{2}, claimchecktest.Message("Q1 (50%)"))
			}},
		{"equality-hidden", "HideReference: the claim's values in excess, in claim order, and a count of what is missing",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []any{2, 2, "2", 3, 3, 5}, []any{7, 2, "x", 3, 3, 3, 7}, claimchecktest.HideReference())
			}},
		{"equality-hidden-missing-only", "HideReference with nothing in excess: only the count",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{1, 2, 3, 4}, []int{4, 1}, claimchecktest.HideReference())
			}},
		{"equality-hidden-refused-reference", "a refused reference is the staff's fault, reported to them in full under HideReference too",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []any{"secret\xff"}, []int64{1}, claimchecktest.HideReference())
			}},
		{"equality-named", "Named: the staff report names the claim's elements factors[i]",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{2, 2, 3}, []int{2, 3, 7}, claimchecktest.Named("factors"))
			}},
		{"equality-named-hidden", "Named: the student's report names the claim's elements factors[i]",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{2, 2, 3}, []int{2, 3, 7}, claimchecktest.Named("factors"), claimchecktest.HideReference())
			}},
		{"difference-named", "Named: the staff report names the lists leftOnly and rightOnly",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3, 2}, []int{5}, claimchecktest.Named("leftOnly", "rightOnly"))
			}},
		{"difference-named-hidden", "Named: the student's report names the lists leftOnly and rightOnly, no list of the tool's",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3, 2}, []int{5}, claimchecktest.Named("leftOnly", "rightOnly"), claimchecktest.HideReference())
			}},
		{"rational-named-hidden", "Named: a malformed rational claim named by the student's name, in words without a regular expression",
			func(t claimchecktest.TB) bool {
				return claimchecktest.RationalCanonical(t, "1 + 1/2 + 1/3 + 1/4", "2 1/12", claimchecktest.Named("q3"), claimchecktest.HideReference())
			}},
		{"equality-named-refused-hidden", "Named: a refused element of the claim at its named path",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []string{"a"}, []string{"a", "\xff"}, claimchecktest.Named("words"), claimchecktest.HideReference())
			}},
		{"equality-long-values-alike", "two values alike but for their last character keep it",
			func(t claimchecktest.TB) bool {
				y := strings.Repeat("y", 60)
				return claimchecktest.Equality(t, []string{y + "A"}, []string{y + "B"})
			}},
		{"equality-long-values-middle", "two values alike but in the middle keep the runes around the difference",
			func(t claimchecktest.TB) bool {
				y := strings.Repeat("y", 40)
				return claimchecktest.Equality(t, []string{y + "A" + y}, []string{y + "B" + y, "short"})
			}},
		{"equality-limits", "Limits bounds the check; a limit is reported as the tools report it",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{1, 2, 3}, []int{3, 2, 1}, claimchecktest.Limits(multiset.Limits{MaxItems: 2}))
			}},
		{"difference-every-index", "every differing index of both lists, the claim's lists beside the expected",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3, 5}, []int{2, 4, 6}, []int{1, 3, 2}, []int{6, 4, 4})
			}},
		{"difference-capped", "at most 20 indexes of a list, then how many more",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, many, []int(nil), many[1:], []int{1})
			}},
		{"difference-long-values", "long values in a difference are told apart",
			func(t claimchecktest.TB) bool {
				y := strings.Repeat("y", 60)
				return claimchecktest.Difference(t, []string{y + "A", "b"}, []string{"b"}, []string{y + "B"}, nil)
			}},
		{"difference-hidden", "HideReference: the first wrong index of each list and the claim's element there",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2, 2, 3, 5}, []int{2, 4, 6}, []int{1, 3, 2}, []int{6}, claimchecktest.HideReference())
			}},
		{"difference-hidden-one-list", "HideReference: a right list says so",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2}, []int{2}, []int{1}, []int{9}, claimchecktest.HideReference())
			}},
		{"rational-hidden", "HideReference: not the value of the expression, with neither value nor difference",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6", claimchecktest.HideReference())
			}},
		{"rational-limits", "RationalLimits bounds the expression",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Rational(t, "1 + 2 + 3", "6", claimchecktest.RationalLimits(rational.Limits{MaxTokens: 3}))
			}},
		{"rational-claim-space", "a claim with a trailing space is quoted, with a hint",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "25/12 ") }},
		{"rational-claim-minus-sign", "a claim with U+2212 is quoted, with a hint",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1/3 - 1/2", "−1/6") }},
	}
	// Each fault a grader meets in a student's document, in the staff form
	// and the student's (name-hidden.golden), the answers read with
	// ParseSubmission (ExactNumbers) and named with In.
	hide := claimchecktest.HideReference()
	harmonic := "1 + 1/2 + 1/3 + 1/4"
	for _, f := range []struct {
		name, reason string
		check        func(t claimchecktest.TB, hide ...claimchecktest.Option) bool
	}{
		{"fault-exact-integer", "9007199254740993 is that integer, not 2^53, and shown as written (refused before)",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []int64{2, 2, 1 << 53}, `{"q1": [2, 2, 9.007199254740993e15]}`, hide...)
			}},
		{"fault-inexact-fraction", "9007199254740992.5 is refused at its path, saying what it would have become",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []int64{2, 2, 1 << 53}, `{"q1": [2, 2, 9007199254740992.5]}`, hide...)
			}},
		{"fault-underflow", "1e-400 is refused: it would be 0",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []int{0, 1}, `{"q1": [1e-400, 1]}`, hide...)
			}},
		{"fault-duplicate-member", "a second answer to q1 is refused, not graded",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []int{2, 2, 2, 3, 3, 5}, `{"q1": [2, 2, 2, 3, 3, 5], "q1": [1]}`, hide...)
			}},
		{"fault-lone-surrogate", "a lone surrogate is named as the escape the student typed",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []string{"ab"}, `{"q1": ["ab\ud800"]}`, hide...)
			}},
		{"fault-invalid-utf8", "an invalid byte in a string answer, after the text before it",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return rationalIn(t, harmonic, "{\"q3\": \"3/4\xff\"}", hide...)
			}},
		{"fault-fraction-space", "white space inside a fraction: a hint and the value to write",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return rationalIn(t, harmonic, `{"q3": "25 / 12"}`, hide...)
			}},
		{"fault-fullwidth-digits", "full-width digits: a hint and the value to write",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return rationalIn(t, harmonic, `{"q3": "２５/12"}`, hide...)
			}},
		{"fault-second-slash", "a second slash: a hint and the divisions' value",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return rationalIn(t, harmonic, `{"q3": "25/12/2"}`, hide...)
			}},
		{"fault-missing-answer", "an answer the submission lacks",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return rationalIn(t, harmonic, `{"q1": []}`, hide...)
			}},
		{"fault-numbers-as-written", "the claim's numbers as the student wrote them; paths in the student's document",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return equalityIn(t, []int{2, 3}, `{"q1": [-0e0, 2.0, 3.00, 3]}`, hide...)
			}},
		{"fault-any-order", "AnyOrder: per list, what is missing and what should not be there",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return differenceIn(t, fruitA, fruitB, `{"a_not_b": ["cherry", "kiwi", "apple", "apple"], "b_not_a": ["egg", "fig"]}`,
					append(hide, claimchecktest.AnyOrder())...)
			}},
		{"fault-difference-order", "without AnyOrder: the tool's order, paths in the student's document",
			func(t claimchecktest.TB, hide ...claimchecktest.Option) bool {
				return differenceIn(t, fruitA, fruitB, `{"a_not_b": ["cherry", "date", "apple"], "b_not_a": ["fig", "egg"]}`, hide...)
			}},
	} {
		rows = append(rows,
			row{f.name, f.reason, func(t claimchecktest.TB) bool { return f.check(t) }},
			row{f.name + "-hidden", f.reason + ", for the student", func(t claimchecktest.TB) bool { return f.check(t, hide) }})
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		ok, report := run(r.check)
		if ok || report == "" || strings.Contains(report, "\n---\n") {
			t.Fatalf("%s: returned %v with report %q; want false and one report", r.name, ok, report)
		}
		golden(t, r.name, report)
	})
}

// The fruit of a difference question: in A but not B, and in B but not
// A. The expected residuals are [apple, cherry, date] and [egg, fig].
var (
	fruitA = []string{"apple", "banana", "cherry", "date"}
	fruitB = []any{"banana", "egg", "fig"}
)

// submission reads a student's document as a grader does, with
// ExactNumbers; a document that is no object of answers is a bug of the
// test.
func submission(doc string) *canon.Submission {
	sub, err := canon.ParseSubmission([]byte(doc), canon.ExactNumbers())
	if err != nil {
		panic(err)
	}
	return sub
}

// equalityIn checks answer q1 of doc against ref, as a grader does.
func equalityIn[S any](t claimchecktest.TB, ref []S, doc string, opts ...claimchecktest.Option) bool {
	sub := submission(doc)
	q1, _ := sub.Array("q1") // a refused answer is the helper's to report
	return claimchecktest.Equality(t, ref, q1, append(opts, claimchecktest.In(sub, "q1"))...)
}

// rationalIn checks answer q3 of doc as the value of expr.
func rationalIn(t claimchecktest.TB, expr, doc string, opts ...claimchecktest.Option) bool {
	sub := submission(doc)
	q3, _ := sub.String("q3")
	return claimchecktest.RationalCanonical(t, expr, q3, append(opts, claimchecktest.In(sub, "q3"))...)
}

// differenceIn checks answers a_not_b and b_not_a of doc as the residuals
// of left and right.
func differenceIn[L, R any](t claimchecktest.TB, left []L, right []R, doc string, opts ...claimchecktest.Option) bool {
	sub := submission(doc)
	lo, _ := sub.Array("a_not_b")
	ro, _ := sub.Array("b_not_a")
	return claimchecktest.Difference(t, left, right, lo, ro, append(opts, claimchecktest.In(sub, "a_not_b", "b_not_a"))...)
}

// TestEqualityNamesEveryDifferingValue: the report lists every value whose
// counts differ, checked against the inputs directly rather than a golden
// file, on a larger input.
func TestEqualityNamesEveryDifferingValue(t *testing.T) {
	src := []string{"a", "b", "b", "c", "d", "e"}
	claim := []string{"b", "c", "c", "d", "f", "e"}
	_, report := run(func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, src, claim) })
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

// TestHideReference: under HideReference a failing report contains none of
// the reference's values — the values only the reference has, the expected
// residuals, the true value and the difference — whatever the claim's
// fault; and it still says what is wrong with the claim.
func TestHideReference(t *testing.T) {
	hide := claimchecktest.HideReference()
	type row struct {
		reason  string
		check   func(t claimchecktest.TB) bool
		secrets []string // must not appear
		shows   []string // must appear: the claim's own faults
	}
	rows := []row{
		{"equality: a missing value, a value too often, a value that should not occur",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []any{"KEY-A", "KEY-B", "KEY-B", 4242}, []any{"KEY-B", "KEY-B", "KEY-B", "wrong"}, hide)
			},
			[]string{"KEY-A", "4242", "/source", "source"}, []string{`"KEY-B"`, `"wrong"`, "too often", "should not occur", "2 occurrences are missing"}},
		{"equality: only missing values",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []string{"KEY-A", "KEY-C"}, []string{}, hide)
			},
			[]string{"KEY-A", "KEY-C", "/source"}, []string{"2 occurrences are missing"}},
		{"equality: many values, over the table's cap",
			func(t claimchecktest.TB) bool {
				src := make([]int, 40)
				claim := make([]int, 40)
				for i := range src {
					src[i], claim[i] = 900000+i, i
				}
				return claimchecktest.Equality(t, src, claim, hide)
			},
			[]string{"9000"}, []string{"and 20 more", "40 occurrences are missing"}},
		{"equality: an exact integer in the reference is hidden as any value is",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int64{1<<53 + 1}, []int64{1}, hide)
			},
			[]string{"9007199254740993"}, []string{"1 occurrence is missing"}},
		{"difference: wrong elements in both lists",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []string{"L-1", "L-2", "both"}, []string{"both", "R-1"}, []string{"L-1", "mine"}, []string{"other"}, hide)
			},
			[]string{"L-2", "R-1", "both", "claim   "}, []string{`"mine"`, `"other"`, "answer1[1]", "answer2[0]"}},
		{"difference: a claimed list too short",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []string{"L-1", "L-2"}, []string(nil), []string{"L-1"}, nil, hide)
			},
			[]string{"L-2"}, []string{"answer1[1], where the claim has no element"}},
		{"rational: a malformed claim, in words, without the grammar's regular expression",
			func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "25/12", "25 / 12", hide) },
			nil, []string{`claimed value "25 / 12" is not an integer or fraction such as 3, -3 or 3/4`, "cannot check the claim at answer:"}},
		{"equality: Named names the claim's elements",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Equality(t, []int{1, 2}, []int{1, 3}, claimchecktest.Named("factors"), hide)
			},
			[]string{"2 "}, []string{"factors[1]"}},
		{"difference: Named names the lists and their elements",
			func(t claimchecktest.TB) bool {
				return claimchecktest.Difference(t, []int{1, 2}, []int{2}, []int{3}, nil, claimchecktest.Named("leftOnly", "rightOnly"), hide)
			},
			nil, []string{"leftOnly:   first wrong at leftOnly[0], where the claim has 3", "rightOnly:  right"}},
		{"rational: a wrong value",
			func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6", hide) },
			[]string{"25/12", "-1/12", "1/12", "value:", "difference"}, []string{"13/6 is not the value of the expression"}},
		{"rational canonical: a wrong value",
			func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "7/3", "2", hide) },
			[]string{"7/3 ", "1/3", "value:"}, []string{"2 is not the value of the expression"}},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		ok, report := run(r.check)
		if ok || report == "" {
			t.Fatalf("returned %v, %q: want a failure", ok, report)
		}
		if strings.Contains(report, "claimchecktest") || strings.Contains(report, "invalid_input") {
			t.Errorf("the student's report names Go or the wire:\n%s", report)
		}
		for _, wire := range []string{"/claim", "/claimed_value", "left_only", "right_only", "(0|"} {
			if strings.Contains(report, wire) {
				t.Errorf("the student's report shows the tool's %q, a path or a grammar the student never wrote:\n%s", wire, report)
			}
		}
		for _, s := range r.secrets {
			if strings.Contains(report, s) {
				t.Errorf("the report shows %q:\n%s", s, report)
			}
		}
		for _, s := range r.shows {
			if !strings.Contains(report, s) {
				t.Errorf("the report does not say %q:\n%s", s, report)
			}
		}
	})
}

// TestFailNow: with FailNow a failure calls t.FailNow once, after the
// report (nothing is reported after it); without it, or on a pass, never.
func TestFailNow(t *testing.T) {
	type row struct {
		reason   string
		check    func(t claimchecktest.TB) bool
		failNows int
	}
	now := claimchecktest.FailNow()
	testutil.Run(t, []row{
		{"Equality fails", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1}, []int{2}, now) }, 1},
		{"Equality refuses its input", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []any{1}, []any{[]int{}}, now) }, 1},
		{"Difference fails", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, []int{1}, []int(nil), []int{2}, nil, now)
		}, 1},
		{"Rational fails", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1", "2", now) }, 1},
		{"RationalCanonical fails", func(t claimchecktest.TB) bool { return claimchecktest.RationalCanonical(t, "1", "2/2", now) }, 1},
		{"Rational refuses its input", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, "1 +", "1", now) }, 1},
		{"a pass does not stop the test", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1}, []int{1}, now) }, 0},
		{"without FailNow a failure does not stop the test", func(t claimchecktest.TB) bool { return claimchecktest.Equality(t, []int{1}, []int{2}) }, 0},
	}, func(t *testing.T, r row) {
		rec := &recorder{}
		r.check(rec)
		if rec.failNows != r.failNows || rec.afterNow {
			t.Errorf("FailNow called %d times (want %d), a report after it: %v", rec.failNows, r.failNows, rec.afterNow)
		}
		if r.failNows > 0 && len(rec.msgs) != 1 {
			t.Errorf("%d reports before FailNow, want 1", len(rec.msgs))
		}
	})
}

// TestFailNowEndsTheTest runs a grading test with FailNow in a child
// process: the failure is reported at the caller's line and nothing after
// the call runs, as with t.Fatalf.
func TestFailNowEndsTheTest(t *testing.T) {
	if os.Getenv(childEnv) == "failnow" {
		claimchecktest.Equality(t, []int{1, 2}, []int{2, 2}, claimchecktest.FailNow(), claimchecktest.Message("Q1")) // line A
		t.Log("still running")
		return
	}
	_, file, line, _ := runtime.Caller(0)
	lineA := line - 4
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailNowEndsTheTest$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=failnow")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child test passed:\n%s", out)
	}
	want := fmt.Sprintf("%s:%d: Q1: claimchecktest.Equality:", filepath.Base(file), lineA)
	if !bytes.Contains(out, []byte(want)) {
		t.Errorf("child output does not report at %q:\n%s", want, out)
	}
	if bytes.Contains(out, []byte("still running")) {
		t.Errorf("the test went on after the failure:\n%s", out)
	}
	if !bytes.Contains(out, []byte("--- FAIL: TestFailNowEndsTheTest")) {
		t.Errorf("the child test is not reported as failed:\n%s", out)
	}
}

// TestLimitsOptions: Limits and RationalLimits change the bounds of the
// helpers they concern, and are ignored by the others.
func TestLimitsOptions(t *testing.T) {
	deep := strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100)
	type row struct {
		reason string
		check  func(t claimchecktest.TB) bool
		pass   bool
	}
	testutil.Run(t, []row{
		{"Limits lowers MaxItems", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{1, 2, 3}, []int{1, 2, 3}, claimchecktest.Limits(multiset.Limits{MaxItems: 2}))
		}, false},
		{"Limits lowers MaxDistinct for Difference", func(t claimchecktest.TB) bool {
			return claimchecktest.Difference(t, []int{1, 2, 3}, []int(nil), []int{1, 2, 3}, nil, claimchecktest.Limits(multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: 2}))
		}, false},
		{"a zero field of Limits is the tool's bound, as it is in multiset", func(t claimchecktest.TB) bool {
			big := make([]int, 20000)
			return claimchecktest.Equality(t, big, big, claimchecktest.Limits(multiset.Limits{MaxDistinct: 5}))
		}, false},
		{"NoLimit is no bound", func(t claimchecktest.TB) bool {
			big := make([]int, 20000)
			return claimchecktest.Equality(t, big, big, claimchecktest.Limits(multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: 5}))
		}, true},
		{"without Limits there is no bound", func(t claimchecktest.TB) bool {
			big := make([]int, 20000)
			for i := range big {
				big[i] = i
			}
			return claimchecktest.Equality(t, big, big)
		}, true},
		{"Rational's default depth refuses 100 levels", func(t claimchecktest.TB) bool { return claimchecktest.Rational(t, deep, "1") }, false},
		{"RationalLimits raises the depth", func(t claimchecktest.TB) bool {
			return claimchecktest.Rational(t, deep, "1", claimchecktest.RationalLimits(rational.Limits{MaxDepth: 200}))
		}, true},
		{"RationalLimits lowers the digits", func(t claimchecktest.TB) bool {
			return claimchecktest.RationalCanonical(t, "1000", "1000", claimchecktest.RationalLimits(rational.Limits{MaxValueDigits: 3}))
		}, false},
		{"Rational ignores Limits", func(t claimchecktest.TB) bool {
			return claimchecktest.Rational(t, "1+2", "3", claimchecktest.Limits(multiset.Limits{MaxItems: 1}))
		}, true},
		{"Equality ignores RationalLimits", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{1, 2}, []int{2, 1}, claimchecktest.RationalLimits(rational.Limits{MaxTokens: 1}))
		}, true},
		{"a zero Option is ignored", func(t claimchecktest.TB) bool {
			return claimchecktest.Equality(t, []int{1}, []int{1}, claimchecktest.Option{})
		}, true},
	}, func(t *testing.T, r row) {
		ok, report := run(r.check)
		if ok != r.pass || (ok == (report != "")) {
			t.Errorf("returned %v, reported %q; want %v", ok, report, r.pass)
		}
		if !ok && !strings.Contains(report, "limit_exceeded") {
			t.Errorf("not a limit: %s", report)
		}
	})
}

// TestReferenceRefused: a reference the check cannot use (refused, over a
// limit, an expression that is malformed or divides by zero) is reported
// as the grading code's fault: a Check function returns a
// *ReferenceError, never a Report (with score 0, for the student), whose
// text is the staff's report with what is wrong in it, under
// HideReference too, and which errors.As takes to the *claimcheck.Error;
// a refused claim is the student's, a Report with its refusal.
func TestReferenceRefused(t *testing.T) {
	type row struct {
		reason string
		check  func(...claimchecktest.Option) (claimchecktest.Report, error)
		ref    bool
		shows  string
	}
	testutil.Run(t, []row{
		{"a source element that is invalid UTF-8", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckEquality([]any{"secret\xff"}, []int64{1}, o...)
		}, true, "at /source/0: string is not valid UTF-8"},
		{"a source over the limit", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckEquality([]int{1, 2, 3}, []int{1}, append(o, claimchecktest.Limits(multiset.Limits{MaxItems: 2}))...)
		}, true, "limit_exceeded at /source"},
		{"a right list element that is no scalar", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckDifference([]any{1}, []any{[]int{}}, []int{1}, []int{}, o...)
		}, true, "at /right/0"},
		{"an expression that is malformed", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckRational("1 +", "1", o...)
		}, true, "at /expression"},
		{"an expression that divides by zero", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckRationalCanonical("1/(2-2)", "1", o...)
		}, true, "the expression divides by zero"},
		{"a claim element that is invalid UTF-8: the student's", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckEquality([]string{"a"}, []string{"\xff"}, o...)
		}, false, "string is not valid UTF-8"},
		{"a malformed claimed value: the student's", func(o ...claimchecktest.Option) (claimchecktest.Report, error) {
			return claimchecktest.CheckRational("1", "1 ", o...)
		}, false, "white space after the value"},
	}, func(t *testing.T, r row) {
		for _, opts := range [][]claimchecktest.Option{nil, {claimchecktest.HideReference()}} {
			rep, err := r.check(opts...)
			var re *claimchecktest.ReferenceError
			if got := errors.As(err, &re); got != r.ref {
				t.Fatalf("with %d options: a ReferenceError %v, want %v (%v)", len(opts), got, r.ref, err)
			}
			if r.ref {
				if rep != (claimchecktest.Report{}) {
					t.Errorf("a Report beside the ReferenceError: %+v", rep)
				}
				var ce *claimcheck.Error
				if re.Err != nil && !errors.As(err, &ce) {
					t.Errorf("errors.As does not reach the refusal: %v", err)
				}
				rep = claimchecktest.Report{Text: re.Error()}
			}
			if rep.Valid || rep.Score != 0 || !strings.Contains(rep.Text, r.shows) {
				t.Errorf("with %d options: Valid %v, Score %v, want false, 0, text saying %q:\n%s",
					len(opts), rep.Valid, rep.Score, r.shows, rep.Text)
			}
			if r.ref && !strings.Contains(rep.Text, "claimchecktest.") || r.ref && !strings.Contains(rep.Text, "a fault in the grading code, not in the answer") {
				t.Errorf("a refused reference is not the staff's report:\n%s", rep.Text)
			}
		}
	})
}

// report is a Check function's Report, or, when the reference could not
// be used, a Report of the ReferenceError's text and refusal, for the
// tables that compare what either side gets.
func report(r claimchecktest.Report, err error) claimchecktest.Report {
	var re *claimchecktest.ReferenceError
	if errors.As(err, &re) {
		return claimchecktest.Report{Text: re.Error(), Err: re.Err}
	}
	return r
}
