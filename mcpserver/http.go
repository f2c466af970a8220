package mcpserver

import (
	"net/http"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
)

// NewHTTPHandler returns New(opts).HTTPHandler().
func NewHTTPHandler(opts Options) http.Handler { return New(opts).HTTPHandler() }

// HTTPHandler returns the handler of MCP's streamable HTTP transport,
// stateless (no Mcp-Session-Id: each POST is one exchange, and no
// initialize is needed first) and with application/json answers, never
// event streams. It serves [ModernVersion] and the 2025 revisions on the
// one endpoint, each request at the version it names (see [Server.Answer]);
// at ModernVersion its MCP-Protocol-Version, Mcp-Method and, for
// tools/call, Mcp-Name headers (optional white space trimmed; Mcp-Name
// also as "=?base64?…?=") must match its body.
//
// A body is admitted as the HTTP API admits an execute request's (package
// intake, with this server's options): at most MaxDocumentBytes +
// EnvelopeBytes held (a larger one is followed; see below), read under
// MaxBufferedBytes with BodyTimeout and
// BodyIdleTimeout, and its message answered in a check slot of
// MaxConcurrent (the handler's own; under package service, /mcp and the
// HTTP API share one budget and one set of slots). Every answer is a
// JSON-RPC response in application/json, never a copy of the payload:
//
//   - 200 with the response to the message (or the batch's responses), as
//     [Server.Answer] gives it: a result, or at a 2025 revision an error
//     that carries its request's id, or at ModernVersion an error of a
//     method's own params (-32602: a tool not served, a cursor);
//   - 202 with no body when no response is due (notifications);
//   - 400 for the other errors: at a 2025 revision those without an id
//     (the body is not JSON, or not a request); at ModernVersion every
//     other one, -32700, -32600 (a batch among them) and the protocol
//     refusals -32602 (_meta), -32020 (a header) and -32022 (a version
//     not served, which a 2025 request naming one gets too);
//   - 404 for a method not served at ModernVersion (-32601), the removed
//     initialize and ping among them;
//   - 405, 408, 413, 415 and 503 when the request is refused as the HTTP
//     API refuses an execute request, by the same rules: a method other
//     than POST (405, with Allow: POST; there is no event stream to GET);
//     a body too slow (408); over the hard cap, 2 × (MaxDocumentBytes +
//     EnvelopeBytes) (413, unread when declared); a
//     Content-Type that is not JSON (a charset other than UTF-8 included)
//     or an unsupported Content-Encoding (415); over the memory budget,
//     or no slot in time (503). The answer is -32600 (-32000 for 503)
//     with id null (absent when the MCP-Protocol-Version header names
//     ModernVersion), and the error document the HTTP API answers (for
//     413 limit_exceeded, limit max_document_bytes, of the hard cap) as
//     data, its message as the error's message;
//   - 403 for a Host that is not an allowed name (Options.AllowedHosts)
//     or an Origin that is not an allowed origin (Options.AllowedOrigins),
//     against DNS rebinding and pages of other sites: -32600 as above,
//     with the forbidden error document as data; and 406 for an Accept
//     that does not admit application/json, the one type answered:
//     -32600 with id null (or none, as above).
//
// What is left of the body of a request refused before it was read whole
// (over the cap or the budget, a method other than POST, a type not
// read, a Host or Origin not allowed) is drained once the answer is out,
// within bounds (package intake's Gate.Linger), so that a client that
// writes its whole body before it reads gets the answer.
//
// A body is held up to MaxDocumentBytes + EnvelopeBytes; one over that and
// at most the hard cap is read to its end without being held, followed as
// stdio follows a line over that size (intake's Gate.ReadBodyFollow): the
// hard cap bounds what is read, and twice the held size is what a drain
// after a 413 would read anyway. So a tools/call whose arguments are over
// MaxDocumentBytes is answered as stdio answers it, with a result whose
// isError is true and whose text is the limit_exceeded error document
// (its message naming Options.MaxDocumentBytesFlag), whenever its body is
// within the hard cap; another message over the held size gets -32600
// with that error document of the held size as data. Only a body over the
// hard cap is refused (413), and then its id is not known.
func (s *Server) HTTPHandler() http.Handler {
	o := s.opts
	g := intake.New(intake.Config{MaxBodyBytes: o.maxFrame(), MaxBufferedBytes: o.MaxBufferedBytes,
		MaxConcurrent: o.MaxConcurrent, BodyTimeout: o.BodyTimeout, BodyIdleTimeout: o.BodyIdleTimeout, WriteTimeout: o.WriteTimeout})
	hosts, err := httpjson.ParseHosts(o.AllowedHosts)
	if err != nil {
		panic("mcpserver: AllowedHosts: " + err.Error())
	}
	origins, err := httpjson.ParseOrigins(o.AllowedOrigins)
	if err != nil {
		panic("mcpserver: AllowedOrigins: " + err.Error())
	}
	return &httpHandler{s: s, gate: g, hosts: hosts, origins: origins}
}

