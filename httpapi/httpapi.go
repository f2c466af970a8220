package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// Defaults of [Options].
const (
	DefaultMaxBodyBytes    = 64 << 20
	DefaultBodyTimeout     = 60 * time.Second
	DefaultBodyIdleTimeout = 10 * time.Second
)

// Options configure the handler of [New]. The zero value is ready to use.
type Options struct {
	// MaxBodyBytes caps the bytes of an input document; a larger body is
	// answered 413 with limit_exceeded, limit max_document_bytes.
	// Zero or negative means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives one record per recovered panic. Requests are not
	// logged (see Observe). Nil means slog.Default().
	Logger *slog.Logger
	// MaxConcurrent caps the execute requests checked at once; the others
	// wait for a turn (or for their client to go away). A request takes its
	// turn only once its body has been read whole, so a slow upload never
	// holds one. Zero or negative means 2 × GOMAXPROCS: the checks are
	// CPU-bound.
	MaxConcurrent int
	// MaxBufferedBytes caps the body bytes held in memory at once, summed
	// over the execute requests being read, waiting for a turn or being
	// checked. A request reserves buffer as its body arrives, in steps that
	// start at 64 KiB (16 KiB without a declared length; the declared
	// length if smaller) and double, so a stalled upload holds little more
	// than what it has sent. A request that would go over
	// waits for bytes to be freed, at most until its BodyTimeout, and is
	// then answered 503 overloaded. Zero or negative means
	// 2 × MaxConcurrent × MaxBodyBytes; a value below MaxBodyBytes is raised
	// to it.
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
}

// The routes of [Observation.Route], in the form of the package
// documentation's route table.
const (
	RouteTools      = "/v1/tools"
	RouteDescriptor = "/v1/tools/{id}/versions/{version}"
	RouteExecute    = "/v1/tools/{id}/versions/{version}/execute"
)

// Error codes of this package, for failures of the HTTP request itself
// rather than of its document. They are not codes of the tools' contract and
// have no sentinel in package claimcheck; the contract's codes
// (claimcheck.InvalidInput, LimitExceeded, UnknownTool) come from the tools.
const (
	// NotFound: no route for the request's path (404).
	NotFound claimcheck.Code = "not_found"
	// MethodNotAllowed: the route exists but not for the method (405).
	MethodNotAllowed claimcheck.Code = "method_not_allowed"
	// RequestTimeout: the body did not arrive within BodyTimeout, or
	// stalled for BodyIdleTimeout (408).
	RequestTimeout claimcheck.Code = "request_timeout"
	// UnsupportedMediaType: an execute request whose Content-Type is not
	// JSON (415).
	UnsupportedMediaType claimcheck.Code = "unsupported_media_type"
	// InternalError: a tool panicked, which is a bug (500).
	InternalError claimcheck.Code = "internal_error"
	// Overloaded: the body could not be buffered within MaxBufferedBytes
	// before its BodyTimeout (503, with Retry-After).
	Overloaded claimcheck.Code = "overloaded"
)

// New returns the handler of the routes listed in the package documentation.
func New(opts Options) http.Handler {
	return newHandler(opts, nil)
}

// newHandler is New with the tool execution replaceable, so tests can reach
// the panic path through the real routes; nil means (*schema.Tool).Execute.
func newHandler(opts Options, execute func(*schema.Tool, []byte) (schema.Output, error)) *handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if execute == nil {
		execute = (*schema.Tool).Execute
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if opts.MaxBufferedBytes <= 0 {
		opts.MaxBufferedBytes = 2 * int64(opts.MaxConcurrent) * opts.MaxBodyBytes
	}
	// A body of MaxBodyBytes is read into a buffer of one byte more, to
	// see its end; such a body must always fit.
	opts.MaxBufferedBytes = max(opts.MaxBufferedBytes, opts.MaxBodyBytes+1)
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.BodyIdleTimeout <= 0 {
		opts.BodyIdleTimeout = DefaultBodyIdleTimeout
	}
	h := &handler{
		maxBody: opts.MaxBodyBytes, execute: execute, log: opts.Logger, observe: opts.Observe,
		slots:       make(chan struct{}, opts.MaxConcurrent),
		budget:      newBudget(opts.MaxBufferedBytes),
		bodyTimeout: opts.BodyTimeout, idleTimeout: opts.BodyIdleTimeout,
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
	maxBody     int64
	slots       chan struct{} // one token per execute request being checked
	budget      *budget       // body bytes held in memory
	bodyTimeout time.Duration
	idleTimeout time.Duration
	list        []byte // the GET /v1/tools body
	tools       map[[2]string]*tool
	execute     func(*schema.Tool, []byte) (schema.Output, error)
	log         *slog.Logger
	observe     func(*http.Request, Observation)
	// serve answers the request; it is h.route except in tests.
	serve func(*httpjson.Recorder, *http.Request, *Observation)
}

// ServeHTTP answers r, turns a panic into a 500 with an internal_error
// document (when nothing has been written yet, else it aborts the
// response), logs the panic once with its stack, and reports the request to
// Observe. http.ErrAbortHandler is re-panicked: it is net/http's way to
// abort a response, not a bug.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	tw := &httpjson.Recorder{ResponseWriter: w}
	var obs Observation
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
				httpjson.WriteError(tw, http.StatusInternalServerError, &claimcheck.Error{Code: InternalError,
					Position: claimcheck.NoPosition, Message: "internal error"})
			}
		}
		if h.observe != nil {
			obs.Status, obs.Code, obs.ResponseBytes = tw.Status, tw.Code, tw.Bytes
			obs.Duration = time.Since(start)
			h.observe(r, obs)
		}
		if abort {
			panic(http.ErrAbortHandler)
		}
	}()
	h.serve(tw, r, &obs)
}

