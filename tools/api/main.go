// Command api writes, or checks, the exported API of claimcheck's public
// packages (every package of the main module outside internal/ and
// commands): one file per package in the api/ folder at the module's root,
// one line per exported feature, sorted, as Go's own api/ files have them.
//
//	go run -C tools ./api      # check: print the difference and exit 1 if any
//	go run -C tools ./api -w   # write the baseline
//
// A line names a feature, not its documentation: a constant with its type
// and value, a variable and a function with their types, a type with its
// kind, each exported field, interface method and method (promoted ones
// included) on a line of its own. Parameter names are left out, as they
// do not bind a caller. The types are those of GOOS=linux GOARCH=amd64,
// so that the files do not depend on the machine they are made on.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

const regenerate = "go run -C tools ./api -w"

func main() {
	write := flag.Bool("w", false, "write the baseline instead of checking it")
	root := flag.String("root", "..", "the main module's root")
	flag.Parse()
	want, err := features(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(2)
	}
	dir := filepath.Join(*root, "api")
	if *write {
		if err := writeBaseline(dir, want); err != nil {
			fmt.Fprintln(os.Stderr, "api:", err)
			os.Exit(2)
		}
		return
	}
	diff, err := check(dir, want)
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(2)
	}
	if diff != "" {
		fmt.Print(diff)
		fmt.Println("A line marked - is gone from the API or has changed: that breaks callers;")
		fmt.Println("one marked + is new. If the change is meant, regenerate the baseline in the")
		fmt.Println("same commit and say in CHANGELOG.md what a caller must do:")
		fmt.Println("    " + regenerate)
		os.Exit(1)
	}
}

// features loads the public packages below root and returns each one's
// file name in api/ and its lines.
func features(root string) (map[string][]string, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedModule,
		Dir:  root,
		Env:  append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string)
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Name == "main" || slices.Contains(strings.Split(p.PkgPath, "/"), "internal") {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, p.Module.Path), "/")
		if name == "" {
			name = p.Name
		}
		out[strings.ReplaceAll(name, "/", "-")+".txt"] = pkgFeatures(p.Types)
	}
	return out, nil
}

// pkgFeatures returns the sorted lines of pkg's exported API.
func pkgFeatures(pkg *types.Package) []string {
	q := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	typ := func(t types.Type) string { return types.TypeString(t, q) }
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, typ(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			add("func %s%s%s", name, typeParams(sig.TypeParams(), typ), signature(sig, typ))
		case *types.TypeName:
			typeFeatures(obj, typ, add)
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// typeFeatures adds the lines of the exported type obj: its kind, its
// exported fields or interface methods, and its exported methods.
func typeFeatures(obj *types.TypeName, typ func(types.Type) string, add func(string, ...any)) {
	name := obj.Name()
	if obj.IsAlias() {
		add("type %s = %s", name, typ(types.Unalias(obj.Type())))
		return
	}
	named := obj.Type().(*types.Named)
	head := name + typeParams(named.TypeParams(), typ)
	switch u := named.Underlying().(type) {
	case *types.Struct:
		add("type %s struct", head)
		for f := range u.Fields() {
			switch {
			case !f.Exported():
			case f.Embedded():
				add("type %s struct, embedded %s", head, typ(f.Type()))
			default:
				add("type %s struct, %s %s", head, f.Name(), typ(f.Type()))
			}
		}
	case *types.Interface:
		add("type %s interface", head)
		for i := range u.NumMethods() {
			m := u.Method(i)
			if m.Exported() {
				add("type %s interface, %s%s", head, m.Name(), signature(m.Type().(*types.Signature), typ))
			} else {
				add("type %s interface, unexported methods", head)
			}
		}
		// A constraint's type terms; a method set's embedded interfaces
		// are in its methods.
		if !u.IsMethodSet() {
			for i := range u.NumEmbeddeds() {
				add("type %s interface, %s", head, typ(u.EmbeddedType(i)))
			}
		}
	default:
		add("type %s %s", head, typ(u))
	}
	if types.IsInterface(named) {
		return
	}
	// The method set of *T holds T's; a method is written with the
	// receiver it needs.
	value := types.NewMethodSet(named)
	for sel := range types.NewMethodSet(types.NewPointer(named)).Methods() {
		m := sel.Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		recv := "*" + name
		if value.Lookup(m.Pkg(), m.Name()) != nil {
			recv = name
		}
		add("method (%s) %s%s", recv, m.Name(), signature(m.Type().(*types.Signature), typ))
	}
}

// signature writes sig's parameter and result types, without names.
func signature(sig *types.Signature, typ func(types.Type) string) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range sig.Params().Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("..." + typ(t.(*types.Slice).Elem()))
		} else {
			b.WriteString(typ(t))
		}
	}
	b.WriteByte(')')
	switch r := sig.Results(); r.Len() {
	case 0:
	case 1:
		b.WriteString(" " + typ(r.At(0).Type()))
	default:
		b.WriteString(" (")
		for i := range r.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(typ(r.At(i).Type()))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// typeParams writes a type parameter list, "" for none.
func typeParams(l *types.TypeParamList, typ func(types.Type) string) string {
	if l.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := range l.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		p := l.At(i)
		b.WriteString(p.Obj().Name() + " " + typ(p.Constraint()))
	}
	b.WriteByte(']')
	return b.String()
}

// writeBaseline replaces the files of dir by those of want.
func writeBaseline(dir string, want map[string][]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := want[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, lines := range want {
		if err := os.WriteFile(filepath.Join(dir, name), text(lines), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func text(lines []string) []byte {
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// check returns the difference between the baseline in dir and want, file
// by file in name order: the lines only the baseline has marked "-", those
// only want has marked "+", each list sorted; "" when they are the same.
func check(dir string, want map[string][]string) (string, error) {
	have := make(map[string][]string)
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return "", err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		have[filepath.Base(f)] = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(b) == 0 {
			have[filepath.Base(f)] = nil
		}
	}
	var names []string
	for n := range have {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := have[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out bytes.Buffer
	for _, n := range names {
		h, w := have[n], want[n]
		_, inHave := have[n]
		_, inWant := want[n]
		if inHave && inWant && slices.Equal(h, w) {
			continue
		}
		switch {
		case !inHave:
			fmt.Fprintf(&out, "api/%s: a new package, not in the baseline\n", n)
		case !inWant:
			fmt.Fprintf(&out, "api/%s: a package that is gone\n", n)
		default:
			fmt.Fprintf(&out, "api/%s:\n", n)
		}
		for _, l := range missing(h, w) {
			fmt.Fprintf(&out, "- %s\n", l)
		}
		for _, l := range missing(w, h) {
			fmt.Fprintf(&out, "+ %s\n", l)
		}
	}
	return out.String(), nil
}

// missing returns the lines of a that b does not have, in a's order.
func missing(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, l := range b {
		in[l] = true
	}
	var out []string
	for _, l := range a {
		if !in[l] {
			out = append(out, l)
		}
	}
	return out
}
