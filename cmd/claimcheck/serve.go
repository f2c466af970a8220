package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	stdlog "log"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/connlimit"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/service"
)

const serveSynopsis = "claimcheck serve [-addr 127.0.0.1:8080] [-max-body-bytes N] [-max-concurrent N] [-max-buffered-bytes N] " +
	"[-max-connections N] [-max-batch-lines N] [-body-timeout D] [-body-idle-timeout D] [-write-timeout D] [-base-path /PREFIX] [-access-log] " +
	"[-allowed-hosts NAME,...] [-allowed-origins ORIGIN,...] [-metrics-addr HOST:PORT] [-shutdown-delay D] [-shutdown-timeout D] [-tls-cert FILE -tls-key FILE] [-h2c]"

// defaultConnections is -max-connections' default where the
// file-descriptor limit allows it: with the shipped Kubernetes manifest's
// flags, 4096 connections (and connlimit.Spare) at service.ConnectionBytes
// each keep service.MemoryBound within its container's memory limit.
const defaultConnections = 4096

// metricsConnections caps the connections of -metrics-addr's listener (and
// connlimit.Spare more), so that its clients cannot use up the
// descriptors the main port's spares and probes need: a scraper or two
// keep a connection each, and at the cap the longest idle one is closed
// for a new one, as on the main port. -max-connections' default leaves
// room for them.
const metricsConnections = 16

// serveConfig is what serve needs besides the service's options.
type serveConfig struct {
	addr, metricsAddr string
	maxConns          int
	delay, grace      time.Duration
	tlsCert, tlsKey   string
	h2c               bool
	idleGrace         time.Duration // how long Drain lets an idle connection be
	secondSignalExit  func(int)     // os.Exit, replaceable in tests
}

func serveCmd(args []string, stderr io.Writer) int {
	opts, cfg, code, ok := serveFlags(args, stderr)
	if !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, opts, cfg, stderr)
}

