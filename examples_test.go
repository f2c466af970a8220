package claimcheck_test

import (
	"go/doc"
	"testing"
)

// methodsWithExamples are the methods whose output is not obvious from
// their name, each of which has an example of its own.
var methodsWithExamples = map[string][]string{
	"canon":    {"Scalar.String", "Scalar.Str", "Scalar.Key", "Scalar.Value", "Submission.Array", "Submission.Literal"},
	"rational": {"Rat.BigRat", "Result.MarshalJSON", "Result.Err"},
	"multiset": {"EqualityResult.Discrepancies", "DifferenceResult.Residuals", "EqualityResult.MarshalJSON", "DifferenceResult.MarshalJSON"},
	".":        {"Error.Error", "Error.MarshalJSON"},
}

// TestEveryExportedNameHasAnExample: every exported function and type of
// the public packages has an example (ExampleF, ExampleT, or one of their
// ExampleF_suffix), and so has each method of methodsWithExamples, so that
// go doc shows the idiom beside the declaration.
func TestEveryExportedNameHasAnExample(t *testing.T) {
	for _, dir := range publicPackages(t) {
		p, _ := parseDoc(t, dir)
		if p.Name == "main" {
			continue
		}
		has := func(name string, ex []*doc.Example) {
			if len(ex) == 0 {
				t.Errorf("%s: %s has no example", dir, name)
			}
		}
		for _, f := range p.Funcs {
			has(f.Name, f.Examples)
		}
		methods := map[string]*doc.Func{}
		for _, ty := range p.Types {
			has(ty.Name, ty.Examples)
			for _, f := range ty.Funcs {
				has(f.Name, f.Examples)
			}
			for _, m := range ty.Methods {
				methods[ty.Name+"."+m.Name] = m
			}
		}
		for _, m := range methodsWithExamples[dir] {
			f := methods[m]
			if f == nil {
				t.Errorf("%s: no method %s", dir, m)
				continue
			}
			has(m, f.Examples)
		}
	}
}
