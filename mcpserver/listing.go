package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// The schemas of tools/list are the descriptor's, made portable to the
// hosts that read MCP listings (their checks, such as those of
// mcp-inspector --strict, refuse what this changes), and annotated for a
// model to read:
//
//   - a schema whose "type" is an array of types becomes an "anyOf" of
//     one schema per type, each with the keywords that apply to its type
//     ("enum" keeping the values of that type; "pattern" and "minLength"
//     for strings; "minimum" for numbers; "items" and "maxItems" for
//     arrays; "properties", "required" and "additionalProperties" for
//     objects), the annotations staying on the schema itself;
//   - every property, at every level, gets a "description", and a
//     property that accepts any value ({}) gets the type its tool gives it
//     (see schemaNotes).
//
// The values a schema admits are the same: the descriptors (GET
// /v1/tools) keep their schemas as they are.

// A note is what the listing adds to the schema at one place in a
// descriptor's schema: a description, and for an untyped schema ({}) the
// JSON of the schema it stands for (its members are merged in).
type note struct {
	desc   string
	schema string
}

// scalar is the schema of a JSON scalar: an element of the multiset tools.
const scalar = `{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"}]}`

// schemaNotes holds, for each tool id, the notes of its input and output
// schemas, keyed by "in" or "out" and the JSON Pointer of the place in the
// descriptor's schema. Every property of every served tool has one
// (TestListingPortable), and every note has its place.
var schemaNotes = map[string]map[string]note{
	"multiset-equality-check": {
		"in/properties/source":                           {desc: "The source array: JSON scalars (null, booleans, strings, finite numbers), duplicates counted."},
		"in/properties/claim":                            {desc: "The claimed array: valid when it holds each value of source exactly as many times, in any order."},
		"out/properties/valid":                           {desc: "The verdict: true when claim is source as a multiset."},
		"out/properties/reason":                          {desc: "claim_mismatch when valid is false; absent when it is true."},
		"out/properties/discrepancy":                     {desc: "Where the claim first goes wrong; absent when valid is true."},
		"out/properties/discrepancy/properties/path":     {desc: "JSON Pointer of the first value whose counts differ: /source/I, or /claim/J for a value absent from source."},
		"out/properties/discrepancy/properties/expected": {desc: "The value's count in source, a decimal string.", schema: `{"type":"string"}`},
		"out/properties/discrepancy/properties/actual":   {desc: "The value's count in claim, a decimal string.", schema: `{"type":"string"}`},
		"out/properties/reference_version":               {desc: "The terminology the verdict follows; always the same."},
	},
	"multiset-difference-check": {
		"in/properties/left":                             {desc: "The left array: JSON scalars, duplicates counted."},
		"in/properties/right":                            {desc: "The right array: JSON scalars, duplicates counted."},
		"in/properties/claim":                            {desc: "The claimed residuals of left and right."},
		"in/properties/claim/properties/left_only":       {desc: "Claimed left minus right (as bags), in the order of left."},
		"in/properties/claim/properties/right_only":      {desc: "Claimed right minus left (as bags), in the order of right."},
		"out/properties/valid":                           {desc: "The verdict: true when both residuals are exactly right."},
		"out/properties/reason":                          {desc: "claim_mismatch when valid is false; absent when it is true."},
		"out/properties/discrepancy":                     {desc: "The first index where a claimed residual differs; absent when valid is true."},
		"out/properties/discrepancy/properties/path":     {desc: "JSON Pointer of the first difference: /left_only/I or /right_only/I."},
		"out/properties/discrepancy/properties/expected": {desc: "The element due there in canonical form; null where the list has none.", schema: scalar},
		"out/properties/discrepancy/properties/actual":   {desc: "The claimed element there in canonical form; null where the claim has none.", schema: scalar},
		"out/properties/reference_version":               {desc: "The terminology the verdict follows; always the same."},
	},
	"rational-expression-check": {
		"in/properties/expression":                                    {desc: "The expression: integers, + - * / and parentheses (no decimals, powers or variables), at most 4096 bytes."},
		"in/properties/claimed_value":                                 {desc: "The claimed value: an integer or a fraction such as -7/12, compared exactly."},
		"in/properties/require_canonical":                             {desc: "When true, the claim must also be in lowest terms, without /1 or -0."},
		"out/properties/valid":                                        {desc: "The verdict: true when the claim equals the value (in canonical form, if required)."},
		"out/properties/reason":                                       {desc: "Why the claim is not valid; null when it is."},
		"out/properties/value":                                        {desc: "The exact value in canonical form; null after a division by zero."},
		"out/properties/first_discrepancy":                            {desc: "What is wrong; null when valid is true."},
		"out/properties/first_discrepancy/properties/field":           {desc: "The input member at fault."},
		"out/properties/first_discrepancy/properties/claimed_value":   {desc: "claimed_value as given."},
		"out/properties/first_discrepancy/properties/canonical_claim": {desc: "The claim in canonical form."},
		"out/properties/first_discrepancy/properties/actual_value":    {desc: "The exact value; null after a division by zero."},
		"out/properties/first_discrepancy/properties/difference":      {desc: "value minus claim, exact; null unless the values differ."},
		"out/properties/first_discrepancy/properties/position":        {desc: "Code point offset of the zero divisor; null otherwise."},
		"out/properties/first_discrepancy/properties/divisor_text":    {desc: "Source text of the zero divisor; null otherwise."},
		"out/properties/reference_version":                            {desc: "The terminology the verdict follows; always the same."},
	},
}