// serveFlags parses serve's arguments into the service's options and
// serve's configuration; when it reports !ok, serve is not to run and code
// is the exit status (usage already written).
func serveFlags(args []string, stderr io.Writer) (opts service.Options, cfg serveConfig, code int, ok bool) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0: any free port)")
	maxBody := fs.Int64("max-body-bytes", httpapi.DefaultMaxBodyBytes, "refuse a body of more `bytes` (decompressed) with 413")
	maxConc := fs.Int("max-concurrent", 0, "check at most `N` documents at once (0: 2 × GOMAXPROCS); others wait")
	maxBuf := fs.Int64("max-buffered-bytes", 0, "hold at most `bytes` of request bodies in memory (0: 2 × max-concurrent × max-body-bytes); a body that does not fit gets 503 at once")
	maxConns := fs.Int("max-connections", 0, "hold at most `N` connections open (and 16 spares, for probes), closing the longest idle one, else the slowest upload, for a new one "+
		"(0: 4096, or fewer where the file-descriptor limit is lower)")
	maxBatch := fs.Int64("max-batch-lines", httpapi.DefaultMaxBatchLines, "answer at most `N` lines of a batch request; the rest is not read and the Claimcheck-Cut trailer says max_batch_lines")
	bodyTimeout := fs.Duration("body-timeout", httpapi.DefaultBodyTimeout, "answer 408 to a body not in after this long")
	idleTimeout := fs.Duration("body-idle-timeout", httpapi.DefaultBodyIdleTimeout, "answer 408 to a body that stalls this long (at most -body-timeout)")
	writeTimeout := fs.Duration("write-timeout", httpapi.DefaultWriteTimeout, "time to check and answer once a body is in (half of it at most waiting for a turn, then 503)")
	basePath := fs.String("base-path", "", "serve everything under this `path` prefix (such as /api), advertising URLs with it")
	accessLog := fs.Bool("access-log", false, "write one JSON record per request to stderr")
	allowedHosts := fs.String("allowed-hosts", "", "answer 403 to a request whose Host is a `name` not in this comma-separated list "+
		"(IP addresses and localhost are always allowed; .example.com allows example.com and every name under it; * allows any)")
	allowedOrigins := fs.String("allowed-origins", "", "answer 403 to a call of /mcp whose Origin is not in this comma-separated list of `origins` (such as https://app.example.com) "+
		"(no Origin, the server's own host and loopback or localhost pages are always allowed; * allows any)")
	metricsAddr := fs.String("metrics-addr", "", "serve /metrics on this `host:port` instead of on -addr, so that it need not be public")
	delay := fs.Duration("shutdown-delay", 0, "on SIGINT or SIGTERM, answer /readyz 503 and go on serving this long (with Connection: close) before shutting down")
	grace := fs.Duration("shutdown-timeout", 0, "then wait this long for the requests in flight to finish (0: the longest a request can take; less is refused)")
	tlsCert := fs.String("tls-cert", "", "serve HTTPS (and HTTP/2) with the certificate chain in `file` (PEM); needs -tls-key")
	tlsKey := fs.String("tls-key", "", "the private key of -tls-cert, in `file` (PEM)")
	h2c := fs.Bool("h2c", false, "also accept HTTP/2 without TLS (prior knowledge), for load balancers that speak it to backends")
	pos, code, ok := parseFlags(fs, args, os.Stdout, stderr, serveSynopsis)
	if !ok {
		return opts, cfg, code, false
	}
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "claimcheck: %s\nUsage: %s\n", msg, serveSynopsis)
		return exitUsage
	}
	if len(pos) != 0 {
		return opts, cfg, usage("serve takes no arguments"), false
	}
	if *maxBody <= 0 {
		return opts, cfg, usage("-max-body-bytes must be positive"), false
	}
	if *maxBatch <= 0 {
		return opts, cfg, usage("-max-batch-lines must be positive"), false
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return opts, cfg, usage("-tls-cert and -tls-key go together"), false
	}
	if *tlsCert != "" && *h2c {
		return opts, cfg, usage("-h2c is for cleartext; with -tls-cert HTTP/2 is on already"), false
	}
	if *delay < 0 || *grace < 0 || *maxConns < 0 {
		return opts, cfg, usage("-shutdown-delay, -shutdown-timeout and -max-connections must not be negative"), false
	}
	// Zero or negative timeouts mean the defaults, as in httpapi.Options;
	// the intake that applies them fills them in (and lowers a default
	// idle timeout to the body timeout).
	in := intake.Config{BodyTimeout: *bodyTimeout, BodyIdleTimeout: *idleTimeout, WriteTimeout: *writeTimeout}.WithDefaults()
	if *idleTimeout > in.BodyTimeout {
		return opts, cfg, usage(fmt.Sprintf("-body-idle-timeout %v is longer than -body-timeout %v", *idleTimeout, in.BodyTimeout)), false
	}
	bt, it, wt := in.BodyTimeout, in.BodyIdleTimeout, in.WriteTimeout
	// The longest a request can take from its first byte: its headers, its
	// body, a wait for a turn and the check and answer (or an early answer
	// and the drain after it); and a second for net/http to close the
	// connection after it.
	lifetime := httpapi.ReadHeaderTimeout + in.Lifetime() + time.Second
	if *grace == 0 {
		*grace = lifetime
	} else if *grace < lifetime {
		return opts, cfg, usage(fmt.Sprintf("-shutdown-timeout %v is shorter than the longest a request can take, %v "+
			"(header timeout %v + -body-timeout + the longer of 1.5 × -write-timeout and -write-timeout + %v of drain, + 1s): requests in flight would be cut off",
			*grace, lifetime, httpapi.ReadHeaderTimeout, in.LingerTime)), false
	}
	if *maxConns == 0 {
		room := defaultMaxConnections()
		if *metricsAddr != "" {
			// The metrics listener's connections and spares come out of
			// the same descriptors.
			room = max(1, room-metricsConnections-connlimit.Spare)
		}
		*maxConns = min(defaultConnections, room)
	}
	var hosts []string
	if *allowedHosts != "" {
		hosts = strings.Split(*allowedHosts, ",")
	}
	if _, err := httpjson.ParseHosts(hosts); err != nil {
		return opts, cfg, usage("-allowed-hosts: " + err.Error()), false
	}
	var origins []string
	if *allowedOrigins != "" {
		origins = strings.Split(*allowedOrigins, ",")
	}
	if _, err := httpjson.ParseOrigins(origins); err != nil {
		return opts, cfg, usage("-allowed-origins: " + err.Error()), false
	}
	if p := *basePath; p != "" && (p[0] != '/' || strings.TrimRight(p, "/") == "") {
		fmt.Fprintln(stderr, "claimcheck: -base-path must be a path starting with / (such as /api)")
		return opts, cfg, exitUsage, false
	}
	opts = service.Options{
		BasePath:        strings.TrimRight(*basePath, "/"),
		AllowedHosts:    hosts,
		AllowedOrigins:  origins,
		SeparateMetrics: *metricsAddr != "",
		API: httpapi.Options{MaxBodyBytes: *maxBody, MaxConcurrent: *maxConc, MaxBufferedBytes: *maxBuf,
			BodyTimeout: bt, BodyIdleTimeout: it, WriteTimeout: wt, MaxBatchLines: *maxBatch},
		// /mcp: the same flags; its body cap is -max-body-bytes plus the
		// JSON-RPC envelope (mcpserver.EnvelopeBytes).
		MCP: mcpserver.Options{Version: moduleVersion(), MaxDocumentBytes: *maxBody, MaxDocumentBytesFlag: "-max-body-bytes",
			MaxConcurrent: *maxConc, MaxBufferedBytes: *maxBuf,
			BodyTimeout: bt, BodyIdleTimeout: it, WriteTimeout: wt},
	}
	if *accessLog {
		opts.AccessLog = slog.New(slog.NewJSONHandler(stderr, nil))
	}
	return opts, serveConfig{addr: *addr, metricsAddr: *metricsAddr, maxConns: *maxConns, delay: *delay, grace: *grace,
		tlsCert: *tlsCert, tlsKey: *tlsKey, h2c: *h2c, idleGrace: time.Second, secondSignalExit: os.Exit}, exitOK, true
}

