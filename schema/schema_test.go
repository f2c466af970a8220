package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// TestDescriptorsMatchSeeds: the binding parts of every descriptor equal the
// contract's seed as JSON values; the prose parts are present.
func TestDescriptorsMatchSeeds(t *testing.T) {
	tools := schema.Tools()
	if len(tools) != 3 {
		t.Fatalf("%d tools", len(tools))
	}
	for _, tool := range tools {
		t.Run(tool.ID, func(t *testing.T) {
			s := seed(t, tool.ID)
			var desc map[string]json.RawMessage
			raw, err := json.Marshal(tool)
			if err != nil || json.Unmarshal(raw, &desc) != nil {
				t.Fatalf("json.Marshal(tool) = %s, %v", raw, err)
			}
			// The descriptor document and the Tool's fields agree with the seed.
			for _, key := range []string{"id", "version", "limits", "input_schema", "output_schema", "examples", "execute_url"} {
				if !conformance.JSONEqual(desc[key], s[key]) {
					t.Errorf("descriptor %s:\ngot  %s\nwant %s", key, desc[key], s[key])
				}
			}
			str := func(v string) []byte { b, _ := json.Marshal(v); return b }
			if !conformance.JSONEqual(str(tool.ID), s["id"]) || !conformance.JSONEqual(str(tool.Version), s["version"]) ||
				!conformance.JSONEqual(str(tool.ExecuteURL), s["execute_url"]) {
				t.Errorf("Tool fields %q %q %q", tool.ID, tool.Version, tool.ExecuteURL)
			}
			if !conformance.JSONEqual(tool.InputSchema, s["input_schema"]) || !conformance.JSONEqual(tool.OutputSchema, s["output_schema"]) {
				t.Errorf("Tool.InputSchema or OutputSchema differs from the seed")
			}
			// Limits: the seed's names, values and order.
			var lim []byte
			lim = append(lim, '{')
			for i, l := range tool.Limits {
				if i > 0 {
					lim = append(lim, ',')
				}
				lim = append(append(append(lim, str(l.Name)...), ':'), []byte(jsonInt(l.Value))...)
				if tool.Limit(l.Name) != l.Value {
					t.Errorf("Limit(%q) = %d", l.Name, tool.Limit(l.Name))
				}
			}
			lim = append(lim, '}')
			var want bytes.Buffer
			_ = json.Compact(&want, s["limits"])
			if string(lim) != want.String() {
				t.Errorf("Limits %s, want %s (in order)", lim, want.Bytes())
			}
			if tool.Limit("no_such_limit") != 0 {
				t.Errorf("Limit of an unknown name is not 0")
			}
			var examples []struct{ Input, Output json.RawMessage }
			if err := json.Unmarshal(s["examples"], &examples); err != nil || len(examples) != len(tool.Examples) || len(examples) == 0 {
				t.Fatalf("%d examples, seed has %d (%v)", len(tool.Examples), len(examples), err)
			}
			for i, e := range examples {
				if !conformance.JSONEqual(tool.Examples[i].Input, e.Input) || !conformance.JSONEqual(tool.Examples[i].Output, e.Output) {
					t.Errorf("example %d differs from the seed", i)
				}
			}
			// Prose: present and non-empty, whatever its wording.
			if tool.Description == "" || len(tool.SupportedOperations) == 0 || len(tool.UnsupportedOperations) == 0 || len(tool.Semantics) == 0 {
				t.Errorf("empty prose field: %+v", tool)
			}
			for _, key := range []string{"description", "supported_operations", "unsupported_operations", "semantics"} {
				v := desc[key]
				if len(v) == 0 || string(v) == `""` || string(v) == "[]" || string(v) == "null" {
					t.Errorf("descriptor %s is missing or empty: %s", key, v)
				}
			}
			for _, list := range [][]string{tool.SupportedOperations, tool.UnsupportedOperations, tool.Semantics} {
				for _, s := range list {
					if strings.TrimSpace(s) == "" {
						t.Errorf("an empty prose entry")
					}
				}
			}
			// Both schemas compile with the independent validator.
			compile(t, tool.InputSchema)
			compile(t, tool.OutputSchema)
		})
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestLookup: "" is the newest version; unknown ids and versions are
// unknown_tool errors.
func TestLookup(t *testing.T) {
	same := func(a, b *schema.Tool) bool {
		da, _ := json.Marshal(a)
		db, _ := json.Marshal(b)
		return a != b && bytes.Equal(da, db) // a copy each, of the same descriptor
	}
	for _, tool := range schema.Tools() {
		got, err := schema.Lookup(tool.ID, "")
		if err != nil || !same(got, tool) {
			t.Errorf("Lookup(%q, \"\") = %v, %v", tool.ID, got.ID, err)
		}
		got, err = schema.Lookup(tool.ID, tool.Version)
		if err != nil || !same(got, tool) {
			t.Errorf("Lookup(%q, %q) = %v, %v", tool.ID, tool.Version, got.ID, err)
		}
		for _, v := range []string{"2.0.0", "1.0", "1.0.0.0", "v1.0.0", " 1.0.0"} {
			if got, err := schema.Lookup(tool.ID, v); !errors.Is(err, claimcheck.ErrUnknownTool) || got != nil {
				t.Errorf("Lookup(%q, %q) = %v, %v; want nil, unknown_tool", tool.ID, v, got, err)
			}
		}
	}
	for _, id := range []string{"", "multiset", "Multiset-Equality-Check", "multiset-equality-check ", "rational"} {
		if got, err := schema.Lookup(id, ""); !errors.Is(err, claimcheck.ErrUnknownTool) || got != nil {
			t.Errorf("Lookup(%q, \"\") = %v, %v; want nil, unknown_tool", id, got, err)
		}
	}
	// Tools returns a copy: changing it changes nothing.
	ts := schema.Tools()
	ts[0] = nil
	if schema.Tools()[0] == nil {
		t.Errorf("Tools shares its slice")
	}
}

// TestExecuteUnknownTool: a tool or version not served is unknown_tool, before
// the input is read.
func TestExecuteUnknownTool(t *testing.T) {
	for _, c := range []struct{ id, version string }{
		{"no-such-tool", ""}, {"", ""}, {schema.MultisetEquality, "9.9.9"}, {schema.RationalExpression, "1.0"},
	} {
		out, err := docOf(schema.Execute(c.id, c.version, []byte("not even JSON")))
		var e *claimcheck.Error
		if out != nil || !errors.As(err, &e) || e.Code != "unknown_tool" || e.Path != "" || e.Position != -1 || e.Message == "" {
			t.Errorf("Execute(%q, %q) = %s, %#v", c.id, c.version, out, err)
			continue
		}
		doc, _ := json.Marshal(err)
		if err := validate(compile(t, []byte(errorDocSchema)), doc); err != nil {
			t.Errorf("unknown_tool document %s: %v", doc, err)
		}
	}
}

// TestExamples: every seed example, through Execute, gives its output: the
// same JSON value and the same bytes once compacted, members in the output
// schema's property order.
func TestExamples(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			var examples []struct{ Input, Output json.RawMessage }
			if err := json.Unmarshal(seed(t, tool.ID)["examples"], &examples); err != nil {
				t.Fatal(err)
			}
			for i, e := range examples {
				out, err := docOf(schema.Execute(tool.ID, tool.Version, e.Input))
				if err != nil {
					t.Fatalf("example %d: %v", i, err)
				}
				if !conformance.JSONEqual(out, e.Output) {
					t.Errorf("example %d:\ngot  %s\nwant %s", i, out, e.Output)
				}
				var want bytes.Buffer
				_ = json.Compact(&want, e.Output)
				if !bytes.Equal(out, want.Bytes()) {
					t.Errorf("example %d bytes:\ngot  %s\nwant %s", i, out, want.Bytes())
				}
				checkOutputDoc(t, tool, out)
				// The method and the function agree.
				if out2, err := docOf(tool.Execute(e.Input)); err != nil || !bytes.Equal(out, out2) {
					t.Errorf("Tool.Execute differs: %s, %v", out2, err)
				}
			}
		})
	}
}

