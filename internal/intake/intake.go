// Package intake admits the bodies of requests that carry a document: it
// reads a body under a byte cap, a memory budget shared by every request
// and two deadlines, and hands out the slots in which documents are
// checked. Every route that admits bodies has its own [Gate] (its own cap
// and deadlines); a composition of routes shares one budget and one set of
// slots among them with [Gate.ShareWith], so that one process holds one budget
// and one set of slots (package service does so for httpapi's execute
// route and the MCP endpoint).
//
// A Gate answers nothing itself. When it refuses a request it returns a
// [Failure] (a status and an error document, both from package httpjson,
// the one home of request-level errors: request_timeout, overloaded,
// unsupported_media_type, limit_exceeded of max_document_bytes,
// invalid_input of a broken body) and has set on the response's header what
// that answer needs (Connection: close, Retry-After); the caller writes the
// answer.
//
// The package imports only the standard library and claimcheck's own
// packages.
package intake

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
)

// Defaults of [Config].
const (
	DefaultMaxBodyBytes    = httpjson.DefaultMaxDocumentBytes
	DefaultBodyTimeout     = 60 * time.Second
	DefaultBodyIdleTimeout = 10 * time.Second
	DefaultWriteTimeout    = 30 * time.Second
)

// Config configures [New]. The zero value is ready to use; [Gate.Config]
// reports the values in effect.
type Config struct {
	// MaxBodyBytes caps the bytes of a body, after decompression; a
	// larger one is answered 413 limit_exceeded, limit max_document_bytes.
	// Zero or negative means DefaultMaxBodyBytes. It is held at
	// math.MaxInt − 1, as a body is read into one slice with a byte more
	// to see its end: just under 2 GiB where an int has 32 bits.
	MaxBodyBytes int64
	// MaxBufferedBytes caps the body bytes held in memory at once, summed
	// over the requests being read, waiting for a slot or being checked,
	// and the answers being written, beyond what each connection may hold
	// on its own (ReadAhead bytes). A body holds only what it has been
	// sent: it grows in doubling steps from ReadAhead bytes as its bytes
	// arrive, so it holds at most twice what it has received beyond
	// ReadAhead. A request never waits for these bytes: it takes each
	// step at once or is answered 503 overloaded at once (see
	// [Gate.ReadBody]). A sixteenth of it (at least 64 KiB, but never so
	// much that a body of MaxBodyBytes no longer fits) is kept for bodies
	// of at most 64 KiB, so small requests are admitted while large
	// uploads hold the rest. Zero or negative means 2 × MaxConcurrent ×
	// MaxBodyBytes (at most math.MaxInt64); a value below MaxBodyBytes+1
	// is raised to it.
	MaxBufferedBytes int64
	// MaxConcurrent caps the slots: the documents checked at once. Zero or
	// negative means 2 × GOMAXPROCS.
	MaxConcurrent int
	// BodyTimeout caps the time a body may take to arrive, from the call
	// of ReadBody; a body still incomplete then is answered 408
	// request_timeout. Zero or negative means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// BodyIdleTimeout caps the time between two arrivals of body bytes
	// (the first counted from the call of ReadBody); an upload that
	// stalls this long is answered 408 request_timeout.
	// Zero or negative means DefaultBodyIdleTimeout; a value above
	// BodyTimeout is lowered to it.
	BodyIdleTimeout time.Duration
	// WriteTimeout is the time an answer has to be written once the body
	// is in or refused: ReadBody and Slot set the connection's write
	// deadline that far ahead, so an early answer (408, 413, 503) is
	// always delivered to a client that reads it. A request waits for a
	// slot at most half of it. Zero or negative means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// LingerBytes and LingerTime bound the drain of what is left of a
	// body after an early answer ([Gate.Linger]): it reads at most
	// LingerBytes, for at most LingerTime. Zero or negative means the
	// larger of DefaultLingerBytes and 2 × MaxBodyBytes (at most
	// math.MaxInt64), and DefaultLingerTime.
	LingerBytes int64
	LingerTime  time.Duration
}

