package main

import (
	"go/constant"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCheck: the difference names each file that differs, the lines only
// the baseline has marked -, the new ones marked +, and nothing for a file
// that is the same.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	want := map[string][]string{
		"a.txt": {"func F()", "func G(int) error"},
		"b.txt": {"type T struct"},
		"c.txt": {"var V int"},
	}
	if err := writeBaseline(dir, want); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gone.txt"), []byte("func H()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff, err := check(dir, map[string][]string{"a.txt": want["a.txt"], "b.txt": want["b.txt"], "c.txt": want["c.txt"], "gone.txt": {"func H()"}}); err != nil || diff != "" {
		t.Fatalf("the same API: %q, %v", diff, err)
	}
	now := map[string][]string{
		"a.txt": {"func F()", "func G(int, ...int) error"},
		"b.txt": want["b.txt"],
		"d.txt": {"const C untyped int = 1"},
	}
	diff, err := check(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	const wantDiff = "api/a.txt:\n- func G(int) error\n+ func G(int, ...int) error\n" +
		"api/c.txt: a package that is gone\n- var V int\n" +
		"api/d.txt: a new package, not in the baseline\n+ const C untyped int = 1\n" +
		"api/gone.txt: a package that is gone\n- func H()\n"
	if diff != wantDiff {
		t.Fatalf("diff:\n%s\nwant:\n%s", diff, wantDiff)
	}
	// Writing makes the baseline the API again, stale files removed.
	if err := writeBaseline(dir, now); err != nil {
		t.Fatal(err)
	}
	if diff, err := check(dir, now); err != nil || diff != "" {
		t.Fatalf("after -w: %q, %v", diff, err)
	}
}

// TestFeatures: the lines of a package, from its types: signatures
// without parameter names, fields, promoted methods with the receiver they
// need, constants with their values, sorted.
func TestFeatures(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	str := types.Typ[types.String]
	inner := types.NewNamed(types.NewTypeName(0, pkg, "Inner", nil), types.NewStruct(nil, nil), nil)
	inner.AddMethod(types.NewFunc(0, pkg, "Get", types.NewSignatureType(types.NewVar(0, pkg, "", types.NewPointer(inner)), nil, nil, nil,
		types.NewTuple(types.NewVar(0, pkg, "", str)), false)))
	outer := types.NewNamed(types.NewTypeName(0, pkg, "Outer", nil), types.NewStruct([]*types.Var{
		types.NewField(0, pkg, "Inner", inner, true),
		types.NewField(0, pkg, "Name", str, false),
		types.NewField(0, pkg, "hidden", str, false),
	}, nil), nil)
	pkg.Scope().Insert(inner.Obj())
	pkg.Scope().Insert(outer.Obj())
	pkg.Scope().Insert(types.NewFunc(0, pkg, "Join", types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(0, pkg, "sep", str), types.NewVar(0, pkg, "parts", types.NewSlice(str))),
		types.NewTuple(types.NewVar(0, pkg, "", str)), true)))
	pkg.Scope().Insert(types.NewConst(0, pkg, "Max", types.Typ[types.UntypedInt], constant.MakeInt64(10)))
	got := pkgFeatures(pkg)
	want := []string{
		"const Max untyped int = 10",
		"func Join(string, ...string) string",
		"method (*Inner) Get() string",
		"method (*Outer) Get() string",
		"type Inner struct",
		"type Outer struct",
		"type Outer struct, Name string",
		"type Outer struct, embedded Inner",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("features:\n%q\nwant:\n%q", got, want)
	}
}
