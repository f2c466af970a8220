package schema_test

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/schema"
)

// The law checked here: for documents JSON Schema can judge (no duplicate
// names, no lone surrogates, no invalid UTF-8, finite numbers, few items),
// Execute refuses with invalid_input exactly the documents the tool's
// input_schema rejects, judged by an independent validator. The strictness
// JSON Schema cannot express is in TestStrictness.

var (
	genScalar = rapid.SampledFrom([]string{
		`0`, `-0`, `1`, `1.0`, `-2.5`, `1e21`, `1e-7`, `9007199254740993`, `1e-400`,
		`""`, `"a"`, `"1"`, `"\u00e9"`, `"é"`, `"\ud83d\ude00"`, `"\n\u001f"`, `"null"`,
		`true`, `false`, `null`,
	})
	genNonScalar = rapid.SampledFrom([]string{`[]`, `{}`, `[1]`, `{"a":1}`, `[[[]]]`, `{"source":[]}`})
)

func genWS(t *rapid.T) string {
	return rapid.SampledFrom([]string{"", "", " ", "\n\t", "\r\n "}).Draw(t, "ws")
}

// genArray draws an array of scalars, now and then with a non-scalar.
func genArray(t *rapid.T) string {
	n := rapid.IntRange(0, 5).Draw(t, "len")
	els := make([]string, n)
	bad := rapid.IntRange(0, 14).Draw(t, "bad") == 0
	for i := range els {
		if bad && rapid.Bool().Draw(t, "nonscalar") {
			els[i] = genNonScalar.Draw(t, "el")
		} else {
			els[i] = genScalar.Draw(t, "el")
		}
	}
	return "[" + genWS(t) + strings.Join(els, ","+genWS(t)) + "]"
}

// others are values of the wrong type (for some name) or of unknown names.
var others = []string{"1", "null", `"x"`, "[]", "{}"}

// genObject draws an object of distinct names from known (some spelt with an
// escape) and a few unknown ones; value draws the value of a known name.
func genObject(t *rapid.T, known, others []string, value func(t *rapid.T, name string) string) string {
	var names []string
	for _, n := range known {
		if rapid.IntRange(0, 19).Draw(t, "omit") > 0 {
			names = append(names, n)
		}
	}
	if rapid.IntRange(0, 5).Draw(t, "unknown") == 0 {
		names = append(names, rapid.SampledFrom([]string{"Source", "x", "", "a/b", "claim ", "Claim", "Expression"}).Draw(t, "name"))
	}
	names = rapid.Permutation(names).Draw(t, "order")
	var members []string
	for _, n := range names {
		spelt := n
		if n != "" && rapid.IntRange(0, 5).Draw(t, "escape") == 0 {
			spelt = `\u00` + string("0123456789abcdef"[n[0]>>4]) + string("0123456789abcdef"[n[0]&15]) + n[1:]
		}
		v := rapid.SampledFrom(others).Draw(t, "other")
		for _, k := range known {
			if k == n && rapid.IntRange(0, 19).Draw(t, "wrongType") > 0 {
				v = value(t, n)
			}
		}
		members = append(members, `"`+spelt+`":`+genWS(t)+v)
	}
	return "{" + genWS(t) + strings.Join(members, ","+genWS(t)) + genWS(t) + "}"
}

func genRoot(t *rapid.T, obj func(t *rapid.T) string) string {
	if rapid.IntRange(0, 14).Draw(t, "nonObject") == 0 {
		return rapid.SampledFrom([]string{"[]", "null", `"x"`, "1", "[{}]"}).Draw(t, "root")
	}
	return genWS(t) + obj(t) + genWS(t)
}

func genEqualityDoc(t *rapid.T) string {
	return genRoot(t, func(t *rapid.T) string {
		return genObject(t, []string{"source", "claim"}, others, func(t *rapid.T, _ string) string { return genArray(t) })
	})
}

func genDifferenceDoc(t *rapid.T) string {
	return genRoot(t, func(t *rapid.T) string {
		return genObject(t, []string{"left", "right", "claim"}, others, func(t *rapid.T, name string) string {
			if name == "claim" {
				return genObject(t, []string{"left_only", "right_only"}, others, func(t *rapid.T, _ string) string { return genArray(t) })
			}
			return genArray(t)
		})
	})
}

// genExpr draws a grammatical expression: small literals, unary minus,
// parentheses, the six operator spellings, a little whitespace.
func genExpr(t *rapid.T, depth int) string {
	var primary func(depth int) string
	primary = func(depth int) string {
		switch k := rapid.IntRange(0, 5).Draw(t, "primary"); {
		case k <= 2 || depth > 3:
			return rapid.SampledFrom([]string{"0", "1", "2", "7", "10", "123456789012345678901234567890"}).Draw(t, "lit")
		case k == 3:
			return "(" + genWS(t) + genExpr(t, depth+1) + genWS(t) + ")"
		case k == 4:
			return rapid.SampledFrom([]string{"-", "−"}).Draw(t, "neg") + primary(depth+1)
		}
		return "-" + genWS(t) + "(" + genExpr(t, depth+1) + ")"
	}
	s := primary(depth)
	for n := rapid.IntRange(0, 3).Draw(t, "ops"); n > 0; n-- {
		op := rapid.SampledFrom([]string{"+", "-", "*", "/", "−", "×", "÷"}).Draw(t, "op")
		s += genWS(t) + op + genWS(t) + primary(depth)
	}
	return s
}

func genRationalDoc(t *rapid.T) string {
	return genRoot(t, func(t *rapid.T) string {
		// No string among the wrong values: a string expression the schema
		// accepts must be grammatical for the law to hold.
		return genObject(t, []string{"expression", "claimed_value", "require_canonical"}, []string{"1", "null", "[]", "{}"}, func(t *rapid.T, name string) string {
			switch name {
			case "expression":
				if rapid.IntRange(0, 9).Draw(t, "emptyExpr") == 0 {
					return `""`
				}
				return `"` + strings.ReplaceAll(genExpr(t, 0), "\n", `\n`) + `"`
			case "claimed_value":
				return rapid.SampledFrom([]string{`"0"`, `"-0"`, `"1"`, `"-3/4"`, `"2/4"`, `"25/12"`, `"0/5"`,
					`"01"`, `"1/0"`, `"+1"`, `"1.5"`, `" 1"`, `"1/-2"`, `""`, `"1/"`, `"-"`}).Draw(t, "claim")
			}
			return rapid.SampledFrom([]string{"true", "false"}).Draw(t, "canon")
		})
	})
}

// TestExecuteRefusesExactlyWhatInputSchemaRejects is the law above, per tool.
func TestExecuteRefusesExactlyWhatInputSchemaRejects(t *testing.T) {
	gens := map[string]func(*rapid.T) string{
		schema.MultisetEquality:   genEqualityDoc,
		schema.MultisetDifference: genDifferenceDoc,
		schema.RationalExpression: genRationalDoc,
	}
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			sch := compile(t, tool.InputSchema)
			rapid.Check(t, func(t *rapid.T) {
				doc := gens[tool.ID](t)
				verr := validate(sch, []byte(doc))
				out, err := docOf(schema.Execute(tool.ID, "", []byte(doc)))
				if verr == nil {
					if err != nil {
						t.Fatalf("the input schema accepts %s; Execute: %v", doc, err)
					}
					checkOutputDoc(t, tool, out)
					return
				}
				var e *claimcheck.Error
				if !errors.As(err, &e) || e.Code != "invalid_input" {
					t.Fatalf("the input schema rejects %s (%v); Execute: %s, %v", doc, verr, out, err)
				}
			})
		})
	}
}