// Lifetime returns the longest time a request spends in a Gate, from the
// call of ReadBody to the end of its answer (a check that outlasts its
// write deadline loses its answer), or of the drain after an early answer
// (Linger): BodyTimeout + the longer of 1.5 × WriteTimeout and
// WriteTimeout + LingerTime (c with its defaults filled in). A server's
// shutdown timeout must be longer than this.
func (c Config) Lifetime() time.Duration {
	return c.BodyTimeout + max(c.WriteTimeout*3/2, c.WriteTimeout+c.LingerTime)
}

// A Gate admits request bodies and hands out check slots. It is safe for
// concurrent use.
type Gate struct {
	cfg     Config
	slots   chan struct{}
	release func() // gives back a slot; made once, so Slot allocates nothing
	parent  *Gate  // the Gate whose budget and slots this one takes (ShareWith), or nil
	budget  *budget
	streams streams // the streams being read (of the Gate they share)
}

// DefaultBuffered is the budget a Gate (and mcpserver's stdio) defaults to
// for concurrent (> 0) checks of bodies of at most size bytes: two bodies
// per check, 2 × concurrent × size, held at math.MaxInt64 where the
// product would pass it.
func DefaultBuffered(concurrent int, size int64) int64 {
	b := 2 * int64(concurrent) * size
	if b/2/int64(concurrent) != size {
		return math.MaxInt64
	}
	return b
}

// New returns a Gate configured by c (defaults filled in).
func New(c Config) *Gate {
	c = c.WithDefaults()
	reserve := min(max(c.MaxBufferedBytes/16, smallBody), c.MaxBufferedBytes-(c.MaxBodyBytes+1))
	g := &Gate{cfg: c, slots: make(chan struct{}, c.MaxConcurrent), budget: newBudget(c.MaxBufferedBytes, reserve)}
	g.release = func() { <-g.slots }
	return g
}

// WithDefaults returns c with the defaults filled in and each value held
// in its range, as a Gate made with it holds it ([Gate.Config]).
func (c Config) WithDefaults() Config {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	c.MaxBodyBytes = min(c.MaxBodyBytes, math.MaxInt-1)
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if c.MaxBufferedBytes <= 0 {
		c.MaxBufferedBytes = DefaultBuffered(c.MaxConcurrent, c.MaxBodyBytes)
	}
	// A body of MaxBodyBytes is read into a buffer of one byte more, to
	// see its end; such a body must always fit.
	c.MaxBufferedBytes = max(c.MaxBufferedBytes, c.MaxBodyBytes+1)
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = DefaultBodyTimeout
	}
	if c.BodyIdleTimeout <= 0 {
		c.BodyIdleTimeout = DefaultBodyIdleTimeout
	}
	c.BodyIdleTimeout = min(c.BodyIdleTimeout, c.BodyTimeout)
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.LingerBytes <= 0 {
		c.LingerBytes = max(DefaultLingerBytes, min(c.MaxBodyBytes, math.MaxInt64/2)*2)
	}
	if c.LingerTime <= 0 {
		c.LingerTime = DefaultLingerTime
	}
	return c
}

// Config returns the configuration in effect, defaults filled in.
func (g *Gate) Config() Config { return g.cfg }

// ShareWith makes g take the bytes of the bodies it reads from p's budget
// and the slots it hands out from p's slots, instead of its own; its own
// cap, deadlines and answers are unchanged. A server in front of several
// routes, each with its own Gate, shares one budget and one set of slots
// among them this way: whichever route a request reaches, the bytes and
// slots it holds are counted once, in p. Call it before g serves; a
// handler used on its own keeps its own budget and slots.
//
// p must admit a body of the largest cap among those Gates: its
// MaxBodyBytes is at least theirs (else a body below a route's cap may not
// fit p's budget at all, and is answered 503).
func (g *Gate) ShareWith(p *Gate) { g.parent = p }

