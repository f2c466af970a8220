package schema_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// strictRow is one input and the answer docs/contract.md §5 and §6 require:
// an error (code, path, limit, position) or, with valid set, an output whose
// "valid" member is valid.
type strictRow struct {
	tool   string
	in     string
	code   string // "" for an output
	path   string
	limit  string
	pos    int // -1: no position
	valid  bool
	reason string
}

const (
	eq  = schema.MultisetEquality
	dif = schema.MultisetDifference
	rat = schema.RationalExpression
)

func invalid(tool, in, path, reason string) strictRow {
	return strictRow{tool: tool, in: in, code: "invalid_input", path: path, pos: -1, reason: reason}
}

func output(tool, in string, valid bool, reason string) strictRow {
	return strictRow{tool: tool, in: in, valid: valid, pos: -1, reason: reason}
}

func items(n int, item string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

const rc = `"claimed_value":"1","require_canonical":true`

// deepRows are the strictness rows whose documents nest deeply: 100,000
// levels in the normal run, ten times what encoding/json refuses, and a
// million in the long run. They are built in the test, where go test's
// cache records the read of the long-run switch (testutil.Long).
func deepRows() []strictRow {
	levels := testutil.Size(100_000, 1_000_000)
	deepArray := strings.Repeat("[", levels) + strings.Repeat("]", levels)
	return []strictRow{
		invalid(eq, `{"source":[1,`+deepArray+`],"claim":[]}`, "/source/1", "deep nesting in an element: that element's path, quickly"),
		invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[],"right_only":[`+deepArray+`]}}`, "/claim/right_only/0", "deep nesting at depth 3"),
		invalid(eq, `{"source":[1,`+deepArray[:levels]+`],"claim":[]}`, "", "unclosed deep nesting is a grammar error"),
		invalid(dif, deepArray, "", "the root is a deep array"),
		invalid(eq, `{"source":[],"claim":[]`+deepArray+`}`, "", "a grammar error after deep nesting"),
		invalid(rat, `{"expression":[`+deepArray+`],`+rc+`}`, "/expression", "a deep array where a string is required"),
	}
}

var strictRows = []strictRow{
	// Member names (rule 3).
	invalid(eq, `{"Source":[],"claim":[]}`, "/Source", "names are case-sensitive: Source is unknown"),
	invalid(eq, `{"source":[],"claim":[],"a/b":1}`, "/a~1b", "'/' in a name is ~1 in the path"),
	invalid(eq, `{"~":1,"source":[],"claim":[]}`, "/~0", "'~' in a name is ~0 in the path"),
	invalid(eq, `{"~1/":1,"source":[],"claim":[]}`, "/~01~1", "'~' escaped before '/', so ~1 stays distinct"),
	invalid(eq, `{"":1,"source":[],"claim":[]}`, "/", "the empty name is the path /"),
	invalid(eq, `{"source":[],"source":[1],"claim":[]}`, "/source", "a duplicate member"),
	invalid(eq, `{"source":[],"source":[],"Claim":[]}`, "/source", "the duplicate is found at its second occurrence, before a later unknown name"),
	invalid(eq, `{"source":[],"Claim":[],"source":[]}`, "/Claim", "an unknown name before the second occurrence of a duplicate wins"),
	invalid(eq, `{"source":[],"\u0073ource":[],"claim":[]}`, "/source", "names are compared after unescaping, so an escaped spelling is a duplicate"),
	output(eq, `{"\u0073ource":[1],"cl\u0061im":[1]}`, true, "an escaped name is the name"),
	invalid(eq, "{\"\xff\":1,\"source\":[],\"claim\":[]}", "", "a name that is not valid UTF-8: the containing object's path"),
	invalid(eq, `{"\ud800":1,"source":[],"claim":[]}`, "", "a name with a lone surrogate: the containing object's path"),
	invalid(eq, `{"source":[],"claim":[],"\udc00x":1}`, "", "a lone low surrogate in a later name"),
	invalid(dif, "{\"left\":[],\"right\":[],\"claim\":{\"\xc0\x80\":[]}}", "/claim", "an invalid name in claim: the path of claim"),
	invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[],"right_only":[],"Left_only":[]}}`, "/claim/Left_only", "an unknown member of claim"),
	invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[],"left_only":[],"right_only":[]}}`, "/claim/left_only", "a duplicate member of claim"),
	invalid(dif, `{"left":[],"right":[],"claim":{"a/~b":[]}}`, "/claim/a~1~0b", "escaped nested member path"),

	// Elements (rule 2): reported at the element's path.
	invalid(eq, `{"source":["\ud800"],"claim":[]}`, "/source/0", "a lone high surrogate escape in an element"),
	invalid(eq, `{"source":["ok","x\udc00"],"claim":[]}`, "/source/1", "a lone low surrogate escape in an element"),
	invalid(eq, `{"source":[],"claim":["\udc00\ud800"]}`, "/claim/0", "a low then a high surrogate is not a pair"),
	output(eq, `{"source":["\ud83d\ude00"],"claim":["😀"]}`, true, "an escaped surrogate pair is the code point"),
	invalid(eq, "{\"source\":[1,\"a\xffb\"],\"claim\":[]}", "/source/1", "invalid UTF-8 in an element"),
	invalid(eq, "{\"source\":[],\"claim\":[\"\xc0\x80\"]}", "/claim/0", "an overlong encoding in an element"),
	invalid(eq, "{\"source\":[\"\xed\xa0\x80\"],\"claim\":[]}", "/source/0", "a surrogate encoded raw in three bytes"),
	invalid(eq, "{\"source\":[\"\xf4\x90\x80\x80\"],\"claim\":[]}", "/source/0", "a code point above U+10FFFF"),
	invalid(eq, `{"source":[1],"claim":[1e400]}`, "/claim/0", "1e400 rounds to +Inf"),
	invalid(eq, `{"source":[-1e400],"claim":[]}`, "/source/0", "-1e400 rounds to -Inf"),
	invalid(eq, `{"source":[1.8e308],"claim":[]}`, "/source/0", "just above the largest double"),
	output(eq, `{"source":[1.7976931348623157e308],"claim":[1.7976931348623157e308]}`, true, "the largest double is finite"),
	output(eq, `{"source":[1e-400],"claim":[0]}`, true, "1e-400 underflows to 0"),
	output(eq, `{"source":[-1e-400],"claim":[-0]}`, true, "-1e-400 is -0, which is 0"),
	invalid(eq, `{"source":[10000],"claim":[1e4294967300]}`, "/claim/0", "an exponent of 2^32+4 is no exponent of 4, where an int has 32 bits too"),
	output(eq, `{"source":[0],"claim":[1e-4294967300]}`, true, "an exponent of -(2^32+4) underflows to 0"),
	invalid(eq, `{"source":[[1]],"claim":[]}`, "/source/0", "an array element is not a scalar"),
	invalid(eq, `{"source":[1,{}],"claim":[]}`, "/source/1", "an object element is not a scalar"),
	invalid(eq, `{"source":[],"claim":[null,{"a":1,"a":2}]}`, "/claim/1", "a non-scalar element with duplicate names inside: the element's path, nothing inside"),
	invalid(eq, `{"source":[],"claim":[{"\ud800":"\ud800"}]}`, "/claim/0", "nothing inside a non-scalar element is checked but the grammar"),

	// Root, missing members, types (rules 3 and 4).
	invalid(eq, `[]`, "", "the root is an array"),
	invalid(eq, `"source"`, "", "the root is a string"),
	invalid(eq, `null`, "", "the root is null"),
	invalid(eq, `1`, "", "the root is a number"),
	invalid(eq, `{}`, "/source", "missing members in schema order: source first"),
	invalid(eq, `{"claim":[]}`, "/source", "missing source"),
	invalid(eq, `{"source":[]}`, "/claim", "missing claim"),
	invalid(eq, `{"claim":1,"Source":[]}`, "/Source", "unknown names before missing members"),
	invalid(dif, `{}`, "/left", "missing members in schema order: left first"),
	invalid(dif, `{"claim":{},"left":[]}`, "/right", "missing right before claim's members"),
	invalid(dif, `{"left":[],"right":[],"claim":{}}`, "/claim/left_only", "missing left_only: its would-be path"),
	invalid(dif, `{"left":[],"right":[],"claim":{"right_only":[]}}`, "/claim/left_only", "missing left_only"),
	invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[]}}`, "/claim/right_only", "missing right_only"),
	invalid(eq, `{"claim":1,"source":1}`, "/source", "wrong types in schema order, not document order"),
	invalid(eq, `{"source":[],"claim":{}}`, "/claim", "claim must be an array"),
	invalid(eq, `{"source":"[]","claim":[]}`, "/source", "a string is not an array"),
	invalid(eq, `{"source":[1e400],"claim":null}`, "/claim", "every type before any element"),
	invalid(dif, `{"claim":1,"right":1,"left":1}`, "/left", "left's type first"),
	invalid(dif, `{"left":[],"right":[],"claim":[]}`, "/claim", "claim must be an object"),
	invalid(dif, `{"left":[],"right":{},"claim":{"x":1}}`, "/right", "right's type before claim's members"),
	invalid(dif, `{"left":[1e400],"right":[],"claim":{"left_only":[],"x":1}}`, "/claim/x", "claim's members before any element"),
	invalid(dif, `{"left":[1e400],"right":[],"claim":{"left_only":1,"right_only":[]}}`, "/claim/left_only", "claim's member types before any element"),
	invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[],"right_only":{}}}`, "/claim/right_only", "right_only must be an array"),
	invalid(dif, `{"left":[],"right":["\ud800"],"claim":{"left_only":["\ud800"],"right_only":[]}}`, "/right/0", "arrays in schema order: right before claim/left_only"),
	invalid(eq, `{"source":[1,2,"\ud800",1e400],"claim":[]}`, "/source/2", "elements in index order"),

	// Limits (rule 4).
	{tool: eq, in: `{"source":` + items(10001, "1") + `,"claim":[]}`, code: "limit_exceeded", path: "/source", limit: "max_items", pos: -1, reason: "10001 items"},
	{tool: eq, in: `{"source":[1e400],"claim":` + items(10001, "1") + `}`, code: "invalid_input", path: "/source/0", pos: -1, reason: "source's elements before claim's limit"},
	{tool: eq, in: `{"source":` + items(10001, "1e400") + `,"claim":[]}`, code: "limit_exceeded", path: "/source", limit: "max_items", pos: -1, reason: "max_items before the array's own elements"},
	{tool: eq, in: `{"source":` + items(10001, "[") + `,"claim":[]}`, code: "invalid_input", path: "", pos: -1, reason: "a grammar error beats a limit"},
	{tool: dif, in: `{"left":[],"right":[],"claim":{"left_only":` + items(10001, "null") + `,"right_only":[]}}`, code: "limit_exceeded", path: "/claim/left_only", limit: "max_items", pos: -1, reason: "10001 items in a nested array"},
	output(eq, `{"source":`+items(10000, "1")+`,"claim":`+items(10000, "1.0")+`}`, true, "10000 items is within the limit"),

	// A grammar error anywhere beats everything (rule 1).
	invalid(eq, `{"Source":[1e400],"claim":[1,]}`, "", "a trailing comma beats an unknown name"),
	invalid(eq, `{"source":["\ud800"],"claim":[01]}`, "", "a leading zero beats an earlier lone surrogate"),
	invalid(eq, `{"source":[],"claim":[]} x`, "", "trailing data beats a valid document"),
	invalid(eq, `{"source":[],"claim":[]}{}`, "", "a second document"),
	invalid(eq, "\xef\xbb\xbf{\"source\":[],\"claim\":[]}", "", "a leading BOM"),
	invalid(eq, "{\"source\":[\"a\x01\"],\"claim\":[]}", "", "an unescaped control character"),
	invalid(eq, `{"source":["\x"],"claim":[]}`, "", "a bad escape"),
	invalid(eq, `{"source":[NaN],"claim":[]}`, "", "NaN"),
	invalid(eq, `{"source":[Infinity],"claim":[]}`, "", "Infinity"),
	invalid(eq, `{"source":[+1],"claim":[]}`, "", "+1"),
	invalid(eq, `{"source":[.5],"claim":[]}`, "", ".5"),
	invalid(eq, `{"source":[1.],"claim":[]}`, "", "1."),
	invalid(eq, "{\"source\":[],\"claim\":[]}\xc2\xa0", "", "a non-ASCII byte outside a string"),
	invalid(eq, ``, "", "empty input"),
	invalid(eq, ` `, "", "whitespace only"),
	invalid(dif, `{"left":[],"right":[],"claim":{"left_only":[],"right_only":[]}`, "", "an unclosed object"),

	// The rational tool's strictness (docs/contract.md §6 rules 6, 12, 13).
	output(rat, `{"\u0065xpression":"1",`+rc+`}`, true, "\\u0065xpression is expression"),
	invalid(rat, `{"expression":"1",`+rc+`,"expression":"1"}`, "/expression", "a duplicate expression: no position"),
	invalid(rat, `{"expression":{"a":1,"a":2},`+rc+`}`, "/expression", "a type error at /expression, whatever it contains"),
	invalid(rat, `{"Expression":"1",`+rc+`}`, "/Expression", "names are case-sensitive"),
	invalid(rat, `{}`, "/expression", "missing members in schema order"),
	invalid(rat, `{"require_canonical":true,"expression":"1"}`, "/claimed_value", "missing claimed_value"),
	invalid(rat, `{"expression":"1","claimed_value":1,"require_canonical":true}`, "/claimed_value", "claimed_value must be a string"),
	invalid(rat, `{"expression":"1","claimed_value":"1","require_canonical":"true"}`, "/require_canonical", "require_canonical must be a boolean"),
	invalid(rat, `{"expression":"1",`+rc+`,}`, "", "a grammar error"),
	{tool: rat, in: `{"expression":"\ud800",` + rc + `}`, code: "invalid_input", path: "/expression", pos: 0, reason: "a lone surrogate in the expression: its position"},
	{tool: rat, in: "{\"expression\":\"1+\xff\"," + rc + "}", code: "invalid_input", path: "/expression", pos: 2, reason: "invalid UTF-8 in the expression: its position"},
}

// TestStrictness checks every strictness row through Execute.
func TestStrictness(t *testing.T) {
	testutil.Run(t, slices.Concat(strictRows, deepRows()), func(t *testing.T, r strictRow) {
		tool, _ := schema.Lookup(r.tool, "")
		out, err := docOf(schema.Execute(r.tool, "", []byte(r.in)))
		if r.code == "" {
			if err != nil {
				t.Fatalf("%.200q: %v", r.in, err)
			}
			var res struct{ Valid bool }
			if json.Unmarshal(out, &res) != nil || res.Valid != r.valid {
				t.Fatalf("%.200q: %s, want valid %v", r.in, out, r.valid)
			}
			checkOutputDoc(t, tool, out)
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) {
			t.Fatalf("%.200q: %s, %v; want %s at %q", r.in, out, err, r.code, r.path)
		}
		if string(e.Code) != r.code || e.Path != r.path || e.Limit != r.limit || e.Position != r.pos {
			t.Fatalf("%.200q:\ngot  %s path %q limit %q position %d (%s)\nwant %s path %q limit %q position %d",
				r.in, e.Code, e.Path, e.Limit, e.Position, e.Message, r.code, r.path, r.limit, r.pos)
		}
		checkErrorDoc(t, tool, err)
	})
}
