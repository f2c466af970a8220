package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/schema"
)

const helpSynopsis = "claimcheck help [COMMAND | TOOL_ID]"

func helpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, helpSynopsis)
	if !ok {
		return code
	}
	switch len(pos) {
	case 0:
		printUsage(stdout)
		return exitOK
	case 1:
	default:
		fmt.Fprintf(stderr, "claimcheck: help takes at most one COMMAND or TOOL_ID\nUsage: %s\n", helpSynopsis)
		return exitUsage
	}
	if c := lookupCommand(pos[0]); c != nil {
		return c.run([]string{"-h"}, stdin, stdout, stderr)
	}
	if id, version, err := parseToolID(pos[0]); err == nil {
		if t, err := schema.Lookup(id, version); err == nil {
			return write(stdout, stderr, []byte(toolHelp(t)))
		}
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	fmt.Fprintf(stderr, "claimcheck: no command or tool %q; the commands are %s; the tools are %s\n",
		pos[0], strings.Join(names, ", "), toolList())
	return exitUsage
}

// toolHelp is what "help TOOL_ID" prints: the tool's description, its
// input document (the descriptor's input_schema, as an outline), semantics,
// limits, and its examples as shell commands with the output document each
// prints.
func toolHelp(t *schema.Tool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%s\n\n", t.ID, t.Version)
	wrap(&b, t.Description, "  ", "  ")
	b.WriteString("\nInput document:\n")
	line, members := describeSchema(t.InputSchema)
	b.WriteString("  " + line + "\n")
	writeMembers(&b, members, "    ")
	if len(t.Semantics) > 0 {
		b.WriteString("\nSemantics:\n")
		for _, s := range t.Semantics {
			wrap(&b, s, "  - ", "    ")
		}
	}
	if len(t.Limits) > 0 {
		b.WriteString("\nLimits:\n")
		for _, l := range t.Limits {
			fmt.Fprintf(&b, "  %s %d\n", l.Name, l.Value)
		}
	}
	if len(t.Examples) > 0 {
		name := t.ID
		if newest, err := schema.Lookup(t.ID, ""); err != nil || newest.Version != t.Version {
			name += "@" + t.Version
		}
		b.WriteString("\nExamples:\n")
		for i, ex := range t.Examples {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "  $ %s | claimcheck run %s\n  %s\n", echo(ex.Input), name, ex.Output)
		}
	}
	fmt.Fprintf(&b, "\nThe whole descriptor, with the output schema: claimcheck tools\n")
	return b.String()
}

// echo is a POSIX shell command that prints doc and a newline: echo with
// doc single-quoted, or printf where echo could read a backslash as an
// escape (dash's does).
func echo(doc []byte) string {
	q := "'" + strings.ReplaceAll(string(doc), "'", `'\''`) + "'"
	if bytes.IndexByte(doc, '\\') >= 0 {
		return `printf '%s\n' ` + q
	}
	return "echo " + q
}

