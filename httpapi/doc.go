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
//	POST /v1/tools/{id}/versions/{version}/batch        body: JSON Lines; answer: JSON Lines, streamed
//
// The batch route answers line N of its body with line N of its answer,
// each the bytes `claimcheck batch` writes for it, while the body
// arrives; its counts, and why the server cut it short if it did, are in
// the trailers (TrailerLines, ...; see docs/serving.md). Its lines are
// capped by MaxBodyBytes each and Options.MaxBatchLines in all.
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
//	403  forbidden: a Host (or Origin) that is not an allowed name; package
//	     service answers it, on every route, against DNS rebinding
//	404  unknown_tool: an unknown tool id or version, or any other path under /v1/tools
//	404  not_found: any path outside /v1/tools
//	405  method_not_allowed, with an Allow header, on a route that exists
//	408  request_timeout: the body did not arrive within [Options.BodyTimeout],
//	     or stalled for [Options.BodyIdleTimeout]
//	413  limit_exceeded, path "", limit max_document_bytes: the body (decompressed)
//	     is over [Options.MaxBodyBytes]
//	415  unsupported_media_type: a Content-Type that is not application/json
//	     (parameters allowed; a charset must be utf-8), or none from a browser
//	     (an Origin header), or a Content-Encoding other than gzip
//	416  range_not_satisfiable: a Range that selects nothing of the
//	     playground page's files (package service)
//	422  limit_exceeded: the document is over one of the tool's limits
//	500  internal_error: a handler panicked (a bug); logged once with its stack
//	503  overloaded, with Retry-After: the body (or the answer) could not be
//	     buffered within [Options.MaxBufferedBytes] (answered at once, never
//	     queued), or no turn came free within half of [Options.WriteTimeout]
//
// After a 408, 413, 415 or 503 of an execute request over HTTP/1 the
// connection is closed (Connection: close) and what is left of the body is
// not read; over HTTP/2 the request's stream is reset once answered, and
// the connection's other streams go on.
//
// # Bodies
//
// A POST without a Content-Type is checked as JSON, unless it carries an
// Origin header: a page on any site can make a browser send one without a
// CORS preflight, so it is refused 415 (a cross-site POST of
// application/json needs a preflight, which the handler never grants). A
// body with Content-Encoding gzip is decompressed, and the decompressed
// bytes count against MaxBodyBytes, so a zip bomb is a 413.
//
// The codes invalid_input, limit_exceeded and unknown_tool are the contract's
// (docs/contract.md §5); the others in the table are this package's own
// ([NotFound], [MethodNotAllowed], ...), for failures that concern the HTTP
// request rather than a tool's document. A request is checked in this
// order: route, tool and version (404), method (405), Content-Type (415),
// body size (413), then the document.
//
// # Guarantees
//
// The handler is safe for concurrent use and holds no state between requests
// beyond its concurrency slots and its byte budget. Output and descriptor
// bytes are exactly those of [schema.Execute] and [schema.Tool.MarshalJSON],
// followed by a newline. A declared Content-Length over the cap is refused
// without reading the body.
package httpapi