// serve listens on cfg.addr and serves the service until ctx is done, then
// shuts down without losing a request:
//
//  1. /readyz answers 503 and every response carries Connection: close, for
//     cfg.delay (so a load balancer stops sending, and each client's
//     connection ends after its current request; HTTP/2 sends GOAWAY);
//  2. every batch stream stops reading its body, answers the lines it has
//     read and ends with Claimcheck-Cut: shutdown (service.EndStreams),
//     and the listener is closed: no new connection is accepted;
//  3. every HTTP/1 connection finishes its current request and closes; one
//     that stays idle for a second is closed (net/http's Shutdown alone
//     would close an idle connection even when a request is on its way on
//     it);
//  4. the server shuts down: every HTTP/2 connection is sent GOAWAY (a
//     stream the client opens after it is refused, and the client told
//     so: RFC 9113 section 6.8) and closed once its streams are answered.
//
// Steps 3 and 4 take at most cfg.grace. A second SIGINT or SIGTERM exits at
// once with status 2. It prints "claimcheck: listening on http://ADDR" (or
// https://) with the real address (so port 0 can be found) on stderr, the
// same of -metrics-addr, and then the memory bound of its flags
// (service.MemoryBound). It returns 0
// after a complete shutdown and 2 (an I/O error) when it cannot listen,
// serving fails, or connections were still open after cfg.grace.
func serve(ctx context.Context, opts service.Options, cfg serveConfig, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	opts.API.Logger, opts.MCP.Logger = log, log
	inner, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	var metricsLn net.Listener
	if cfg.metricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", cfg.metricsAddr); err != nil {
			inner.Close()
			fmt.Fprintf(stderr, "claimcheck: -metrics-addr: %v\n", err)
			return exitUsage
		}
	}
	if metricsLn != nil {
		metricsLn = connlimit.New(metricsLn, metricsConnections)
	}
	ln := connlimit.New(inner, cfg.maxConns)
	svc := service.New(opts)
	h2 := cfg.tlsCert != "" || cfg.h2c
	g := &guard{h: mount(opts.BasePath, svc), healthz: opts.BasePath + service.RouteHealthz, readyz: opts.BasePath + service.RouteReadyz,
		limit: int64(ln.Max() + connlimit.Spare), open: ln.Open}
	srv := httpapi.NewServer(cfg.addr, g)
	errLog := &errorLog{log: log, window: 10 * time.Second}
	defer errLog.flushAll()
	srv.ErrorLog = stdlog.New(errLog, "", 0)
	srv.ConnState = ln.ConnState
	scheme := "http"
	if cfg.tlsCert != "" {
		scheme = "https"
	}
	if cfg.h2c {
		var p http.Protocols
		p.SetHTTP1(true)
		p.SetUnencryptedHTTP2(true)
		srv.Protocols = &p
	}
	fmt.Fprintf(stderr, "claimcheck: listening on %s://%s\n", scheme, ln.Addr())
	if metricsLn != nil {
		fmt.Fprintf(stderr, "claimcheck: metrics on http://%s%s\n", metricsLn.Addr(), service.RouteMetrics)
	}
	// Each HTTP/2 stream costs what a connection does, and guard lets as
	// many streams as connections be served at once.
	conns := ln.Max() + connlimit.Spare
	if h2 {
		conns *= 2
	}
	streams := ""
	if h2 {
		streams = " and as many HTTP/2 streams"
	}
	bound := svc.MemoryBound(conns)
	fmt.Fprintf(stderr, "claimcheck: memory bound %d MiB (%d bytes) for %d connections%s\n", bound>>20, bound, ln.Max()+connlimit.Spare, streams)

	served := make(chan error, 2)
	go func() {
		if cfg.tlsCert != "" {
			served <- srv.ServeTLS(ln, cfg.tlsCert, cfg.tlsKey)
		} else {
			served <- srv.Serve(ln)
		}
	}()
	var metricsSrv *http.Server
	if metricsLn != nil {
		metricsSrv = httpapi.NewServer(cfg.metricsAddr, svc.Metrics())
		metricsSrv.ErrorLog = srv.ErrorLog
		metricsSrv.ConnState = metricsLn.(*connlimit.Listener).ConnState
		go func() { served <- metricsSrv.Serve(metricsLn) }()
		defer metricsSrv.Close()
	}
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	case <-ctx.Done():
	}
	// From here a second signal exits at once.
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	go func() {
		if _, ok := <-again; ok {
			fmt.Fprintln(stderr, "claimcheck: second signal: exiting at once")
			cfg.secondSignalExit(exitUsage)
		}
	}()
	fmt.Fprintf(stderr, "claimcheck: shutting down: %v of Connection: close, then at most %v for %d open connections\n",
		cfg.delay, cfg.grace, ln.Open())
	svc.BeginShutdown()
	g.draining.Store(true)
	time.Sleep(cfg.delay)
	svc.EndStreams()
	ln.Close()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.grace)
	defer cancel()
	if err := ln.Drain(sctx, cfg.idleGrace); err != nil {
		fmt.Fprintf(stderr, "claimcheck: shutdown: %d connections still open after %v; closing them\n", ln.Open(), cfg.grace)
		srv.Close()
		return exitUsage
	}
	// The listener is closed already; Shutdown closes it again (an error)
	// when the serving goroutine has not yet seen it closed.
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintf(stderr, "claimcheck: shutdown: %v\n", err)
		return exitUsage
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// A guard is what serve answers before the service: it closes connections
// while draining, and answers with 503 overloaded, the probes excepted,
// the requests of a spare connection (connlimit.IsSpare) and those beyond
// its limit of requests at once. Each HTTP/2 stream is a request (an
// HTTP/1 connection carries one at a time), and the streams of an HTTP/2
// connection beyond its first are served only while that leaves a request
// for every other open connection: so a few connections with many streams
// each cannot take the allowance from everyone else; it takes as many
// connections as the limit.
type guard struct {
	h               http.Handler
	healthz, readyz string // the probes' paths
	limit           int64
	open            func() int // the connections open now
	inFlight        atomic.Int64
	draining        atomic.Bool
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	over, streams := g.admit(r)
	defer g.leave(streams)
	hd := w.Header()
	if g.draining.Load() {
		// HTTP/1.1 closes after this response; HTTP/2 sends GOAWAY.
		hd.Set("Connection", "close")
	}
	intake.CloseFaulty(w, r) // before a refusal here too
	spare := connlimit.IsSpare(intake.Conn(r))
	if (spare || over) && r.URL.Path != g.healthz && r.URL.Path != g.readyz {
		if spare {
			hd.Set("Connection", "close") // on HTTP/2, GOAWAY: the spare goes
		}
		intake.Unread(w, r)
		httpjson.WriteError(w, httpjson.Busy(hd, "too many connections; try again"))
		intake.Linger(w, r)
		return
	}
	if spare {
		hd.Set("Connection", "close")
	}
	g.h.ServeHTTP(w, r) // the service drains what its early answers leave unread
}

