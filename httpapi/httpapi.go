package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/schema"
)

// Defaults of [Options].
const (
	DefaultMaxBodyBytes    = intake.DefaultMaxBodyBytes
	DefaultBodyTimeout     = intake.DefaultBodyTimeout
	DefaultBodyIdleTimeout = intake.DefaultBodyIdleTimeout
	DefaultWriteTimeout    = intake.DefaultWriteTimeout
	// DefaultMaxBatchLines is the most lines a batch request answers by
	// default: a million small lines are a few seconds of one core, so
	// that one request cannot hold a connection and its slots for long,
	// and a pipeline splits a larger input over several requests.
	DefaultMaxBatchLines = 1_000_000
)

// Options configure the handler of [New]. The zero value is ready to use.
type Options struct {
	// MaxBodyBytes caps the bytes of an input document; a larger body is
	// answered 413 with limit_exceeded, limit max_document_bytes.
	// Zero or negative means DefaultMaxBodyBytes. It is held at
	// math.MaxInt − 1: a body is read into one slice, with a byte more to
	// see its end.
	MaxBodyBytes int64
	// Logger receives one record per recovered panic. Requests are not
	// logged (see Observe). Nil means slog.Default().
	Logger *slog.Logger
	// MaxConcurrent caps the execute requests checked at once; the others
	// wait for a turn (or for their client to go away). A request takes its
	// turn only once its body has been read whole, and gives it back once
	// its check is done, before its answer is written, so neither a slow
	// upload nor a client that does not read its answer holds one. Zero or
	// negative means 2 × GOMAXPROCS: the checks are CPU-bound.
	MaxConcurrent int
	// MaxBufferedBytes caps the body bytes held in memory at once, summed
	// over the execute requests being read, waiting for a turn or being
	// checked, and the answers being written, beyond the 4 KiB each
	// connection may hold on its own (intake.ReadAhead). A body holds
	// only what it has been sent: its buffer doubles as its bytes arrive,
	// each step taken from the budget before it is filled, so a body holds
	// at most twice what it has received and one that trickles holds
	// nothing. A request never waits for buffer: a step that does not fit
	// is answered 503 overloaded at once, giving back all the body held,
	// and so is a body whose declared length does not fit what is free. A
	// sixteenth of the budget is kept for bodies of at most 64 KiB, so
	// small requests are admitted while large uploads hold the rest. Zero
	// or negative means 2 × MaxConcurrent × MaxBodyBytes, at most
	// math.MaxInt64; a value below MaxBodyBytes is raised to it.
	MaxBufferedBytes int64
	// BodyTimeout caps the time an execute request's body may take to
	// arrive, from when the handler starts reading it; a body still
	// incomplete then is answered 408 request_timeout. Zero or negative
	// means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// BodyIdleTimeout caps the time between two arrivals of body bytes:
	// an upload that stalls this long is answered 408 request_timeout.
	// Zero or negative means DefaultBodyIdleTimeout.
	BodyIdleTimeout time.Duration
	// WriteTimeout is the time an execute request's answer has to be
	// written once its body is in or refused (so a 408, 413 or 503 always
	// reaches a client that reads it); a request waits for a turn at most
	// half of it, and is then answered 503 overloaded. Zero or negative
	// means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Observe, if not nil, is called once for every request after its
	// response has been written (or abandoned), on the request's goroutine.
	// It must be safe for concurrent use and should be quick. Package
	// httpapi itself imports only the standard library: metrics and access
	// logs are built on this hook by the caller.
	Observe func(*http.Request, Observation)
	// BasePath is the path prefix the handler is mounted under, such as
	// "/api" for a handler behind http.StripPrefix("/api", h). It is put
	// before every URL the handler advertises: each descriptor's
	// execute_url. Routes are matched after the prefix is stripped, so
	// they do not change. "" (the default) means the handler is at the
	// root, and every byte served is as without the option. A trailing "/"
	// is dropped; a BasePath not starting with "/" makes New panic.
	BasePath string
	// MaxBatchLines caps the lines of a batch request: the lines after
	// it are not read, and the answer's Claimcheck-Cut trailer says
	// max_batch_lines. Zero or negative means DefaultMaxBatchLines.
	MaxBatchLines int64
}

