package mcpserver

import (
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/schema"
)

// toolsList returns the tools/list result: one tool per tool id, its
// newest version, named by the id alone. Older versions are not listed,
// and no name is advertised but the listed ones: an id uses only
// letters, digits and '-', which every host accepts in a tool name
// (^[a-zA-Z0-9_-]{1,64}$), where '@' is outside MCP's tool-name characters.
//
// Each tool has the descriptor's id as its name, a title made from it, the
// descriptor's input_schema and output_schema as the listing gives them
// (portable and annotated; see listingSchema), the annotations of a
// read-only, idempotent, closed-world tool, a description (see
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
		in, unusedIn := listingSchema(t.ID, "in", t.InputSchema)
		outSchema, unusedOut := listingSchema(t.ID, "out", t.OutputSchema)
		if len(unusedIn)+len(unusedOut) > 0 {
			panic("mcpserver: schema notes of " + t.ID + " without a place: " + strings.Join(append(unusedIn, unusedOut...), ", "))
		}
		out = append(out, `{"name":`...)
		out = jsonwire.AppendString(out, t.ID)
		out = append(out, `,"title":`...)
		out = jsonwire.AppendString(out, title(t.ID))
		out = append(out, `,"description":`...)
		out = jsonwire.AppendString(out, Description(t, maxDoc))
		out = append(out, `,"inputSchema":`...)
		out = append(out, in...)
		out = append(out, `,"outputSchema":`...)
		out = append(out, outSchema...)
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

// MaxDescription is the most bytes of a tool's [Description]: a model
// reads every listed description before it calls anything, so each says
// what the tool decides and where its full rules are, and no more.
const MaxDescription = 600

// Description returns the MCP description of t, at most [MaxDescription]
// bytes for every tool this module serves, whatever maxDoc: the
// descriptor's description; that the arguments are the input
// document and structuredContent the output document; how a refused
// document comes back (a tool error with an error document: fix the value
// at its path); the tool's limits, with maxDoc, the server's cap on the
// arguments' bytes; and where the full semantics and examples are: the
// CLI's "claimcheck help ID" and the descriptors (GET /v1/tools of
// "claimcheck serve"), which hold the same rules. The examples are in the
// listing's _meta.
func Description(t *schema.Tool, maxDoc int64) string {
	var b strings.Builder
	b.WriteString(t.Description)
	b.WriteString(" Arguments: the input document. structuredContent: the output document (valid: the verdict; " +
		"the rest: where the claim first fails). A refused document gets isError and an error document " +
		"(code, path, message): fix the value at path. Limits: ")
	for _, l := range t.Limits {
		b.WriteString(l.Name + " " + strconv.Itoa(l.Value) + ", ")
	}
	b.WriteString("max_document_bytes " + strconv.FormatInt(maxDoc, 10) + ". Full rules: claimcheck help " + t.ID +
		" or GET /v1/tools.")
	return b.String()
}