// A Holder is a handler built on a Gate (httpapi's and mcpserver's), whose
// Gate a server can make share another's (ShareWith). Only this module can
// name the type it returns.
type Holder interface{ IntakeGate() *Gate }

// shared returns the Gate whose budget and slots g's requests take: the one
// g shares, else g. r is the request (kept for the callers' symmetry).
func (g *Gate) shared(_ *http.Request) *Gate {
	if g.parent != nil {
		return g.parent
	}
	return g
}

// Free returns the bytes of the budget not held by any request now; it is
// Config().MaxBufferedBytes when no body is held.
func (g *Gate) Free() int64 { return g.budget.free.Load() }

// A Failure is the answer a Gate gives instead of admitting a request.
type Failure struct {
	// Status is the HTTP status to answer with, httpjson.Status(Err), or 0
	// when the client went away and there is nobody to answer (then Err is
	// nil).
	Status int
	// Err is the error document to answer with.
	Err *claimcheck.Error
}

// fail returns the Failure that answers e.
func fail(e *claimcheck.Error) *Failure { return &Failure{Status: httpjson.Status(e), Err: e} }

// Gone reports whether the client went away: there is nothing to answer.
func (f *Failure) Gone() bool { return f.Status == 0 }

// TooLarge returns the error document of a body over MaxBodyBytes.
func (g *Gate) TooLarge() *claimcheck.Error {
	return httpjson.TooLarge("the document", g.cfg.MaxBodyBytes, "")
}

func noop() {}

var gone = &Failure{}

func overloaded(w http.ResponseWriter, msg string) *Failure {
	return fail(httpjson.Busy(w.Header(), msg))
}

// ReadAhead is what a connection may hold of a body being read, or of an
// answer being written, beyond the budget: a body of up to ReadAhead − 1
// bytes (its buffer has a byte more, to see its end) takes nothing from
// MaxBufferedBytes, and a larger one takes only what it holds beyond
// ReadAhead. It is net/http's own read buffer of a connection (4 KiB),
// where the first bytes of a body arrive with its headers; a server's
// memory bound counts it once per connection (see docs/serving.md).
const ReadAhead = 4 << 10

// contentEncoding reads r's Content-Encoding: whether the body is gzip
// (gzip or x-gzip), or the refusal of any coding but those and identity.
func contentEncoding(r *http.Request) (gz bool, f *Failure) {
	switch ce := httpjson.HeaderValue(r.Header, "Content-Encoding"); {
	case ce == "" || strings.EqualFold(ce, "identity"):
	case strings.EqualFold(ce, "gzip") || strings.EqualFold(ce, "x-gzip"):
		gz = true
	default:
		f = fail(httpjson.UnsupportedEncoding(ce))
	}
	return gz, f
}

// ReadBody reads r's body whole, at most MaxBodyBytes after
// decompression, under the budget and the deadlines. On success it
// returns the body and release, which gives the body's bytes back to the
// budget: call it once, when done with the body (after the check). On
// failure it returns f, has given back everything it took, and has set on
// w's header what the answer needs; body then holds the bytes read before
// the failure, to count them only.
//
// A body holds budget only for bytes it has been sent. Its buffer starts
// at ReadAhead bytes (or its declared length and a byte, if less), which
// the connection holds on its own, and doubles whenever it is full, up to
// its declared length and a byte (or MaxBodyBytes and a byte, for a body
// of unknown length: chunked, or compressed); each step beyond ReadAhead
// is taken from the budget before the bytes that fill it are read, so a
// body holds at most twice what it has received, and one that trickles
// holds nothing. Admission never waits: a step the budget cannot give is
// answered 503 overloaded at once, giving back all the body held, so the
// budget cannot deadlock; and a body whose declared length does not fit
// what the budget has free when it arrives is answered 503 unread. A body
// of at most 64 KiB (declared, or so far for one of unknown length) may
// take from the reserve, which larger bodies, however slowly they arrive,
// may not touch.
//
// A declared Content-Length over the cap is answered 413 unread. A body
// with Content-Encoding gzip is decompressed, and its decompressed bytes
// count against the cap (a zip bomb is answered 413); identity is the
// same as none; any other coding is answered 415 unsupported_media_type.
//
// Deadlines: the body must be in within BodyTimeout, with no gap over
// BodyIdleTimeout (else 408). A refusal of an HTTP/1 request sets
// Connection: close and ends the connection's reading at once, so that
// net/http does not read on through what is left of the body on its own
// (without a bound of time); what is left is drained by [Gate.Linger]
// once the answer is out, within its bounds (not after a 408). On HTTP/2
// a refusal ends its stream only (the server resets it once answered),
// never the connection and its other streams. The
// write deadline is set WriteTimeout past the end of the reading, and the
// read deadline moved there too (see answerBy). Deadlines are set through
// [http.ResponseController], or on the connection itself for an HTTP/1
// request whose server has [ConnContext]; a writer that cannot set them
// is read without them.
func (g *Gate) ReadBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), f *Failure) {
	body, _, release, f = g.readBody(w, r, nil)
	return body, release, f
}

