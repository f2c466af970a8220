package multiset_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/multiset"
)

// The conformance cases are documents; this package's API is typed. A case
// runs here when its document is exactly a typed input: strict JSON whose
// members, types and strings encoding/json reproduces faithfully. Everything
// else (malformed JSON, unknown, duplicate, missing or misspelled members,
// wrong types, non-scalar elements, invalid UTF-8, lone surrogates) is the JSON
// layer's job and is run by package schema. encoding/json would accept most
// of those silently — "Source" for "source", the last of two duplicates,
// U+FFFD for a lone surrogate — so strictInput decides before it decodes.
//
// Numbers are decoded as json.Number, so their literals reach canon's exact
// parser: a number out of range is a typed input and its error must match.

const (
	jsonLayer   = "JSON-layer case: run by package schema"
	preCheckBug = "pre-check accepted a document encoding/json refuses: "
)

// shape is an input object's schema: each member an array of scalars or a
// nested object of the same kind, in schema order.
type shape struct {
	names  []string
	nested map[string]*shape
}

var (
	equalityShape   = &shape{names: []string{"source", "claim"}}
	differenceShape = &shape{
		names:  []string{"left", "right", "claim"},
		nested: map[string]*shape{"claim": {names: []string{"left_only", "right_only"}}},
	}
)

// strictInput decodes doc into v (a pointer to the tool's input struct) when
// doc is strictly representable as that input, and otherwise returns why not.
func strictInput(doc []byte, s *shape, v any) (why string) {
	if !utf8.Valid(doc) {
		return "invalid UTF-8"
	}
	if !json.Valid(doc) {
		return "malformed JSON"
	}
	if loneSurrogate(doc) {
		return "lone surrogate escape"
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if why := s.walk(dec, "root"); why != "" {
		return why
	}
	if _, err := dec.Token(); err != io.EOF {
		return "trailing data"
	}
	dec = json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// The walk accepted what encoding/json refuses: the pre-check is
		// wrong, not the case.
		return preCheckBug + err.Error()
	}
	return ""
}

// walk reads one object of shape s from dec: every member name exactly one
// of s.names, none twice, none missing, each value of the schema's type.
func (s *shape) walk(dec *json.Decoder, where string) string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return where + " is not an object"
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err.Error()
		}
		name := tok.(string)
		known := false
		for _, n := range s.names {
			known = known || n == name
		}
		switch {
		case !known:
			return fmt.Sprintf("unknown member %q", name)
		case seen[name]:
			return fmt.Sprintf("duplicate member %q", name)
		}
		seen[name] = true
		if sub := s.nested[name]; sub != nil {
			if why := sub.walk(dec, name); why != "" {
				return why
			}
			continue
		}
		if why := scalarArray(dec, name); why != "" {
			return why
		}
	}
	for _, n := range s.names {
		if !seen[n] {
			return fmt.Sprintf("missing member %q", n)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return err.Error()
	}
	return ""
}

// scalarArray reads an array whose elements are all scalars.
func scalarArray(dec *json.Decoder, name string) string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return name + " is not an array"
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err.Error()
		}
		if _, ok := tok.(json.Delim); ok {
			return name + " has a non-scalar element"
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return err.Error()
	}
	return ""
}

// loneSurrogate reports whether a string of doc (valid JSON) has a \u escape
// of a surrogate that is not half of a high-low pair. encoding/json would
// decode it to U+FFFD.
func loneSurrogate(doc []byte) bool {
	in := false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\':
			i++
			if doc[i] != 'u' {
				continue
			}
			u := hex4(doc[i+1 : i+5])
			i += 4
			switch {
			case u >= 0xDC00 && u <= 0xDFFF:
				return true
			case u >= 0xD800 && u <= 0xDBFF:
				if i+6 >= len(doc) || doc[i+1] != '\\' || doc[i+2] != 'u' {
					return true
				}
				if lo := hex4(doc[i+3 : i+7]); lo < 0xDC00 || lo > 0xDFFF {
					return true
				}
				i += 6
			}
		}
	}
	return false
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// runTyped answers a case through the typed API, or returns why it cannot.
func runTyped(c conformance.Case) (out []byte, err error, why string) {
	switch c.Tool {
	case "multiset-equality-check":
		var in multiset.EqualityInput
		if why := strictInput(c.Input, equalityShape, &in); why != "" {
			return nil, nil, why
		}
		res, err := multiset.CheckEquality(in)
		if err != nil {
			return nil, err, ""
		}
		out, _ := json.Marshal(res)
		return out, nil, ""
	case "multiset-difference-check":
		var in multiset.DifferenceInput
		if why := strictInput(c.Input, differenceShape, &in); why != "" {
			return nil, nil, why
		}
		res, err := multiset.CheckDifference(in)
		if err != nil {
			return nil, err, ""
		}
		out, _ := json.Marshal(res)
		return out, nil, ""
	}
	panic("unknown tool " + c.Tool)
}