// TestOutputsValidate: on every conformance case and example, an output
// validates against the tool's output schema (with an independent
// validator) and an error is an error document.
func TestOutputsValidate(t *testing.T) {
	cases := allCases(t)
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			inputs := [][]byte{}
			for _, c := range cases[tool.ID] {
				inputs = append(inputs, c.Input)
			}
			for _, e := range tool.Examples {
				inputs = append(inputs, e.Input)
			}
			outputs, errors := 0, 0
			for _, in := range inputs {
				out, err := docOf(schema.Execute(tool.ID, "", in))
				if err != nil {
					checkErrorDoc(t, tool, err)
					errors++
					continue
				}
				checkOutputDoc(t, tool, out)
				outputs++
			}
			if outputs == 0 || errors == 0 {
				t.Errorf("%d outputs and %d errors: the corpus should have both", outputs, errors)
			}
		})
	}
}

// TestDeterminism: the same input gives the same bytes, sequentially and
// from 8 goroutines at once (run with -race). In the normal run each
// goroutine answers a quarter of the cases, from its own starting point, so
// every case is answered twice concurrently; in the long run
// (testutil.Long) each goroutine answers them all.
func TestDeterminism(t *testing.T) {
	type answer struct {
		tool string
		in   []byte
		out  string
	}
	answerOf := func(tool string, in []byte) string {
		out, err := docOf(schema.Execute(tool, "", in))
		if err != nil {
			doc, _ := json.Marshal(err)
			return "error " + string(doc)
		}
		return string(out)
	}
	var answers []answer
	for id, cases := range allCases(t) {
		for _, c := range cases {
			a := answer{tool: id, in: c.Input, out: answerOf(id, c.Input)}
			if again := answerOf(id, c.Input); again != a.out {
				t.Fatalf("%s: two answers:\n%s\n%s", c.Name, a.out, again)
			}
			answers = append(answers, a)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	share := len(answers)
	if !testutil.Long() {
		share = (share + 3) / 4
	}
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := range share {
				a := answers[(k+g*len(answers)/8)%len(answers)] // each goroutine starts elsewhere
				if got := answerOf(a.tool, a.in); got != a.out {
					errs <- "concurrent answer differs for " + string(a.in) + ":\n" + got + "\n" + a.out
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// FuzzExecute: the first byte chooses the tool, the rest is the document.
// Execute never panics; its answer is an output document valid against the
// tool's output schema or an error document; the same bytes give the same
// answer; a document encoding/json finds ungrammatical is refused at "".
func FuzzExecute(f *testing.F) {
	tools := schema.Tools()
	for i, tool := range tools {
		for _, c := range conformance.Load(f, tool.ID) {
			if len(c.Input) < 1<<12 {
				f.Add(append([]byte{byte(i)}, c.Input...))
			}
		}
	}
	f.Add([]byte("\x00{\"\\u000A\":[]}")) // a path with a newline in it
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		tool := tools[int(data[0])%len(tools)]
		in := data[1:]
		// A run on a copy of the input, which is then overwritten: what it
		// returned must not change (Execute reads its input in place).
		mine := bytes.Clone(in)
		outMine, errMine := docOf(schema.Execute(tool.ID, tool.Version, mine))
		keptOut, keptErr := string(outMine), errorText(errMine)
		for i := range mine {
			mine[i] = 'X'
		}
		if string(outMine) != keptOut || errorText(errMine) != keptErr {
			t.Fatalf("the answer changed with its input: %q %v", outMine, errMine)
		}
		out, err := docOf(schema.Execute(tool.ID, tool.Version, in))
		out2, err2 := docOf(schema.Execute(tool.ID, tool.Version, in))
		if string(out) != keptOut {
			t.Fatalf("a run on a copy gave %q, on the input %q", keptOut, out)
		}
		if err != nil {
			e := checkErrorDoc(t, tool, err)
			d1, _ := json.Marshal(err)
			d2, _ := json.Marshal(err2)
			if out != nil || !bytes.Equal(d1, d2) {
				t.Fatalf("two answers: %s, %s", d1, d2)
			}
			if len(in) <= 10000 && !json.Valid(in) && (e.Code != "invalid_input" || e.Path != "") {
				t.Fatalf("ungrammatical %q: %s", in, d1)
			}
			return
		}
		if err2 != nil || !bytes.Equal(out, out2) {
			t.Fatalf("two answers: %s, %s (%v)", out, out2, err2)
		}
		if !json.Valid(in) {
			t.Fatalf("ungrammatical %q gave %s", in, out)
		}
		checkOutputDoc(t, tool, out)
	})
}

// TestExecuteKeepsNoInput: Execute reads its input in place, and nothing it
// returns refers to it: overwriting the input after the call changes no
// byte of the output document and no string of the error, for outputs
// that quote the input (a string value, a rational value) and errors that
// do (a member's name in the path and the message, an expression's text).
func TestExecuteKeepsNoInput(t *testing.T) {
	type row struct {
		reason, tool, input string
	}
	testutil.Run(t, []row{
		{"a valid equality", schema.MultisetEquality, `{"source":["alpha",1],"claim":[1,"alpha"]}`},
		{"a mismatch quoting a string of the input", schema.MultisetEquality, `{"source":["alpha","a long string of more than sixteen bytes"],"claim":["beta","a long string of more than sixteen bytes"]}`},
		{"a difference mismatch quoting strings", schema.MultisetDifference, `{"left":["gamma","delta"],"right":[],"claim":{"left_only":["gamma","epsilon"],"right_only":[]}}`},
		{"an unknown member, named in the path", schema.MultisetEquality, `{"source":[],"claim":[],"unexpected member name":1}`},
		{"a bad element deep in an array", schema.MultisetEquality, `{"source":[1,2,{"x":"y"}],"claim":[]}`},
		{"a rational value", schema.RationalExpression, `{"expression":"1 + 1/2 + 1/3 + 1/4","claimed_value":"25/12"}`},
		{"a rational mismatch", schema.RationalExpression, `{"expression":"123456789/987654321","claimed_value":"1/8"}`},
		{"a division by zero, quoting the divisor", schema.RationalExpression, `{"expression":"1/(2 - 2)","claimed_value":"1"}`},
		{"an expression error", schema.RationalExpression, `{"expression":"1 + ^2","claimed_value":"1"}`},
	}, func(t *testing.T, tc row) {
		input := []byte(tc.input)
		out, err := schema.Execute(tc.tool, "", input)
		if e := new(*claimcheck.Error); err != nil && !errors.As(err, e) {
			t.Fatalf("%T is not a *claimcheck.Error", err)
		}
		wantDoc, wantErr := string(out.Doc), errorText(err)
		for i := range input {
			input[i] = 'X'
		}
		if got := string(out.Doc); got != wantDoc {
			t.Errorf("the output changed with the input:\n%s\nwas\n%s", got, wantDoc)
		}
		if got := errorText(err); got != wantErr {
			t.Errorf("the error changed with the input:\n%s\nwas\n%s", got, wantErr)
		}
		// The reference: the same input, run afresh.
		ref, refErr := schema.Execute(tc.tool, "", []byte(tc.input))
		if string(ref.Doc) != wantDoc || errorText(refErr) != wantErr {
			t.Errorf("a second run gives %q %v, the first %q %v", ref.Doc, refErr, wantDoc, err)
		}
	})
}

// errorText is every field of err's *claimcheck.Error ("" for no error),
// for comparing two of them.
func errorText(err error) string {
	var e *claimcheck.Error
	if err == nil {
		return ""
	}
	if !errors.As(err, &e) {
		return err.Error()
	}
	return fmt.Sprintf("%s|%s|%d|%s|%s", e.Code, e.Path, e.Position, e.Limit, e.Message)
}
