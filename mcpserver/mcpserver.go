package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/schema"
)

// DefaultMaxDocumentBytes is the default [Options.MaxDocumentBytes]: 64 MiB,
// the CLI's and the HTTP API's default.
const DefaultMaxDocumentBytes = httpjson.DefaultMaxDocumentBytes

// EnvelopeBytes is what a message may hold besides its arguments: a
// message (stdio line, /mcp body) may be MaxDocumentBytes + EnvelopeBytes
// long, so that a document of the largest size fits in one.
const EnvelopeBytes = 64 << 10

// MaxBatch is the most messages a JSON-RPC batch may hold; a larger batch
// is answered with one -32600 error and none of its calls is made.
const MaxBatch = 64

// JSON-RPC 2.0 error codes, as the server answers them.
const (
	// CodeParseError: the message is not one JSON text (-32700).
	CodeParseError = -32700
	// CodeInvalidRequest: a JSON text that is not a request (-32600).
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: a method the server does not serve (-32601).
	CodeMethodNotFound = -32601
	// CodeInvalidParams: params a method cannot take, or a tool not
	// served (-32602).
	CodeInvalidParams = -32602
	// CodeInternalError: a bug (-32603).
	CodeInternalError = -32603
	// CodeOverloaded: no check slot came free in time (HTTP only); the
	// error's data is the overloaded error document. Try again.
	CodeOverloaded = -32000
	// CodeHeaderMismatch: the HTTP headers of a request do not match its
	// body, or one the 2026-07-28 revision requires is missing (-32020).
	CodeHeaderMismatch = -32020
	// CodeUnsupportedVersion: the request's protocol version is not served
	// (-32022); the error's data is {"supported": ProtocolVersions,
	// "requested": the version}.
	CodeUnsupportedVersion = -32022
)

