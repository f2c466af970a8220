package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

//go:embed descriptors/*.json
var descriptorFiles embed.FS

// Tool ids.
const (
	MultisetEquality   = "multiset-equality-check"
	MultisetDifference = "multiset-difference-check"
	RationalExpression = "rational-expression-check"
)

// A Tool is one tool descriptor: what the tool is, its limits, the JSON
// Schemas of its input and output documents, worked examples, and the URL path
// its documents are executed at. Each field is a member of the descriptor
// document, and json.Marshal of a Tool or a *Tool gives that document.
//
// A Tool from [Tools] or [Lookup] is the caller's own copy: changing it
// changes neither the served descriptor nor what any Execute enforces.
type Tool struct {
	// ID names the tool (member id), such as [MultisetEquality].
	ID string
	// Version is the tool's version (member version), such as "1.0.0".
	Version string
	// Description says in one sentence what the tool checks.
	Description string
	// SupportedOperations and UnsupportedOperations are short phrases of
	// what the tool does and does not do, for catalogues and agents.
	SupportedOperations   []string
	UnsupportedOperations []string
	// Semantics are the tool's rules in sentences: equality, order of
	// checks, what a discrepancy holds.
	Semantics []string
	// Limits are the descriptor's limits, in its order. Execute enforces
	// the served descriptor's, whatever a copy holds.
	Limits []Limit
	// Pricing is the descriptor's pricing object, as written.
	Pricing json.RawMessage
	// InputSchema and OutputSchema are JSON Schema documents (draft
	// 2020-12) of the tool's input and output documents.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Examples are worked examples: an input document and its output.
	Examples []Example
	// ExecuteURL is the path the HTTP handler serves Execute at, relative
	// to where the handler is mounted.
	ExecuteURL string

	served *served // the served tool this is a copy of; nil for a Tool made by hand
}

// served is one served tool: the pristine descriptor and what Execute needs.
type served struct {
	tool Tool   // never handed out: callers get copies
	raw  []byte // the compact descriptor document
	bag  multiset.Limits
	rat  rational.Limits
}

// A Limit is one named limit of a tool.
type Limit struct {
	// Name is the limit's key, such as max_items: the Limit of a
	// limit_exceeded error.
	Name string
	// Value is the largest value allowed.
	Value int
}

// An Example is an input document and the output document it gives.
type Example struct {
	// Input is an input document, compact.
	Input json.RawMessage
	// Output is the output document Execute gives for Input, compact.
	Output json.RawMessage
}

// MarshalJSON returns the descriptor document written from t's fields:
// compact, members in the descriptor's order (id, version, description,
// supported_operations, unsupported_operations, semantics, limits, pricing,
// input_schema, output_schema, examples, execute_url). For an unchanged copy
// of a served tool these are the served document's bytes.
func (t Tool) MarshalJSON() ([]byte, error) {
	if t.served != nil && t.equal(&t.served.tool) {
		return bytes.Clone(t.served.raw), nil
	}
	return t.appendJSON(nil)
}

// Limit returns the value of the named limit, or 0.
func (t *Tool) Limit(name string) int {
	for _, l := range t.Limits {
		if l.Name == name {
			return l.Value
		}
	}
	return 0
}

// clone returns a copy of t that shares no memory with it.
func (t *Tool) clone() *Tool {
	c := *t
	c.SupportedOperations = slices.Clone(t.SupportedOperations)
	c.UnsupportedOperations = slices.Clone(t.UnsupportedOperations)
	c.Semantics = slices.Clone(t.Semantics)
	c.Limits = slices.Clone(t.Limits)
	c.Pricing = bytes.Clone(t.Pricing)
	c.InputSchema = bytes.Clone(t.InputSchema)
	c.OutputSchema = bytes.Clone(t.OutputSchema)
	c.Examples = make([]Example, len(t.Examples))
	for i, e := range t.Examples {
		c.Examples[i] = Example{Input: bytes.Clone(e.Input), Output: bytes.Clone(e.Output)}
	}
	return &c
}

func (t *Tool) equal(u *Tool) bool {
	return t.ID == u.ID && t.Version == u.Version && t.Description == u.Description &&
		slices.Equal(t.SupportedOperations, u.SupportedOperations) &&
		slices.Equal(t.UnsupportedOperations, u.UnsupportedOperations) &&
		slices.Equal(t.Semantics, u.Semantics) && slices.Equal(t.Limits, u.Limits) &&
		bytes.Equal(t.Pricing, u.Pricing) && bytes.Equal(t.InputSchema, u.InputSchema) &&
		bytes.Equal(t.OutputSchema, u.OutputSchema) && t.ExecuteURL == u.ExecuteURL &&
		slices.EqualFunc(t.Examples, u.Examples, func(a, b Example) bool {
			return bytes.Equal(a.Input, b.Input) && bytes.Equal(a.Output, b.Output)
		})
}