func (h *handler) route(w *httpjson.Recorder, r *http.Request, obs *Observation) {
	segs, ok := segments(r.URL)
	if !ok || len(segs) < 2 || segs[0] != "v1" || segs[1] != "tools" {
		httpjson.WriteError(w, http.StatusNotFound, &claimcheck.Error{Code: NotFound, Position: claimcheck.NoPosition,
			Message: "no route for " + r.URL.EscapedPath()})
		return
	}
	switch {
	case len(segs) == 2:
		obs.Route = RouteTools
		if allow(w, r, "GET, HEAD") {
			httpjson.Write(w, r, http.StatusOK, h.list)
		}
		return
	case (len(segs) == 5 || len(segs) == 6 && segs[5] == "execute") && segs[3] == "versions" && segs[2] != "" && segs[4] != "":
		obs.Route = RouteDescriptor
		if len(segs) == 6 {
			obs.Route = RouteExecute
		}
		st := h.tools[[2]string{segs[2], segs[4]}]
		if st == nil {
			_, err := schema.Lookup(segs[2], segs[4]) // the unknown_tool error, as everywhere
			httpjson.WriteError(w, http.StatusNotFound, err.(*claimcheck.Error))
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
			h.serveExecute(w, r, t, obs)
		}
		return
	}
	httpjson.WriteError(w, http.StatusNotFound, &claimcheck.Error{Code: claimcheck.UnknownTool, Position: claimcheck.NoPosition,
		Message: "no tool resource at " + r.URL.EscapedPath()})
}

// segments splits the escaped path at "/" and unescapes each segment, so an
// escaped "/" (%2F) stays inside its segment. A path not starting with "/"
// or with a bad escape is reported !ok.
func segments(u *url.URL) ([]string, bool) {
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		v, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		segs[i] = v
	}
	return segs, true
}

