package jsontape

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCitedVersionIsPinned: every version the package doc cites (of
// go-json-experiment/json, the reader it was measured against) is the one
// go.mod holds, so the citation names a version that exists and that a
// rerun of the measurement would build.
func TestCitedVersionIsPinned(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/go-json-experiment/json (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod holds no version of github.com/go-json-experiment/json: the doc's measurement cannot be rerun; measure again or drop the figures")
	}
	pinned := string(m[1])
	cited := regexp.MustCompile(`\bv\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?`).FindAllString(string(doc), -1)
	if len(cited) == 0 {
		t.Error("the doc cites no version of the reader it was measured against")
	}
	for _, v := range cited {
		if v != pinned {
			t.Errorf("the doc cites %s; go.mod holds %s", v, pinned)
		}
	}
}
