package mcpserver

import (
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/claimcheck/claimcheck"
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
// EnvelopeBytes, read under MaxBufferedBytes with BodyTimeout and
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
//   - 403 for a non-loopback Host on a loopback address (DNS rebinding);
//   - 405 for a method other than POST, with Allow: POST (there is no
//     event stream to GET);
//   - 408, 413, 415 and 503 when the body is refused as the HTTP API
//     refuses it (too slow; over the cap, unread when declared; not JSON
//     or an unsupported Content-Encoding; over the memory budget, or no
//     slot in time): -32600 (-32000 for 503) with id null (absent when
//     the MCP-Protocol-Version header names ModernVersion) and the HTTP
//     API's error document (limit_exceeded, limit max_document_bytes, for
//     413) as data.
//
// A tools/call whose arguments are over MaxDocumentBytes by less than
// EnvelopeBytes is answered, as on stdio, with the limit_exceeded tool
// error; one further over is a body over the cap, refused unread (413):
// its id is not known.
func (s *Server) HTTPHandler() http.Handler {
	o := s.opts
	g := intake.New(intake.Config{MaxBodyBytes: o.maxFrame(), MaxBufferedBytes: o.MaxBufferedBytes,
		MaxConcurrent: o.MaxConcurrent, BodyTimeout: o.BodyTimeout, BodyIdleTimeout: o.BodyIdleTimeout, WriteTimeout: o.WriteTimeout})
	return &httpHandler{s: s, gate: g}
}

type httpHandler struct {
	s    *Server
	gate *intake.Gate
}

// IntakeGate returns the handler's Gate (intake.Holder), for package service
// to make it share the service's budget and slots.
func (h *httpHandler) IntakeGate() *intake.Gate { return h.gate }

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x := &exchange{hdr: readHeaders(r.Header)}
	// Refusals before the body is read: no id is known.
	refuse := func(status int, code int, msg string, e *claimcheck.Error) {
		var data []byte
		if e != nil {
			data = e.AppendJSON(nil)
		}
		writeJSON(w, status, appendError(nil, nil, x.hdr.modern(), code, msg, data))
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		refuse(http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed; allowed: POST", nil)
		return
	}
	if !hostAllowed(r) {
		refuse(http.StatusForbidden, CodeInvalidRequest, "Host "+quote(r.Host)+" not allowed", nil)
		return
	}
	// As the HTTP API: no Content-Type is JSON, except from a browser.
	if ct := r.Header.Get("Content-Type"); ct != "" || r.Header.Get("Origin") != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			w.Header().Set("Connection", "close") // the body is not read
			refuse(http.StatusUnsupportedMediaType, CodeInvalidRequest, "Content-Type "+quote(ct)+" is not application/json", nil)
			return
		}
	}
	body, release, f := h.gate.ReadBody(w, r)
	defer release()
	if f != nil {
		if f.Gone() {
			return
		}
		e := f.Err
		if f.Status == http.StatusRequestEntityTooLarge {
			e = h.s.messageTooLarge()
		}
		code := CodeInvalidRequest
		if f.Status == http.StatusServiceUnavailable {
			code = CodeOverloaded
		}
		refuse(f.Status, code, e.Message, e)
		return
	}
	x.slot = &slotHolder{take: func() (func(), *claimcheck.Error) {
		rel, f := h.gate.Slot(w, r)
		switch {
		case f == nil:
			return rel, nil
		case f.Gone():
			return nil, errGone
		}
		return nil, f.Err
	}}
	res, status := h.s.answer(x, body)
	x.slot.done()
	switch {
	case len(res) == 0 && x.slot.refused == errGone:
		// The client went away waiting for a turn.
	case len(res) == 0:
		w.WriteHeader(http.StatusAccepted)
	default:
		writeJSON(w, status, res)
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// hostAllowed refuses a request that came in on a loopback address with a
// Host that is not loopback: a page on another site whose name resolves to
// 127.0.0.1 (DNS rebinding) must not reach a local server.
func hostAllowed(r *http.Request) bool {
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	tcp, ok := la.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