// wrap writes the words of s in lines of at most 76 columns (a longer word
// gets a line of its own), the first line after first, the others after
// rest.
func wrap(b *strings.Builder, s, first, rest string) {
	col := 0
	for i, w := range strings.Fields(s) {
		switch {
		case i == 0:
			b.WriteString(first)
			col = len(first)
		case col+1+len(w) > 76:
			b.WriteString("\n" + rest)
			col = len(rest)
		default:
			b.WriteString(" ")
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	b.WriteString("\n")
}

// A member is one property of an object schema.
type member struct {
	name     string
	required bool
	schema   json.RawMessage // nil: required but not described
}

// writeMembers writes one line per member, names in a column, each
// followed by its members' lines, further indented.
func writeMembers(b *strings.Builder, members []member, indent string) {
	width := 0
	for _, m := range members {
		width = max(width, len(m.name))
	}
	for _, m := range members {
		req := "optional"
		if m.required {
			req = "required"
		}
		line, sub := "any value", []member(nil)
		if m.schema != nil {
			line, sub = describeSchema(m.schema)
		}
		fmt.Fprintf(b, "%s%-*s  %s  %s\n", indent, width, m.name, req, line)
		writeMembers(b, sub, indent+"  ")
	}
}

// describeSchema describes the values a JSON Schema accepts in one line,
// and returns the members they have when they are objects (the schema's
// properties, or its items'), to be listed under it. It knows the keywords
// the descriptors use; any other keyword is shown as it is written, so
// nothing the schema requires goes unsaid. A schema that is not an object
// is shown as its JSON text.
func describeSchema(s json.RawMessage) (string, []member) {
	kws, ok := objectMembers(s)
	if !ok {
		return string(s), nil
	}
	kw := map[string]json.RawMessage{}
	for _, m := range kws {
		kw[m.name] = m.schema
	}
	var parts []string
	var members []member
	known := map[string]bool{}
	// use marks a keyword as shown and returns its value.
	use := func(name string) (json.RawMessage, bool) {
		v, ok := kw[name]
		known[name] = true
		return v, ok
	}
	if v, ok := use("type"); ok {
		parts = append(parts, typeText(v))
	}
	count := func(name, format string) {
		if v, ok := use(name); ok {
			n, err := strconv.Atoi(string(v))
			if err != nil {
				known[name] = false
				return
			}
			noun := "s"
			if n == 1 {
				noun = ""
			}
			parts = append(parts, fmt.Sprintf(format, n, noun))
		}
	}
	count("minItems", "at least %d item%s")
	count("maxItems", "at most %d item%s")
	count("minLength", "at least %d character%s")
	count("maxLength", "at most %d character%s")
	if v, ok := use("pattern"); ok {
		var p string
		if json.Unmarshal(v, &p) == nil {
			parts = append(parts, "matching "+p)
		} else {
			known["pattern"] = false
		}
	}
	if v, ok := use("items"); ok {
		line, sub := describeSchema(v)
		parts = append(parts, "each "+line)
		members = sub
	}
	if v, ok := use("additionalProperties"); ok {
		if string(v) == "false" {
			parts = append(parts, "no other members")
		} else {
			known["additionalProperties"] = false
		}
	}
	props, hasProps := use("properties")
	reqRaw, hasReq := use("required")
	var required []string
	if hasReq && json.Unmarshal(reqRaw, &required) != nil {
		known["required"], required = false, nil
	}
	isRequired := map[string]bool{}
	for _, r := range required {
		isRequired[r] = true
	}
	described := map[string]bool{}
	if hasProps {
		ps, ok := objectMembers(props)
		if !ok {
			known["properties"] = false
		}
		for _, p := range ps {
			p.required = isRequired[p.name]
			described[p.name] = true
			members = append(members, p)
		}
	}
	// Required names without a schema are listed too, in their order.
	for _, r := range required {
		if !described[r] {
			described[r] = true
			members = append(members, member{name: r, required: true})
		}
	}
	for _, m := range kws {
		if !known[m.name] {
			parts = append(parts, m.name+" "+string(m.schema))
		}
	}
	if len(parts) == 0 {
		return "any value", members
	}
	return strings.Join(parts, ", "), members
}

// typeText reads the type keyword: "string", or ["string","null"] as
// "string or null".
func typeText(v json.RawMessage) string {
	var one string
	if json.Unmarshal(v, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(v, &many) != nil || len(many) == 0 {
		return "type " + string(v)
	}
	if len(many) == 1 {
		return many[0]
	}
	return strings.Join(many[:len(many)-1], ", ") + " or " + many[len(many)-1]
}

// objectMembers returns the members of the JSON object text raw in
// document order (a map would lose it); ok is false when raw is not an
// object.
func objectMembers(raw json.RawMessage) (ms []member, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		ms = append(ms, member{name: tok.(string), schema: v})
	}
	return ms, true
}