// An Observation describes one request the handler has answered.
type Observation struct {
	// Route is the route the request's path matched: RouteTools,
	// RouteDescriptor or RouteExecute, or "" for none (a 404 not_found).
	Route string
	// Tool and Version name the tool of a descriptor or execute request
	// when the handler serves that tool, else "". They never echo an
	// unknown id, so they are safe as metric labels.
	Tool, Version string
	// Status is the response's status code, or 0 when none was written
	// (the client went away first).
	Status int
	// Code is the error document's code when the response is one, else "".
	Code claimcheck.Code
	// Verdict is set for a 200 execute response: "valid" for a valid
	// output document, else its reason (claim_mismatch, value_mismatch, ...).
	Verdict string
	// BodyBytes is the number of request body bytes read; ResponseBytes
	// the number of response body bytes written.
	BodyBytes, ResponseBytes int64
	// Duration is the time from the handler's start to the end of the
	// response.
	Duration time.Duration
	// Batch is what a batch request's lines got; nil for the other
	// routes, and for a batch request refused before its first line.
	Batch *Batch
}

// Batch is what the lines of a batch request got ([Observation.Batch]):
// the counts its trailers carry, and the lines by verdict.
type Batch struct {
	// Lines, Valid, Invalid and Errors are the counts of the trailers
	// Claimcheck-Lines, -Valid, -Invalid and -Errors.
	Lines, Valid, Invalid, Errors int64
	// Cut is the Claimcheck-Cut trailer, "" when the stream was not cut.
	Cut string
	// Verdicts counts the lines by verdict: "valid", the reason of a false
	// verdict, or "error" for an error document, each in the order it
	// first came.
	Verdicts []LineCount
}

// A LineCount is how many lines of a batch request got one verdict
// ([Batch.Verdicts]).
type LineCount struct {
	Verdict string
	Count   int64
}

// The routes of [Observation.Route], in the form of the package
// documentation's route table.
const (
	RouteTools      = "/v1/tools"
	RouteDescriptor = "/v1/tools/{id}/versions/{version}"
	RouteExecute    = "/v1/tools/{id}/versions/{version}/execute"
	RouteBatch      = "/v1/tools/{id}/versions/{version}/batch"
)

// Error codes of this package, for failures of the HTTP request itself
// rather than of its document: every request-level code of the serving
// layers, with the status the package documentation gives it. They are not
// codes of the tools' contract and have no sentinel in package claimcheck;
// the contract's codes (claimcheck.InvalidInput, LimitExceeded,
// UnknownTool) come from the tools.
const (
	// Forbidden: a Host or Origin that is not an allowed name (403;
	// package service answers it, on every route).
	Forbidden = httpjson.Forbidden
	// NotFound: no route for the request's path (404).
	NotFound = httpjson.NotFound
	// MethodNotAllowed: the route exists but not for the method (405).
	MethodNotAllowed = httpjson.MethodNotAllowed
	// RequestTimeout: the body did not arrive within BodyTimeout, or
	// stalled for BodyIdleTimeout (408).
	RequestTimeout = httpjson.RequestTimeout
	// UnsupportedMediaType: an execute request whose Content-Type is
	// missing or not JSON, or whose Content-Encoding is not gzip (415).
	UnsupportedMediaType = httpjson.UnsupportedMediaType
	// RangeNotSatisfiable: a Range that selects nothing of the
	// playground page's files (416; package service answers it).
	RangeNotSatisfiable = httpjson.RangeNotSatisfiable
	// InternalError: a tool panicked, which is a bug (500).
	InternalError = httpjson.InternalError
	// Overloaded: the body (or the answer) could not be buffered within
	// MaxBufferedBytes, or no turn came free within WriteTimeout/2 (503,
	// with Retry-After).
	Overloaded = httpjson.Overloaded
)

// New returns the handler of the routes listed in the package documentation.
func New(opts Options) http.Handler {
	return newHandler(opts, nil)
}

// newHandler is New with the tool execution replaceable, so tests can reach
// the panic path through the real routes; nil means (*schema.Tool).Execute.
func newHandler(opts Options, execute func(*schema.Tool, []byte) (schema.Output, error)) *handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if execute == nil {
		execute = (*schema.Tool).Execute
	}
	h := &handler{
		gate: intake.New(intake.Config{MaxBodyBytes: opts.MaxBodyBytes, MaxBufferedBytes: opts.MaxBufferedBytes,
			MaxConcurrent: opts.MaxConcurrent, BodyTimeout: opts.BodyTimeout, BodyIdleTimeout: opts.BodyIdleTimeout,
			WriteTimeout: opts.WriteTimeout}),
		execute: execute, log: opts.Logger, observe: opts.Observe,
		maxBatchLines: opts.MaxBatchLines,
	}
	if h.maxBatchLines <= 0 {
		h.maxBatchLines = DefaultMaxBatchLines
	}
	h.serve = h.route
	// Descriptors never change: encode them once, with their execute_url
	// under the base path.
	base := cleanBasePath(opts.BasePath)
	h.tools = map[[2]string]*tool{}
	list := []byte("[")
	for i, t := range schema.Tools() {
		t.ExecuteURL = base + t.ExecuteURL
		d, _ := t.MarshalJSON()
		h.tools[[2]string{t.ID, t.Version}] = &tool{t, append(d[:len(d):len(d)], '\n')}
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, d...)
	}
	h.list = append(list, "]\n"...)
	return h
}

