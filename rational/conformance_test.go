package rational_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/conformance"
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
		res, err := rational.CheckRational(in)
		var out []byte
		if err == nil {
			var merr error
			out, merr = json.Marshal(res)
			if merr != nil {
				t.Fatalf("json.Marshal: %v", merr)
			}
			if app := res.AppendJSON(nil); !bytes.Equal(app, out) {
				t.Fatalf("AppendJSON and json.Marshal differ:\n%s\n%s", app, out)
			}
			if (res.Err() == nil) != res.Valid {
				t.Fatalf("Err() = %v for Valid %v", res.Err(), res.Valid)
			}
		}
		conformance.Check(t, c, out, err)
	})
}

// decodeInput decodes a conformance input document leniently: it must be a
// strict RFC 8259 object with exactly the members expression and
// claimed_value (strings) and require_canonical (a boolean), each once, but
// strings may hold invalid UTF-8 bytes (kept as they are) and lone surrogate
// escapes (kept as their 3-byte WTF-8 encoding), which the library must
// report itself. Anything else is a JSON-layer case: ok is false.
func decodeInput(doc []byte) (in rational.Input, ok bool) {
	d := jsonDoc{b: doc}
	d.ws()
	if !d.eat('{') {
		return in, false
	}
	seen := map[string]bool{}
	for first := true; ; first = false {
		d.ws()
		if d.eat('}') {
			if first {
				return in, false
			}
			break
		}
		if !first && !d.eat(',') {
			return in, false
		}
		d.ws()
		name, ok := d.str()
		if !ok || seen[name] {
			return in, false
		}
		seen[name] = true
		d.ws()
		if !d.eat(':') {
			return in, false
		}
		d.ws()
		switch name {
		case "expression":
			in.Expression, ok = d.str()
		case "claimed_value":
			in.ClaimedValue, ok = d.str()
		case "require_canonical":
			in.RequireCanonical, ok = d.boolean()
		default:
			return in, false
		}
		if !ok {
			return in, false
		}
		d.ws()
		if d.peek() == '}' {
			continue
		}
		if d.peek() != ',' {
			return in, false
		}
		// The comma is consumed at the top of the loop.
	}
	d.ws()
	return in, len(seen) == 3 && d.i == len(d.b)
}

type jsonDoc struct {
	b []byte
	i int
}

func (d *jsonDoc) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

func (d *jsonDoc) eat(c byte) bool {
	if d.peek() == c && d.i < len(d.b) {
		d.i++
		return true
	}
	return false
}

func (d *jsonDoc) ws() {
	for d.i < len(d.b) && (d.b[d.i] == ' ' || d.b[d.i] == '\t' || d.b[d.i] == '\n' || d.b[d.i] == '\r') {
		d.i++
	}
}

func (d *jsonDoc) boolean() (bool, bool) {
	switch {
	case bytes.HasPrefix(d.b[d.i:], []byte("true")):
		d.i += 4
		return true, true
	case bytes.HasPrefix(d.b[d.i:], []byte("false")):
		d.i += 5
		return false, true
	}
	return false, false
}

// str decodes a JSON string. A lone surrogate escape becomes its WTF-8
// bytes; a valid pair becomes the code point; raw bytes are kept.
func (d *jsonDoc) str() (string, bool) {
	if !d.eat('"') {
		return "", false
	}
	var out []byte
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			d.i++
			continue
		}
		d.i++
		esc := d.peek()
		d.i++
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) && r < 0xdc00 && bytes.HasPrefix(d.b[d.i:], []byte(`\u`)) {
				save := d.i
				d.i += 2
				if r2, ok := d.hex4(); ok && 0xdc00 <= r2 && r2 <= 0xdfff {
					out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
					continue
				}
				d.i = save
			}
			if utf16.IsSurrogate(r) {
				// WTF-8: the generalized UTF-8 encoding of the surrogate.
				out = append(out, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
				continue
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (d *jsonDoc) hex4() (rune, bool) {
	if d.i+4 > len(d.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.b[d.i:d.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(v), true
}

// TestDecodeInput pins the lenient test decoder itself.
func TestDecodeInput(t *testing.T) {
	for _, tc := range []struct {
		doc    string
		want   rational.Input
		ok     bool
		reason string
	}{
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
	} {
		if tc.reason == "" {
			t.Fatalf("row %q has no reason", tc.doc)
		}
		got, ok := decodeInput([]byte(tc.doc))
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: decodeInput(%q) = %+v, %v; want %+v, %v", tc.reason, tc.doc, got, ok, tc.want, tc.ok)
		}
	}
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
	if ran*10 < len(cases)*8 {
		t.Errorf("only %d of %d cases run through the typed API", ran, len(cases))
	}
}
