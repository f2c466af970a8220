package service

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

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
	s := &Service{
		openapi:     httpapi.OpenAPIAt(opts.API.BasePath),
		metrics:     metrics.New(reg),
		log:         opts.AccessLog,
		userObserve: opts.API.Observe,
		root:        opts.Root,
		mcp:         mcpserver.NewHTTPHandler(opts.MCP),
		metricsPage: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
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

// BeginShutdown marks the service as shutting down: /readyz answers 503
// from then on, so that a load balancer stops sending requests while those
// in flight finish. Everything else is served as before.
func (s *Service) BeginShutdown() { s.notReady.Store(true) }

// ServeHTTP serves r.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Service) route(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
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
	case p == RouteMetrics:
		s.own(w, r, p, getOnly(s.metricsPage.ServeHTTP))
	case p == RouteRoot && s.root != nil:
		s.own(w, r, p, getOnly(s.root.ServeHTTP))
	case p == RouteRoot:
		s.own(w, r, p, s.page)
	case strings.HasPrefix(p, "/playground/"):
		s.own(w, r, RoutePageAsset, s.page)
	default:
		s.api.ServeHTTP(w, r) // observed through httpapi.Options.Observe
	}
}

// own serves one of the service's own routes with h and observes it as the
// tools API observes its requests.
func (s *Service) own(w http.ResponseWriter, r *http.Request, route string, h http.Handler) {
	start := time.Now()
	rw := &httpjson.Recorder{ResponseWriter: w}
	body := &countingBody{ReadCloser: r.Body}
	r.Body = body
	defer func() {
		s.observe(r, httpapi.Observation{Route: route, Status: rw.Status, Code: rw.Code, ResponseBytes: rw.Bytes,
			BodyBytes: body.n, Duration: time.Since(start)})
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