type httpHandler struct {
	s       *Server
	gate    *intake.Gate
	hosts   httpjson.Hosts
	origins httpjson.Origins
}

// IntakeGate returns the handler's Gate (intake.Holder), for package service
// to make it share the service's budget and slots.
func (h *httpHandler) IntakeGate() *intake.Gate { return h.gate }

// An httpExchange is what ServeHTTP keeps of one request, in one
// allocation: its MCP headers, and the check slot its calls take from the
// handler's gate (it is the slot's source).
type httpExchange struct {
	h    *httpHandler
	w    http.ResponseWriter
	r    *http.Request
	hdr  headers
	slot slotHolder
}

func (e *httpExchange) take() (func(), *claimcheck.Error) {
	rel, f := e.h.gate.Slot(e.w, e.r)
	switch {
	case f == nil:
		return rel, nil
	case f.Gone():
		return nil, errGone
	}
	return nil, f.Err
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	intake.CloseFaulty(w, r)
	h.serve(w, r)
	h.gate.Linger(w, r) // what an early answer left of the body
}

func (h *httpHandler) serve(w http.ResponseWriter, r *http.Request) {
	hx := &httpExchange{h: h, w: w, r: r}
	hx.hdr.read(r.Header)
	hx.slot.src = hx
	x := &exchange{hdr: &hx.hdr, slot: &hx.slot}
	modern := x.hdr.modern()
	// Refusals before the body is read: no id is known. The method and
	// the media types are judged by the HTTP API's own rules.
	if e := httpjson.Method(w.Header(), r, http.MethodPost); e != nil {
		refuse(w, r, modern, e)
		return
	}
	e := h.hosts.Host(r)
	if e == nil {
		e = h.origins.Check(r)
	}
	if e != nil {
		intake.Unread(w, r)
		refuse(w, r, modern, e)
		return
	}
	if e = httpjson.ContentType(r); e != nil {
		intake.Unread(w, r)
		refuse(w, r, modern, e)
		return
	}
	if !httpjson.Accepts(r, jsonType) {
		intake.Unread(w, r)
		write(w, r, http.StatusNotAcceptable, appendError(nil, nil, modern, CodeInvalidRequest,
			"Accept "+quote(strings.Join(r.Header.Values("Accept"), ", "))+" does not admit "+jsonType+", the one type answered", nil))
		return
	}
	var sc *scanner
	follow := intake.Follower{Hard: h.s.opts.maxFollowed(), Feed: func(p []byte) {
		if sc == nil {
			sc = newScanner(EnvelopeBytes)
		}
		sc.feed(p)
	}}
	body, over, release, f := h.gate.ReadBodyFollow(w, r, follow)
	defer release()
	if f != nil {
		if f.Gone() {
			return
		}
		e := f.Err
		if f.Status == http.StatusRequestEntityTooLarge {
			e = h.s.messageTooLarge(h.s.opts.maxFollowed(), followedRule)
		}
		refuse(w, r, modern, e)
		return
	}
	if over {
		// Followed, not held: answered as stdio answers a line over the
		// frame cap.
		res, status := h.s.answerScanned(x, sc.end(), "", true)
		write(w, r, status, res)
		return
	}
	res, status := h.s.answer(x, body)
	x.slot.done()
	switch {
	case len(res) == 0 && x.slot.refused == errGone:
		// The client went away waiting for a turn.
	case len(res) == 0:
		w.WriteHeader(http.StatusAccepted)
	default:
		write(w, r, status, res)
	}
}

// jsonType is the media type of every answer.
const jsonType = "application/json"

// refuse answers a request refused before its message is read with e: at
// e's status, a JSON-RPC error without an id, of e's message and with e's
// error document as data; -32000 when e is overloaded, else -32600.
func refuse(w http.ResponseWriter, r *http.Request, modern bool, e *claimcheck.Error) {
	code := CodeInvalidRequest
	if e.Code == httpjson.Overloaded {
		code = CodeOverloaded
	}
	write(w, r, httpjson.Status(e), appendError(nil, nil, modern, code, e.Message, e.AppendJSON(nil)))
}

// write answers with status and the JSON-RPC message msg, as the HTTP API
// writes its answers (package httpjson).
func write(w http.ResponseWriter, r *http.Request, status int, msg []byte) {
	httpjson.Write(w, r, status, append(msg, '\n'))
}
