package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// Exit codes of every command. When several apply, the first of exitUsage,
// exitInternal, exitDocError and exitInvalid in that order is returned
// (exitPrecedence): the code says the worst thing that happened, and an
// input that got no verdict (1) is worse than a verdict of false (4).
//
// exitCodes is the one statement of what each means: the usage text is
// made from it, and a test keeps the README's table equal to it.
const (
	exitOK       = 0
	exitDocError = 1
	exitUsage    = 2
	exitInternal = 3
	exitInvalid  = 4
)

var exitPrecedence = []int{exitUsage, exitInternal, exitDocError, exitInvalid}

var exitCodes = []struct {
	code int
	text string
}{
	{exitOK, `every input got an output document, whatever its verdict (with -exit-code: and every verdict is "valid":true)`},
	{exitDocError, `an error document was written (run: the document's; batch: any line's); run answers an unknown tool with an unknown_tool error document and lists the tools on stderr`},
	{exitUsage, `usage or I/O error, message on stderr; batch treats an unknown tool as one; serve: could not listen, serve or shut down`},
	{exitInternal, `internal error (a bug): a tool panicked; its document is an internal_error error document and the panic is on stderr`},
	{exitInvalid, `run -exit-code, batch -exit-code: every input got an output document and some verdict is "valid":false`},
}

// exitCodesText is the usage text's list of exit codes.
func exitCodesText() string {
	var b strings.Builder
	b.WriteString("\nExit codes (when several apply, the first of")
	for i, c := range exitPrecedence {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", c)
	}
	b.WriteString(" is returned):\n")
	for _, c := range exitCodes {
		wrap(&b, c.text, fmt.Sprintf("  %d  ", c.code), "     ")
	}
	return b.String()
}

const defaultMaxBytes = httpjson.DefaultMaxDocumentBytes

