package rational_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/rational"
)

const tool = "rational-expression-check"

const jsonLayer = "JSON-layer case: run by package schema"

// TestConformance runs every case of the contract's corpus whose input is an
// object of exactly the three members, of the right JSON types. The others
// (malformed JSON, unknown, duplicate, missing or mistyped members) test the
// JSON layer and are skipped here.
func TestConformance(t *testing.T) {
	conformance.Run(t, tool, func(t *testing.T, c conformance.Case) {
		in, ok := decodeInput(c.Input)
		if !ok {
			t.Skip(jsonLayer)
		}
		res, err := rational.CheckRational(in, rational.Limits{})
		var out []byte
		if err == nil {
			var merr error
			out, merr = json.Marshal(res)
			if merr != nil {
				t.Fatalf("json.Marshal: %v", merr)
			}
			if app, err := res.AppendJSON(nil); err != nil || !bytes.Equal(app, out) {
				t.Fatalf("AppendJSON (error %v) and json.Marshal differ:\n%s\n%s", err, app, out)
			}
			if (res.Err() == nil) != res.Valid {
				t.Fatalf("Err() = %v for Valid %v", res.Err(), res.Valid)
			}
		}
		conformance.Check(t, c, out, err)
	})
}

// decodeInput reads a conformance input document with the library's strict
// JSON reader (internal/jsontape) and keeps it when it is an object of
// exactly the members expression and claimed_value (strings) and
// require_canonical (a boolean), each once. Strings may hold invalid UTF-8
// (kept as bytes) and lone surrogate escapes (kept as their 3-byte
// generalized UTF-8 form), which CheckRational must report itself. Anything
// else is a JSON-layer case: ok is false.
func decodeInput(doc []byte) (in rational.Input, ok bool) {
	d, err := jsontape.Parse(string(doc), jsontape.Options{MaxDepth: 1, MaxChildren: 4})
	if err != nil || d.Nodes[0].Kind != jsontape.Object || d.Nodes[0].Len != 3 {
		return in, false
	}
	seen := map[string]bool{}
	for c := 1; c < len(d.Nodes); c = d.Nodes[c].Skip {
		n := &d.Nodes[c]
		name := d.Name(n)
		if seen[name] {
			return in, false
		}
		seen[name] = true
		switch {
		case name == "expression" && n.Kind == jsontape.String:
			in.Expression = d.Str(n)
		case name == "claimed_value" && n.Kind == jsontape.String:
			in.ClaimedValue = d.Str(n)
		case name == "require_canonical" && (n.Kind == jsontape.True || n.Kind == jsontape.False):
			in.RequireCanonical = n.Kind == jsontape.True
		default:
			return in, false
		}
	}
	return in, len(seen) == 3
}

// TestDecodeInput pins the lenient test decoder itself.
func TestDecodeInput(t *testing.T) {
	type decodeRow struct {
		doc    string
		want   rational.Input
		ok     bool
		reason string
	}
	testutil.Run(t, []decodeRow{
		{`{"expression":"1","claimed_value":"1","require_canonical":true}`, rational.Input{"1", "1", true}, true, "plain"},
		{` { "require_canonical" : false , "claimed_value":"2","expression":"1+1" } `, rational.Input{"1+1", "2", false}, true, "any order and whitespace"},
		{`{"expression":"1+\ud800","claimed_value":"1","require_canonical":true}`, rational.Input{"1+\xed\xa0\x80", "1", true}, true, "lone surrogate as WTF-8"},
		{`{"expression":"\ud83d\ude00","claimed_value":"1","require_canonical":true}`, rational.Input{"😀", "1", true}, true, "surrogate pair"},
		{`{"expression":"1","claimed_value":"1"}`, rational.Input{}, false, "missing member"},
		{`{"expression":"1","claimed_value":"1","require_canonical":true,"expression":"1"}`, rational.Input{}, false, "duplicate member"},
		{`{"expression":5,"claimed_value":"1","require_canonical":true}`, rational.Input{}, false, "wrong type"},
		{`{"expression":"1","claimed_value":"1","require_canonical":tru}`, rational.Input{}, false, "malformed"},
		{`{"expression":"1","claimed_value":"1","require_canonical":true} {}`, rational.Input{}, false, "trailing data"},
		{`{"expression":"1","claimed_value":"1","require_canonical":true,}`, rational.Input{}, false, "trailing comma"},
	}, func(t *testing.T, tc decodeRow) {
		got, ok := decodeInput([]byte(tc.doc))
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("decodeInput(%q) = %+v, %v; want %+v, %v", tc.doc, got, ok, tc.want, tc.ok)
		}
	})
}

// TestConformanceCoverage guards the skip above: every case that expects an
// output document must run through the typed API, and most cases must.
func TestConformanceCoverage(t *testing.T) {
	cases := conformance.Load(t, tool)
	ran := 0
	for _, c := range cases {
		if _, ok := decodeInput(c.Input); ok {
			ran++
		} else if c.Output != nil {
			t.Errorf("%s expects an output document but would be skipped", c.Name)
		}
	}
	t.Logf("%d of %d cases run through the typed API", ran, len(cases))
	if ran*10 < len(cases)*8 {
		t.Errorf("only %d of %d cases run through the typed API", ran, len(cases))
	}
}
