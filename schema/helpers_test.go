package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// seed reads the contract's descriptor of a tool from the module's testdata,
// member by member.
func seed(t testutil.TB, id string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformance.Dir(), "seeds", id+".json"))
	if err != nil {
		t.Fatalf("%v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("seed %s: %v", id, err)
	}
	return m
}

// members returns the names and values of a JSON object in document order.
func members(t testutil.TB, obj []byte) ([]string, []json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", obj)
	}
	var names []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		names = append(names, tok.(string))
		vals = append(vals, v)
	}
	return names, vals
}

// checkMemberOrder checks that the members of doc appear in the order of
// the schema's properties, recursively for object members whose subschema
// has properties.
func checkMemberOrder(t testutil.TB, schemaDoc, doc []byte) {
	t.Helper()
	snames, svals := members(t, schemaDoc)
	var props json.RawMessage
	for i, n := range snames {
		if n == "properties" {
			props = svals[i]
		}
	}
	if props == nil {
		return
	}
	pnames, pvals := members(t, props)
	names, vals := members(t, doc)
	last := -1
	for i, n := range names {
		k := 0
		for k < len(pnames) && pnames[k] != n {
			k++
		}
		if k == len(pnames) || k <= last {
			t.Fatalf("member %q of %s is out of the schema order %v", n, doc, pnames)
		}
		last = k
		if len(vals[i]) > 0 && vals[i][0] == '{' {
			checkMemberOrder(t, pvals[k], vals[i])
		}
	}
}

var (
	compiledMu sync.Mutex
	compiled   = map[string]*jsonschema.Schema{}
)

// compile compiles a JSON Schema document with the independent validator
// (draft 2020-12, the default), once per document.
func compile(t testutil.TB, doc []byte) *jsonschema.Schema {
	t.Helper()
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if s, ok := compiled[string(doc)]; ok {
		return s
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	url := "mem:///schema" + string(rune('a'+len(compiled))) + ".json"
	if err := c.AddResource(url, v); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	compiled[string(doc)] = s
	return s
}

// validate validates a JSON document against a compiled schema.
func validate(sch *jsonschema.Schema, doc []byte) error {
	if !utf8.Valid(doc) {
		return errors.New("not UTF-8")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// errorDocSchema is the error document of docs/contract.md §5.
const errorDocSchema = `{
  "type": "object", "additionalProperties": false, "required": ["error"],
  "properties": {"error": {
    "type": "object", "additionalProperties": false, "required": ["code", "path", "message"],
    "properties": {
      "code": {"enum": ["invalid_input", "limit_exceeded", "unknown_tool"]},
      "path": {"type": "string", "pattern": "^(/[\\s\\S]*)?$"},
      "position": {"type": "integer", "minimum": 0},
      "limit": {"type": "string", "minLength": 1},
      "message": {"type": "string", "minLength": 1, "pattern": "^[^\\n]*$"}
    }
  }}
}`

// checkErrorDoc checks that err is an *claimcheck.Error whose JSON form is an
// error document of tool with a code Execute may give for a served tool.
func checkErrorDoc(t testutil.TB, tool *schema.Tool, err error) *claimcheck.Error {
	t.Helper()
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not a *claimcheck.Error", err, err)
	}
	if e.Code != "invalid_input" && e.Code != "limit_exceeded" {
		t.Fatalf("code %q from a served tool", e.Code)
	}
	if (e.Code == "limit_exceeded") != (e.Limit != "") || (e.Limit != "" && tool.Limit(e.Limit) == 0) {
		t.Fatalf("code %s with limit %q (tool limits %v)", e.Code, e.Limit, tool.Limits)
	}
	if e.Position >= 0 && tool.ID != schema.RationalExpression || e.Position < -1 {
		t.Fatalf("position %d from %s", e.Position, tool.ID)
	}
	doc, merr := json.Marshal(err)
	if merr != nil {
		t.Fatalf("json.Marshal(error): %v", merr)
	}
	if verr := validate(compile(t, []byte(errorDocSchema)), doc); verr != nil {
		t.Fatalf("error document %s: %v", doc, verr)
	}
	checkMemberOrder(t, []byte(errorDocSchema), doc)
	return e
}

// checkOutputDoc checks an output document against the tool's output schema
// and its member order.
func checkOutputDoc(t testutil.TB, tool *schema.Tool, out []byte) {
	t.Helper()
	if err := validate(compile(t, tool.OutputSchema), out); err != nil {
		t.Fatalf("output %s does not validate against the output schema of %s: %v", out, tool.ID, err)
	}
	checkMemberOrder(t, tool.OutputSchema, out)
}

// allCases returns every conformance case of every tool.
func allCases(t testing.TB) map[string][]conformance.Case {
	out := map[string][]conformance.Case{}
	for _, tool := range schema.Tools() {
		out[tool.ID] = conformance.Load(t, tool.ID)
	}
	return out
}

// docOf returns the document of an Execute's Output, for tests that compare
// documents.
func docOf(out schema.Output, err error) ([]byte, error) { return out.Doc, err }
