package mcpserver

import (
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/schema"
)

// toolsList returns the tools/list result: one tool per tool id, its
// newest version (older ones are called as "ID@VERSION" and not listed:
// '@' is not in the characters MCP recommends for tool names).
//
// Each tool has the descriptor's id as its name, a title made from it, the
// descriptor's input_schema and output_schema exactly, the annotations of
// a read-only, idempotent, closed-world tool, a description (see
// [Description]) and _meta with the descriptor's version, limits and
// examples under "claimcheck/version", "claimcheck/limits" and
// "claimcheck/examples".
func toolsList(maxDoc int64) []byte {
	out := []byte(`{"tools":[`)
	seen := map[string]bool{}
	for _, t := range schema.Tools() {
		if seen[t.ID] {
			continue
		}
		seen[t.ID] = true
		t, _ = schema.Lookup(t.ID, "") // the newest version
		if len(seen) > 1 {
			out = append(out, ',')
		}
		out = append(out, `{"name":`...)
		out = jsonwire.AppendString(out, t.ID)
		out = append(out, `,"title":`...)
		out = jsonwire.AppendString(out, title(t.ID))
		out = append(out, `,"description":`...)
		out = jsonwire.AppendString(out, Description(t, maxDoc))
		out = append(out, `,"inputSchema":`...)
		out = append(out, t.InputSchema...)
		out = append(out, `,"outputSchema":`...)
		out = append(out, t.OutputSchema...)
		out = append(out, `,"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}`...)
		out = append(out, `,"_meta":{"claimcheck/version":`...)
		out = jsonwire.AppendString(out, t.Version)
		out = append(out, `,"claimcheck/limits":{`...)
		for i, l := range t.Limits {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsonwire.AppendString(out, l.Name)
			out = append(out, ':')
			out = strconv.AppendInt(out, int64(l.Value), 10)
		}
		out = append(out, `,"max_document_bytes":`...)
		out = strconv.AppendInt(out, maxDoc, 10)
		out = append(out, `},"claimcheck/examples":[`...)
		for i, ex := range t.Examples {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, `{"arguments":`...)
			out = append(out, ex.Input...)
			out = append(out, `,"structuredContent":`...)
			out = append(out, ex.Output...)
			out = append(out, '}')
		}
		out = append(out, "]}}"...)
	}
	return append(out, "]}"...)
}

// title turns "multiset-equality-check" into "Multiset equality check".
func title(id string) string {
	s := strings.ReplaceAll(id, "-", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Description returns the MCP description of t, for a model to call it
// right the first time: the descriptor's description, how arguments and
// answers map to the tool's documents, its semantics, what it does and
// does not do, its limits (with maxDoc, the server's document cap), how
// errors come back, its version and how to call another, and its
// examples as arguments → structuredContent.
func Description(t *schema.Tool, maxDoc int64) string {
	var b strings.Builder
	b.WriteString(t.Description)
	b.WriteString("\n\nThe arguments are the input document (inputSchema), read strictly: " +
		"no unknown or repeated members, exact JSON types. The answer's structuredContent " +
		"(also its text) is the output document (outputSchema): \"valid\" is the verdict and, " +
		"when false, the other members say where the claim first goes wrong.\n\nSemantics:\n")
	for _, s := range t.Semantics {
		b.WriteString("- ")
		b.WriteString(s)
		b.WriteByte('\n')
	}
	if len(t.SupportedOperations) > 0 {
		b.WriteString("\nUse it to: " + strings.Join(t.SupportedOperations, "; ") + ".\n")
	}
	if len(t.UnsupportedOperations) > 0 {
		b.WriteString("Not supported: " + strings.Join(t.UnsupportedOperations, "; ") + ".\n")
	}
	b.WriteString("\nLimits: ")
	for _, l := range t.Limits {
		b.WriteString(l.Name + " " + strconv.Itoa(l.Value) + ", ")
	}
	b.WriteString("max_document_bytes " + strconv.FormatInt(maxDoc, 10) + " (the arguments' bytes). " +
		"Beyond a limit the answer is limit_exceeded.\n\n" +
		"A document the tool refuses is a tool error (isError true) whose text is an error document, " +
		`{"error":{"code":"invalid_input" or "limit_exceeded","path":JSON Pointer to the value,` +
		`"position":code point offset (expressions only),"limit":name (limit_exceeded only),"message":the rule broken}}: ` +
		"fix the value at path and call again.\n\n" +
		"Version " + t.Version + `; the name "` + t.ID + `@VERSION" calls a given version.` + "\n\n" +
		"Examples (arguments → structuredContent):\n")
	for _, ex := range t.Examples {
		b.Write(ex.Input)
		b.WriteString(" → ")
		b.Write(ex.Output)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}