// ProtocolVersions are the MCP protocol versions the server speaks,
// newest first: [ModernVersion], then the 2025 revisions, which an
// initialize negotiates (the client's when it is one of them, else the
// newest of them).
var ProtocolVersions = []string{ModernVersion, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// maxChildren is the most members of a message object (and of its params
// and _meta) that are read; a message with more is not a request.
const maxChildren = 256

// Options configure [New] and [NewHTTPHandler]. The zero value is ready to
// use.
type Options struct {
	// Version is the server version reported to clients; "" means
	// "(devel)".
	Version string
	// MaxDocumentBytes caps the bytes of a call's arguments (the input
	// document). Zero or negative means DefaultMaxDocumentBytes. It is held
	// at math.MaxInt − 1 − EnvelopeBytes, as a message is read into one
	// slice with a byte more to see its end.
	MaxDocumentBytes int64
	// MaxDocumentBytesFlag names the setting that sets MaxDocumentBytes,
	// such as "-max-document-bytes" (claimcheck mcp) or "-max-body-bytes"
	// (claimcheck serve): the message of a limit_exceeded error of a cap
	// that follows from MaxDocumentBytes ends with it, so that its reader
	// knows what to change. "" names none.
	MaxDocumentBytesFlag string
	// MaxConcurrent caps the messages checked at once; the others wait
	// their turn. Zero or negative means 2 × GOMAXPROCS: the checks are
	// CPU-bound.
	MaxConcurrent int
	// MaxBufferedBytes caps the message bytes held in memory at once
	// (stdio: messages read and not yet answered; HTTP: bodies being read,
	// waiting or being checked). Zero or negative means
	// 2 × MaxConcurrent × (MaxDocumentBytes + EnvelopeBytes), at most
	// math.MaxInt64; a value below one message of the largest size is
	// raised to it.
	MaxBufferedBytes int64
	// BodyTimeout, BodyIdleTimeout and WriteTimeout bound the arrival of
	// an HTTP body and the writing of its answer, as httpapi's options of
	// those names do (package intake applies them to both). Zero or
	// negative means httpapi's defaults.
	BodyTimeout, BodyIdleTimeout, WriteTimeout time.Duration
	// Logger receives one record per recovered panic in a tool (a bug).
	// Nil means slog.Default().
	Logger *slog.Logger
	// AllowedHosts lists the host names, besides IP addresses and
	// localhost (and the names under it), that an HTTP request's Host may
	// be; any other is answered 403, whatever address the server listens
	// on: a page whose name its attacker points at the server's address
	// (DNS rebinding) sends its own name. A name may be ".example.com",
	// for example.com and every name under it, or "*" for every name (no
	// check: for a server behind a proxy that checks names itself).
	// [Server.HTTPHandler] panics on an entry that is not a host name.
	AllowedHosts []string
	// AllowedOrigins lists the origins (scheme://host[:port], such as
	// https://app.example.com) whose pages may call the HTTP transport,
	// besides the server's own (an Origin whose host is the request's
	// Host) and those on a loopback address or a localhost name; a request
	// with any other Origin ("null" included) is answered 403, as MCP
	// 2025-11-25 requires. A request without Origin (not from a browser)
	// is served. "*" allows every origin (no check). [Server.HTTPHandler]
	// panics on an entry that is not an origin.
	AllowedOrigins []string
}

func (o Options) withDefaults() Options {
	if o.Version == "" {
		o.Version = "(devel)"
	}
	if o.MaxDocumentBytes <= 0 {
		o.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	o.MaxDocumentBytes = min(o.MaxDocumentBytes, math.MaxInt-1-EnvelopeBytes)
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	frame := o.maxFrame()
	if o.MaxBufferedBytes <= 0 {
		o.MaxBufferedBytes = intake.DefaultBuffered(o.MaxConcurrent, frame)
	}
	o.MaxBufferedBytes = max(o.MaxBufferedBytes, frame+1)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// maxFrame is the largest message read whole.
func (o Options) maxFrame() int64 { return o.MaxDocumentBytes + EnvelopeBytes }

// maxFollowed is the hard cap of an HTTP body: twice maxFrame, held at
// math.MaxInt64. A body over maxFrame and within it is followed, not held.
func (o Options) maxFollowed() int64 {
	return min(o.maxFrame(), math.MaxInt64/2) * 2
}

// A Server answers MCP messages with the claimcheck tools. One Server may
// serve any number of transports at once ([Server.ServeStdio],
// [Server.HTTPHandler]); they share its check slots. It is safe for
// concurrent use.
type Server struct {
	opts    Options
	slots   chan struct{}
	release func() // gives back one of slots; made once, so a take allocates nothing
	// The results of tools/list (list, and at ModernVersion listModern,
	// with its cache hints), initialize and server/discover, and what a
	// result at ModernVersion ends with (modernTail): its resultType and the
	// server's identity.
	list, listModern, init, discover, modernTail []byte
	// execute is the one call of a tool's executor; tests replace it.
	execute func(t *schema.Tool, doc []byte) (schema.Output, error)
}

// New returns a server of the claimcheck tools.
func New(opts Options) *Server {
	opts = opts.withDefaults()
	info := serverInfo(opts.Version)
	list := toolsList(opts.MaxDocumentBytes)
	s := &Server{
		opts:       opts,
		slots:      make(chan struct{}, opts.MaxConcurrent),
		list:       list,
		listModern: withCacheHints(list),
		discover:   discoverResult(),
		init:       info,
		modernTail: append(append([]byte(`,"resultType":"complete","_meta":{"`+metaServerInfo+`":`), info...), '}'),
		execute:    execute,
	}
	s.release = func() { <-s.slots }
	return s
}

// execute runs the tool's executor, the one the CLI's run and the HTTP API
// run: the only place this package calls it.
func execute(t *schema.Tool, doc []byte) (schema.Output, error) { return t.Execute(doc) }

// Answer answers one message (a JSON-RPC request, notification or batch,
// the bytes of one stdio line or one /mcp body) and returns the response
// to send, without a newline, or nil when none is due (notifications, a
// client's responses, or ctx done before a call could take its turn).
//
// A request's protocol version decides how it is answered: the version
// its params._meta names ("io.modelcontextprotocol/protocolVersion", the
// 2026-07-28 revision's claim), else on HTTP its MCP-Protocol-Version
// header, else 2025-03-26. A request at [ModernVersion] is served as that
// revision says (below); one at a 2025 revision as those revisions say, as
// it was before the 2026-07-28 revision was served.
//
// The rules, in order:
//
//  1. A message that is not one JSON text (the grammar of RFC 8259, with
//     nothing before or after it: no byte order mark, no trailing data) is
//     answered -32700. That includes arguments that are not JSON. The
//     error's id is the message's when the envelope around the bad bytes
//     could still be followed, else null (at ModernVersion, whose schema
//     has no null id, absent).
//  2. Exception to 1, as on the CLI, where the size cap comes before the
//     grammar: a tools/call whose arguments are over MaxDocumentBytes gets
//     the limit_exceeded error document (limit max_document_bytes) as a
//     tool error, whatever the arguments hold, when its envelope can be
//     followed.
//  3. A JSON text that is not a request is answered -32600: a member other
//     than jsonrpc, id, method and params, a member repeated, a name or a
//     string of the envelope that is not valid UTF-8, jsonrpc not "2.0",
//     an id that is not a string or a number (null included), a method
//     that is not a string, params that are not an object. A batch
//     (an array) of 1 to MaxBatch messages gets an array of the answers
//     due, in order; an empty or larger batch one -32600 error. At
//     ModernVersion, which has no batches, a batch (one with an element
//     at ModernVersion, or sent with that MCP-Protocol-Version header) is
//     one -32600 error.
//  4. A notification of any method is never answered.
//  5. The protocol version: a claim and a header that disagree are -32020;
//     a version not served is -32022, with the served versions as data. At
//     ModernVersion the claim must be whole (its client capabilities an
//     object; -32602), and on HTTP the MCP-Protocol-Version, Mcp-Method and
//     (for tools/call) Mcp-Name headers must be present and match the body
//     (-32020).
//  6. A method not served is -32601; params a method cannot take are
//     -32602. At ModernVersion the methods are server/discover, tools/list
//     and tools/call (initialize, ping and the others the revision removed
//     are -32601), and every result carries resultType "complete" and
//     the server's identity in its _meta; the 2025 revisions' are
//     initialize (which negotiates one of them), ping, tools/list and
//     tools/call.
//  7. tools/call: params.name is the tool, "ID" as tools/list lists it
//     (the newest version); "ID@VERSION", the CLI's name of a given
//     version, is accepted too but not advertised (tools/list and the
//     descriptions name only the ids, which hosts accept as tool names,
//     where '@' is outside MCP's tool-name characters); a tool not served is -32602 with the unknown_tool
//     error document as the error's data. params.arguments is the input
//     document, its bytes exactly as they are in the message (absent: {}),
//     and the answer is the CLI's: an output document is the result's
//     structuredContent and its text; an error document is its text, with
//     isError true.
func (s *Server) Answer(ctx context.Context, frame []byte) []byte {
	x := &exchange{slot: &slotHolder{src: ownSlots{s, ctx}}}
	defer x.slot.done()
	if res, _ := s.answer(x, frame); len(res) > 0 {
		return res
	}
	return nil
}

// An exchange is the way one message came in: the check slots its calls
// take and, on HTTP, its MCP headers (nil on stdio).
type exchange struct {
	slot *slotHolder
	hdr  *headers
}

// answer is Answer for x, with the HTTP status of the answer (see
// [Server.HTTPHandler]; 0 with no answer).
func (s *Server) answer(x *exchange, frame []byte) ([]byte, int) {
	if int64(len(frame)) > EnvelopeBytes {
		// Reading a large message is work: done in a check slot.
		if !x.slot.get() {
			return x.slot.refuse(rpc{s: s, modern: x.hdr.modern()}, nil)
		}
	}
	if len(frame) == 0 {
		return rpc{s: s, modern: x.hdr.modern()}.fail(nil, CodeParseError, "empty message", nil)
	}
	// The frame is not modified while doc is used, and doc is dropped
	// before Answer returns: the string need not be a copy.
	doc, err := parseTape(view(frame), jsontape.Options{MaxDepth: 3, MaxChildren: maxChildren})
	if err != nil {
		return s.answerMalformed(x, frame, err)
	}
	defer putTape(doc)
	if doc.Nodes[0].Kind != jsontape.Array {
		return s.answerMessage(x, doc, 0, nil)
	}
	return s.answerBatch(x, doc)
}

// tapes are the tapes messages are read into, kept from one message to the
// next: a message's tape is a few dozen nodes, and allocating it and
// growing its stacks anew was 1,400 of the 10,000 instructions of reading
// a 2026-07-28 tools/call.
var tapes = sync.Pool{New: func() any { return new(jsontape.Doc) }}

// maxKeptNodes is the largest tape given back to tapes, so that the
// memory of a rare message of many members is not kept.
const maxKeptNodes = 1024

// parseTape reads src into a tape from tapes, as jsontape.Parse does; give
// it back with putTape once done with it.
func parseTape(src string, opt jsontape.Options) (*jsontape.Doc, error) {
	d := tapes.Get().(*jsontape.Doc)
	if err := d.Parse(src, opt); err != nil {
		putTape(d)
		return nil, err
	}
	return d, nil
}

// putTape empties d, dropping its references to the text it read, and
// gives it back to tapes.
func putTape(d *jsontape.Doc) {
	if cap(d.Nodes) > maxKeptNodes {
		return
	}
	d.Reset()
	tapes.Put(d)
}

// answerBatch answers the batch that doc is.
func (s *Server) answerBatch(x *exchange, doc *jsontape.Doc) ([]byte, int) {
	root := &doc.Nodes[0]
	if x.hdr.modern() || modernBatch(doc) {
		return rpc{s: s, modern: true}.fail(nil, CodeInvalidRequest,
			"a batch is not a message at "+ModernVersion+": send each request on its own", nil)
	}
	if root.Len == 0 || root.Len > MaxBatch {
		return rpc{s: s}.fail(nil, CodeInvalidRequest,
			"a batch holds 1 to "+strconv.Itoa(MaxBatch)+" messages, not "+strconv.Itoa(root.Len), nil)
	}
	out := []byte{'['}
	for i, n := 1, 0; n < root.Len; i, n = doc.Nodes[i].Skip, n+1 {
		mark := len(out)
		if len(out) > 1 {
			out = append(out, ',')
		}
		if r, _ := s.answerMessage(x, doc, i, out); len(r) > len(out) {
			out = r
		} else {
			out = out[:mark]
		}
	}
	if len(out) == 1 {
		return nil, 0 // notifications only
	}
	return append(out, ']'), http.StatusOK
}

// modernBatch reports whether an element of the batch doc names
// ModernVersion in its params._meta.
func modernBatch(doc *jsontape.Doc) bool {
	for i, n := 1, 0; n < doc.Nodes[0].Rec; i, n = doc.Nodes[i].Skip, n+1 {
		if doc.Nodes[i].Kind != jsontape.Object {
			continue
		}
		if c := claimOf(doc, metaNode(doc, member(doc, i, "params"))); c.named && c.version == ModernVersion {
			return true
		}
	}
	return false
}

// slotHolder holds at most one check slot, taken from src: a Server's own
// slots (stdio, Answer), or an HTTP request's from its intake gate.
type slotHolder struct {
	src     slotSource
	release func()
	// refused is the error of a failed take: nil, errGone (nobody waits
	// for the answer) or why no slot came free (overloaded).
	refused *claimcheck.Error
}

// A slotSource hands out check slots: take waits for one and returns its
// release, or why none came (errGone when nobody waits any more).
type slotSource interface {
	take() (release func(), e *claimcheck.Error)
}

// errGone is the failure of a take whose client went away.
var errGone = errs.Coded("gone", "the client went away")

// ownSlots are s's own slots, for a caller waiting on ctx.
type ownSlots struct {
	s   *Server
	ctx context.Context
}

func (o ownSlots) take() (func(), *claimcheck.Error) {
	select {
	case o.s.slots <- struct{}{}:
		return o.s.release, nil
	case <-o.ctx.Done():
		return nil, errGone
	}
}

// get takes a slot unless one is held; it reports whether one is.
func (h *slotHolder) get() bool {
	if h.release != nil {
		return true
	}
	if h.refused != nil {
		return false
	}
	h.release, h.refused = h.src.take()
	return h.refused == nil
}

func (h *slotHolder) done() {
	if h.release != nil {
		h.release()
		h.release = nil
	}
}

// refuse appends the answer of a call that got no slot: nothing when
// nobody waits, else a -32000 error with the overloaded error document.
func (h *slotHolder) refuse(r rpc, dst []byte) ([]byte, int) {
	if h.refused == errGone {
		return dst[:0:0], 0
	}
	return r.fail(dst, CodeOverloaded, h.refused.Message, h.refused.AppendJSON(nil))
}

// request is a message's envelope.
type request struct {
	id        []byte // as sent, the message's own bytes; nil for a notification
	method    string
	params    int    // node index, or -1
	idProblem string // why the id member is not an id
}

// An rpc is the answer being given to one request: its id (nil when it is
// not known) and whether it is at ModernVersion.
type rpc struct {
	s      *Server
	id     []byte
	modern bool
}

// fail appends an error answer, data (when not nil) the JSON of its data,
// and returns it with its HTTP status: 503 for -32000; at the 2025
// revisions 200 when it carries the request's id, else 400; at
// ModernVersion 404 for -32601, else 400.
func (r rpc) fail(dst []byte, code int, msg string, data []byte) ([]byte, int) {
	status := http.StatusBadRequest
	switch {
	case code == CodeOverloaded:
		status = http.StatusServiceUnavailable
	case !r.modern && r.id != nil:
		status = http.StatusOK
	case r.modern && code == CodeMethodNotFound:
		status = http.StatusNotFound
	}
	return appendError(dst, r.id, r.modern, code, msg, data), status
}

// failParams is fail for the params of a method (-32602): an error the
// method gives, sent with 200 at every revision.
func (r rpc) failParams(dst []byte, msg string, e *claimcheck.Error) ([]byte, int) {
	var data []byte
	if e != nil {
		data = e.AppendJSON(nil)
	}
	b, _ := r.fail(dst, CodeInvalidParams, msg, data)
	return b, http.StatusOK
}

// refuse is fail for a protocol refusal: 400 at every revision.
func (r rpc) refuse(dst []byte, f *refusal) ([]byte, int) {
	b, _ := r.fail(dst, f.code, f.msg, f.data)
	return b, http.StatusBadRequest
}

// result appends the answer of result res (a JSON object), ending it at
// ModernVersion with the server's modernTail, and returns it with 200.
func (r rpc) result(dst, res []byte) ([]byte, int) {
	return r.close(append(r.open(dst), res[:len(res)-1]...))
}

// open appends the start of a result answer, up to its result's members.
func (r rpc) open(dst []byte) []byte {
	return append(append(append(dst, `{"jsonrpc":"2.0","id":`...), r.id...), `,"result":`...)
}

// close ends a result answer after its result's members: at ModernVersion
// with the server's modernTail. It returns it with 200.
func (r rpc) close(dst []byte) ([]byte, int) {
	if r.modern {
		dst = append(dst, r.s.modernTail...)
	}
	return append(dst, "}}"...), http.StatusOK
}

// answerMessage appends the answer to the message at node i to dst, or
// returns dst unchanged when none is due, with its HTTP status.
func (s *Server) answerMessage(x *exchange, doc *jsontape.Doc, i int, dst []byte) ([]byte, int) {
	req, problem := envelope(doc, i)
	c := claimOf(doc, metaNode(doc, req.params))
	r := rpc{s: s, id: req.id, modern: x.hdr.modern() || c.named && c.version == ModernVersion}
	if problem != "" {
		return r.fail(dst, CodeInvalidRequest, problem, nil)
	}
	if req.id == nil {
		return dst, 0 // a notification: whatever it is, never answered
	}
	var f *refusal
	if r.modern, f = negotiate(c, x.hdr); f != nil {
		return r.refuse(dst, f)
	}
	if !r.modern {
		return s.legacyMethod(x, r, dst, doc, req)
	}
	if x.hdr != nil {
		name, isName := "", false
		if req.params >= 0 {
			if n := member(doc, req.params, "name"); n >= 0 && doc.Nodes[n].Kind == jsontape.String {
				name, isName = doc.Str(&doc.Nodes[n]), true
			}
		}
		if f := x.hdr.check(req.method, name, isName); f != nil {
			return r.refuse(dst, f)
		}
	}
	switch req.method {
	case "server/discover":
		return r.result(dst, s.discover)
	case "tools/list":
		return s.toolsList(r, dst, doc, req, s.listModern)
	case "tools/call":
		return s.call(x, r, dst, doc, req)
	}
	return r.fail(dst, CodeMethodNotFound, "method "+quote(req.method)+" not found at "+ModernVersion, nil)
}

// legacyMethod answers a request at a 2025 revision.
func (s *Server) legacyMethod(x *exchange, r rpc, dst []byte, doc *jsontape.Doc, req request) ([]byte, int) {
	switch req.method {
	case "initialize":
		return s.initialize(r, dst, doc, req)
	case "ping":
		return r.result(dst, []byte("{}"))
	case "tools/list":
		return s.toolsList(r, dst, doc, req, s.list)
	case "tools/call":
		return s.call(x, r, dst, doc, req)
	}
	return r.fail(dst, CodeMethodNotFound, "method "+quote(req.method)+" not found", nil)
}

// toolsList answers a tools/list with list.
func (s *Server) toolsList(r rpc, dst []byte, doc *jsontape.Doc, req request, list []byte) ([]byte, int) {
	if req.params >= 0 {
		f, problem := fields(doc, req.params, "cursor")
		if problem == "" && f[0] >= 0 {
			problem = "invalid cursor: the list has one page"
		}
		if problem != "" {
			return r.failParams(dst, problem, nil)
		}
	}
	return r.result(dst, list)
}

// envelope reads the message at node i: its members, their types, and
// whether it is a request (with an id) or a notification. It returns the
// reason the message is not a request, or "".
func envelope(doc *jsontape.Doc, i int) (req request, problem string) {
	req.params = -1
	n := &doc.Nodes[i]
	if n.Kind != jsontape.Object {
		return req, "a message is an object, not " + n.Kind.Noun()
	}
	if n.Rec < n.Len {
		return req, "too many members"
	}
	// The id first: an answer carries it whatever else is wrong.
	var jsonrpc, method int = -1, -1
	seen := 0
	for c, m := i+1, 0; m < n.Rec; c, m = doc.Nodes[c].Skip, m+1 {
		mn := &doc.Nodes[c]
		name := doc.Name(mn)
		bit := 0
		switch name {
		case "jsonrpc":
			jsonrpc, bit = c, 1
		case "id":
			bit = 2
			switch v := &doc.Nodes[c]; {
			case v.Kind == jsontape.Number, v.Kind == jsontape.String && validStr(doc, v):
				req.id = viewBytes(doc.Src[v.Start:v.End])
			default:
				req.idProblem = "an id is a string or a number, not " + v.Kind.Noun()
				if v.Kind == jsontape.String {
					req.idProblem = "the id is not valid UTF-8"
				}
			}
		case "method":
			method, bit = c, 4
		case "params":
			req.params, bit = c, 8
		default:
			if !utf8.ValidString(name) {
				problem = "a member name is not valid UTF-8"
			} else if problem == "" {
				problem = "unknown member " + quote(name)
			}
			continue
		}
		if seen&bit != 0 && problem == "" {
			problem = "duplicate member " + quote(name)
		}
		seen |= bit
	}
	if problem == "" && req.idProblem != "" {
		problem = req.idProblem
	}
	if problem == "" {
		switch {
		case jsonrpc < 0:
			problem = `missing member "jsonrpc"`
		case doc.Nodes[jsonrpc].Kind != jsontape.String || doc.Str(&doc.Nodes[jsonrpc]) != "2.0":
			problem = `jsonrpc must be "2.0"`
		case method < 0:
			problem = `missing member "method"`
		case doc.Nodes[method].Kind != jsontape.String:
			problem = "method must be a string, not " + doc.Nodes[method].Kind.Noun()
		case !validStr(doc, &doc.Nodes[method]):
			problem = "the method is not valid UTF-8"
		case req.params >= 0 && doc.Nodes[req.params].Kind != jsontape.Object:
			problem = "params must be an object, not " + doc.Nodes[req.params].Kind.Noun()
		case req.params >= 0 && doc.Nodes[req.params].Rec < doc.Nodes[req.params].Len:
			problem = "params: too many members"
		}
	}
	if problem == "" {
		req.method = doc.Str(&doc.Nodes[method])
	}
	return req, problem
}

// initialize answers an initialize at a 2025 revision: the client's
// protocolVersion when it is one of them, else the newest.
func (s *Server) initialize(r rpc, dst []byte, doc *jsontape.Doc, req request) ([]byte, int) {
	if req.params < 0 {
		return r.failParams(dst, `initialize needs params with "protocolVersion"`, nil)
	}
	f, problem := fields(doc, req.params, "protocolVersion")
	if problem == "" && f[0] >= 0 && doc.Nodes[f[0]].Kind != jsontape.String {
		problem = "protocolVersion must be a string"
	}
	if problem == "" && f[0] < 0 {
		problem = `initialize needs params with "protocolVersion"`
	}
	if problem != "" {
		return r.failParams(dst, problem, nil)
	}
	res := make([]byte, 0, 512)
	res = append(res, `{"protocolVersion":`...)
	res = jsonwire.AppendString(res, legacyVersion(doc.Str(&doc.Nodes[f[0]])))
	res = append(res, `,"capabilities":{"tools":{"listChanged":false}},"serverInfo":`...)
	res = append(res, s.init...)
	res = append(res, `,"instructions":`...)
	res = jsonwire.AppendString(res, instructions)
	res = append(res, '}')
	return r.result(dst, res)
}

const instructions = "Exact checks of claimed results. Call a tool with its input document as the arguments; " +
	"the output document (structuredContent) says whether the claim is valid and, if not, where it first goes wrong. " +
	"A document the tool refuses is a tool error whose text is an error document naming the code, the JSON Pointer " +
	"path and the rule broken: fix the document there and call again. Each tool's description gives its limits and " +
	"where its full rules and examples are (claimcheck help TOOL_ID)."

// serverInfo is the server's Implementation (name, title, version), as
// initialize and the _meta of every result at ModernVersion give it.
func serverInfo(version string) []byte {
	b := []byte(`{"name":"claimcheck","title":"claimcheck","version":`)
	b = jsonwire.AppendString(b, version)
	return append(b, '}')
}

// discoverResult is the result of server/discover (without what every
// result at ModernVersion ends with): the versions served, the tools
// capability, the instructions and the cache hints.
func discoverResult() []byte {
	b := []byte(`{"supportedVersions":[`)
	for i, v := range ProtocolVersions {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, v)
	}
	b = append(b, `],"capabilities":{"tools":{"listChanged":false}},"instructions":`...)
	b = jsonwire.AppendString(b, instructions)
	return withCacheHints(append(b, '}'))
}

// withCacheHints returns a copy of result (a JSON object) with the cache
// hints of the 2026-07-28 revision, ttlMs and cacheScope.
func withCacheHints(result []byte) []byte {
	b := slices.Clone(result[:len(result)-1])
	b = append(b, `,"ttlMs":`...)
	b = strconv.AppendInt(b, cacheTTLMillis, 10)
	b = append(b, `,"cacheScope":`...)
	b = jsonwire.AppendString(b, cacheScope)
	return append(b, '}')
}

// fields finds the members of object node obj of the given names (at most
// four; node indexes, -1 when absent) and returns the first problem: a
// repeated or non-UTF-8 name. Unknown members are no problem: MCP adds
// params members (_meta, task) that this server has no use for.
func fields(doc *jsontape.Doc, obj int, names ...string) (idx [4]int, problem string) {
	idx = [4]int{-1, -1, -1, -1}
	n := &doc.Nodes[obj]
	var seen map[string]bool // past 16 members; before, the names so far are compared
	for c, m := obj+1, 0; m < n.Rec; c, m = doc.Nodes[c].Skip, m+1 {
		name := doc.Name(&doc.Nodes[c])
		if !validName(doc, &doc.Nodes[c]) {
			return idx, "params: a member name is not valid UTF-8"
		}
		if repeated(doc, obj, c, m, name, &seen) {
			return idx, "params: duplicate member " + quote(name)
		}
		if k := slices.Index(names, name); k >= 0 {
			idx[k] = c
		}
	}
	return idx, ""
}

// validName and validStr report whether the name of member node n, or the
// value of string node n, is valid UTF-8: at once when the reader saw no
// byte >= 0x80 and no escape in it (an escape may be a lone surrogate).
func validName(d *jsontape.Doc, n *jsontape.Node) bool {
	return n.NameFlags&(jsonwire.NonASCII|jsonwire.Escaped) == 0 || utf8.ValidString(d.Name(n))
}

func validStr(d *jsontape.Doc, n *jsontape.Node) bool {
	return n.Flags&(jsonwire.NonASCII|jsonwire.Escaped) == 0 || utf8.ValidString(d.Str(n))
}

// repeated reports whether name, the m-th member (node c) of object node
// obj, repeats an earlier member's: by comparing it with each of them up
// to the 16th member, then in a map of all the names, so that the check
// stays linear.
func repeated(doc *jsontape.Doc, obj, c, m int, name string, seen *map[string]bool) bool {
	const small = 16
	switch {
	case m < small:
		for p := obj + 1; p != c; p = doc.Nodes[p].Skip {
			if doc.Name(&doc.Nodes[p]) == name {
				return true
			}
		}
		return false
	case *seen == nil:
		*seen = make(map[string]bool, doc.Nodes[obj].Rec)
		for p := obj + 1; p != c; p = doc.Nodes[p].Skip {
			(*seen)[doc.Name(&doc.Nodes[p])] = true
		}
	}
	if (*seen)[name] {
		return true
	}
	(*seen)[name] = true
	return false
}

// call answers a tools/call.
func (s *Server) call(x *exchange, r rpc, dst []byte, doc *jsontape.Doc, req request) ([]byte, int) {
	if req.params < 0 {
		return r.failParams(dst, `tools/call needs params with "name"`, nil)
	}
	f, problem := fields(doc, req.params, "name", "arguments")
	switch {
	case problem != "":
	case f[0] < 0:
		problem = `tools/call needs params with "name"`
	case doc.Nodes[f[0]].Kind != jsontape.String:
		problem = "params.name must be a string, not " + doc.Nodes[f[0]].Kind.Noun()
	case !validStr(doc, &doc.Nodes[f[0]]):
		problem = "params.name is not valid UTF-8"
	}
	if problem != "" {
		return r.failParams(dst, problem, nil)
	}
	t, e := lookup(doc.Str(&doc.Nodes[f[0]]))
	if e != nil {
		return r.failParams(dst, e.Message, e)
	}
	args := []byte("{}")
	if a := f[1]; a >= 0 {
		n := &doc.Nodes[a]
		args = viewBytes(doc.Src[n.Start:n.End])
	}
	if int64(len(args)) > s.opts.MaxDocumentBytes {
		return r.toolResult(dst, nil, s.tooLarge())
	}
	if !x.slot.get() {
		return x.slot.refuse(r, dst)
	}
	out, e := s.run(t, args)
	return r.toolResult(dst, out, e)
}

// lookup returns the tool a tools/call names: "ID", the newest version,
// or "ID@VERSION". The served tools are looked up once (schema.Lookup
// returns a fresh copy of a descriptor each time, too much for every call);
// a name not among them gets schema's unknown_tool error.
func lookup(name string) (*schema.Tool, *claimcheck.Error) {
	if t := servedTools()[name]; t != nil {
		return t, nil
	}
	id, version, _ := strings.Cut(name, "@")
	t, err := schema.Lookup(id, version)
	if err != nil {
		var e *claimcheck.Error
		if !errors.As(err, &e) {
			e = errs.Coded(claimcheck.UnknownTool, "no tool "+name)
		}
		return nil, e
	}
	return t, nil
}

// servedTools maps "ID" (the newest version) and "ID@VERSION" of every
// served tool to the tool. Nothing changes the Tools it holds.
var servedTools = sync.OnceValue(func() map[string]*schema.Tool {
	m := map[string]*schema.Tool{}
	for _, t := range schema.Tools() {
		m[t.ID+"@"+t.Version] = t
		if newest, err := schema.Lookup(t.ID, ""); err == nil && newest.Version == t.Version {
			m[t.ID] = t
		}
	}
	return m
})

// tooLarge is the error document of arguments over MaxDocumentBytes.
func (s *Server) tooLarge() *claimcheck.Error {
	return httpjson.TooLarge("the document", s.opts.MaxDocumentBytes, s.opts.MaxDocumentBytesFlag)
}

// messageTooLarge is the error document of a message over n bytes, a cap
// that follows from MaxDocumentBytes by the rule how (frameRule,
// followedRule), where F stands for MaxDocumentBytesFlag.
func (s *Server) messageTooLarge(n int64, how string) *claimcheck.Error {
	f := s.opts.MaxDocumentBytesFlag
	if f != "" {
		f = strings.ReplaceAll(how, "F", f)
	}
	return httpjson.TooLarge("the message", n, f)
}

// The rules by which the caps of a message follow from MaxDocumentBytes,
// for messageTooLarge: the frame cap (maxFrame) and HTTP's hard cap
// (maxFollowed).
var (
	frameRule    = "F + " + strconv.Itoa(EnvelopeBytes)
	followedRule = "2 × (" + frameRule + ")"
)

// run executes t on args and returns its output document, or its error
// document as e. A panic (a bug) is logged and answered as an
// internal_error.
func (s *Server) run(t *schema.Tool, args []byte) (out []byte, e *claimcheck.Error) {
	defer func() {
		if v := recover(); v != nil {
			s.opts.Logger.LogAttrs(context.Background(), slog.LevelError, "mcpserver: panic in a tool",
				slog.String("tool", t.ID), slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
			out, e = nil, errs.Coded(codeInternal, "internal error")
		}
	}()
	o, err := s.execute(t, args)
	if err != nil {
		if !errors.As(err, &e) {
			panic(fmt.Sprintf("%s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
		}
		return nil, e
	}
	return o.Doc, nil
}

// codeInternal is the code of the tool error a panic gets.
const codeInternal = httpjson.InternalError

// toolResult appends the answer of a tools/call whose tool gave an output
// document (out) or an error document (e): the document as the text
// content and, for an output document, as structuredContent.
func (r rpc) toolResult(dst, out []byte, e *claimcheck.Error) ([]byte, int) {
	if e != nil {
		out = e.AppendJSON(nil)
	}
	if dst == nil {
		// The answer's size: the document twice, its text escaped (an
		// eighth more is typical), and the envelope.
		dst = make([]byte, 0, 2*len(out)+len(out)/8+len(r.id)+len(r.s.modernTail)+128)
	}
	dst = append(r.open(dst), `{"content":[{"type":"text","text":`...)
	dst = jsonwire.AppendString(dst, view(out))
	if e != nil {
		dst = append(dst, `}],"isError":true`...)
	} else {
		dst = append(append(append(dst, `}],"structuredContent":`...), out...), `,"isError":false`...)
	}
	return r.close(dst)
}

// view returns the bytes of b as a string without a copy, for the readers
// that take strings; b must not change while the string is in use.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// viewBytes is the inverse of view: the bytes of s, a view of a message's
// bytes, without a copy; they must not be changed.
func viewBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// appendError appends an error response, data (when not nil) the JSON of
// its data. A nil id is written null, as JSON-RPC has it; at ModernVersion
// (modern), whose schema has no null id, it is left out.
func appendError(dst, id []byte, modern bool, code int, msg string, data []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0",`...)
	switch {
	case id != nil:
		dst = append(append(append(dst, `"id":`...), id...), ',')
	case !modern:
		dst = append(dst, `"id":null,`...)
	}
	dst = append(dst, `"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(code), 10)
	dst = append(dst, `,"message":`...)
	dst = jsonwire.AppendString(dst, msg)
	if data != nil {
		dst = append(append(dst, `,"data":`...), data...)
	}
	return append(dst, "}}"...)
}

func quote(s string) string { return string(jsonwire.AppendString(nil, s)) }

// answerMalformed answers a frame that is not one JSON text (rules 1 and
// 2 of Answer), following its envelope with a scanner.
func (s *Server) answerMalformed(x *exchange, frame []byte, perr error) ([]byte, int) {
	sc := newScanner(EnvelopeBytes)
	sc.feed(frame)
	return s.answerScanned(x, sc.end(), "not JSON: "+perr.Error(), false)
}

// answerScanned answers a message known from a scan: a tools/call whose
// arguments are over the cap gets limit_exceeded (after the protocol
// checks and the tool's lookup of a message read whole); else the message
// gets -32700 (not JSON) or, when it is over the frame cap (over), -32600.
func (s *Server) answerScanned(x *exchange, sr scanResult, why string, over bool) ([]byte, int) {
	// A _meta read before the bytes went wrong still tells the era.
	c := readClaim(sr.meta)
	r := rpc{s: s, modern: x.hdr.modern() || c.named && c.version == ModernVersion}
	if sr.ok {
		r.id = sr.id
	}
	if r.id != nil && sr.method == "tools/call" && sr.hasArgs && sr.argsLen > s.opts.MaxDocumentBytes {
		var f *refusal
		if r.modern, f = negotiate(c, x.hdr); f == nil && r.modern {
			f = x.hdr.check(sr.method, sr.name, sr.hasName)
		}
		if f != nil {
			return r.refuse(nil, f)
		}
		if _, e := lookup(sr.name); e != nil {
			return r.failParams(nil, e.Message, e)
		}
		return r.toolResult(nil, nil, s.tooLarge())
	}
	if over {
		if r.id == nil && !sr.dup {
			r.id = sr.id // read before whatever made the message too long
		}
		e := s.messageTooLarge(s.opts.maxFrame(), frameRule)
		return r.fail(nil, CodeInvalidRequest, e.Message, e.AppendJSON(nil))
	}
	return r.fail(nil, CodeParseError, why, nil)
}
