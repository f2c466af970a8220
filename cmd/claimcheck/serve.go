package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/service"
)

const serveSynopsis = "claimcheck serve [-addr 127.0.0.1:8080] [-max-body-bytes N] [-max-concurrent N] [-max-buffered-bytes N] " +
	"[-body-timeout D] [-body-idle-timeout D] [-base-path /PREFIX] [-access-log] [-shutdown-delay D] [-shutdown-timeout D]"

func serveCmd(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0: any free port)")
	maxBody := fs.Int64("max-body-bytes", httpapi.DefaultMaxBodyBytes, "refuse a body of more `bytes` with 413")
	maxConc := fs.Int("max-concurrent", 0, "check at most `N` documents at once (0: 2 × GOMAXPROCS); others wait")
	maxBuf := fs.Int64("max-buffered-bytes", 0, "hold at most `bytes` of request bodies in memory (0: 2 × max-concurrent × max-body-bytes)")
	bodyTimeout := fs.Duration("body-timeout", httpapi.DefaultBodyTimeout, "answer 408 to a body not in after this long")
	idleTimeout := fs.Duration("body-idle-timeout", httpapi.DefaultBodyIdleTimeout, "answer 408 to a body that stalls this long")
	basePath := fs.String("base-path", "", "serve everything under this `path` prefix (such as /api), advertising URLs with it")
	accessLog := fs.Bool("access-log", false, "write one JSON record per request to stderr")
	delay := fs.Duration("shutdown-delay", 0, "on SIGINT or SIGTERM, answer /readyz 503 and go on serving this long before shutting down")
	grace := fs.Duration("shutdown-timeout", 10*time.Second, "then wait this long for requests in flight")
	pos, code, ok := parseFlags(fs, args, os.Stdout, stderr, serveSynopsis)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "claimcheck: serve takes no arguments\nUsage: %s\n", serveSynopsis)
		return exitUsage
	}
	if *maxBody <= 0 {
		fmt.Fprintln(stderr, "claimcheck: -max-body-bytes must be positive")
		return exitUsage
	}
	if p := *basePath; p != "" && (p[0] != '/' || strings.TrimRight(p, "/") == "") {
		fmt.Fprintln(stderr, "claimcheck: -base-path must be a path starting with / (such as /api)")
		return exitUsage
	}
	opts := service.Options{
		BasePath: strings.TrimRight(*basePath, "/"),
		API: httpapi.Options{MaxBodyBytes: *maxBody, MaxConcurrent: *maxConc, MaxBufferedBytes: *maxBuf,
			BodyTimeout: *bodyTimeout, BodyIdleTimeout: *idleTimeout},
		// /mcp: the same flags; its body cap is -max-body-bytes plus the
		// JSON-RPC envelope (mcpserver.EnvelopeBytes).
		MCP: mcpserver.Options{Version: moduleVersion(), MaxDocumentBytes: *maxBody, MaxConcurrent: *maxConc, MaxBufferedBytes: *maxBuf,
			BodyTimeout: *bodyTimeout, BodyIdleTimeout: *idleTimeout},
	}
	if *accessLog {
		opts.AccessLog = slog.New(slog.NewJSONHandler(stderr, nil))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, *addr, opts, *delay, *grace, stderr)
}

// serve listens on addr and serves the service until ctx is done, then
// marks it not ready (/readyz answers 503), serves on for delay (so that a
// load balancer sees it and stops sending requests), and shuts down
// gracefully, waiting at most grace for the requests in flight. It
// prints "claimcheck: listening on http://ADDR" with the real address (so
// port 0 can be found) on stderr. It returns 0 after a clean shutdown and 2
// (an I/O error) when it cannot listen or serving or the shutdown fails.
func serve(ctx context.Context, addr string, opts service.Options, delay, grace time.Duration, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	opts.API.Logger, opts.MCP.Logger = log, log
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	svc := service.New(opts)
	srv := httpapi.NewServer(addr, mount(opts.BasePath, svc))
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	fmt.Fprintf(stderr, "claimcheck: listening on http://%s\n", ln.Addr())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	case <-ctx.Done():
	}
	fmt.Fprintln(stderr, "claimcheck: shutting down")
	svc.BeginShutdown()
	time.Sleep(delay)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "claimcheck: shutdown: %v\n", err)
		return exitUsage
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// mount serves svc under base, as a user's mux with http.StripPrefix
// would: base itself redirects to base + "/", and a path outside base is a
// 404 not_found error document, as an unknown path under it is.
func mount(base string, svc http.Handler) http.Handler {
	if base == "" {
		return svc
	}
	inner := http.StripPrefix(base, svc)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, base+"/"):
			inner.ServeHTTP(w, r)
		case p == base:
			http.Redirect(w, r, base+"/", http.StatusMovedPermanently)
		default:
			httpjson.WriteError(w, http.StatusNotFound, errs.Coded(httpapi.NotFound, "no route for "+r.URL.EscapedPath()))
		}
	})
}
