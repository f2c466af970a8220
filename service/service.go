package service

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/playground"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/metrics"
)

// Routes of the service besides the tools API's.
const (
	RouteMCP     = "/mcp"
	RouteOpenAPI = "/openapi.json"
	RouteHealthz = "/healthz"
	RouteReadyz  = "/readyz"
	RouteMetrics = "/metrics"
	RouteRoot    = "/"
	// RoutePageAsset is the route of the page's stylesheet, scripts and
	// icon, /playground/{asset}.
	RoutePageAsset = "/playground/{asset}"
)

// Options configure [New]. The zero value is ready to use.
type Options struct {
	// API configures the tools API. Its Observe, if set, is called as
	// well as the service's own.
	API httpapi.Options
	// MCP configures /mcp.
	//
	// The tools API's execute route and /mcp share one memory budget and
	// one set of check slots: a body either route holds, and a check
	// either runs, counts against both. The budget is the larger of
	// API.MaxBufferedBytes and MCP.MaxBufferedBytes, the slots the larger
	// of their MaxConcurrent; each route keeps its own body cap and
	// timeouts. When neither sets it, the budget is 2 × the slots × the
	// larger body cap (MCP's: MaxDocumentBytes + mcpserver.EnvelopeBytes).
	MCP mcpserver.Options
	// AccessLog, if not nil, receives one Info record per request,
	// message "request", with method, route, status, duration (seconds),
	// bytes (response body), and, where they apply, tool, version,
	// verdict, code (of an error document) and body_bytes (request body).
	AccessLog *slog.Logger
	// Root, if not nil, serves GET and HEAD of "/" in place of the
	// playground page (its assets under /playground/ are still served).
	Root http.Handler
	// BasePath is the path prefix the service is mounted under, such as
	// "/api" for a service behind http.StripPrefix("/api", svc); it sets
	// API.BasePath when that is empty. Every URL the service advertises
	// gets it: the descriptors' execute_url and the
	// OpenAPI document's servers; the page's own requests are relative, so
	// it works under any prefix. "" (the default) leaves every byte served
	// as it is at the root.
	BasePath string
	// Registry receives the service's metrics and is what /metrics
	// serves. Nil means a new registry with the Go runtime and process
	// collectors as well.
	Registry *prometheus.Registry
	// SeparateMetrics leaves /metrics out of the routes (it is then an
	// unknown path, 404), for a server that serves [Service.Metrics] on
	// another address: the metrics need not be public.
	SeparateMetrics bool
	// AllowedHosts lists the host names, besides IP addresses and
	// localhost, that a request may give as its Host; any other is
	// answered 403 forbidden, on every route, whatever address the
	// server listens on: a page whose name its attacker points at the
	// server's address (DNS rebinding) sends its own name. A name may be
	// ".example.com", for example.com and every name under it, or "*"
	// for every name (no check: for a server behind a proxy that checks
	// names itself). Nil allows no name but localhost. New panics on an
	// entry that is not a host name (an address, or one with a port).
	// It replaces MCP.AllowedHosts: /mcp checks the same names.
	AllowedHosts []string
	// AllowedOrigins lists the origins (scheme://host[:port]) whose pages
	// may call /mcp besides the service's own and those on a loopback
	// address or a localhost name: a request to /mcp with any other Origin
	// header is answered 403, as MCP requires (mcpserver.Options has the
	// rule). A request without Origin is served. It replaces
	// MCP.AllowedOrigins. New panics on an entry that is not an origin.
	AllowedOrigins []string
}

// A Service is the http.Handler of the routes in the package
// documentation. It is safe for concurrent use.
type Service struct {
	api, mcp, metricsPage, root, page http.Handler
	openapi                           []byte
	metrics                           *metrics.Metrics
	log                               *slog.Logger
	userObserve                       func(*http.Request, httpapi.Observation)
	notReady                          atomic.Bool
	handler                           http.Handler
	hosts                             httpjson.Hosts
	separateMetrics                   bool
	// gate holds the budget and slots /v1 and /mcp share (intake.Gate.ShareWith).
	gate *intake.Gate
}

// New returns the service. It builds the OpenAPI document and registers the
// metrics (so it panics if opts.Registry already holds them).
func New(opts Options) *Service {
	reg := opts.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	if opts.API.BasePath == "" {
		opts.API.BasePath = opts.BasePath
	}
	opts.MCP.AllowedHosts, opts.MCP.AllowedOrigins = opts.AllowedHosts, opts.AllowedOrigins
	hosts, err := httpjson.ParseHosts(opts.AllowedHosts)
	if err != nil {
		panic("service: AllowedHosts: " + err.Error())
	}
	s := &Service{
		hosts:           hosts,
		separateMetrics: opts.SeparateMetrics,
		openapi:         httpapi.OpenAPIAt(opts.API.BasePath),
		metrics:         metrics.New(reg),
		log:             opts.AccessLog,
		userObserve:     opts.API.Observe,
		root:            opts.Root,
		mcp:             mcpserver.NewHTTPHandler(opts.MCP),
		metricsPage:     promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
	}
	api := opts.API
	api.Observe = s.observe
	s.api = httpapi.New(api)
	// /v1 and /mcp take their bodies' bytes and their checks' slots from
	// the one shared Gate.
	apiGate, mcpGate := s.api.(intake.Holder).IntakeGate(), s.mcp.(intake.Holder).IntakeGate()
	s.gate = sharedGate(apiGate, mcpGate, opts)
	apiGate.ShareWith(s.gate)
	mcpGate.ShareWith(s.gate)
	s.page = playground.Handler(http.NotFoundHandler()) // the page's own paths only: nothing passes through
	s.handler = s.metrics.InFlight(http.HandlerFunc(s.route))
	return s
}

