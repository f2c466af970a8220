package claimcheck_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
)

// contractCodes are the codes of the tools' contract.
var contractCodes = []claimcheck.Code{claimcheck.InvalidInput, claimcheck.LimitExceeded, claimcheck.UnknownTool}

// TestDocumentedCodes: the codes package httpapi exports are every
// request-level code (httpjson.Codes), and each list of codes in the
// documentation — the status table of httpapi's package documentation, the
// one of docs/serving.md and the list of docs/contract.md §5 — names
// exactly those (and the contract's), each with the status httpjson.Status
// answers it with. A code added in one place and not the others fails
// here.
func TestDocumentedCodes(t *testing.T) {
	declared := constValues(t, "internal/httpjson/errors.go")
	if got := slices.Collect(maps.Values(declared)); !sameCodes(got, httpjson.Codes()) {
		t.Errorf("httpjson declares the codes %q; httpjson.Codes lists %q", got, httpjson.Codes())
	}
	if got := exportedCodes(t, declared); !sameCodes(got, httpjson.Codes()) {
		t.Errorf("httpapi exports the codes %q; the request-level codes are %q", got, httpjson.Codes())
	}
	all := append(slices.Clone(contractCodes), httpjson.Codes()...)

	doc := section(t, "httpapi/doc.go", "// # Status codes", "// After a")
	checkTable(t, "httpapi's package documentation", regexp.MustCompile(`(?m)^//\t(\d{3})  ([a-z_]+)(.*)$`), doc, all)
	serving := section(t, "docs/serving.md", "### Status codes", "**What net/http answers")
	checkTable(t, "docs/serving.md", regexp.MustCompile("(?m)^\\| (\\d{3}) \\| `([a-z_]+)`([^|]*)\\|"), serving, all)

	contract := section(t, "docs/contract.md", "The layers that serve the tools add codes", "\n\n")
	var listed []claimcheck.Code
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(contract, -1) {
		listed = append(listed, claimcheck.Code(m[1]))
	}
	if !sameCodes(listed, httpjson.Codes()) {
		t.Errorf("docs/contract.md §5 lists the request-level codes %q; they are %q", listed, httpjson.Codes())
	}
}

// checkTable checks the rows of a status table, matched by row (status,
// code, the rest of the row): each row's status is the code's, and the
// table names every code of want and no other. A row of limit_exceeded
// that names max_document_bytes is the body's cap; any other is a tool's
// limit.
func checkTable(t *testing.T, where string, row *regexp.Regexp, text string, want []claimcheck.Code) {
	t.Helper()
	var seen []claimcheck.Code
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		status, _ := strconv.Atoi(m[1])
		if status == 200 {
			continue // a success, not an error document
		}
		e := &claimcheck.Error{Code: claimcheck.Code(m[2])}
		if strings.Contains(m[3], "max_document_bytes") {
			e.Limit = "max_document_bytes"
		}
		if !slices.Contains(want, e.Code) {
			t.Errorf("%s: %d %s: not a code", where, status, e.Code)
			continue
		}
		if got := httpjson.Status(e); got != status {
			t.Errorf("%s: %s (limit %q) is answered %d, documented %d", where, e.Code, e.Limit, got, status)
		}
		seen = append(seen, e.Code)
	}
	if !sameCodes(seen, want) {
		t.Errorf("%s lists the codes %q; want %q", where, seen, want)
	}
}

// exportedCodes returns the values of httpapi's exported constants that
// are httpjson's codes (values, by name), read from its sources: a constant added there is
// found without being listed in the test.
func exportedCodes(t *testing.T, values map[string]claimcheck.Code) []claimcheck.Code {
	t.Helper()
	files, err := filepath.Glob("httpapi/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var codes []claimcheck.Code
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, vs := range constSpecs(t, file) {
			for i, name := range vs.Names {
				sel, ok := vs.Values[i].(*ast.SelectorExpr)
				if !name.IsExported() || !ok || sel.X.(*ast.Ident).Name != "httpjson" {
					continue
				}
				if v, ok := values[sel.Sel.Name]; ok {
					codes = append(codes, v)
				}
			}
		}
	}
	return codes
}

// constValues returns the codes file declares (constants of type
// claimcheck.Code with a literal value), by name.
func constValues(t *testing.T, file string) map[string]claimcheck.Code {
	t.Helper()
	m := map[string]claimcheck.Code{}
	for _, vs := range constSpecs(t, file) {
		sel, ok := vs.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Code" {
			continue
		}
		for i, name := range vs.Names {
			v, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
			if err != nil {
				t.Fatal(err)
			}
			m[name.Name] = claimcheck.Code(v)
		}
	}
	if len(m) == 0 {
		t.Fatalf("%s declares no codes", file)
	}
	return m
}

// constSpecs returns the constant specs of a Go file.
func constSpecs(t *testing.T, file string) []*ast.ValueSpec {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var specs []*ast.ValueSpec
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				if vs := s.(*ast.ValueSpec); len(vs.Values) == len(vs.Names) {
					specs = append(specs, vs)
				}
			}
		}
	}
	return specs
}

// sameCodes reports whether a and b hold the same codes, in any order and
// however often.
func sameCodes(a, b []claimcheck.Code) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