// cleanBasePath returns a BasePath without its trailing "/", and panics if
// it is neither "" nor a path starting with "/".
func cleanBasePath(p string) string {
	p = strings.TrimRight(p, "/")
	if p != "" && p[0] != '/' {
		panic("httpapi: BasePath " + strconv.Quote(p) + " does not start with /")
	}
	return p
}

// A tool is a served tool and its descriptor document, as this handler
// serves it.
type tool struct {
	t          *schema.Tool
	descriptor []byte // with a trailing newline
}

type handler struct {
	gate    *intake.Gate // the body budget, deadlines and check slots
	list    []byte       // the GET /v1/tools body
	tools   map[[2]string]*tool
	execute func(*schema.Tool, []byte) (schema.Output, error)
	log     *slog.Logger
	observe func(*http.Request, Observation)
	// maxBatchLines caps a batch request's lines (Options.MaxBatchLines).
	maxBatchLines int64
	// serve answers the request; it is h.route except in tests.
	serve func(*httpjson.Recorder, *http.Request, *Observation)
}

// ServeHTTP answers r, turns a panic into a 500 with an internal_error
// document (when nothing has been written yet, else it aborts the
// response), logs the panic once with its stack, and reports the request to
// Observe. http.ErrAbortHandler is re-panicked: it is net/http's way to
// abort a response, not a bug.
// IntakeGate returns the handler's Gate (intake.Holder), for package service
// to make it share the service's budget and slots.
func (h *handler) IntakeGate() *intake.Gate { return h.gate }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	intake.CloseFaulty(w, r)
	h.serveObserved(w, r)
	// After the observation: an early answer's drain is not the request's
	// time.
	h.gate.Linger(w, r)
}