// A command is one word of the command line. To add one, add a row to
// commands: usage and "help COMMAND" follow.
type command struct {
	name     string
	synopsis string // one line: the command and its flags
	doc      string // what it does, a paragraph of lines under 72 columns
	run      func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands are the commands, in the order usage lists them. (Set by init:
// help reads the table.)
var commands []command

func init() {
	commands = []command{
		{"run", runSynopsis, `Check one input document: the whole of FILE (or stdin; "-" is stdin),
pretty-printed or not. Writes the output document or the error
document, and a newline, to stdout.`, runCmd},
		{"batch", batchSynopsis, `Check JSON Lines: one input document per line. Output line N answers
input line N, in input order: the output document or the error
document. A blank line (empty or only JSON whitespace) gets
invalid_input at path "" (it holds no JSON value); a line longer than
-max-line-bytes (not counting "\n" or "\r\n") gets limit_exceeded,
limit max_document_bytes. Lines are checked in parallel (-j, default
the number of CPUs). -summary writes to stderr, at the end, the count
of lines by verdict, by reason and by error code, each with its first
line number. When stderr is a terminal, a progress line there shows the
lines done and lines/s (and, for a regular file, the percentage read and
the time left), a few times a second at most; it is erased at the end.
Output lines are the same with or without either.`, batchCmd},
		{"serve", serveSynopsis, `Serve the HTTP API, the playground page at /, MCP at /mcp,
/openapi.json, /healthz, /readyz and /metrics until SIGINT or SIGTERM.
Prints "listening on http://ADDR" on stderr; -addr 127.0.0.1:0 picks a
port. "serve -h" lists every flag.`,
			func(args []string, _ io.Reader, _, stderr io.Writer) int { return serveCmd(args, stderr) }},
		{"mcp", mcpSynopsis, `Serve the tools over the Model Context Protocol on stdin and stdout,
for an MCP client that starts it.`, mcpCmd},
		{"openapi", openapiSynopsis, `Print the OpenAPI 3.1 document of the HTTP API.`,
			func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return openapiCmd(args, stdout, stderr)
			}},
		{"tools", toolsSynopsis, `Print the tool descriptors as a JSON array.`, toolsCmd},
		{"version", versionSynopsis, `Print the module version, the VCS revision and the Go version the
binary was built from, and the tools as id@version.`, versionCmd},
		{"help", helpSynopsis, `Print this help; with a COMMAND, its flags; with a TOOL_ID, the tool's
input document, limits and examples.`, helpCmd},
	}
}

func printUsage(w io.Writer) {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "\n  %s\n", c.synopsis)
		for line := range strings.Lines(c.doc) {
			b.WriteString("      " + line)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	writeToolIDs(&b)
	b.WriteString(exitCodesText())
	io.WriteString(w, b.String())
}

// writeToolIDs explains TOOL_ID and lists the tools.
func writeToolIDs(w io.Writer) {
	fmt.Fprintf(w, "TOOL_ID is a tool id (the newest version) or id@version:\n")
	for _, t := range schema.Tools() {
		fmt.Fprintf(w, "  %s@%s\n", t.ID, t.Version)
	}
	fmt.Fprintf(w, "\"claimcheck help TOOL_ID\" shows its input document and examples.\n")
}

// toolList is the served tools as "id@version, ...".
func toolList() string {
	var ids []string
	for _, t := range schema.Tools() {
		ids = append(ids, t.ID+"@"+t.Version)
	}
	return strings.Join(ids, ", ")
}

// lookupCommand returns the command named name, or nil.
func lookupCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// cli runs the command line args (without the program name) and returns
// the exit code.
func cli(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	}
	if c := lookupCommand(args[0]); c != nil {
		return c.run(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "claimcheck: unknown command %q; run \"claimcheck help\"\n", args[0])
	return exitUsage
}

// parseFlags parses fs over args, allowing flags after positional
// arguments ("batch TOOL -j 4"), and returns the positional ones. Everything
// after "--" is positional. ok false means return code: 0 for -h (usage
// on stdout), 2 for a bad flag (message on stderr).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, synopsis string) (pos []string, code int, ok bool) {
	fs.SetOutput(io.Discard) // errors are reported below, once
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stdout, "Usage: %s\n", synopsis)
			hasFlags := false
			fs.VisitAll(func(*flag.Flag) { hasFlags = true })
			if hasFlags {
				fmt.Fprintf(stdout, "\nFlags:\n")
				fs.SetOutput(stdout)
				fs.PrintDefaults()
			}
			if strings.Contains(synopsis, "TOOL_ID") {
				fmt.Fprintln(stdout)
				writeToolIDs(stdout)
			}
			return nil, exitOK, false
		}
		if err != nil {
			fmt.Fprintf(stderr, "claimcheck: %v\nUsage: %s\n", err, synopsis)
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseToolID splits "id" or "id@version".
func parseToolID(s string) (id, version string, err error) {
	id, version, found := strings.Cut(s, "@")
	if id == "" || found && version == "" {
		return "", "", fmt.Errorf("malformed TOOL_ID %q: want id or id@version", s)
	}
	return id, version, nil
}

// openInput returns the reader of FILE, or stdin for no FILE or "-".
// The name is for messages.
func openInput(pos []string, stdin io.Reader) (r io.Reader, name string, closeFn func(), err error) {
	if len(pos) == 0 || pos[0] == "-" {
		return stdin, "stdin", func() {}, nil
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return nil, "", nil, err
	}
	return f, pos[0], func() { f.Close() }, nil
}

// resolveTool reads TOOL_ID (id or id@version; no version means the newest).
// A malformed one is a usage error, reported on stderr: ok is false. A tool
// not served gives t == nil and the unknown_tool error, as schema.Execute
// answers it.
// A flagCheck checks a parsed flag's value: it returns why the value is
// refused, or "".
type flagCheck func() string

// toolArgs parses the command line of run or batch, fs.Name(): its flags,
// each checked by checks in order, then TOOL_ID and at most one FILE. It
// returns the tool, or nil and the unknown_tool error for one not served.
// On a usage error it writes the message and returns ok false with the
// exit code.
func toolArgs(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, synopsis string, checks ...flagCheck) (t *schema.Tool, unknown *claimcheck.Error, file []string, code int, ok bool) {
	pos, code, ok := parseFlags(fs, args, stdout, stderr, synopsis)
	if !ok {
		return nil, nil, nil, code, false
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "claimcheck: %s wants TOOL_ID and at most one FILE\nUsage: %s\n", fs.Name(), synopsis)
		return nil, nil, nil, exitUsage, false
	}
	for _, check := range checks {
		if msg := check(); msg != "" {
			fmt.Fprintln(stderr, "claimcheck: "+msg)
			return nil, nil, nil, exitUsage, false
		}
	}
	t, unknown, ok = resolveTool(pos[0], stderr)
	if !ok {
		return nil, nil, nil, exitUsage, false
	}
	return t, unknown, pos[1:], 0, true
}

func resolveTool(arg string, stderr io.Writer) (t *schema.Tool, unknown *claimcheck.Error, ok bool) {
	id, version, err := parseToolID(arg)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return nil, nil, false
	}
	t, err = schema.Lookup(id, version)
	if err != nil {
		return nil, err.(*claimcheck.Error), true
	}
	return t, nil, true
}

const toolsSynopsis = "claimcheck tools"

func toolsCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, toolsSynopsis)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "claimcheck: tools takes no arguments")
		return exitUsage
	}
	// One descriptor per line: still one JSON array, but greppable.
	b := []byte("[\n")
	for i, t := range schema.Tools() {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		d, _ := t.MarshalJSON()
		b = append(b, d...)
	}
	b = append(b, "\n]\n"...)
	return write(stdout, stderr, b)
}

// write writes b to stdout and returns exitOK, or exitUsage with a message
// when the write fails.
func write(stdout, stderr io.Writer, b []byte) int {
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// cond returns msg when bad, else "".
func cond(bad bool, msg string) string {
	if bad {
		return msg
	}
	return ""
}
