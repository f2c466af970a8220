// Package httpapi serves the claimcheck tools over HTTP: [New] returns an
// [http.Handler] that lists the tool descriptors and executes input documents
// with [schema.Execute], [NewServer] wraps one in an [http.Server] with
// every timeout set, and [OpenAPI] describes the routes as an OpenAPI 3.1
// document. The package imports only the standard library (and claimcheck's
// own packages): metrics, access logs and the MCP transport live in the
// packages that serve (metrics, mcpserver, service), built on
// [Options.Observe].
//
// # Routes
//
//	GET  /v1/tools                                      the descriptors, a JSON array in schema.Tools order
//	GET  /v1/tools/{id}/versions/{version}              one descriptor
//	POST /v1/tools/{id}/versions/{version}/execute      body: one input document
//
// HEAD is served wherever GET is. The execute path is the descriptor's
// execute_url ([schema.Tool.ExecuteURL]). Path segments are percent-decoded.
//
// # Status codes
//
// Every response of the handler, success or failure, has Content-Type
// application/json and X-Content-Type-Options nosniff; an error response's
// body is an error document, {"error":{"code":...,"path":...,"message":...}},
// with "position" and "limit" where they apply. The handler never answers
// with HTML or plain text (but see "What net/http answers first" below).
//
//	200  the output document (whatever its verdict), a descriptor, or the list
//	400  invalid_input: the tool refuses the document (malformed JSON included)
//	404  unknown_tool: an unknown tool id or version, or any other path under /v1/tools
//	404  not_found: any path outside /v1/tools
//	405  method_not_allowed, with an Allow header, on a route that exists
//	408  request_timeout: the body did not arrive within [Options.BodyTimeout],
//	     or stalled for [Options.BodyIdleTimeout]; the connection is closed
//	413  limit_exceeded, path "", limit max_document_bytes: the body is over [Options.MaxBodyBytes]
//	415  unsupported_media_type: a Content-Type that is sent and is not
//	     application/json (parameters allowed; a charset must be utf-8)
//	422  limit_exceeded: the document is over one of the tool's limits
//	500  internal_error: a handler panicked (a bug); logged once with its stack
//	503  overloaded, with Retry-After: the body could not be buffered within
//	     [Options.MaxBufferedBytes] before its BodyTimeout
//
// The codes invalid_input, limit_exceeded and unknown_tool are the contract's
// (docs/contract.md); the others are this package's own, for failures that
// concern the HTTP request rather than a tool's document. A request is
// checked in this order: route, tool and version (404), method (405),
// Content-Type (415), declared body size (413), then its body is read (408,
// 413, 503), then the document is checked.
//
// # Slow clients and memory
//
// An execute request's body is read whole before the request waits for a
// check slot ([Options.MaxConcurrent]), so a client that uploads slowly, or
// stops, holds only its own connection and the bytes it has sent: it never
// delays other requests' checks. Each read has a deadline (BodyIdleTimeout
// from the last arrival, never past BodyTimeout from the first read), and
// the bytes of every body held in memory are counted against
// MaxBufferedBytes as they arrive. Memory therefore stays bounded however
// many clients connect: about MaxBufferedBytes plus, for the checks,
// MaxConcurrent × 2 × MaxBodyBytes (a copy and a tape per document).
//
// # What net/http answers first
//
// Some requests never reach the handler: net/http's server answers them
// itself, while parsing, with a plain-text body (text/plain; charset=utf-8)
// and closes the connection. They cannot be made JSON without replacing
// net/http's request parser, so they are documented here instead:
//
//	400  a malformed request line or header (bad method, request target,
//	     header name or value), Content-Length that is negative, not a
//	     number or repeated with different values, HTTP/1.1 without Host
//	417  an Expect header other than 100-continue (empty body)
//	431  request headers over the server's MaxHeaderBytes (plus 4 KiB of slack)
//	501  a Transfer-Encoding other than chunked
//	505  an HTTP version other than 1.0 and 1.1 on a plain-text connection
//
// "OPTIONS *" is answered 200 with an empty body. A client that sends its
// headers slower than ReadHeaderTimeout ([NewServer]) is disconnected
// without an answer. Only requests that are not HTTP as RFC 9112 defines it
// are concerned: a well-formed request always gets the handler's JSON.
//
// # Guarantees
//
// The handler is safe for concurrent use and holds no state between requests
// beyond its concurrency slots and its byte budget. Output and descriptor
// bytes are exactly those of [schema.Execute] and [schema.Tool.MarshalJSON],
// followed by a newline. A declared Content-Length over the cap is refused
// without reading the body.
package httpapi
