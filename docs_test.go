package claimcheck_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Each check order is stated in full once, in docs/contract.md; the doc
// comments that list it again for Go users (go doc shows them) are kept
// equal to it here, so that neither drifts.

// TestRationalCheckOrderDocs: CheckRational's numbered steps are the
// contract's §4 steps, in the same order.
func TestRationalCheckOrderDocs(t *testing.T) {
	contract := section(t, "docs/contract.md", "## §4", "## §5")
	var want []string
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\. (?:\*\*([^*]+?)\.?\*\*|(\w+))`).FindAllStringSubmatch(contract, -1) {
		want = append(want, strings.ToLower(m[2]+m[3]))
	}
	src := read(t, "rational/check.go")
	doc := src[strings.Index(src, "// CheckRational checks"):strings.Index(src, "func CheckRational(")]
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^//  +(\d+)\. ([^:.]+)`).FindAllStringSubmatch(doc, -1) {
		got = append(got, m[2])
	}
	if len(got) != len(want) || len(want) != 10 {
		t.Fatalf("CheckRational lists %d steps %q; the contract %d %q", len(got), got, len(want), want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("step %d: CheckRational says %q, the contract %q", i+1, got[i], want[i])
		}
	}
}

// TestMultisetErrorOrderDocs: every statement of a multiset array's error
// order names max_items, then the elements, then max_distinct.
func TestMultisetErrorOrderDocs(t *testing.T) {
	for _, where := range []struct{ file, from, to string }{
		{"docs/contract.md", "## §6", "## §7"},
		{"multiset/equality.go", "// CheckEquality reports", "func CheckEquality"},
		{"multiset/difference.go", "// CheckDifference checks", "func CheckDifference"},
		{"schema/doc.go", "// Package schema", "package schema"},
	} {
		text := section(t, where.file, where.from, where.to)
		items := strings.Index(text, "max_items")
		elem := items + strings.Index(text[max(items, 0):], "element")
		distinct := strings.LastIndex(text, "max_distinct")
		if items < 0 || elem < items || distinct < elem {
			t.Errorf("%s: max_items at %d, element at %d, max_distinct at %d: not the order max_items, elements, max_distinct",
				where.file, items, elem, distinct)
		}
	}
}

func read(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text of file from the first line starting with from
// to the next starting with to.
func section(t *testing.T, file, from, to string) string {
	t.Helper()
	s := read(t, file)
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("%s has no %q", file, from)
	}
	j := strings.Index(s[i+len(from):], to)
	if j < 0 {
		t.Fatalf("%s has no %q after %q", file, to, from)
	}
	return s[i : i+len(from)+j]
}
