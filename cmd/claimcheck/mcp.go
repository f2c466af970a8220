package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/claimcheck/claimcheck/mcpserver"
)

const mcpSynopsis = "claimcheck mcp [-max-document-bytes N] [-max-concurrent N]"

// mcpCmd serves the tools over MCP on stdin and stdout (newline-delimited
// JSON-RPC) until stdin ends or SIGINT or SIGTERM; diagnostics go to
// stderr.
func mcpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	maxDoc := fs.Int64("max-document-bytes", mcpserver.DefaultMaxDocumentBytes, "answer a call whose arguments are over `bytes` with limit_exceeded")
	maxConc := fs.Int("max-concurrent", 0, "check at most `N` documents at once (0: 2 × GOMAXPROCS); others wait")
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
	s := mcpserver.New(mcpserver.Options{Version: moduleVersion(), MaxDocumentBytes: *maxDoc, MaxConcurrent: *maxConc,
		Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout},
		// A JSON-RPC line holds the document and its envelope.
		MaxLineLength: int(min(*maxDoc+64<<10, 1<<40))}
	err := s.Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return exitOK
	}
	fmt.Fprintf(stderr, "claimcheck: mcp: %v\n", err)
	return exitUsage
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