// listingSchema returns the schema of tools/list for the descriptor
// schema src of tool id, side "in" or "out": annotated with the tool's
// notes, then made portable. It returns the notes that found no place too.
func listingSchema(id, side string, src []byte) (out []byte, unused []string) {
	root := decodeOrdered(src)
	notes := schemaNotes[id]
	used := map[string]bool{}
	annotate(root, side, notes, used)
	for k := range notes {
		if strings.HasPrefix(k, side+"/") && !used[k] {
			unused = append(unused, k)
		}
	}
	return appendOrdered(nil, portable(root)), unused
}

// annotate adds to the schema s at pointer at (and to the schemas of its
// properties, items and anyOf branches) the notes of those places.
func annotate(v any, at string, notes map[string]note, used map[string]bool) {
	s, ok := v.(*object)
	if !ok {
		return
	}
	if n, ok := notes[at]; ok {
		used[at] = true
		if n.schema != "" {
			if typed := decodeOrdered([]byte(n.schema)).(*object); s.len() == 0 {
				*s = *typed
			}
		}
		// First, where a reader of the schema looks.
		s.names, s.vals = append([]string{"description"}, s.names...), append([]any{n.desc}, s.vals...)
	}
	if p, ok := s.get("properties").(*object); ok {
		for i, name := range p.names {
			annotate(p.vals[i], at+"/properties/"+name, notes, used)
		}
	}
	annotate(s.get("items"), at+"/items", notes, used)
}

// typeKeywords are the keywords that apply to a value of one type, and
// move into that type's branch of an anyOf.
var typeKeywords = map[string][]string{
	"string":  {"pattern", "minLength", "maxLength", "format"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"array":   {"items", "minItems", "maxItems", "uniqueItems"},
	"object":  {"properties", "required", "additionalProperties", "minProperties", "maxProperties"},
}

// portable returns v with every "type" array replaced (see the comment at
// the top of this file), in place.
func portable(v any) any {
	switch v := v.(type) {
	case []any:
		for i := range v {
			v[i] = portable(v[i])
		}
	case *object:
		for i := range v.vals {
			v.vals[i] = portable(v.vals[i])
		}
		types, ok := v.get("type").([]any)
		if !ok {
			return v
		}
		enum, hasEnum := v.get("enum").([]any)
		moved := map[string]bool{"type": true, "enum": true}
		var branches []any
		for _, t := range types {
			t := t.(string)
			b := &object{}
			b.set("type", t)
			if hasEnum {
				var vals []any
				for _, e := range enum {
					if schemaType(e) == t || t == "number" && schemaType(e) == "integer" {
						vals = append(vals, e)
					}
				}
				if t != "null" {
					b.set("enum", vals)
				}
			}
			for _, k := range typeKeywords[t] {
				if x := v.get(k); x != nil {
					b.set(k, x)
					moved[k] = true
				}
			}
			branches = append(branches, b)
		}
		out := &object{}
		for i, name := range v.names {
			if !moved[name] {
				out.set(name, v.vals[i])
			}
		}
		out.set("anyOf", branches)
		return out
	}
	return v
}

// schemaType is the JSON Schema type of a decoded value.
func schemaType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// An object is a JSON object with its members in order.
type object struct {
	names []string
	vals  []any
}

func (o *object) len() int { return len(o.names) }

func (o *object) get(name string) any {
	for i, n := range o.names {
		if n == name {
			return o.vals[i]
		}
	}
	return nil
}

// set replaces the member name, or adds it last.
func (o *object) set(name string, v any) {
	for i, n := range o.names {
		if n == name {
			o.vals[i] = v
			return
		}
	}
	o.names, o.vals = append(o.names, name), append(o.vals, v)
}

// decodeOrdered decodes the JSON text b (a schema of this module's own,
// valid), its objects as *object.
func decodeOrdered(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var read func() any
	read = func() any {
		tok, err := d.Token()
		if err != nil {
			panic("mcpserver: a descriptor schema: " + err.Error())
		}
		switch tok {
		case json.Delim('{'):
			o := &object{}
			for d.More() {
				name, _ := d.Token()
				o.set(name.(string), read())
			}
			d.Token()
			return o
		case json.Delim('['):
			a := []any{}
			for d.More() {
				a = append(a, read())
			}
			d.Token()
			return a
		}
		return tok
	}
	return read()
}

// appendOrdered appends the JSON text of v, compact.
func appendOrdered(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if v {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case string:
		return jsonwire.AppendString(dst, v)
	case json.Number:
		return append(dst, v...)
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendOrdered(dst, x)
		}
		return append(dst, ']')
	case *object:
		dst = append(dst, '{')
		for i, name := range v.names {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendString(dst, name)
			dst = append(dst, ':')
			dst = appendOrdered(dst, v.vals[i])
		}
		return append(dst, '}')
	}
	panic("mcpserver: appendOrdered of a value that is not JSON")
}
