package httpjson

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// The codes of request-level failures: failures of an HTTP request itself
// rather than of its document. They are not codes of the tools' contract
// and have no sentinel in package claimcheck; package httpapi re-exports
// them. Every surface builds these errors with the constructors of this
// file and answers them with the status [Status] gives.
const (
	// NotFound: no route for the request's path (404).
	NotFound claimcheck.Code = "not_found"
	// Forbidden: a Host (or Origin) that is not an allowed name, as a
	// page whose name was rebound to the server's address (DNS rebinding)
	// sends (403).
	Forbidden claimcheck.Code = "forbidden"
	// MethodNotAllowed: the route exists but not for the method (405).
	MethodNotAllowed claimcheck.Code = "method_not_allowed"
	// RequestTimeout: the body did not arrive in time, or stalled (408).
	RequestTimeout claimcheck.Code = "request_timeout"
	// UnsupportedMediaType: a Content-Type or Content-Encoding the
	// handler does not read (415).
	UnsupportedMediaType claimcheck.Code = "unsupported_media_type"
	// RangeNotSatisfiable: a Range the page's files cannot satisfy (416).
	RangeNotSatisfiable claimcheck.Code = "range_not_satisfiable"
	// InternalError: a tool panicked, which is a bug (500; exit 3 of the
	// CLI).
	InternalError claimcheck.Code = "internal_error"
	// Overloaded: the request could not be taken in now; try again (503).
	Overloaded claimcheck.Code = "overloaded"
)

// Codes returns the request-level codes, in the order of their statuses.
// The documentation lists the same codes (a test of package httpapi keeps
// the lists equal).
func Codes() []claimcheck.Code {
	return []claimcheck.Code{Forbidden, NotFound, MethodNotAllowed, RequestTimeout, UnsupportedMediaType, RangeNotSatisfiable, InternalError, Overloaded}
}