// sharedGate returns the gate whose budget and slots the execute route (of
// Gate api) and /mcp (of Gate mcp) share: its body cap is the larger of
// theirs, as their packages fill them in (MCP's envelope included), so
// that a body of either fits; its budget and slots are the larger of those
// opts sets, zero (not set) leaving intake's defaults. Its timeouts are
// not used.
func sharedGate(api, mcp *intake.Gate, opts Options) *intake.Gate {
	return intake.New(intake.Config{MaxBodyBytes: max(api.Config().MaxBodyBytes, mcp.Config().MaxBodyBytes),
		MaxBufferedBytes: max(opts.API.MaxBufferedBytes, opts.MCP.MaxBufferedBytes),
		MaxConcurrent:    max(opts.API.MaxConcurrent, opts.MCP.MaxConcurrent)})
}

// ConnectionBytes is the most memory one connection costs a server of the
// service beyond the bodies' budget, as resident set, while it reads a
// body a byte at a time, waits for a slot or writes an answer its client
// does not read: net/http's buffers and goroutine (its stack grown by the
// handlers' calls), the request, and intake.ReadAhead, and the collector's
// headroom over them. 4096 uploads trickling a byte at a time cost 24 KiB
// of RSS each, 35 KiB once they have sent ReadAhead − 1 bytes; 20,000 of
// the latter churning through a cap of 4096 (each new one closing the
// slowest) peak at 34 to 43 KiB for each connection held, from run to run
// (2 cores, go1.26). This is the most of those and a third more.
const ConnectionBytes = 56 << 10

// MemoryBound returns the most memory, as resident set, that a server of
// the service holds with conns connections (and HTTP/2 streams) open:
//
//	2 × (B + C × M) + 64 MiB + conns × ConnectionBytes
//
// B is the budget of bodies and answers held, C the check slots and M the
// larger body cap of /v1 and /mcp: a running check holds one copy of its
// document besides its body, and Go's collector lets the heap grow to
// twice what is live (GOGC=100); 64 MiB is the runtime, the binary and
// the metrics, which an idle process keeps under 16 MiB.
// The sums and products are held at math.MaxInt64 where they would pass
// it (a cap of math.MaxInt64 is no cap).
func (s *Service) MemoryBound(conns int) int64 {
	c := s.gate.Config()
	live := satAdd(c.MaxBufferedBytes, satMul(int64(c.MaxConcurrent), c.MaxBodyBytes))
	return satAdd(satAdd(satMul(2, live), 64<<20), satMul(int64(conns), ConnectionBytes))
}

// satAdd and satMul are a + b and a × b of non-negative a and b, held at
// math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// BeginShutdown marks the service as shutting down: /readyz answers 503
// from then on, so that a load balancer stops sending requests while those
// in flight finish. Everything else is served as before.
func (s *Service) BeginShutdown() { s.notReady.Store(true) }

// EndStreams ends the batch streams being answered, at the end of a
// shutdown's delay: each stops reading its body, answers every line it
// has read, and ends with the trailer Claimcheck-Cut: shutdown; a batch
// request from then on is answered 503 overloaded before any line. Call it
// after BeginShutdown, once the load balancer has stopped sending
// requests, and before the server's own shutdown, which then waits for
// them to end (within a write of -write-timeout each).
func (s *Service) EndStreams() { s.gate.EndStreams() }

// ServeHTTP serves r. What is left of the body of a request answered
// early (refused before its body was read whole) is drained once the
// answer is out, within bounds, so that a client that writes its whole
// body before it reads gets the answer (see docs/serving.md).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	intake.CloseFaulty(w, r)
	s.handler.ServeHTTP(w, r)
	s.gate.Linger(w, r)
}

// Metrics returns the handler of the service's metrics, what /metrics
// serves (GET and HEAD; observed as the route /metrics is), for a server
// that serves them on an address of their own (Options.SeparateMetrics).
func (s *Service) Metrics() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		intake.CloseFaulty(w, r)
		s.own(w, r, RouteMetrics, getOnly(s.metricsPage.ServeHTTP))
	})
}