// A Follower is what [Gate.ReadBodyFollow] hands the bytes of a body over
// MaxBodyBytes to: Hard caps the bytes of such a body (after
// decompression), and Feed is called with each run of its bytes in order,
// from the first, each run valid only during the call.
type Follower struct {
	Hard int64
	Feed func(p []byte)
}

// ReadBodyFollow is ReadBody for a route that answers a body over
// MaxBodyBytes itself (package mcpserver: a tools/call whose arguments are
// over its cap gets a tool error, not a 413): a body over MaxBodyBytes and
// at most fw.Hard bytes is read to its end, as ReadBody reads a body (the
// same budget and deadlines), but its bytes are handed to fw.Feed as they
// arrive instead of held: over reports such a body, and body is then
// empty. What it holds is what a body of MaxBodyBytes holds, its buffer
// being reused for the rest: memory stays bounded by MaxBodyBytes, and
// what is read by fw.Hard. A body over fw.Hard (declared, or once read)
// is answered 413, as ReadBody answers one over MaxBodyBytes.
func (g *Gate) ReadBodyFollow(w http.ResponseWriter, r *http.Request, fw Follower) (body []byte, over bool, release func(), f *Failure) {
	return g.readBody(w, r, &fw)
}

func (g *Gate) readBody(w http.ResponseWriter, r *http.Request, fw *Follower) (body []byte, over bool, release func(), f *Failure) {
	rc := http.NewResponseController(w)
	gz, f := contentEncoding(r)
	if f == nil && r.ContentLength > g.hardCap(fw) {
		f = fail(g.TooLarge())
	}
	b := g.shared(r).budget
	var held int64
	started := false // whether the body's reading began (and 100 Continue went out)
	if f == nil {
		body, held, started, over, f = g.read(w, r, rc, gz, fw)
	}
	if f != nil {
		b.give(held)
		refuse(w, r, rc, g.cfg.WriteTimeout, f, started)
		return body, false, noop, f
	}
	if over {
		b.give(held)
		return nil, true, noop, nil
	}
	if held == 0 {
		return body, false, noop, nil
	}
	return body, false, func() { b.give(held) }, nil
}

// hardCap is the most bytes of a body read: MaxBodyBytes, or with fw the
// larger of it and fw.Hard.
func (g *Gate) hardCap(fw *Follower) int64 {
	if fw == nil {
		return g.cfg.MaxBodyBytes
	}
	return max(g.cfg.MaxBodyBytes, fw.Hard)
}

// Unread readies w for an answer to r that leaves r's body unread: a
// refusal before ReadBody, such as a Content-Type that is not JSON
// (httpjson.ContentType). An HTTP/1 connection is closed after the
// answer, so that the server does not read on through what is left of
// the body, and the rest of the body is drained first ([Gate.Linger]);
// an HTTP/2 stream is reset once answered, and the connection's other
// streams go on.
func Unread(w http.ResponseWriter, r *http.Request) { httpjson.Unread(w.Header(), r, false) }

