package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/schema"
)

// DefaultMaxBodyBytes is the default [Options.MaxBodyBytes]: 64 MiB.
const DefaultMaxBodyBytes = 64 << 20

// Options configure the handler of [New]. The zero value is ready to use.
type Options struct {
	// MaxBodyBytes caps the bytes of an input document; a larger body is
	// answered 413 with limit_exceeded, limit max_document_bytes.
	// Zero or negative means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives one record per recovered panic. Requests are not
	// logged. Nil means slog.Default().
	Logger *slog.Logger
	// MaxConcurrent caps the execute requests whose bodies are read and
	// checked at once; the others wait for a turn (or for their client to
	// go away). It bounds memory to about MaxConcurrent × 3 × MaxBodyBytes
	// (the body, its copy, the tape). Zero or negative means 2 × GOMAXPROCS:
	// the checks are CPU-bound.
	MaxConcurrent int
}

// Error codes of this package, for failures of the HTTP request itself
// rather than of its document. They are not codes of the tools' contract and
// have no sentinel in package claimcheck; the contract's codes
// (claimcheck.InvalidInput, LimitExceeded, UnknownTool) come from the tools.
const (
	// NotFound: no route for the request's path (404).
	NotFound claimcheck.Code = "not_found"
	// MethodNotAllowed: the route exists but not for the method (405).
	MethodNotAllowed claimcheck.Code = "method_not_allowed"
	// UnsupportedMediaType: an execute request whose Content-Type is not
	// JSON (415).
	UnsupportedMediaType claimcheck.Code = "unsupported_media_type"
	// InternalError: a tool panicked, which is a bug (500).
	InternalError claimcheck.Code = "internal_error"
)

// New returns the handler of the routes listed in the package documentation.
func New(opts Options) http.Handler {
	return newHandler(opts, nil)
}

// newHandler is New with the tool execution replaceable, so tests can reach
// the panic path through the real routes; nil means (*schema.Tool).Execute.
func newHandler(opts Options, execute func(*schema.Tool, []byte) ([]byte, error)) http.Handler {
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
	h := &handler{maxBody: opts.MaxBodyBytes, execute: execute, slots: make(chan struct{}, opts.MaxConcurrent)}
	// Descriptors never change: encode them once.
	list := []byte("[")
	for i, t := range schema.Tools() {
		d, _ := t.MarshalJSON()
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, d...)
	}
	h.list = append(list, "]\n"...)
	return recoverer(opts.Logger, h)
}

type handler struct {
	maxBody int64
	slots   chan struct{} // one token per execute request in progress
	list    []byte        // the GET /v1/tools body
	execute func(*schema.Tool, []byte) ([]byte, error)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	segs, ok := segments(r.URL)
	if !ok || len(segs) < 2 || segs[0] != "v1" || segs[1] != "tools" {
		writeError(w, http.StatusNotFound, &claimcheck.Error{Code: NotFound, Position: claimcheck.NoPosition,
			Message: "no route for " + r.URL.EscapedPath()})
		return
	}
	switch {
	case len(segs) == 2:
		if allow(w, r, "GET, HEAD") {
			writeJSON(w, r, http.StatusOK, h.list)
		}
		return
	case (len(segs) == 5 || len(segs) == 6 && segs[5] == "execute") && segs[3] == "versions" && segs[2] != "" && segs[4] != "":
		t, err := schema.Lookup(segs[2], segs[4])
		if err != nil {
			writeError(w, http.StatusNotFound, err.(*claimcheck.Error))
			return
		}
		if len(segs) == 5 {
			if allow(w, r, "GET, HEAD") {
				d, _ := t.MarshalJSON()
				writeJSON(w, r, http.StatusOK, append(d[:len(d):len(d)], '\n'))
			}
			return
		}
		if allow(w, r, "POST") {
			h.serveExecute(w, r, t)
		}
		return
	}
	writeError(w, http.StatusNotFound, &claimcheck.Error{Code: claimcheck.UnknownTool, Position: claimcheck.NoPosition,
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
	writeError(w, http.StatusMethodNotAllowed, &claimcheck.Error{Code: MethodNotAllowed, Position: claimcheck.NoPosition,
		Message: "method " + r.Method + " not allowed; allowed: " + methods})
	return false
}

func (h *handler) serveExecute(w http.ResponseWriter, r *http.Request, t *schema.Tool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if msg := checkMediaType(ct); msg != "" {
			writeError(w, http.StatusUnsupportedMediaType, &claimcheck.Error{Code: UnsupportedMediaType, Position: claimcheck.NoPosition, Message: msg})
			return
		}
	}
	tooLarge := errs.Limit("", "max_document_bytes", "the document is larger than "+strconv.FormatInt(h.maxBody, 10)+" bytes")
	if r.ContentLength > h.maxBody {
		// Refused unread: the server closes the connection rather than
		// draining a body it will not use.
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
		return
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-r.Context().Done():
		return // the client went away while waiting: nobody to answer
	}
	body, err := readBody(w, r, h.maxBody)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
			return
		}
		// The client went away or sent a broken chunked body; the answer
		// most likely goes nowhere, but it is still a JSON one.
		writeError(w, http.StatusBadRequest, errs.Invalid("", "reading the body: "+err.Error()))
		return
	}
	out, err := h.execute(t, body)
	if err != nil {
		var e *claimcheck.Error
		if !errors.As(err, &e) {
			panic(fmt.Sprintf("httpapi: %s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
		}
		writeError(w, statusOf(e.Code), e)
		return
	}
	writeJSON(w, r, http.StatusOK, append(out, '\n'))
}

// readBody reads the whole body, at most max bytes. A known Content-Length
// sizes the buffer once.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, max)
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + 1) // +1: ReadFrom then sees EOF without growing
	}
	_, err := buf.ReadFrom(body)
	return buf.Bytes(), err
}

// checkMediaType returns "" for application/json (any case, any parameters,
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

func writeError(w http.ResponseWriter, status int, e *claimcheck.Error) {
	writeJSON(w, nil, status, append(e.AppendJSON(nil), '\n'))
}

// writeJSON answers with body, leaving it out (but not its length) for a
// HEAD request r; r may be nil for a response that is never to HEAD.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r != nil && r.Method == http.MethodHead {
		return
	}
	w.Write(body) // an error means the client is gone; nothing to do
}

// recoverer turns a panic in h into a 500 with an internal_error document
// (when nothing has been written yet) and logs it once, with its stack.
// http.ErrAbortHandler is re-panicked: it is net/http's way to abort a
// response, not a bug.
func recoverer(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			log.LogAttrs(context.Background(), slog.LevelError, "httpapi: panic serving request",
				slog.String("method", r.Method), slog.String("path", r.URL.EscapedPath()),
				slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
			if tw.wrote {
				// Headers are gone: all that is left is to cut the response
				// short so the client sees it incomplete.
				panic(http.ErrAbortHandler)
			}
			for k := range w.Header() {
				w.Header().Del(k)
			}
			writeError(w, http.StatusInternalServerError, &claimcheck.Error{Code: InternalError, Position: claimcheck.NoPosition,
				Message: "internal error"})
		}()
		h.ServeHTTP(tw, r)
	})
}

// trackingWriter records whether the response has started.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackingWriter) WriteHeader(code int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackingWriter) Write(b []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
