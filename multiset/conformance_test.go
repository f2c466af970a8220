package multiset_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

// The conformance cases are documents; this package's API is typed. A case
// runs here when its document is an input object: read with the library's
// strict JSON reader (internal/jsontape), an object of exactly the tool's
// members, each once, whose arrays are arrays. Their elements become the Go
// values a caller would pass: null, booleans, strings (invalid UTF-8 and
// lone surrogates kept as bytes, for canon to refuse), json.Number for
// numbers (JSON text, so canon reads the literal exactly), and an empty
// []any or map for a nested array or object (refused at the same path as
// the document's). Malformed JSON and unknown, duplicate, missing or
// mistyped members are the JSON layer's job, run by package schema.

const jsonLayer = "JSON-layer case: run by package schema"

// decodeObject reads the object at node i with exactly the given member
// names; it returns each name's node, or ok false.
func decodeObject(d *jsontape.Doc, i int, names []string) (nodes []int, ok bool) {
	n := &d.Nodes[i]
	if n.Kind != jsontape.Object || n.Len != len(names) || n.Rec != n.Len {
		return nil, false
	}
	nodes = make([]int, len(names))
	for k := range nodes {
		nodes[k] = -1
	}
	for c, m := i+1, 0; m < n.Rec; c, m = d.Nodes[c].Skip, m+1 {
		name := d.Name(&d.Nodes[c])
		k := 0
		for k < len(names) && names[k] != name {
			k++
		}
		if k == len(names) || nodes[k] >= 0 {
			return nil, false
		}
		nodes[k] = c
	}
	return nodes, true
}

// decodeArray returns the elements of the array at node i as Go values.
func decodeArray(d *jsontape.Doc, i int) ([]any, bool) {
	n := &d.Nodes[i]
	if n.Kind != jsontape.Array || n.Rec != n.Len {
		return nil, false
	}
	out := make([]any, 0, n.Len)
	for _, e := range d.ArrayElems(i) {
		var v any
		switch e.Kind {
		case jsontape.True, jsontape.False:
			v = e.Kind == jsontape.True
		case jsontape.Number:
			v = json.Number(e.Raw)
		case jsontape.String:
			v = e.Str()
		case jsontape.Array:
			v = []any{}
		case jsontape.Object:
			v = map[string]any{}
		}
		out = append(out, v)
	}
	return out, true
}

func parseInput(doc []byte) (*jsontape.Doc, bool) {
	d, err := jsontape.Parse(string(doc), jsontape.Options{MaxDepth: 3, MaxChildren: 1 << 20, ArrayElems: true})
	return d, err == nil
}

// decodeEquality reads an equality input document; ok is false for a
// JSON-layer case.
func decodeEquality(doc []byte) (in multiset.EqualityInput[any, any], ok bool) {
	d, ok := parseInput(doc)
	if !ok {
		return in, false
	}
	m, ok := decodeObject(d, 0, []string{"source", "claim"})
	if !ok {
		return in, false
	}
	var ok1, ok2 bool
	in.Source, ok1 = decodeArray(d, m[0])
	in.Claim, ok2 = decodeArray(d, m[1])
	return in, ok1 && ok2
}

// decodeDifference reads a difference input document; ok is false for a
// JSON-layer case.
func decodeDifference(doc []byte) (in multiset.DifferenceInput[any, any], ok bool) {
	d, ok := parseInput(doc)
	if !ok {
		return in, false
	}
	m, ok := decodeObject(d, 0, []string{"left", "right", "claim"})
	if !ok {
		return in, false
	}
	c, ok := decodeObject(d, m[2], []string{"left_only", "right_only"})
	if !ok {
		return in, false
	}
	var oks [4]bool
	in.Left, oks[0] = decodeArray(d, m[0])
	in.Right, oks[1] = decodeArray(d, m[1])
	in.Claim.LeftOnly, oks[2] = decodeArray(d, c[0])
	in.Claim.RightOnly, oks[3] = decodeArray(d, c[1])
	return in, oks == [4]bool{true, true, true, true}
}

