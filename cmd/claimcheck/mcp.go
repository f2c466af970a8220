package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/claimcheck/claimcheck/mcpserver"
)

const mcpSynopsis = "claimcheck mcp [-max-document-bytes N] [-max-concurrent N] [-max-buffered-bytes N]"

// mcpCmd serves the tools over MCP on stdin and stdout (newline-delimited
// JSON-RPC) until stdin ends or SIGINT or SIGTERM, answering every message
// already read before it exits 0; diagnostics go to stderr.
func mcpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	maxDoc := fs.Int64("max-document-bytes", mcpserver.DefaultMaxDocumentBytes, "answer a call whose arguments are over `bytes` with limit_exceeded")
	maxConc := fs.Int("max-concurrent", 0, "check at most `N` documents at once (0: 2 × GOMAXPROCS); others wait")
	maxBuf := fs.Int64("max-buffered-bytes", 0, "hold at most `bytes` of messages read and not yet answered (0: 2 × max-concurrent × (max-document-bytes + 64 KiB))")
	pos, code, ok := parseFlags(fs, args, stdout, stderr, mcpSynopsis)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "claimcheck: mcp takes no arguments\nUsage: %s\n", mcpSynopsis)
		return exitUsage
	}
	if *maxDoc <= 0 {
		fmt.Fprintln(stderr, "claimcheck: -max-document-bytes must be positive")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := mcpserver.New(mcpserver.Options{Version: moduleVersion(), MaxDocumentBytes: *maxDoc, MaxDocumentBytesFlag: "-max-document-bytes", MaxConcurrent: *maxConc,
		MaxBufferedBytes: *maxBuf, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err := s.ServeStdio(ctx, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "claimcheck: mcp: %v\n", err)
		return exitUsage
	}
	return exitOK
}