// serveObserved serves r and observes it.
func (h *handler) serveObserved(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	st := states.Get().(*reqState)
	tw, obs := &st.rec, &st.obs
	tw.ResponseWriter = w
	defer func() {
		*st = reqState{}
		states.Put(st)
	}()
	defer func() {
		v := recover()
		abort := v != nil && v == http.ErrAbortHandler
		if v != nil && !abort {
			h.log.LogAttrs(context.Background(), slog.LevelError, "httpapi: panic serving request",
				slog.String("method", r.Method), slog.String("path", r.URL.EscapedPath()),
				slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
			if tw.Status != 0 {
				// Headers are gone: all that is left is to cut the
				// response short so the client sees it incomplete.
				abort = true
			} else {
				for k := range w.Header() {
					w.Header().Del(k)
				}
				httpjson.WriteError(tw, httpjson.Internal("internal error"))
			}
		}
		if h.observe != nil {
			obs.Status, obs.Code, obs.ResponseBytes = tw.Status, tw.Code, tw.Bytes
			obs.Duration = time.Since(start)
			h.observe(r, *obs)
		}
		if abort {
			panic(http.ErrAbortHandler)
		}
	}()
	h.serve(tw, r, obs)
}

// A reqState is what ServeHTTP keeps of one request, pooled: nothing
// holds it once ServeHTTP has returned (Observe gets a copy).
type reqState struct {
	rec httpjson.Recorder
	obs Observation
}

var states = sync.Pool{New: func() any { return new(reqState) }}

func (h *handler) route(w *httpjson.Recorder, r *http.Request, obs *Observation) {
	var buf [maxSegments]string
	segs, ok := segments(r.URL, &buf)
	if !ok || len(segs) < 2 || segs[0] != "v1" || segs[1] != "tools" {
		httpjson.WriteError(w, httpjson.NoRoute(r))
		return
	}
	switch {
	case len(segs) == 2:
		obs.Route = RouteTools
		if allow(w, r, "GET, HEAD") {
			httpjson.Write(w, r, http.StatusOK, h.list)
		}
		return
	case (len(segs) == 5 || len(segs) == 6 && (segs[5] == "execute" || segs[5] == "batch")) && segs[3] == "versions" && segs[2] != "" && segs[4] != "":
		obs.Route = RouteDescriptor
		if len(segs) == 6 {
			obs.Route = RouteExecute
			if segs[5] == "batch" {
				obs.Route = RouteBatch
			}
		}
		st := h.tools[[2]string{segs[2], segs[4]}]
		if st == nil {
			_, err := schema.Lookup(segs[2], segs[4]) // the unknown_tool error, as everywhere
			httpjson.WriteError(w, err.(*claimcheck.Error))
			return
		}
		t := st.t
		obs.Tool, obs.Version = t.ID, t.Version
		if len(segs) == 5 {
			if allow(w, r, "GET, HEAD") {
				httpjson.Write(w, r, http.StatusOK, st.descriptor)
			}
			return
		}
		if allow(w, r, "POST") {
			if obs.Route == RouteBatch {
				h.serveBatch(w, r, t, obs)
			} else {
				h.serveExecute(w, r, t, obs)
			}
		}
		return
	}
	httpjson.WriteError(w, httpjson.NoResource(r))
}

// maxSegments is one more than the segments of the longest route, so that
// a longer path is seen as longer.
const maxSegments = 7

// segments splits the escaped path at "/" and unescapes each segment, so an
// escaped "/" (%2F) stays inside its segment. A path not starting with "/"
// or with a bad escape anywhere is reported !ok. A path of more than
// maxSegments segments returns its first maxSegments (more than any route
// has). The
// result is in buf, so that routing allocates nothing.
func segments(u *url.URL, buf *[maxSegments]string) ([]string, bool) {
	// With no RawPath, the request's path is Path's own escaping, which
	// escapes no "/": its segments unescaped are Path's segments, with no
	// bad escape. EscapedPath would escape Path again to say so.
	p, escaped := u.Path, false
	if u.RawPath != "" {
		p, escaped = u.EscapedPath(), true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	segs := buf[:0]
	for rest, more := p[1:], true; more; {
		var s string
		s, rest, more = strings.Cut(rest, "/")
		if escaped && strings.IndexByte(s, '%') >= 0 { // else it is its own unescaping
			v, err := url.PathUnescape(s)
			if err != nil {
				return nil, false
			}
			s = v
		}
		if len(segs) < maxSegments {
			segs = append(segs, s)
		}
	}
	return segs, true
}

// allow reports whether r's method is one of methods ("GET, HEAD" form);
// otherwise it answers 405 with the Allow header.
func allow(w http.ResponseWriter, r *http.Request, methods string) bool {
	return httpjson.Allow(w, r, methods)
}

func (h *handler) serveExecute(w http.ResponseWriter, r *http.Request, t *schema.Tool, obs *Observation) {
	if e := httpjson.ContentType(r); e != nil {
		intake.Unread(w, r)
		httpjson.WriteError(w, e)
		return
	}
	// The body is read before the request waits for a slot: a client that
	// sends slowly holds its own connection and the bytes it has sent, and
	// no check slot.
	body, release, f := h.gate.ReadBody(w, r)
	obs.BodyBytes = int64(len(body))
	free := noop
	if f == nil {
		free, f = h.gate.Slot(w, r)
	}
	if f != nil {
		release()
		if !f.Gone() { // else the client went away: nobody to answer
			httpjson.WriteError(w, f.Err)
		}
		return
	}
	out, err := h.execute(t, body)
	// The check is done: its slot and its body go back before the answer
	// is written, so a client that does not read its answer holds neither
	// (the answer's own bytes are held instead, by Answer).
	free()
	release()
	if err != nil {
		var e *claimcheck.Error
		if !errors.As(err, &e) {
			panic(fmt.Sprintf("httpapi: %s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
		}
		h.answer(w, r, httpjson.ErrorDoc(e), e)
		return
	}
	obs.Verdict = "valid"
	if !out.Valid {
		obs.Verdict = out.Reason
	}
	h.answer(w, r, append(out.Doc, '\n'), nil)
}

// answer writes body: the output document and a newline, or, when e is
// not nil, e's (httpjson.ErrorDoc), holding its bytes in the budget while
// it is written (intake.Gate.Answer); when they do not fit, it answers 503
// overloaded instead.
func (h *handler) answer(w http.ResponseWriter, r *http.Request, body []byte, e *claimcheck.Error) {
	done, f := h.gate.Answer(w, r, len(body))
	defer done()
	switch {
	case f != nil:
		httpjson.WriteError(w, f.Err)
	case e != nil:
		httpjson.WriteErrorDoc(w, e, body)
	default:
		httpjson.Write(w, r, http.StatusOK, body)
	}
}

func noop() {}
