package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/schema"
)

// Exit codes of every command.
const (
	exitOK       = 0 // an output document (run), or one for every line (batch)
	exitDocError = 1 // an error document was written (run, batch)
	exitUsage    = 2 // usage or I/O error; a message is on stderr, no document
	exitInternal = 3 // a tool panicked (a bug); internal_error document, stack on stderr
)

const defaultMaxBytes = 64 << 20

const usage = `Usage:

  claimcheck run [-max-document-bytes N] TOOL_ID [FILE]
      Check one input document: the whole of FILE (or stdin; "-" is stdin),
      pretty-printed or not. Writes the output document or the error
      document, and a newline, to stdout.
  claimcheck batch [-j N] [-max-line-bytes N] TOOL_ID [FILE]
      Check JSON Lines: one input document per line. Writes one line per
      non-blank input line, in input order: the output document or the error
      document. Lines are checked in parallel (-j, default the number of
      CPUs). A line longer than -max-line-bytes (not counting "\n" or "\r\n")
      is answered with limit_exceeded, limit max_document_bytes.
  claimcheck serve [-addr 127.0.0.1:8080] [-max-body-bytes N] [-shutdown-timeout D]
      Serve the HTTP API (package httpapi) until SIGINT or SIGTERM. Prints
      "listening on http://ADDR" on stderr; -addr 127.0.0.1:0 picks a port.
  claimcheck tools
      Print the tool descriptors as a JSON array.
  claimcheck version
      Print the module version and the tools as id@version.
  claimcheck help
      Print this help.

TOOL_ID is a tool id, or id@version; without a version the newest is used.
Tools: %s.

Exit codes:
  0  run: an output document, whatever its verdict; batch: every line got one
  1  an error document was written (run: the document's; batch: any line's);
     run also answers an unknown tool with an unknown_tool error document
  2  usage or I/O error, message on stderr; batch treats an unknown tool as
     a usage error; serve: could not listen, serve or shut down
  3  internal error (a bug): a tool panicked; its document is an
     internal_error error document and the panic is on stderr
`

func printUsage(w io.Writer) {
	var ids []string
	for _, t := range schema.Tools() {
		ids = append(ids, t.ID+"@"+t.Version)
	}
	fmt.Fprintf(w, usage, strings.Join(ids, ", "))
}

// cli runs the command line args (without the program name) and returns
// the exit code.
func cli(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return runCmd(rest, stdin, stdout, stderr)
	case "batch":
		return batchCmd(rest, stdin, stdout, stderr)
	case "serve":
		return serveCmd(rest, stderr)
	case "mcp":
		return mcpCmd(rest, stdin, stdout, stderr)
	case "openapi":
		return openapiCmd(rest, stdout, stderr)
	case "tools":
		return toolsCmd(rest, stdout, stderr)
	case "version":
		return versionCmd(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "claimcheck: unknown command %q; run \"claimcheck help\"\n", cmd)
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
			fmt.Fprintf(stdout, "Usage: %s\n\nFlags:\n", synopsis)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
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

func toolsCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, "claimcheck tools")
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
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, "claimcheck version")
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "claimcheck: version takes no arguments")
		return exitUsage
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claimcheck %s\n", moduleVersion())
	for _, t := range schema.Tools() {
		fmt.Fprintf(&b, "%s@%s\n", t.ID, t.Version)
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// moduleVersion is the main module's version from the build info, or
// "(devel)" when there is none (go run, a test binary, a build without
// module information).
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
