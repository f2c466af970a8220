package claimcheck_test

import (
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// publicPackages are the directories of the packages a user reads on
// pkg.go.dev, whose documentation this file checks.
func publicPackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "internal" || d.Name() == "testdata" || d.Name() == "bench" || d.Name() == "tools" || d.Name() == "deploy" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
				dirs = append(dirs, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// parseDoc returns the go/doc view of the package in dir, as pkg.go.dev
// builds it, with its example files.
func parseDoc(t *testing.T, dir string) (*doc.Package, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files, tests []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, f)
			if !strings.HasSuffix(f.Name.Name, "_test") {
				files = append(files, f) // examples of an internal test package
			}
			continue
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, append(files, tests...), "github.com/claimcheck/claimcheck/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	return p, tests
}

// unresolved finds what a doc comment writes as a link that go/doc does
// not resolve: it stays text, brackets and all, on pkg.go.dev.
var unresolved = regexp.MustCompile(`\[\*?(?:[a-z][\w./]*\.)?[A-Z]\w*(?:\.\w+)?\]`)

// knownUnresolved are links of packages this test cannot fix from here,
// each with what fixes it; the test fails when one no longer occurs, so
// that the entry goes with the fix.
var knownUnresolved = map[string]string{}

// TestDocLinksResolve: every [Name] and [pkg.Name] in the doc comments of
// the public packages is a link go/doc resolves (a package not imported
// where it is named needs its full path, [github.com/claimcheck/claimcheck.Error]),
// and no comment sends the reader to a file of the repository, which
// pkg.go.dev cannot follow, as if the rule were only there.
func TestDocLinksResolve(t *testing.T) {
	seen := map[string]bool{}
	for _, dir := range publicPackages(t) {
		p, _ := parseDoc(t, dir)
		check := func(where, text string) {
			for _, block := range p.Parser().Parse(text).Content {
				for _, s := range plainText(block) {
					for _, m := range unresolved.FindAllString(s, -1) {
						key := dir + ": " + where + ": " + m
						if _, known := knownUnresolved[key]; known {
							seen[key] = true
							continue
						}
						t.Errorf("%s does not resolve", key)
					}
				}
			}
			if strings.Contains(strings.Join(strings.Fields(text), " "), "in the repository") {
				t.Errorf("%s: %s: points at a file \"in the repository\"", dir, where)
			}
		}
		check("package doc", p.Doc)
		for _, c := range p.Consts {
			check(strings.Join(c.Names, ","), c.Doc)
		}
		for _, v := range p.Vars {
			check(strings.Join(v.Names, ","), v.Doc)
		}
		for _, f := range p.Funcs {
			check(f.Name, f.Doc)
		}
		for _, ty := range p.Types {
			check(ty.Name, ty.Doc)
			for _, f := range append(ty.Funcs, ty.Methods...) {
				check(ty.Name+"."+f.Name, f.Doc)
			}
			for _, c := range ty.Consts {
				check(strings.Join(c.Names, ","), c.Doc)
			}
		}
	}
	for key, fix := range knownUnresolved {
		if !seen[key] {
			t.Errorf("%s resolves now (or is gone): remove it from knownUnresolved (its fix was %s)", key, fix)
		}
	}
}

// plainText returns the text of a parsed comment block that is not a
// link.
func plainText(b comment.Block) []string {
	var texts []comment.Text
	switch b := b.(type) {
	case *comment.Paragraph:
		texts = b.Text
	case *comment.Heading:
		texts = b.Text
	case *comment.List:
		var out []string
		for _, it := range b.Items {
			for _, c := range it.Content {
				out = append(out, plainText(c)...)
			}
		}
		return out
	}
	var out []string
	var walk func([]comment.Text)
	walk = func(ts []comment.Text) {
		for _, x := range ts {
			switch x := x.(type) {
			case comment.Plain:
				out = append(out, string(x))
			case comment.Italic:
				out = append(out, string(x))
			case *comment.Link:
				walk(x.Text)
			}
		}
	}
	walk(texts)
	return out
}
