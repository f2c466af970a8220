package main

import (
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/jsonl"
	"github.com/claimcheck/claimcheck/schema"
)

// outcome is the kind of document an input got, from best to worst: the
// exit code of a run or batch is that of its worst outcome (exitCode).
type outcome = jsonl.Outcome

const (
	gotValid    = jsonl.Valid    // an output document with "valid":true
	gotInvalid  = jsonl.Invalid  // an output document with "valid":false
	gotError    = jsonl.Error    // an error document of the contract
	gotInternal = jsonl.Internal // the tool panicked: an internal_error document
)

// exitCode is the exit code of a run whose worst outcome is o; with
// invalidExit, a false verdict exits 4 instead of 0.
func exitCode(o outcome, invalidExit bool) int {
	switch o {
	case gotInvalid:
		if invalidExit {
			return exitInvalid
		}
	case gotError:
		return exitDocError
	case gotInternal:
		return exitInternal
	}
	return exitOK
}

// answer is jsonl.Answer with the tool's own Execute: the document for
// input, what it is, and a panic's report.
func answer(dst []byte, t *schema.Tool, input []byte) (out []byte, o outcome, detail, report string) {
	return jsonl.Answer(dst, t, input, nil)
}

// tooLarge is the error document of a document or line over the byte cap.
func tooLarge(what string, max int64) *claimcheck.Error { return jsonl.TooLarge(what, max) }

const runSynopsis = "claimcheck run [-exit-code] [-max-document-bytes N] TOOL_ID [FILE]"

func runCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	invalidExit := fs.Bool("exit-code", false, "exit 4 when the verdict is \"valid\":false")
	maxBytes := fs.Int64("max-document-bytes", defaultMaxBytes, "refuse a document of more `bytes` with limit_exceeded")
	t, unknown, file, code, ok := toolArgs(fs, args, stdout, stderr, runSynopsis,
		func() string { return cond(*maxBytes < 0, "-max-document-bytes must not be negative") })
	if !ok {
		return code
	}
	if t == nil {
		// A well-formed request for a tool not served is answered like the
		// JSON layer answers it, with the unknown_tool error document; the
		// input is not read. The tools that exist go to stderr, for people.
		fmt.Fprintf(stderr, "claimcheck: %s; the tools are %s\n", unknown.Message, toolList())
		return writeDoc(stdout, stderr, unknown.AppendJSON(nil), exitDocError)
	}
	r, name, closeFn, err := openInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	defer closeFn()
	// Read one byte past the cap to tell "exactly max" from "more".
	input, err := io.ReadAll(io.LimitReader(r, min(*maxBytes, math.MaxInt64-1)+1))
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: reading %s: %v\n", name, err)
		return exitUsage
	}
	if int64(len(input)) > *maxBytes {
		return writeDoc(stdout, stderr, tooLarge("the document", *maxBytes).AppendJSON(nil), exitDocError)
	}
	doc, o, _, report := answer(make([]byte, 0, 256), t, input)
	if o == gotInternal {
		fmt.Fprintf(stderr, "claimcheck: internal error checking %s: %s", name, report)
	}
	return writeDoc(stdout, stderr, doc, exitCode(o, *invalidExit))
}

// writeDoc writes doc and a newline, returning code, or exitUsage when the
// write fails.
func writeDoc(stdout, stderr io.Writer, doc []byte, code int) int {
	if _, err := stdout.Write(append(doc, '\n')); err != nil {
		fmt.Fprintf(stderr, "claimcheck: writing the answer: %v\n", err)
		return exitUsage
	}
	return code
}