// CloseFaulty readies w for the answer to r: on HTTP/1, a request whose
// framing RFC 9112 section 6.1 calls faulty is answered with Connection:
// close, so that no byte after it on its connection is read as a request.
// That is one with Transfer-Encoding (net/http reads its body by that
// alone and drops a Content-Length beside it, where a proxy in front that
// went by the Content-Length would pass the rest on as the next request:
// request smuggling), or an HTTP/1.0 request with a body (net/http ignores
// Transfer-Encoding in HTTP/1.0 and reads by Content-Length). The request
// itself is served as usual. Every handler of the module that can be
// served on its own calls it first.
func CloseFaulty(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 1 && (len(r.TransferEncoding) > 0 || r.ProtoMinor == 0 && r.ContentLength != 0) {
		w.Header().Set("Connection", "close")
	}
}

// refuse readies the connection for an early answer: on HTTP/1 it is
// closed after the answer and nothing more of it is read now (net/http
// would otherwise drain up to 256 KiB of the body after the handler, with
// no deadline); the answer has writeTimeout to go out. Unless the body
// was too slow (408: waiting for more of it helps nobody) or the client
// is gone, the answer is marked for Linger, which drains what is left of
// the body, within its bounds, once the answer is out. partial says that
// some of the body was read (so 100 Continue went out, if asked for).
func refuse(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, writeTimeout time.Duration, f *Failure, partial bool) {
	now := time.Now()
	if r.ProtoMajor == 1 {
		if f.Gone() || f.Status == http.StatusRequestTimeout {
			w.Header().Set("Connection", "close")
		} else {
			httpjson.Unread(w.Header(), r, partial)
		}
		rc.SetReadDeadline(now)
	}
	rc.SetWriteDeadline(now.Add(writeTimeout))
}

// Bounds of the drain after an early answer ([Gate.Linger]), where a
// Config leaves them zero.
const (
	// DefaultLingerTime is the longest a drain lasts: enough for a client
	// on a link of 100 Mbit/s to finish sending a body of 64 MiB (the
	// default cap) that it started to send with its headers.
	DefaultLingerTime = 5 * time.Second
	// DefaultLingerBytes is the least a drain reads before it gives up:
	// twice the default cap, so that a body of a size a client of a
	// server with default flags may send (the cap, and /mcp's envelope)
	// is drained whole whatever the cap of this one. A Gate drains twice
	// its own cap when that is more.
	DefaultLingerBytes = 2 * DefaultMaxBodyBytes
)

// Linger drains what is left of r's body after an early answer that
// Unread (or a refusal of ReadBody) marked, with the default bounds
// (DefaultLingerBytes, DefaultLingerTime): see [Gate.Linger]. An answer
// that is not marked, or was drained already, is left as it is.
func Linger(w http.ResponseWriter, r *http.Request) {
	linger(w, r, DefaultLingerBytes, DefaultLingerTime)
}

// Linger drains what is left of r's body after an early answer that
// Unread or a refusal of ReadBody marked (HTTP/1 only), so that a client
// that writes its whole body before it reads its answer (Python's
// http.client, Node's fetch) gets the answer instead of a reset: closing a
// connection with unread bytes in it makes the kernel send RST, which
// discards the answer the client has not read yet. It is a lingering
// close, as nginx's: call it once the answer is written, when the handler
// is done with everything else (it holds no budget and no slot; a
// handler whose Gate shares another's (ShareWith) leaves it to that
// composition, and it does nothing then). It flushes the answer, then
// reads and discards the body until its end, LingerBytes (at least twice
// MaxBodyBytes), or LingerTime (and never longer than the server's
// ReadTimeout), whichever comes first; a body that goes on past them is
// cut: the connection is closed with what is left unread. The connection
// counts as an upload for the room a listener of package connlimit makes
// (the slowest goes first). A body refused before a byte of it was read
// whose client asked for 100 Continue is not drained: it is not coming.
// An answer not so marked, or drained already, is left as it is.
func (g *Gate) Linger(w http.ResponseWriter, r *http.Request) {
	if g.parent != nil {
		return
	}
	linger(w, r, g.cfg.LingerBytes, g.cfg.LingerTime)
}

