package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// hostToolName is the tool name every host accepts (MCP's own characters
// are these and '.'; many hosts refuse anything else).
var hostToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

type listedTool struct {
	Name, Description         string
	InputSchema, OutputSchema json.RawMessage
}

// listTools returns the tools of s's tools/list.
func listTools(t *testing.T, s *mcpserver.Server) []listedTool {
	t.Helper()
	res := s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	var r struct{ Result struct{ Tools []listedTool } }
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	return r.Result.Tools
}

// TestListingShort: what a model reads first is short, names only names a
// host accepts, and advertises no name that is not listed.
func TestListingShort(t *testing.T) {
	testutil.Run(t, []struct {
		reason string
		maxDoc int64
	}{
		{"the default cap", 0},
		{"the largest cap: the longest limits line", math.MaxInt64},
	}, func(t *testing.T, tc struct {
		reason string
		maxDoc int64
	}) {
		s := mcpserver.New(mcpserver.Options{MaxDocumentBytes: tc.maxDoc})
		tools := listTools(t, s)
		names := map[string]bool{}
		for _, mt := range tools {
			names[mt.Name] = true
		}
		for _, mt := range tools {
			if !hostToolName.MatchString(mt.Name) {
				t.Errorf("tool name %q is not ^[a-zA-Z0-9_-]{1,64}$", mt.Name)
			}
			if len(mt.Description) > mcpserver.MaxDescription {
				t.Errorf("%s: description of %d bytes, over %d", mt.Name, len(mt.Description), mcpserver.MaxDescription)
			}
			if !strings.Contains(mt.Description, "claimcheck help "+mt.Name) {
				t.Errorf("%s: the description does not say where the full rules are", mt.Name)
			}
		}
		// Every text a model reads: no name it is told to call is unlisted.
		texts := []string{}
		for _, m := range []string{`"initialize","params":{"protocolVersion":"2025-11-25"}`,
			`"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`} {
			texts = append(texts, string(s.Answer(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":`+m+`}`))))
		}
		for _, mt := range tools {
			texts = append(texts, mt.Description)
		}
		for _, text := range texts {
			if strings.Contains(text, "@VERSION") {
				t.Errorf("advertises ID@VERSION, which tools/list does not list: %.200s", text)
			}
			for _, tool := range schema.Tools() {
				if strings.Contains(text, tool.ID+"@") && !names[tool.ID+"@"+tool.Version] {
					t.Errorf("advertises %s@…, not listed", tool.ID)
				}
			}
		}
	})
}

// TestListingPortable: the listing's schemas pass the portability checks
// of hosts (mcp-inspector --strict's among them): no "type" arrays
// anywhere, and every property, at every level, typed and described.
func TestListingPortable(t *testing.T) {
	for _, mt := range listTools(t, mcpserver.New(mcpserver.Options{})) {
		for side, raw := range map[string]json.RawMessage{"inputSchema": mt.InputSchema, "outputSchema": mt.OutputSchema} {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			for _, p := range portabilityProblems(v, "") {
				t.Errorf("%s %s: %s", mt.Name, side, p)
			}
		}
	}
}

// portabilityProblems returns every problem of schema v at JSON Pointer at.
func portabilityProblems(v any, at string) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			out = append(out, portabilityProblems(x, fmt.Sprintf("%s/%d", at, i))...)
		}
	case map[string]any:
		if _, ok := v["type"].([]any); ok {
			out = append(out, at+": a type array")
		}
		if props, ok := v["properties"].(map[string]any); ok {
			for name, p := range props {
				p, _ := p.(map[string]any)
				where := at + "/properties/" + name
				if d, _ := p["description"].(string); d == "" {
					out = append(out, where+": no description")
				}
				if !typed(p) {
					out = append(out, where+": untyped")
				}
			}
		}
		for k, x := range v {
			out = append(out, portabilityProblems(x, at+"/"+k)...)
		}
	}
	slices.Sort(out)
	return out
}

// typed reports whether schema s has one type: "type" a string, or an
// "anyOf" each of whose branches has one.
func typed(s map[string]any) bool {
	if _, ok := s["type"].(string); ok {
		return true
	}
	branches, ok := s["anyOf"].([]any)
	if !ok || len(branches) == 0 {
		return false
	}
	for _, b := range branches {
		if b, _ := b.(map[string]any); !typed(b) {
			return false
		}
	}
	return true
}

// TestListingAdmitsTheDescriptors: the listing's schemas, their anyOf
// folded back into type arrays and their descriptions dropped, are the
// descriptor's (the wire contract): the listing admits the same values.
// Only a schema the descriptor leaves open ({}) may be narrowed.
func TestListingAdmitsTheDescriptors(t *testing.T) {
	for i, mt := range listTools(t, mcpserver.New(mcpserver.Options{})) {
		tool := schema.Tools()[i]
		for _, pair := range [][2]json.RawMessage{{mt.InputSchema, tool.InputSchema}, {mt.OutputSchema, tool.OutputSchema}} {
			var listed, desc any
			if json.Unmarshal(pair[0], &listed) != nil || json.Unmarshal(pair[1], &desc) != nil {
				t.Fatal("not JSON")
			}
			if got := fold(listed, desc); !reflect.DeepEqual(got, normal(desc)) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(normal(desc))
				t.Errorf("%s: the listing folds back to\n%s\nnot the descriptor's\n%s", mt.Name, g, w)
			}
		}
	}
}

// fold undoes the listing's changes to a schema: descriptions dropped, an
// anyOf of typed branches merged back into one schema with a type array
// (type names and enum values sorted, as normal does); where the
// descriptor's schema d is {}, v stands for {}.
func fold(v, d any) any {
	switch v := v.(type) {
	case []any:
		da, _ := d.([]any)
		out := []any{}
		for i, x := range v {
			var dx any
			if i < len(da) {
				dx = da[i]
			}
			out = append(out, fold(x, dx))
		}
		return out
	case map[string]any:
		dm, _ := d.(map[string]any)
		if dm != nil && len(dm) == 0 {
			return map[string]any{}
		}
		out := map[string]any{}
		for k, x := range v {
			if k != "description" && k != "anyOf" {
				out[k] = fold(x, dm[k])
			}
		}
		if branches, ok := v["anyOf"].([]any); ok && dm["anyOf"] == nil {
			var types, enum []any
			hasEnum := false
			for _, b := range branches {
				b := b.(map[string]any)
				types = append(types, b["type"])
				if e, ok := b["enum"].([]any); ok {
					hasEnum = true
					enum = append(enum, e...)
				}
				for k, x := range b {
					if k != "type" && k != "enum" {
						out[k] = fold(x, dm[k])
					}
				}
			}
			if hasEnum && slices.Contains(types, any("null")) {
				enum = append(enum, nil)
			}
			if hasEnum {
				out["enum"] = enum
			}
			if len(types) == 1 {
				out["type"] = types[0]
			} else {
				out["type"] = types
			}
		}
		return normal(out)
	}
	return v
}

// normal sorts the type arrays and enums of a schema, whose order means
// nothing.
func normal(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normal(x)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = normal(x)
			if a, ok := x.([]any); ok && (k == "type" || k == "enum") {
				s := slices.Clone(a)
				slices.SortFunc(s, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
				out[k] = s
			}
		}
		return out
	}
	return v
}