// admit counts r in flight, and an HTTP/2 stream on its connection's
// counter (returned, or nil), and says whether r is over the limit (see
// guard); call leave with the counter once r is answered.
func (g *guard) admit(r *http.Request) (over bool, streams *atomic.Int64) {
	n := g.inFlight.Add(1)
	if r.ProtoMajor == 2 {
		streams = connlimit.Streams(intake.Conn(r))
	}
	if streams == nil {
		return n > g.limit, nil
	}
	k := streams.Add(1)
	return n > g.limit || k > 1 && n > g.limit-int64(g.open()-1), streams
}

func (g *guard) leave(streams *atomic.Int64) {
	if streams != nil {
		streams.Add(-1)
	}
	g.inFlight.Add(-1)
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
			httpjson.WriteError(w, httpjson.NoRoute(r))
		}
	})
}

// An errorLog is an http.Server's ErrorLog that writes to log at WARN,
// at a bounded rate for what clients can make net/http write at will: of
// the lines that name a client ("http: TLS handshake error from ADDR:
// ...", "http2: server connection error from ADDR: ..."), the first of a
// kind is written, and the others of that kind within window are counted
// and written as one line with their count and the last of them. So a
// flood of junk handshakes writes two lines per window, not one each.
type errorLog struct {
	log    *slog.Logger
	window time.Duration
	mu     sync.Mutex
	kinds  map[string]*logKind
}