func linger(w http.ResponseWriter, r *http.Request, maxBytes int64, maxTime time.Duration) {
	h := w.Header()
	marked, partial := httpjson.Marked(h)
	if !marked {
		return
	}
	httpjson.Lingered(h)
	if r.ContentLength == 0 || !partial && strings.EqualFold(httpjson.HeaderValue(r.Header, "Expect"), "100-continue") {
		return
	}
	rc := http.NewResponseController(w)
	rc.EnableFullDuplex() // on HTTP/1, reading after the answer is flushed
	if rc.Flush() != nil {
		return
	}
	now := time.Now()
	end := now.Add(maxTime)
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 {
		end = minTime(end, now.Add(srv.ReadTimeout))
	}
	if rc.SetReadDeadline(end) != nil {
		return // no bound on the time: nothing is read
	}
	var src io.Reader = r.Body
	if u, ok := Conn(r).(uploader); ok {
		u.Uploading(0)
		defer u.Uploading(-1)
		src = &uploadCounter{r: r.Body, up: u}
	}
	n, err := io.CopyN(io.Discard, src, maxBytes)
	if err == nil || n == maxBytes || errors.Is(err, os.ErrDeadlineExceeded) {
		// Cut: what is left stays unread, and net/http reads no more of it.
		rc.SetReadDeadline(time.Now())
	}
}

// An uploadCounter tells up of the bytes read from r.
type uploadCounter struct {
	r  io.Reader
	up uploader
	n  int64
}

func (c *uploadCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.n += int64(n)
		c.up.Uploading(c.n)
	}
	return n, err
}

// An uploader is a connection that is told how the reading of a body on it
// goes (package connlimit's, which closes the slowest upload first when it
// must make room): Uploading(n) with the bytes read so far, from 0 when
// the reading starts, and Uploading(-1) when it ends.
type uploader interface{ Uploading(n int64) }