// runTyped answers a case through the typed API; ok is false for a
// JSON-layer case.
func runTyped(c conformance.Case) (out []byte, err error, ok bool) {
	var res interface {
		AppendJSON([]byte) ([]byte, error)
	}
	switch c.Tool {
	case "multiset-equality-check":
		in, ok := decodeEquality(c.Input)
		if !ok {
			return nil, nil, false
		}
		r, err := multiset.CheckEquality(in, multiset.Limits{})
		if err != nil {
			return nil, err, true
		}
		res = r
	case "multiset-difference-check":
		in, ok := decodeDifference(c.Input)
		if !ok {
			return nil, nil, false
		}
		r, err := multiset.CheckDifference(in, multiset.Limits{})
		if err != nil {
			return nil, err, true
		}
		res = r
	default:
		panic("unknown tool " + c.Tool)
	}
	out, err = res.AppendJSON(nil)
	if err != nil {
		panic("a check returned a result that is not a verdict: " + err.Error())
	}
	return out, nil, true
}

var conformanceTools = []string{"multiset-equality-check", "multiset-difference-check"}

// TestConformance runs every case whose input is an input object through
// CheckEquality or CheckDifference, as parallel subtests.
func TestConformance(t *testing.T) {
	for _, tool := range conformanceTools {
		t.Run(tool, func(t *testing.T) {
			conformance.Run(t, tool, func(t *testing.T, c conformance.Case) {
				out, err, ok := runTyped(c)
				if !ok {
					t.Skip(jsonLayer)
				}
				conformance.Check(t, c, out, err)
			})
		})
	}
}

// TestConformanceCoverage keeps the decoder honest: no case with an output
// may be skipped, and most cases must run here.
func TestConformanceCoverage(t *testing.T) {
	for _, tool := range conformanceTools {
		run, skipped := 0, 0
		for _, c := range conformance.Load(t, tool) {
			if _, _, ok := runTyped(c); ok {
				run++
				continue
			}
			skipped++
			if c.Error == nil {
				t.Errorf("%s: skipped but the case expects an output", c.Name)
			}
		}
		t.Logf("%s: %d cases run through the typed API, %d skipped as JSON-layer cases", tool, run, skipped)
		if run*2 <= run+skipped {
			t.Errorf("%s: only %d of %d cases run; want a majority", tool, run, run+skipped)
		}
	}
}

// TestDecodeEquality pins the test decoder itself.
func TestDecodeEquality(t *testing.T) {
	type row struct {
		doc    string
		want   multiset.EqualityInput[any, any]
		ok     bool
		reason string
	}
	rows := []row{
		{`{"source":[1],"claim":[1]}`, multiset.EqualityInput[any, any]{Source: []any{json.Number("1")}, Claim: []any{json.Number("1")}}, true,
			"a plain input; numbers stay JSON text"},
		{` {"claim":[null,true],"\u0073ource":["\ud83d\ude00",1e400]} `,
			multiset.EqualityInput[any, any]{Source: []any{"😀", json.Number("1e400")}, Claim: []any{nil, true}}, true,
			"any order, escaped names, a surrogate pair and an out-of-range number are inputs"},
		{`{"source":["\ud800",[1],{}],"claim":[]}`, multiset.EqualityInput[any, any]{Source: []any{"\xed\xa0\x80", []any{}, map[string]any{}}, Claim: []any{}}, true,
			"a lone surrogate stays invalid; nested values stand in for themselves"},
		{`{"Source":[1],"claim":[1]}`, multiset.EqualityInput[any, any]{}, false, "member names are case-sensitive"},
		{`{"source":[1],"claim":[1],"claim":[2]}`, multiset.EqualityInput[any, any]{}, false, "a duplicate member"},
		{`{"source":[1]}`, multiset.EqualityInput[any, any]{}, false, "a missing member"},
		{`{"source":null,"claim":[]}`, multiset.EqualityInput[any, any]{}, false, "null is not an array"},
		{`{"source":[],"claim":[]} {}`, multiset.EqualityInput[any, any]{}, false, "trailing data"},
		{`{"source":[01],"claim":[]}`, multiset.EqualityInput[any, any]{}, false, "a malformed number"},
		{`[]`, multiset.EqualityInput[any, any]{}, false, "the root is not an object"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		got, ok := decodeEquality([]byte(r.doc))
		if ok != r.ok || ok && !reflect.DeepEqual(got, r.want) {
			t.Errorf("%s: got %#v, %v; want %#v, %v", r.doc, got, ok, r.want, r.ok)
		}
	})
}
