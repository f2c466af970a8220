package claimchecktest_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/claimchecktest"
)

// guide returns the repository's grading guide, docs/grading.md, which
// the README's grading section links.
func guide(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/grading.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGuideGradingModule: the grading module the guide shows is the one
// Example_gradescope runs and TestGradescopeResults grades messy
// submissions with (9007199254740993, 1e-400, duplicate members,
// residuals in another order, "25 / 12", invalid UTF-8), so that a grader
// who copies it from the guide alone gets those grades.
func TestGuideGradingModule(t *testing.T) {
	src, err := os.ReadFile("example_gradescope_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, "// grade grades one student"), strings.Index(s, "// A grader for Gradescope writes")
	if i < 0 || j < i {
		t.Fatal("example_gradescope_test.go has no grade function")
	}
	if fn := s[i:j]; !strings.Contains(guide(t), "```go\n"+strings.TrimRight(fn, "\n")+"\n```") {
		t.Errorf("the guide's grading module is not example_gradescope_test.go's grade function:\n%s", fn)
	}
}

// TestGuideReports: the staff and student reports the guide shows are the
// helpers' (its first lines wrapped to fit the page).
func TestGuideReports(t *testing.T) {
	table := guide(t)
	table = table[strings.Index(table, "<table>"):strings.Index(table, "</table>")]
	blocks := regexp.MustCompile("(?s)```\n(.*?)```").FindAllStringSubmatch(table, -1)
	if len(blocks) != 2 {
		t.Fatalf("the guide's table has %d reports, want 2", len(blocks))
	}
	claim := []any{3, 2, "2", 3, 7}
	for k, opts := range [][]claimchecktest.Option{nil, {claimchecktest.HideReference()}} {
		q1 := report(claimchecktest.CheckEquality([]int{2, 2, 3, 3, 5}, claim, append(opts, claimchecktest.Message("Q1 factors"))...))
		q2 := report(claimchecktest.CheckRational("1 + 1/2 + 1/3 + 1/4", "13/6", append(opts, claimchecktest.Message("Q2"))...))
		if got, want := unwrap(blocks[k][1]), q1.Text+"\n"+q2.Text; got != want {
			t.Errorf("the guide shows\n%s\nthe helpers report\n%s", got, want)
		}
	}
}

// unwrap joins the wrapped first line of each report back into one: a
// line that is not indented continues the one before, unless that one is
// indented (a table's last line) or the line starts a report ("Q").
func unwrap(block string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if n := len(out); n > 0 && !strings.HasPrefix(line, " ") && !strings.HasPrefix(out[n-1], " ") && !strings.HasPrefix(line, "Q") {
			out[n-1] += " " + line
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestGuideExamplePointers: each example the guide points at, "`ExampleX`
// in [`claimchecktest/file_test.go`]", is a function of that file, and the
// guide never says that go doc prints one (go doc prints no examples).
func TestGuideExamplePointers(t *testing.T) {
	g := guide(t)
	if strings.Contains(g, "the example of package") {
		t.Error("the guide points at \"the example of package\", which go doc does not print")
	}
	refs := regexp.MustCompile("`(Example\\w*)` in\\s+\\[`claimchecktest/(\\w+_test\\.go)`\\]").FindAllStringSubmatch(g, -1)
	if len(refs) < 2 {
		t.Fatalf("the guide points at %d examples, want the Gradescope and student-code ones", len(refs))
	}
	for _, r := range refs {
		src, err := os.ReadFile(r[2])
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(src), "\nfunc "+r[1]+"() {") {
			t.Errorf("the guide points at %s in %s, which has no such function", r[1], r[2])
		}
	}
}