func (g *Gate) read(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, gz bool, fw *Follower) (body []byte, held int64, started, over bool, f *Failure) {
	b := g.shared(r).budget
	start := time.Now()
	hard := start.Add(g.cfg.BodyTimeout)
	// The first read's deadline: the first bytes are due BodyIdleTimeout
	// after the call (or at the hard deadline, if sooner). Each later read
	// moves it on (setIdle). One call both sets it and finds out whether
	// w can set deadlines at all.
	deadlines := rc.SetReadDeadline(minTime(start.Add(g.cfg.BodyIdleTimeout), hard)) == nil
	if deadlines && r.ProtoMajor >= 2 {
		// An answer at any time while reading has WriteTimeout to go out:
		// HTTP/2 resets a stream whose write deadline passes, even while
		// its body is being read. (An HTTP/1 write deadline only bounds
		// the socket's writes, and every answer sets it before writing:
		// refuse, or the end of the body.)
		rc.SetWriteDeadline(hard.Add(g.cfg.WriteTimeout))
	}
	// The connection of an HTTP/1 request, for its deadlines (answerBy)
	// and to tell it of the upload.
	var nc net.Conn
	var up uploader
	if r.ProtoMajor == 1 {
		nc = netConn(r)
		if u, ok := unwrap(nc).(uploader); ok {
			up = u
			up.Uploading(0)
			defer up.Uploading(-1)
		}
	}
	maxBody, most := g.cfg.MaxBodyBytes, g.hardCap(fw)
	known := r.ContentLength >= 0 && !gz
	// The buffer's last capacity: the declared length, or the cap, and
	// the byte that shows the end without growing the buffer. A declared
	// length is at most the hard cap (see readBody), and net/http ends the body
	// there: only a body of unknown length needs the cap.
	limit := maxBody + 1
	var src io.Reader = r.Body
	if !known {
		src = http.MaxBytesReader(w, r.Body, most)
	} else if r.ContentLength <= maxBody {
		limit = r.ContentLength + 1
	}
	small := known && limit <= smallBody
	if known && limit > ReadAhead && !b.fits(limit-ReadAhead, small) {
		return nil, 0, false, false, overloaded(w, "too many bodies are being read; try again")
	}
	started = true // each path below reads
	buf := make([]byte, 0, min(limit, ReadAhead))
	first := true
	setIdle := func() {
		if first { // set above
			first = false
			return
		}
		if deadlines {
			rc.SetReadDeadline(minTime(time.Now().Add(g.cfg.BodyIdleTimeout), hard))
		}
	}
	if gz {
		setIdle()
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, held, started, false, g.readFailure(r, err)
		}
		src = zr
	}
	for {
		if len(buf) == cap(buf) {
			if int64(cap(buf)) == limit {
				// Reached with a known length only when it is over
				// maxBody (followed): such a body ends, or is cut at the
				// cap, first. Decompressed bytes are cut here.
				if fw == nil {
					return buf, held, started, false, fail(g.TooLarge())
				}
				f = g.follow(r, src, buf, most, fw.Feed, setIdle, up)
				if f == nil && deadlines {
					answerBy(nc, rc, time.Now().Add(g.cfg.WriteTimeout))
				}
				return nil, held, started, f == nil, f
			}
			next := min(2*int64(cap(buf)), limit)
			if !b.take(next-ReadAhead-held, small || !known && next <= smallBody) {
				return buf, held, started, false, overloaded(w, "too many bodies are being read; try again")
			}
			held = next - ReadAhead
			buf = slices.Grow(buf, int(next)-len(buf))[:len(buf):next]
		}
		setIdle()
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if up != nil && n > 0 {
			up.Uploading(int64(len(buf)))
		}
		switch {
		case err == nil:
			continue
		case err == io.EOF:
			if deadlines {
				answerBy(nc, rc, time.Now().Add(g.cfg.WriteTimeout))
			}
			return buf, held, started, false, nil
		}
		return buf, held, started, false, g.readFailure(r, err)
	}
}

// follow reads the rest of a body over MaxBodyBytes from src, of which buf
// (full) holds the first bytes, reusing buf: it hands every byte to feed,
// and fails at once (413) when the body is over hard bytes. setIdle moves
// the idle deadline before each read, and up (when not nil) is told of the
// bytes read so far.
func (g *Gate) follow(r *http.Request, src io.Reader, buf []byte, hard int64, feed func([]byte), setIdle func(), up uploader) *Failure {
	total := int64(len(buf))
	feed(buf)
	buf = buf[:cap(buf)]
	for {
		setIdle()
		n, err := src.Read(buf)
		total += int64(n)
		if total > hard {
			return fail(g.TooLarge())
		}
		if n > 0 {
			feed(buf[:n])
			if up != nil {
				up.Uploading(total)
			}
		}
		switch {
		case err == nil:
		case err == io.EOF:
			return nil
		default:
			return g.readFailure(r, err)
		}
	}
}

// Answer holds the bytes of an answer of n bytes while it is written, as
// the body's bytes were held while it was read and checked: what is
// beyond ReadAhead is taken from the budget, from the reserve too for an
// answer of at most 64 KiB, so that answers their clients do not read
// (which wait at most WriteTimeout for the client) hold no more than the
// budget. Call it once the check is done and its slot and body given
// back, and call release once the answer is written. When the budget
// cannot give the bytes it answers 503 overloaded (f.Status).
func (g *Gate) Answer(w http.ResponseWriter, r *http.Request, n int) (release func(), f *Failure) {
	if n <= ReadAhead {
		return noop, nil
	}
	b, need := g.shared(r).budget, int64(n-ReadAhead)
	if !b.take(need, n <= smallBody) {
		return noop, overloaded(w, "the answer does not fit the memory budget now; try again")
	}
	return func() { b.give(need) }, nil
}

