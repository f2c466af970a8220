package mcpserver

import (
	"bytes"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/intake"
)

// NewHTTPHandler returns New(opts).HTTPHandler().
func NewHTTPHandler(opts Options) http.Handler { return New(opts).HTTPHandler() }

// HTTPHandler returns the handler of MCP's streamable HTTP transport,
// stateless (no Mcp-Session-Id: each POST is one exchange, and no
// initialize is needed first) and with application/json answers, never
// event streams.
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
//     [Server.Answer] gives it, including a JSON-RPC error that carries its
//     request's id;
//   - 202 with no body when no response is due (notifications);
//   - 400 when the response is an error with id null (the body is not
//     JSON, or not a request), or the MCP-Protocol-Version header names a
//     version not served;
//   - 403 for a non-loopback Host on a loopback address (DNS rebinding);
//   - 405 for a method other than POST, with Allow: POST (there is no
//     event stream to GET);
//   - 408, 413, 415 and 503 when the body is refused as the HTTP API
//     refuses it (too slow; over the cap, unread when declared; not JSON
//     or an unsupported Content-Encoding; over the memory budget, or no
//     slot in time): -32600 (-32000 for 503) with id null and the HTTP
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
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeJSON(w, http.StatusMethodNotAllowed, appendError(nil, nil, CodeInvalidRequest,
			"method "+r.Method+" not allowed; allowed: POST", nil))
		return
	}
	if !hostAllowed(r) {
		writeJSON(w, http.StatusForbidden, appendError(nil, nil, CodeInvalidRequest, "Host "+quote(r.Host)+" not allowed", nil))
		return
	}
	// As the HTTP API: no Content-Type is JSON, except from a browser.
	if ct := r.Header.Get("Content-Type"); ct != "" || r.Header.Get("Origin") != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			w.Header().Set("Connection", "close") // the body is not read
			writeJSON(w, http.StatusUnsupportedMediaType, appendError(nil, nil, CodeInvalidRequest,
				"Content-Type "+quote(ct)+" is not application/json", nil))
			return
		}
	}
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" && !slices.Contains(ProtocolVersions, v) {
		writeJSON(w, http.StatusBadRequest, appendError(nil, nil, CodeInvalidRequest,
			"MCP-Protocol-Version "+quote(v)+" not served; served: "+strings.Join(ProtocolVersions, ", "), nil))
		return
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
		writeJSON(w, f.Status, appendError(nil, nil, code, e.Message, e))
		return
	}
	slot := &slotHolder{take: func() (func(), *claimcheck.Error) {
		rel, f := h.gate.Slot(w, r)
		switch {
		case f == nil:
			return rel, nil
		case f.Gone():
			return nil, errGone
		}
		return nil, f.Err
	}}
	res := h.s.answer(slot, body)
	slot.done()
	switch {
	case res == nil && slot.refused == errGone:
		// The client went away waiting for a turn.
	case res == nil:
		w.WriteHeader(http.StatusAccepted)
	case slot.refused != nil && bytes.HasPrefix(res, []byte(`{`)):
		writeJSON(w, http.StatusServiceUnavailable, res)
	case bytes.HasPrefix(res, []byte(`{"jsonrpc":"2.0","id":null,`)):
		writeJSON(w, http.StatusBadRequest, res)
	default:
		writeJSON(w, http.StatusOK, res)
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
