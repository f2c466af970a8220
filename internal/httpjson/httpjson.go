// Package httpjson writes the JSON responses of claimcheck's HTTP handlers
// (packages httpapi, service, mcpserver and the playground page) and records
// what they wrote, so that all answer alike: Content-Type application/json,
// X-Content-Type-Options nosniff, an exact Content-Length, and error
// documents from [claimcheck.Error.AppendJSON]. It is also the one home of
// the request-level error codes ([Codes]), their constructors ([NoRoute],
// [TooLarge], [Busy], ...), the status of every code ([Status]), the
// checks of a request's method and Content-Type ([Method], [ContentType])
// and the document cap's default, which the CLI shares.
package httpjson

import (
	"net/http"
	"strconv"

	"github.com/claimcheck/claimcheck"
)

// Write answers with status and body, leaving the body (but not its
// length) out for a HEAD request r; r may be nil for a response that is
// never to HEAD.
func Write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	// Direct assignment with canonical keys and shared values: Header.Set
	// would canonicalize each key and allocate each value's slice. The
	// shared slices have no spare capacity, so an Add copies them.
	h := w.Header()
	h["Content-Type"] = jsonType
	h["X-Content-Type-Options"] = nosniff
	head := r != nil && r.Method == http.MethodHead
	// An answer that leaves its body unread (Unread) is flushed before the
	// body is drained, while the handler runs: it needs its length set, or
	// net/http would send it chunked.
	if head || len(body) > autoLength || marked(h) {
		h["Content-Length"] = contentLength(len(body))
	}
	w.WriteHeader(status)
	if head {
		return
	}
	w.Write(body) // an error means the client is gone; nothing to do
}

// marked reports whether h carries Unread's mark.
func marked(h http.Header) bool {
	m, _ := Marked(h)
	return m
}

// autoLength is the longest body whose Content-Length Write leaves to
// net/http: a handler's writes that are still buffered when it returns,
// up to 2 KiB on HTTP/1 and 4 KiB on HTTP/2, are sent with their length,
// which then costs the header map nothing. Longer bodies, and HEAD
// answers (no body is written), carry the length Write sets.
const autoLength = 2048

// Header values of Write, shared by every response.
var (
	jsonType = []string{"application/json"}
	nosniff  = []string{"nosniff"}
)

// contentLength returns the Content-Length header value of n bytes.
func contentLength(n int) []string { return []string{strconv.Itoa(n)} }

// WriteError answers with e's status ([Status]) and its error document and
// a newline ([ErrorDoc]), and records e's code when w is a *Recorder.
func WriteError(w http.ResponseWriter, e *claimcheck.Error) { WriteErrorDoc(w, e, ErrorDoc(e)) }

// ErrorDoc returns e's error document and a newline, the body of e's
// answer.
func ErrorDoc(e *claimcheck.Error) []byte { return append(e.AppendJSON(nil), '\n') }

// WriteErrorDoc is WriteError with e's answer body, doc (ErrorDoc(e)),
// made already: by a caller that needed its length first.
func WriteErrorDoc(w http.ResponseWriter, e *claimcheck.Error, doc []byte) {
	if rec, ok := w.(*Recorder); ok {
		rec.Code = e.Code
	}
	Write(w, nil, Status(e), doc)
}

// A Recorder passes a response through and records its status, body bytes
// and, when WriteError wrote it, its error code.
type Recorder struct {
	http.ResponseWriter
	Status int   // 0 until the header is written
	Bytes  int64 // body bytes written
	Code   claimcheck.Code
}

// WriteHeader records the first status written.
func (r *Recorder) WriteHeader(code int) {
	if r.Status == 0 {
		r.Status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write counts the bytes written.
func (r *Recorder) Write(b []byte) (int, error) {
	if r.Status == 0 {
		r.Status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.Bytes += int64(n)
	return n, err
}

// Flush flushes the underlying writer, if it can be (the MCP handler
// streams).
func (r *Recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *Recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// HeaderValue is h.Get(key) for a key already in canonical form, as the
// headers net/http parses are kept: a map lookup, without canonicalizing
// the key on every request.
func HeaderValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