// answerBy sets the deadlines of a request whose body is in: the answer
// is due by end, and the read deadline moves there too: the check may take
// longer than BodyIdleTimeout, and net/http's watch for a closed connection
// reads on; past end no answer can go out anyway, and that watch's timeout
// ends the request's context. On an HTTP/1 connection nc that
// [ConnContext] made known, one call on the connection sets both; else
// (nc nil) each is set through rc, to the same effect.
func answerBy(nc net.Conn, rc *http.ResponseController, end time.Time) {
	if nc != nil {
		nc.SetDeadline(end)
		return
	}
	rc.SetReadDeadline(end)
	rc.SetWriteDeadline(end)
}

// h1Conn is the connection of r when it is an HTTP/1 request
// (netConn), else nil.
func h1Conn(r *http.Request) net.Conn {
	if r.ProtoMajor == 1 {
		return netConn(r)
	}
	return nil
}

// connKey is the context key of the connection (ConnContext).
type connKey struct{}

// ConnContext returns ctx with c in it; it is an [http.Server]'s
// ConnContext. A Gate then sets the two deadlines of an HTTP/1 request
// whose body is in with one call on c (net/http's [http.ResponseController]
// sets the same deadlines on the same connection, one per call), which on
// a small request is a tenth of the Gate's cost, and tells c of the
// reading of a body on it (see [Conn]). A server without it is served the
// same, a little slower.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// Conn returns the connection r came on, as [ConnContext] put it in r's
// context and below a TLS layer (the connection a listener accepted), or
// nil when the server has no ConnContext.
func Conn(r *http.Request) net.Conn { return unwrap(netConn(r)) }

// unwrap returns the connection below c's TLS layer, if it has one.
func unwrap(c net.Conn) net.Conn {
	if t, ok := c.(interface{ NetConn() net.Conn }); ok {
		return t.NetConn()
	}
	return c
}

// netConn is the connection of an HTTP/1 request r as ConnContext put it
// in r's context (TLS included), or nil.
func netConn(r *http.Request) net.Conn {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	return c
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// readFailure is the answer to a read of the body that failed with err.
func (g *Gate) readFailure(r *http.Request, err error) *Failure {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fail(httpjson.Timeout())
	}
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return fail(g.TooLarge())
	}
	if r.Context().Err() != nil || errors.Is(err, net.ErrClosed) {
		return gone // net.ErrClosed: the connection was closed to make room
	}
	// A broken chunked or gzip body or a connection cut short; the answer
	// most likely goes nowhere, but it is still a JSON one.
	return fail(httpjson.BadBody(err))
}

// Slot waits for a check slot and returns its release, to call once when
// the check is done. Call it after ReadBody: the write deadline is then
// WriteTimeout away, for the check and its answer (ReadBody set it so; a
// slot that is not free at once sets it again once the wait ends). It
// waits at most WriteTimeout/2: then it answers 503 overloaded
// (f.Status). It fails with f.Gone() when the client went away first.
func (g *Gate) Slot(w http.ResponseWriter, r *http.Request) (release func(), f *Failure) {
	p := g.shared(r)
	select {
	case p.slots <- struct{}{}:
		return p.release, nil
	default:
		t := time.NewTimer(g.cfg.WriteTimeout / 2)
		defer t.Stop()
		select {
		case p.slots <- struct{}{}:
		case <-r.Context().Done():
			return noop, gone
		case <-t.C:
			f := overloaded(w, "no check slot came free in time; try again")
			answerBy(h1Conn(r), http.NewResponseController(w), time.Now().Add(g.cfg.WriteTimeout))
			return noop, f
		}
	}
	answerBy(h1Conn(r), http.NewResponseController(w), time.Now().Add(g.cfg.WriteTimeout))
	return p.release, nil
}
