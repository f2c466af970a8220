package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
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
// its documents are executed at. json.Marshal of a Tool gives the descriptor
// document.
type Tool struct {
	ID                    string
	Version               string
	Description           string
	SupportedOperations   []string
	UnsupportedOperations []string
	Semantics             []string
	// Limits are the descriptor's limits, in its order.
	Limits []Limit
	// InputSchema and OutputSchema are JSON Schema documents.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Examples     []Example
	// ExecuteURL is the path the HTTP handler serves Execute at.
	ExecuteURL string

	raw []byte // the compact descriptor document
}

// A Limit is one named limit of a tool.
type Limit struct {
	Name  string
	Value int
}

// An Example is an input document and the output document it gives.
type Example struct {
	Input  json.RawMessage
	Output json.RawMessage
}

// MarshalJSON returns the descriptor document (a copy: the caller may keep
// or modify it).
func (t *Tool) MarshalJSON() ([]byte, error) { return bytes.Clone(t.raw), nil }

// Limit returns the value of the named limit, or 0.
func (t *Tool) Limit(name string) int {
	for _, l := range t.Limits {
		if l.Name == name {
			return l.Value
		}
	}
	return 0
}

var tools = mustLoad()

func mustLoad() []*Tool {
	var out []*Tool
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

func parseTool(data []byte) (*Tool, error) {
	var d struct {
		ID                    string          `json:"id"`
		Version               string          `json:"version"`
		Description           string          `json:"description"`
		SupportedOperations   []string        `json:"supported_operations"`
		UnsupportedOperations []string        `json:"unsupported_operations"`
		Semantics             []string        `json:"semantics"`
		Limits                json.RawMessage `json:"limits"`
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
		Semantics: d.Semantics, InputSchema: compact(d.InputSchema), OutputSchema: compact(d.OutputSchema),
		ExecuteURL: d.ExecuteURL, raw: compact(data),
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
	return t, nil
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Tools returns the served tools, in a fixed order. The Tools are shared:
// do not modify them.
func Tools() []*Tool { return append([]*Tool(nil), tools...) }

// Lookup returns the tool with the given id and version; an empty version
// means the newest. A tool or version not served is an *[claimcheck.Error]
// with code unknown_tool, the error [Execute] returns for it.
func Lookup(id, version string) (*Tool, error) {
	var best *Tool
	for _, t := range tools {
		if t.ID != id {
			continue
		}
		if t.Version == version {
			return t, nil
		}
		if version == "" && (best == nil || versionLess(best.Version, t.Version)) {
			best = t
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