type logKind struct {
	count int    // lines held back in this window
	last  string // the last of them
}

func (l *errorLog) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	kind, _, found := strings.Cut(line, " from ")
	if !found {
		l.log.Warn(line)
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := l.kinds[kind]; k != nil {
		k.count++
		k.last = line
		return len(p), nil
	}
	if l.kinds == nil {
		l.kinds = map[string]*logKind{}
	}
	l.kinds[kind] = &logKind{}
	l.log.Warn(line)
	time.AfterFunc(l.window, func() { l.flush(kind) })
	return len(p), nil
}

// flush ends kind's window: the lines held back in it are written as one,
// and a new window begins if there were any.
func (l *errorLog) flush(kind string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.kinds[kind]
	if k == nil { // flushAll was first
		return
	}
	if k.count == 0 {
		delete(l.kinds, kind)
		return
	}
	l.writeHeld(kind, k)
	k.count, k.last = 0, ""
	time.AfterFunc(l.window, func() { l.flush(kind) })
}

// flushAll writes the lines held back of every kind, at the end: a
// shutdown does not wait for their windows.
func (l *errorLog) flushAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, kind := range slices.Sorted(maps.Keys(l.kinds)) {
		if k := l.kinds[kind]; k.count > 0 {
			l.writeHeld(kind, k)
		}
		delete(l.kinds, kind)
	}
}

func (l *errorLog) writeHeld(kind string, k *logKind) {
	l.log.Warn(kind+": more of these", "count", k.count, "within", l.window, "last", k.last)
}
