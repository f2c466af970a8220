package httpjson

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// The codes of request-level failures: failures of an HTTP request itself
// rather than of its document. They are not codes of the tools' contract
// and have no sentinel in package claimcheck; package httpapi re-exports
// the ones it documents. Every surface builds these errors here.
const (
	// NotFound: no route for the request's path (404).
	NotFound claimcheck.Code = "not_found"
	// MethodNotAllowed: the route exists but not for the method (405).
	MethodNotAllowed claimcheck.Code = "method_not_allowed"
	// RequestTimeout: the body did not arrive in time, or stalled (408).
	RequestTimeout claimcheck.Code = "request_timeout"
	// UnsupportedMediaType: a Content-Type or Content-Encoding the
	// handler does not read (415).
	UnsupportedMediaType claimcheck.Code = "unsupported_media_type"
	// InternalError: a tool panicked, which is a bug (500; exit 3 of the
	// CLI).
	InternalError claimcheck.Code = "internal_error"
	// Overloaded: the request could not be taken in now; try again (503).
	Overloaded claimcheck.Code = "overloaded"
)

// DefaultMaxDocumentBytes is the default cap on the bytes of one input
// document, on every surface that reads documents from outside (the CLI,
// the HTTP API, MCP): 64 MiB.
const DefaultMaxDocumentBytes = 64 << 20

// TooLarge is the error of a document (or line, or message: what) over the
// byte cap max: limit_exceeded at path "", limit max_document_bytes.
func TooLarge(what string, max int64) *claimcheck.Error {
	return errs.Limit("", "max_document_bytes", what+" is larger than "+strconv.FormatInt(max, 10)+" bytes")
}

// NoRoute is the not_found error of a request for path.
func NoRoute(r *http.Request) *claimcheck.Error {
	return errs.Coded(NotFound, "no route for "+r.URL.EscapedPath())
}

// Internal is the internal_error error, with msg.
func Internal(msg string) *claimcheck.Error { return errs.Coded(InternalError, msg) }

// Allow reports whether r's method is one of methods, written as the Allow
// header lists them ("GET, HEAD"); otherwise it answers 405
// method_not_allowed with that Allow header.
func Allow(w http.ResponseWriter, r *http.Request, methods string) bool {
	for m := range strings.SplitSeq(methods, ", ") {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", methods)
	WriteError(w, http.StatusMethodNotAllowed, errs.Coded(MethodNotAllowed,
		"method "+r.Method+" not allowed; allowed: "+methods))
	return false
}
