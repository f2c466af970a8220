package canon_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestParseArray: the keys ParseArray reads, and the errors it gives, each
// at its JSON Pointer path with the message's telling words.
func TestParseArray(t *testing.T) {
	type row struct {
		in     string
		keys   string // the elements' keys, comma-separated, when accepted
		path   string // the error's path, when refused
		msg    string // a part of its message
		reason string
	}
	testutil.Run(t, []row{
		{`[]`, "", "", "", "an empty array"},
		{` [ 1 , 2.50 , 3e0 , -0 , 1E21 ] `, "1,2.5,3,0,1e+21", "", "", "numbers read as the nearest double, white space around"},
		{`[null,true,false,"a\u00e9\ud83d\ude00"]`, `null,true,false,"aé😀"`, "", "", "the other scalars; escapes decoded, a surrogate pair joined"},
		{`[123456789012345678901234567890]`, "1.2345678901234568e+29", "", "", "a long integer rounds once, as a literal does"},
		{`[1,2,3,4,1e400]`, "", "/4", "out of the range of a double", "1e400 is refused at its index (json.Unmarshal leaves a nil there)"},
		{`[1,[2]]`, "", "/1", "element is an array, not a scalar", "a nested array"},
		{`[{"a":1,"a":2}]`, "", "/0", "element is an object, not a scalar", "an object, duplicate names or not"},
		{`["ok","\ud800"]`, "", "/1", `the escape \ud800 at its start: a lone surrogate`, "a lone surrogate is refused, not replaced by U+FFFD, and named as written"},
		{"[\"\xff\"]", "", "/0", "the byte 0xff at its start, which is not UTF-8", "invalid UTF-8 is refused, not replaced"},
		{`[1,{},[]]`, "", "/1", "object", "the first bad element in index order"},
		{`{"a":[1]}`, "", "", "the document is an object, not an array", "the root must be an array"},
		{`"x"`, "", "", "the document is a string, not an array", "a scalar root"},
		{`[1,2`, "", "", "invalid JSON at line 1, column 5 (byte offset 4)", "a grammar error is at path \"\" with its byte offset"},
		{`[01]`, "", "", "invalid JSON", "a leading zero is a grammar error, as in the tools"},
		{`[NaN]`, "", "", "invalid JSON", "NaN is not JSON"},
		{`[1] [2]`, "", "", "invalid JSON", "trailing data"},
		{"\xef\xbb\xbf[1]", "", "", "invalid JSON", "a byte order mark"},
		{``, "", "", "invalid JSON", "empty input"},
	}, func(t *testing.T, r row) {
		got, err := canon.ParseArray([]byte(r.in))
		if r.msg == "" {
			if err != nil {
				t.Fatal(err)
			}
			keys := make([]string, len(got))
			for i, s := range got {
				keys[i] = s.Key()
			}
			if k := strings.Join(keys, ","); k != r.keys {
				t.Errorf("keys %s, want %s", k, r.keys)
			}
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Code != claimcheck.InvalidInput {
			t.Fatalf("got %v, %v; want invalid_input", got, err)
		}
		if got != nil {
			t.Errorf("returned %v with the error", got)
		}
		if e.Path != r.path || !strings.Contains(e.Message, r.msg) || strings.ContainsAny(e.Message, "\n\r") {
			t.Errorf("got path %q message %q; want path %q and a one-line message containing %q", e.Path, e.Message, r.path, r.msg)
		}
	})
}

// TestParseArrayAgreesWithOf: an array encoding/json decodes without loss
// reads to the same scalars through ParseArray as through Of on what
// json.Unmarshal (with UseNumber) returns.
func TestParseArrayAgreesWithOf(t *testing.T) {
	const doc = `[0, -0.0, 1.5e3, 0.1, 9007199254740993, "", "\u0000\t", null, true, false, 1e-400]`
	got, err := canon.ParseArray([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var xs []any
	if err := dec.Decode(&xs); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(xs) {
		t.Fatalf("%d scalars, want %d", len(got), len(xs))
	}
	for i, x := range xs {
		want, err := canon.Of(x)
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != want {
			t.Errorf("element %d: %v, want %v", i, got[i], want)
		}
	}
}