var conformanceTools = []string{"multiset-equality-check", "multiset-difference-check"}

// TestConformance runs every case whose input is a typed input through
// CheckEquality or CheckDifference, as parallel subtests.
func TestConformance(t *testing.T) {
	for _, tool := range conformanceTools {
		t.Run(tool, func(t *testing.T) {
			conformance.Run(t, tool, func(t *testing.T, c conformance.Case) {
				out, err, why := runTyped(c)
				if strings.HasPrefix(why, preCheckBug) {
					t.Fatal(why)
				}
				if why != "" {
					t.Skipf("%s (%s)", jsonLayer, why)
				}
				conformance.Check(t, c, out, err)
			})
		})
	}
}

// TestConformanceCoverage keeps the pre-check honest in both directions:
// no case with an output may be skipped (the pre-check would be too strict),
// and a good majority of all cases must run here.
func TestConformanceCoverage(t *testing.T) {
	for _, tool := range conformanceTools {
		run, skipped := 0, 0
		for _, c := range conformance.Load(t, tool) {
			_, _, why := runTyped(c)
			if strings.HasPrefix(why, preCheckBug) {
				t.Errorf("%s: %s", c.Name, why)
			}
			if why == "" {
				run++
				continue
			}
			skipped++
			if c.Error == nil {
				t.Errorf("%s: skipped (%s) but the case expects an output", c.Name, why)
			}
		}
		t.Logf("%s: %d cases run through the typed API, %d skipped as JSON-layer cases", tool, run, skipped)
		if run*2 <= run+skipped {
			t.Errorf("%s: only %d of %d cases run; want a majority", tool, run, run+skipped)
		}
	}
}

// TestStrictInput pins the pre-check on documents encoding/json would read
// leniently: each must be refused, never run.
func TestStrictInput(t *testing.T) {
	rows := []struct {
		doc, reason string
		ok          bool
	}{
		{`{"source":[1],"claim":[1]}`, "a plain typed input", true},
		{`{"\u0073ource":[1],"claim":["\ud83d\ude00",1e400]}`, "escaped names, a surrogate pair and an out-of-range number are typed inputs", true},
		{`{"Source":[1],"claim":[1]}`, "encoding/json matches member names case-insensitively", false},
		{`{"source":[1],"claim":[1],"claim":[2]}`, "encoding/json keeps the last duplicate", false},
		{`{"source":[1],"claim":[1],"x":0}`, "unknown member", false},
		{`{"source":[1]}`, "encoding/json leaves a missing member nil", false},
		{`{"source":null,"claim":[]}`, "encoding/json decodes null into a nil slice", false},
		{`{"source":[[1]],"claim":[]}`, "encoding/json decodes a nested array into []any", false},
		{`{"source":["\ud800"],"claim":[]}`, "encoding/json turns a lone surrogate into U+FFFD", false},
		{`{"source":["\udc00\ud800"],"claim":[]}`, "a reversed pair is two lone surrogates", false},
		{`{"source":["\ud800\u0041"],"claim":[]}`, "a high surrogate followed by a non-surrogate escape", false},
		{"{\"source\":[\"\xff\"],\"claim\":[]}", "encoding/json turns invalid UTF-8 into U+FFFD", false},
		{`{"source":[],"claim":[]} {}`, "trailing data", false},
		{`{"source":[01],"claim":[]}`, "malformed number", false},
		{`[]`, "root not an object", false},
	}
	for i, r := range rows {
		needReason(t, i, r.reason)
		var in multiset.EqualityInput
		why := strictInput([]byte(r.doc), equalityShape, &in)
		if (why == "") != r.ok {
			t.Errorf("row %d (%s): %s: strictInput says %q, want ok=%v", i, r.reason, r.doc, why, r.ok)
		}
	}
}
