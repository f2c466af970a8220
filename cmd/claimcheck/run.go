package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime/debug"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// outcome is the kind of document an input got, from best to worst: the
// exit code of a run or batch is that of its worst outcome (exitCode).
type outcome uint8

const (
	gotValid    outcome = iota // an output document with "valid":true
	gotInvalid                 // an output document with "valid":false
	gotError                   // an error document of the contract
	gotInternal                // the tool panicked: an internal_error document
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

// answer appends the document for input (output or error document, no
// newline) to dst, and says what it is: its outcome, and the reason of an
// invalid verdict or the code of an error document (detail), as Execute
// hands them back. A panic in the tool is recovered into an internal_error
// document and described, with its stack, in report.
func answer(dst []byte, t *schema.Tool, input []byte) (out []byte, o outcome, detail, report string) {
	defer func() {
		if v := recover(); v != nil {
			e := errs.Coded(codeInternal, "internal error: the tool panicked")
			out, o, detail, report = e.AppendJSON(dst), gotInternal, string(codeInternal), fmt.Sprintf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	res, err := t.Execute(input)
	if err == nil {
		o = gotInvalid
		if res.Valid {
			o = gotValid
		}
		return append(dst, res.Doc...), o, res.Reason, ""
	}
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		// Execute documents *claimcheck.Error as its only error; anything else
		// is a bug, reported the same way as a panic.
		panic(fmt.Sprintf("%s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
	}
	return e.AppendJSON(dst), gotError, string(e.Code), ""
}

// codeInternal is the code of the document a line gets when its tool
// panicked (exit status 3). It is the CLI's, not the tools' contract's.
const codeInternal = httpjson.InternalError

// tooLarge is the error document of a document or line over the byte cap.
func tooLarge(what string, max int64) *claimcheck.Error { return httpjson.TooLarge(what, max) }

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
