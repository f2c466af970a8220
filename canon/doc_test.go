package canon_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestDocNamesEveryConstructor: the package documentation links every
// exported function that makes a Scalar or a []Scalar, so that its list
// of constructors cannot fall behind the code (it once named 5 of 8).
func TestDocNamesEveryConstructor(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil {
				continue
			}
			switch r := fn.Type.Results.List[0].Type.(type) {
			case *ast.Ident:
				ok = r.Name == "Scalar"
			case *ast.ArrayType:
				id, isIdent := r.Elt.(*ast.Ident)
				ok = isIdent && id.Name == "Scalar"
			default:
				ok = false
			}
			if !ok {
				continue
			}
			n++
			if !strings.Contains(string(doc), "["+fn.Name.Name+"]") {
				t.Errorf("doc.go does not name the constructor %s", fn.Name.Name)
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d constructors; the parse of the package went wrong", n)
	}
}