// appendJSON writes the descriptor document from t's fields. Raw members
// are compacted; one that is not JSON is an error.
func (t *Tool) appendJSON(dst []byte) ([]byte, error) {
	str := func(name, v string) {
		dst = append(dst, name...)
		dst = jsonwire.AppendString(dst, v)
	}
	list := func(name string, vs []string) {
		dst = append(dst, name...)
		dst = append(dst, '[')
		for i, v := range vs {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendString(dst, v)
		}
		dst = append(dst, ']')
	}
	var bad error
	raw := func(name string, v json.RawMessage) {
		dst = append(dst, name...)
		if len(v) == 0 {
			dst = append(dst, "null"...)
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, v); err != nil && bad == nil {
			bad = fmt.Errorf("schema: %s of tool %s: %w", strings.Trim(name, `,":{`), t.ID, err)
		}
		dst = append(dst, buf.Bytes()...)
	}
	str(`{"id":`, t.ID)
	str(`,"version":`, t.Version)
	str(`,"description":`, t.Description)
	list(`,"supported_operations":`, t.SupportedOperations)
	list(`,"unsupported_operations":`, t.UnsupportedOperations)
	list(`,"semantics":`, t.Semantics)
	dst = append(dst, `,"limits":{`...)
	for i, l := range t.Limits {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonwire.AppendString(dst, l.Name)
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(l.Value), 10)
	}
	dst = append(dst, '}')
	raw(`,"pricing":`, t.Pricing)
	raw(`,"input_schema":`, t.InputSchema)
	raw(`,"output_schema":`, t.OutputSchema)
	dst = append(dst, `,"examples":[`...)
	for i, e := range t.Examples {
		if i > 0 {
			dst = append(dst, ',')
		}
		raw(`{"input":`, e.Input)
		raw(`,"output":`, e.Output)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	str(`,"execute_url":`, t.ExecuteURL)
	if bad != nil {
		return nil, bad
	}
	return append(dst, '}'), nil
}

var tools = mustLoad()

func mustLoad() []*served {
	var out []*served
	for _, id := range []string{MultisetEquality, MultisetDifference, RationalExpression} {
		data, err := descriptorFiles.ReadFile("descriptors/" + id + ".json")
		if err != nil {
			panic(err)
		}
		t, err := parseTool(data)
		if err != nil {
			panic(fmt.Sprintf("schema: descriptor %s: %v", id, err))
		}
		out = append(out, t)
	}
	return out
}

// Tools returns the served tools, in a fixed order: the caller's own copies,
// which it may change without effect on anything else.
func Tools() []*Tool {
	out := make([]*Tool, len(tools))
	for i, s := range tools {
		out[i] = s.copy()
	}
	return out
}

// copy returns a copy of the served tool for a caller.
func (s *served) copy() *Tool {
	c := s.tool.clone()
	c.served = s
	return c
}

func parseTool(data []byte) (*served, error) {
	var d struct {
		ID                    string          `json:"id"`
		Version               string          `json:"version"`
		Description           string          `json:"description"`
		SupportedOperations   []string        `json:"supported_operations"`
		UnsupportedOperations []string        `json:"unsupported_operations"`
		Semantics             []string        `json:"semantics"`
		Limits                json.RawMessage `json:"limits"`
		Pricing               json.RawMessage `json:"pricing"`
		InputSchema           json.RawMessage `json:"input_schema"`
		OutputSchema          json.RawMessage `json:"output_schema"`
		Examples              []struct {
			Input  json.RawMessage `json:"input"`
			Output json.RawMessage `json:"output"`
		} `json:"examples"`
		ExecuteURL string `json:"execute_url"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	t := &Tool{
		ID: d.ID, Version: d.Version, Description: d.Description,
		SupportedOperations: d.SupportedOperations, UnsupportedOperations: d.UnsupportedOperations,
		Semantics: d.Semantics, Pricing: compact(d.Pricing), InputSchema: compact(d.InputSchema), OutputSchema: compact(d.OutputSchema),
		ExecuteURL: d.ExecuteURL,
	}
	// Limits keep the descriptor's member order.
	dec := json.NewDecoder(bytes.NewReader(d.Limits))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v int
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		t.Limits = append(t.Limits, Limit{Name: name.(string), Value: v})
	}
	for _, e := range d.Examples {
		t.Examples = append(t.Examples, Example{Input: compact(e.Input), Output: compact(e.Output)})
	}
	s := &served{tool: *t, raw: compact(data)}
	s.bag = multiset.Limits{MaxItems: t.Limit("max_items"), MaxDistinct: t.Limit("max_distinct")}
	s.rat = rational.Limits{
		MaxExpressionBytes: t.Limit("max_expression_bytes"),
		MaxTokens:          t.Limit("max_tokens"),
		MaxDepth:           t.Limit("max_depth"),
		MaxValueDigits:     t.Limit("max_value_digits"),
	}
	// The document written from the fields is the file's, compacted: the
	// Tool holds every member, so MarshalJSON of a changed copy loses none.
	if w, err := t.appendJSON(nil); err != nil || !bytes.Equal(w, s.raw) {
		return nil, fmt.Errorf("the fields do not write the document back (%v)", err)
	}
	return s, nil
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Lookup returns the tool with the given id and version; an empty version
// means the newest. A tool or version not served is an *[claimcheck.Error]
// with code unknown_tool, the error [Execute] returns for it.
//
// The Tool is the caller's own copy, as from [Tools].
func Lookup(id, version string) (*Tool, error) {
	s, err := lookup(id, version)
	if err != nil {
		return nil, err
	}
	return s.copy(), nil
}

func lookup(id, version string) (*served, error) {
	var best *served
	for _, s := range tools {
		t := &s.tool
		if t.ID != id {
			continue
		}
		if t.Version == version {
			return s, nil
		}
		if version == "" && (best == nil || versionLess(best.tool.Version, t.Version)) {
			best = s
		}
	}
	if best == nil {
		name := id
		if version != "" {
			name += "@" + version
		}
		return nil, errs.Coded(claimcheck.UnknownTool, "no tool "+name)
	}
	return best, nil
}

// versionLess compares dotted numeric versions.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if len(as[i]) != len(bs[i]) {
			return len(as[i]) < len(bs[i])
		}
		if as[i] != bs[i] {
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}