// allow reports whether r's method is one of methods ("GET, HEAD" form);
// otherwise it answers 405 with the Allow header.
func allow(w http.ResponseWriter, r *http.Request, methods string) bool {
	for m := range strings.SplitSeq(methods, ", ") {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", methods)
	httpjson.WriteError(w, http.StatusMethodNotAllowed, &claimcheck.Error{Code: MethodNotAllowed, Position: claimcheck.NoPosition,
		Message: "method " + r.Method + " not allowed; allowed: " + methods})
	return false
}

func (h *handler) serveExecute(w http.ResponseWriter, r *http.Request, t *schema.Tool, obs *Observation) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if msg := checkMediaType(ct); msg != "" {
			httpjson.WriteError(w, http.StatusUnsupportedMediaType, &claimcheck.Error{Code: UnsupportedMediaType, Position: claimcheck.NoPosition, Message: msg})
			return
		}
	}
	if r.ContentLength > h.maxBody {
		// Refused unread: the server closes the connection rather than
		// draining a body it will not use.
		w.Header().Set("Connection", "close")
		httpjson.WriteError(w, http.StatusRequestEntityTooLarge, h.tooLarge())
		return
	}
	// The body is read before the request waits for a turn: a client that
	// sends slowly holds its own connection and the bytes it has sent, and
	// no check slot.
	body, held, status, e := h.readBody(w, r)
	defer h.budget.release(held)
	obs.BodyBytes = int64(len(body))
	if e != nil {
		if status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		httpjson.WriteError(w, status, e)
		return
	}
	if status != 0 {
		return // the client went away: nobody to answer
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-r.Context().Done():
		return // the client went away while waiting: nobody to answer
	}
	out, err := h.execute(t, body)
	if err != nil {
		var e *claimcheck.Error
		if !errors.As(err, &e) {
			panic(fmt.Sprintf("httpapi: %s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
		}
		httpjson.WriteError(w, statusOf(e.Code), e)
		return
	}
	obs.Verdict = "valid"
	if !out.Valid {
		obs.Verdict = out.Reason
	}
	httpjson.Write(w, r, http.StatusOK, append(out.Doc, '\n'))
}

func (h *handler) tooLarge() *claimcheck.Error {
	return errs.Limit("", "max_document_bytes", "the document is larger than "+strconv.FormatInt(h.maxBody, 10)+" bytes")
}

// readBody reads r's body whole, at most h.maxBody bytes. Every byte of
// buffer is reserved in h.budget before it is filled, and each read has a
// deadline: BodyIdleTimeout from now, but never past BodyTimeout from the
// start. It returns the body and the bytes it holds in the budget (which the
// caller releases, whatever the outcome). On failure it returns the status
// and error document to answer with, or status -1 and no error when the
// client went away.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request) (body []byte, held int64, status int, e *claimcheck.Error) {
	start := time.Now()
	hard := start.Add(h.bodyTimeout)
	rc := http.NewResponseController(w)
	// A writer that cannot set deadlines (a recorder, some middleware) is
	// read without them.
	deadlines := rc.SetReadDeadline(hard) == nil
	if deadlines {
		// Lift the deadline once the body is in: the check may take
		// longer, and net/http's watch for a closed connection reads on.
		defer rc.SetReadDeadline(time.Time{})
	}
	src := http.MaxBytesReader(w, r.Body, h.maxBody)
	// The buffer holds one byte more than a known length, so the read
	// that sees the end needs no growth.
	const initial = 16 << 10
	size := int64(initial)
	if r.ContentLength >= 0 {
		size = min(r.ContentLength+1, 4*initial)
	}
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			grow := max(size, int64(cap(buf))) // double, or the first size
			if r.ContentLength >= 0 {
				grow = min(grow, r.ContentLength+1-int64(cap(buf)))
			}
			grow = min(grow, h.maxBody+1-int64(cap(buf))) // never more than the cap needs
			if grow <= 0 {
				// Not reached: the body ends, or is cut at the cap, first.
				return buf, held, http.StatusRequestEntityTooLarge, h.tooLarge()
			}
			if !h.budget.tryAcquire(grow) {
				ctx, cancel := context.WithDeadline(r.Context(), hard)
				err := h.budget.acquire(ctx, grow)
				cancel()
				if err != nil {
					if r.Context().Err() != nil {
						return buf, held, -1, nil
					}
					return buf, held, http.StatusServiceUnavailable, &claimcheck.Error{Code: Overloaded, Position: claimcheck.NoPosition,
						Message: "too many bodies are being read; try again"}
				}
			}
			held += grow
			nb := make([]byte, len(buf), int64(cap(buf))+grow)
			copy(nb, buf)
			buf = nb
		}
		if deadlines {
			idle := time.Now().Add(h.idleTimeout)
			if idle.After(hard) {
				idle = hard
			}
			rc.SetReadDeadline(idle)
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == nil:
			continue
		case err == io.EOF:
			return buf, held, 0, nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			return buf, held, http.StatusRequestTimeout, &claimcheck.Error{Code: RequestTimeout, Position: claimcheck.NoPosition,
				Message: "the body did not arrive in time"}
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return buf, held, http.StatusRequestEntityTooLarge, h.tooLarge()
		}
		if r.Context().Err() != nil {
			return buf, held, -1, nil
		}
		// A broken chunked body or a connection cut short; the answer
		// most likely goes nowhere, but it is still a JSON one.
		return buf, held, http.StatusBadRequest, errs.Invalid("", "reading the body: "+err.Error())
	}
}

// but a charset only utf-8: RFC 8259 section 8.1), else why not.
func checkMediaType(ct string) string {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "malformed Content-Type " + strconv.Quote(ct)
	}
	if mt != "application/json" {
		return "Content-Type " + strconv.Quote(mt) + " is not application/json"
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return "charset " + strconv.Quote(cs) + " is not utf-8"
	}
	return ""
}

func statusOf(c claimcheck.Code) int {
	switch c {
	case claimcheck.InvalidInput:
		return http.StatusBadRequest
	case claimcheck.LimitExceeded:
		return http.StatusUnprocessableEntity
	case claimcheck.UnknownTool:
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}