func (s *Service) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p != RouteMCP { // /mcp checks its Host (and Origin) itself, in MCP's own answers
		if e := s.hosts.Host(r); e != nil {
			s.own(w, r, "", refusal(e))
			return
		}
	}
	switch {
	case p == RouteMCP:
		s.own(w, r, RouteMCP, s.mcp)
	case p == RouteOpenAPI:
		s.own(w, r, p, getOnly(func(w http.ResponseWriter, r *http.Request) { httpjson.Write(w, r, http.StatusOK, s.openapi) }))
	case p == RouteHealthz:
		s.own(w, r, p, getOnly(func(w http.ResponseWriter, r *http.Request) {
			httpjson.Write(w, r, http.StatusOK, []byte(`{"status":"alive"}`+"\n"))
		}))
	case p == RouteReadyz:
		s.own(w, r, p, getOnly(func(w http.ResponseWriter, r *http.Request) {
			if s.notReady.Load() {
				httpjson.Write(w, r, http.StatusServiceUnavailable, []byte(`{"status":"shutting_down"}`+"\n"))
				return
			}
			httpjson.Write(w, r, http.StatusOK, []byte(`{"status":"ready"}`+"\n"))
		}))
	case p == RouteMetrics && !s.separateMetrics:
		s.own(w, r, p, getOnly(s.metricsPage.ServeHTTP))
	case p == RouteRoot && s.root != nil:
		s.own(w, r, p, getOnly(s.root.ServeHTTP))
	case p == RouteRoot:
		s.own(w, r, p, jsonRange(s.page))
	case strings.HasPrefix(p, "/playground/"):
		s.own(w, r, RoutePageAsset, jsonRange(s.page))
	default:
		s.api.ServeHTTP(w, r) // observed through httpapi.Options.Observe
	}
}

// own serves one of the service's own routes with h and observes it as the
// tools API observes its requests. Only /mcp reads a body, and its bytes
// are counted on a copy of r: net/http answers Expect: 100-continue, and
// leaves an unread body unread, only while the request it made still
// holds the body it gave it.
func (s *Service) own(w http.ResponseWriter, r *http.Request, route string, h http.Handler) {
	start := time.Now()
	rw := &httpjson.Recorder{ResponseWriter: w}
	var body *countingBody
	if route == RouteMCP {
		body = &countingBody{ReadCloser: r.Body}
		rb := *r
		rb.Body = body
		r = &rb
	}
	defer func() {
		o := httpapi.Observation{Route: route, Status: rw.Status, Code: rw.Code, ResponseBytes: rw.Bytes, Duration: time.Since(start)}
		if body != nil {
			o.BodyBytes = body.n
		}
		s.observe(r, o)
	}()
	h.ServeHTTP(rw, r)
}

// observe records a request in the metrics and the access log.
func (s *Service) observe(r *http.Request, o httpapi.Observation) {
	s.metrics.Observe(r, o)
	if s.userObserve != nil {
		s.userObserve(r, o)
	}
	if s.log == nil {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method), slog.String("route", o.Route), slog.Int("status", o.Status),
		slog.Float64("duration", o.Duration.Seconds()), slog.Int64("bytes", o.ResponseBytes),
	}
	if o.Tool != "" {
		attrs = append(attrs, slog.String("tool", o.Tool), slog.String("version", o.Version))
	}
	if o.Verdict != "" {
		attrs = append(attrs, slog.String("verdict", o.Verdict))
	}
	if o.Code != "" {
		attrs = append(attrs, slog.String("code", string(o.Code)))
	}
	if o.BodyBytes > 0 {
		attrs = append(attrs, slog.Int64("body_bytes", o.BodyBytes))
	}
	if b := o.Batch; b != nil {
		attrs = append(attrs, slog.Int64("lines", b.Lines))
		if b.Cut != "" {
			attrs = append(attrs, slog.String("cut", b.Cut))
		}
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
}

// getOnly serves GET and HEAD with h and answers any other method 405.
func getOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if httpjson.Allow(w, r, "GET, HEAD") {
			h(w, r)
		}
	}
}

// refusal answers e.
func refusal(e *claimcheck.Error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		intake.Unread(w, r)
		httpjson.WriteError(w, e)
	}
}

// jsonRange serves h, answering a Range that selects nothing of the page's
// files (net/http's http.ServeContent writes that 416 in plain text) with
// the range_not_satisfiable error document instead, and ServeContent's
// Content-Range.
func jsonRange(h http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if httpjson.HeaderValue(r.Header, "Range") == "" {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&rangeWriter{ResponseWriter: w}, r)
	}
}

// A rangeWriter writes a 416 as the range_not_satisfiable error document
// and drops the body its handler writes after it.
type rangeWriter struct {
	http.ResponseWriter
	refused bool
}

func (w *rangeWriter) WriteHeader(code int) {
	if code != http.StatusRequestedRangeNotSatisfiable {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.refused = true
	w.Header().Del("Content-Type") // http.Error's text/plain; WriteError sets JSON
	httpjson.WriteError(w.ResponseWriter, httpjson.Unsatisfiable())
}

func (w *rangeWriter) Write(b []byte) (int, error) {
	if w.refused {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}
