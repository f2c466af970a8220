package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/claimcheck/claimcheck/internal/jsonl"
	"github.com/claimcheck/claimcheck/schema"
)

const batchSynopsis = "claimcheck batch [-exit-code] [-summary] [-j N] [-max-line-bytes N] TOOL_ID [FILE]"

func batchCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("batch", flag.ContinueOnError)
	invalidExit := fs.Bool("exit-code", false, "exit 4 when every line got an output document and a verdict is \"valid\":false")
	workers := fs.Int("j", jsonl.MaxWorkers(), "check up to `N` lines in parallel (held at GOMAXPROCS, the default: the checks are CPU-bound)")
	maxLine := fs.Int64("max-line-bytes", defaultMaxBytes, "refuse a line of more `bytes` (not counting its line ending) with limit_exceeded")
	summarize := fs.Bool("summary", false, "at the end, write to stderr the count of lines by verdict, by reason and by error code, each with its first line")
	t, unknown, file, code, ok := toolArgs(fs, args, stdout, stderr, batchSynopsis,
		func() string { return cond(*workers < 1, "-j must be at least 1") },
		func() string { return cond(*maxLine < 0, "-max-line-bytes must not be negative") })
	if !ok {
		return code
	}
	if t == nil {
		// Unlike run, an unknown tool is a usage error here: writing one
		// unknown_tool document per line would only repeat the mistake, and
		// one document for the whole run would break the one-line-per-line
		// contract.
		fmt.Fprintf(stderr, "claimcheck: %s; the tools are %s\n", unknown.Message, toolList())
		return exitUsage
	}
	r, name, closeFn, err := openInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	defer closeFn()
	cfg := batchConfig{tool: t, workers: *workers, maxLine: *maxLine, invalidExit: *invalidExit, summary: *summarize}
	cfg.progress = startProgress(stderr, r)
	return batch(cfg, r, name, stdout, stderr)
}

type batchConfig struct {
	tool        *schema.Tool
	workers     int   // held at jsonl.MaxWorkers()
	maxLine     int64 // bytes of a line, not counting "\n" or "\r\n"
	invalidExit bool  // -exit-code: a false verdict exits 4
	summary     bool  // -summary: count the lines' classes, report them at the end
	// progress, when stderr is a terminal, shows the lines answered; batch
	// ends it before it writes anything else to stderr.
	progress *progress
}

// isBlank reports whether b is only JSON whitespace.
func isBlank(b []byte) bool { return jsonl.IsBlank(b) }

// batch answers every line of r on w, in order, output line N for input
// line N, checking up to cfg.workers chunks at a time (held at
// jsonl.MaxWorkers), and returns the exit code. The engine is package
// jsonl's, which the service's batch route runs too.
func batch(cfg batchConfig, r io.Reader, name string, w, stderr io.Writer) int {
	bw := bufio.NewWriterSize(w, 64<<10)
	worst := gotValid
	var sum *summary
	if cfg.summary {
		sum = newSummary()
	}
	res := jsonl.Run(jsonl.Config{
		Tool: cfg.tool, Workers: cfg.workers, MaxLine: cfg.maxLine,
		Flush: bw.Flush,
		Answered: func(lines []jsonl.Line, consumed int64) {
			for _, l := range lines {
				worst = max(worst, l.Outcome)
				if l.Report != "" {
					fmt.Fprintf(stderr, "claimcheck: internal error on %s line %d: %s", name, l.Num, l.Report)
				}
				if sum != nil {
					sum.add(l.Num, classOf(l.Outcome, l.Detail))
				}
			}
			cfg.progress.answered(len(lines), consumed)
		},
	}, r, bw)
	cfg.progress.end()
	if sum != nil {
		sum.write(stderr, name)
	}
	switch {
	case res.WriteErr != nil:
		fmt.Fprintf(stderr, "claimcheck: writing the answers: %v\n", res.WriteErr)
		return exitUsage
	case res.ReadErr != nil:
		fmt.Fprintf(stderr, "claimcheck: reading %s: %v\n", name, res.ReadErr)
		return exitUsage
	}
	return exitCode(worst, cfg.invalidExit)
}