// Status returns the HTTP status of an answer with error e, for every code
// of the contract and every request-level code:
//
//	400  invalid_input
//	403  forbidden
//	404  unknown_tool, not_found
//	405  method_not_allowed
//	408  request_timeout
//	413  limit_exceeded of max_document_bytes (the request's body)
//	415  unsupported_media_type
//	416  range_not_satisfiable
//	422  limit_exceeded of a tool's limit (the document's content)
//	500  internal_error, and any other code (a bug)
//	503  overloaded
func Status(e *claimcheck.Error) int {
	switch e.Code {
	case claimcheck.InvalidInput:
		return http.StatusBadRequest
	case claimcheck.LimitExceeded:
		if e.Limit == documentLimit {
			return http.StatusRequestEntityTooLarge
		}
		return http.StatusUnprocessableEntity
	case Forbidden:
		return http.StatusForbidden
	case claimcheck.UnknownTool, NotFound:
		return http.StatusNotFound
	case MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case RequestTimeout:
		return http.StatusRequestTimeout
	case UnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case RangeNotSatisfiable:
		return http.StatusRequestedRangeNotSatisfiable
	case Overloaded:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// DefaultMaxDocumentBytes is the default cap on the bytes of one input
// document, on every surface that reads documents from outside (the CLI,
// the HTTP API, MCP): 64 MiB.
const DefaultMaxDocumentBytes = 64 << 20

// documentLimit is the limit of a document over its byte cap.
const documentLimit = "max_document_bytes"

// TooLarge is the error of a document (or line, or message: what) over the
// byte cap max: limit_exceeded at path "", limit max_document_bytes. Its
// message ends with setting, the flag that sets the cap (such as
// "-max-body-bytes"), when that is not "".
func TooLarge(what string, max int64, setting string) *claimcheck.Error {
	msg := what + " is larger than " + strconv.FormatInt(max, 10) + " bytes"
	if setting != "" {
		msg += " (set by " + setting + ")"
	}
	return errs.Limit("", documentLimit, msg)
}

// NoRoute is the not_found error of a request for path.
func NoRoute(r *http.Request) *claimcheck.Error {
	return errs.Coded(NotFound, "no route for "+r.URL.EscapedPath())
}

// NoResource is the unknown_tool error of a path under a tools API's tree
// that names no tool resource.
func NoResource(r *http.Request) *claimcheck.Error {
	return errs.Coded(claimcheck.UnknownTool, "no tool resource at "+r.URL.EscapedPath())
}

// Unsatisfiable is the range_not_satisfiable error of a Range header
// that selects no byte of the resource (its answer carries Content-Range
// "bytes */SIZE", RFC 9110 section 15.5.17, which the caller sets).
func Unsatisfiable() *claimcheck.Error {
	return errs.Coded(RangeNotSatisfiable, "the Range selects no byte of the resource")
}

// Internal is the internal_error error, with msg.
func Internal(msg string) *claimcheck.Error { return errs.Coded(InternalError, msg) }

// Timeout is the request_timeout error of a body that did not arrive in
// time.
func Timeout() *claimcheck.Error {
	return errs.Coded(RequestTimeout, "the body did not arrive in time")
}

// Busy is the overloaded error, with msg; it sets Retry-After on h, as
// every overloaded answer carries it.
func Busy(h http.Header, msg string) *claimcheck.Error {
	h.Set("Retry-After", "1")
	return errs.Coded(Overloaded, msg)
}

// BadBody is the invalid_input error of a body whose reading failed with
// err: a broken chunked or gzip body, or a connection cut short.
func BadBody(err error) *claimcheck.Error { return errs.Invalid("", "reading the body: "+err.Error()) }

// UnsupportedEncoding is the unsupported_media_type error of a
// Content-Encoding ce that is not read.
func UnsupportedEncoding(ce string) *claimcheck.Error {
	return errs.Coded(UnsupportedMediaType, "Content-Encoding "+strconv.Quote(ce)+" is not supported; send gzip or none")
}

// Method returns nil when r's method is one of methods, written as the
// Allow header lists them ("GET, HEAD"); otherwise it sets that Allow
// header on h and returns the method_not_allowed error, and when r has a
// body, marks h as an answer that leaves it unread ([Unread]).
func Method(h http.Header, r *http.Request, methods string) *claimcheck.Error {
	for m := range strings.SplitSeq(methods, ", ") {
		if r.Method == m {
			return nil
		}
	}
	h.Set("Allow", methods)
	if r.ContentLength != 0 {
		Unread(h, r, false)
	}
	return errs.Coded(MethodNotAllowed, "method "+r.Method+" not allowed; allowed: "+methods)
}

// Allow reports whether r's method is one of methods ([Method]); otherwise
// it answers the method_not_allowed error.
func Allow(w http.ResponseWriter, r *http.Request, methods string) bool {
	if e := Method(w.Header(), r, methods); e != nil {
		WriteError(w, e)
		return false
	}
	return true
}

// ContentType returns nil when r's body is to be read as a JSON document,
// else the unsupported_media_type error saying why not. A body is JSON
// when its Content-Type is application/json in any case, with any
// parameters but a charset other than utf-8 (RFC 8259 section 8.1).
//
// A request without a Content-Type is JSON too, for the clients that send
// none (curl --data-binary, scripts), unless it comes from a browser (it
// has an Origin header): a page on any site can send such a POST (fetch
// with a Blob body) without a CORS preflight, and must not make the server
// check documents. A browser's POST of application/json needs a
// preflight, which the server never grants.
func ContentType(r *http.Request) *claimcheck.Error {
	ct := HeaderValue(r.Header, "Content-Type")
	if ct == "" && HeaderValue(r.Header, "Origin") == "" {
		return nil
	}
	if msg := mediaType(ct); msg != "" {
		return errs.Coded(UnsupportedMediaType, msg)
	}
	return nil
}

// Media types of JSON Lines: a batch request's body and its answer.
const (
	JSONLines = "application/jsonl"
	NDJSON    = "application/x-ndjson"
)

// LinesContentType returns the media type of r's body when it is JSON
// Lines: application/jsonl or application/x-ndjson (any case, any
// parameters, but a charset only utf-8), or application/jsonl for a body
// without a Content-Type that no browser sent (no Origin; see
// [ContentType]). Any other is the unsupported_media_type error.
func LinesContentType(r *http.Request) (string, *claimcheck.Error) {
	ct := HeaderValue(r.Header, "Content-Type")
	if ct == "" {
		if HeaderValue(r.Header, "Origin") == "" {
			return JSONLines, nil
		}
		return "", errs.Coded(UnsupportedMediaType, "a browser's POST needs Content-Type application/jsonl")
	}
	switch {
	case strings.EqualFold(ct, JSONLines):
		return JSONLines, nil
	case strings.EqualFold(ct, NDJSON):
		return NDJSON, nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", errs.Coded(UnsupportedMediaType, "malformed Content-Type "+strconv.Quote(ct))
	}
	if mt != JSONLines && mt != NDJSON {
		return "", errs.Coded(UnsupportedMediaType, "Content-Type "+strconv.Quote(mt)+" is not application/jsonl or application/x-ndjson")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return "", errs.Coded(UnsupportedMediaType, "charset "+strconv.Quote(cs)+" is not utf-8")
	}
	return mt, nil
}

// mediaType returns "" for application/json (any case, any parameters,
// but a charset only utf-8), else why not.
func mediaType(ct string) string {
	if ct == "" {
		return "a browser's POST needs Content-Type application/json"
	}
	// What clients send, without mime.ParseMediaType's allocations.
	if strings.EqualFold(ct, "application/json") || strings.EqualFold(ct, "application/json; charset=utf-8") {
		return ""
	}
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

// Accepts reports whether r's Accept header admits an answer of media type
// mt ("application/json"): no Accept header, or a range that matches it
// (mt itself, its type's "type/*", or "*/*", in any case) with a q above
// 0; a more specific range decides over a broader one (RFC 9110 section
// 12.5.1). The tools API answers JSON whatever Accept says, as RFC 9110
// lets a server do; a route that must see a media type accepted (MCP's
// streamable HTTP asks clients to accept two) asks here.
func Accepts(r *http.Request, mt string) bool {
	vals := r.Header.Values("Accept")
	if len(vals) == 0 {
		return true
	}
	typ, _, _ := strings.Cut(mt, "/")
	// The q of the most specific matching range: 3 for mt, 2 for typ/*, 1
	// for */*.
	spec, ok := 0, false
	for _, v := range vals {
		for rng := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(rng, ";")
			name = strings.TrimSpace(name)
			s := 0
			switch {
			case strings.EqualFold(name, mt):
				s = 3
			case strings.EqualFold(name, typ+"/*"):
				s = 2
			case name == "*/*":
				s = 1
			}
			if s == 0 || s < spec {
				continue
			}
			q := acceptQ(params)
			if s > spec {
				spec, ok = s, q
			} else {
				ok = ok || q // the same range twice: either admits it
			}
		}
	}
	return ok
}

// acceptQ reports whether the parameters of an Accept range give it a q
// above 0 (none is q=1).
func acceptQ(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimSpace(v)
			return strings.Trim(v, "0.") != "" // q=0, 0.0, 0.000 refuse
		}
	}
	return true
}
