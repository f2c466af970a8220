// Command claimcheck checks claimed results with the claimcheck tools: one
// document (run), JSON Lines (batch), or over HTTP (serve). Install it with
//
//	go install github.com/claimcheck/claimcheck/cmd/claimcheck@latest
//
// "claimcheck help" lists the commands and their flags; "claimcheck help
// TOOL_ID" shows a tool's input document, limits and examples as commands
// to paste.
//
// # Documents
//
// run reads one input document, the whole of FILE or stdin, and writes one
// line: the output document or the error document. batch reads JSON Lines
// and writes output line N for input line N, always. A line ends at "\n"
// or "\r\n"; the last one may also end at the end of input, after an
// optional "\r" ("a\n" is one line, "a\n\n" two, empty input none). A
// blank line (empty or only JSON whitespace) holds no document and is
// answered
//
//	{"error":{"code":"invalid_input","path":"","message":"blank line: want one JSON document per line"}}
//
// the code and path the tool gives for those bytes, so the lines after it
// keep their places. A line over -max-line-bytes, blank or not, gets
// limit_exceeded with limit max_document_bytes, as run does for a document
// over -max-document-bytes.
//
// # Large batches
//
// batch -summary writes to stderr, after the last answer, the lines by
// verdict, by reason and by error code, with the first line of each:
//
//	claimcheck: summary of answers.jsonl: 7 lines
//	  verdict           lines  first line
//	    valid               2           1
//	    invalid             2           2
//	    error               3           3
//	  reason            lines  first line
//	    claim_mismatch      2           2
//	  error code        lines  first line
//	    invalid_input       2           3
//	    limit_exceeded      1           6
//
// When stderr is a terminal, batch also keeps a progress line there,
// rewritten in place at most four times a second and erased at the end:
// lines done and lines/s, and for a regular file (FILE, or stdin
// redirected from one) the percentage read and the time left. It is never
// written when stderr is not a terminal (a pipe, a file, /dev/null), and
// stdout is the same either way.
//
// # Exit codes
//
// "claimcheck help" lists the exit codes, 0 to 4, and which wins when
// several apply. With -exit-code, run and batch tell a grader by their
// status alone whether every claim held, as "git diff --exit-code" tells
// whether there were differences: 0 every claim held, 4 every input was
// checked and some claim is false, 1 some input got no verdict.
//
// An unknown tool is an unknown_tool error document for run (exit 1, the
// tools that exist on stderr) and a usage error for batch (exit 2).
//
// # Version
//
// "claimcheck version" prints the module version, the VCS revision, whether
// the tree was modified, and the Go version, from the binary's build
// information, then the tools as id@version.
package main

import "os"

func main() {
	os.Exit(cli(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
