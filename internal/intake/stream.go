package intake

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
)

// A Stream is a request body read as a stream, not whole: the body of a
// batch request, whose lines are answered while it arrives. Its reads
// are under the Gate's BodyIdleTimeout each (a body that stalls that long
// fails with request_timeout), with Content-Encoding gzip decompressed;
// its bytes are not capped as a whole (the caller caps its lines), and
// BodyTimeout does not bound it: a stream lasts as long as its client
// sends and reads. The answer is written while the body is read (on
// HTTP/1, net/http's full duplex mode), each write of it under the
// Gate's WriteTimeout (Writer), so a client that stops reading stops the
// stream within WriteTimeout and frees what it holds.
//
// On HTTP/1 a stream's connection carries that one request: its answer
// says Connection: close from its status line on. The status line goes out
// with the first answers, before anyone can know whether the body will be
// read to its end, and a connection whose request body was left unread
// part way (a cut: a cap, a timeout, a broken chunk) must not be read on,
// or what is left of the body would be read as the next requests: under
// full duplex net/http neither drains such a body nor closes its
// connection. On HTTP/2 the stream ends with the answer, and net/http
// resets it if the client is still sending.
type Stream struct {
	g      *Gate
	r      *http.Request
	rc     *http.ResponseController
	src    io.Reader // r.Body, under the deadlines
	body   io.Reader // src, or its gzip reader once the first Read makes it
	gz     bool
	up     uploader
	n      int64 // bytes received (compressed, as sent)
	closed bool
	zheld  bool // gzipBytes are held for the decompressor
}

// ErrShutdown is the read error of a stream ended by [Gate.EndStreams].
var ErrShutdown = errors.New("intake: the server is shutting down")

// streams are the streams being read, which EndStreams ends.
type streams struct {
	mu    sync.Mutex
	ended bool
	live  map[*Stream]struct{}
}

// EndStreams ends every stream being read from the Gate's budget (the
// one it shares, if it shares one), and every one begun from then on: a
// Read blocked on the body returns at once, and each Read fails with
// ErrShutdown, so that the caller answers what it has read and ends its
// answer. A server calls it when it shuts down, after the delay in which
// its load balancer stops sending it requests.
func (g *Gate) EndStreams() {
	ss := &g.shared(nil).streams
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.ended = true
	for s := range ss.live {
		s.rc.SetReadDeadline(time.Now())
	}
}

// isEnded reports whether EndStreams was called.
func (ss *streams) isEnded() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.ended
}

// Stream readies r's body to be read as a stream. It refuses (f not nil,
// with what the answer needs set on w's header, nothing read) a
// Content-Encoding other than gzip or identity.
func (g *Gate) Stream(w http.ResponseWriter, r *http.Request) (s *Stream, f *Failure) {
	gz, f := contentEncoding(r)
	if f != nil {
		Unread(w, r)
		return nil, f
	}
	rc := http.NewResponseController(w)
	if r.ProtoMajor == 1 {
		w.Header().Set("Connection", "close")
		rc.EnableFullDuplex() // an error: not HTTP/1 of net/http; nothing to enable
	}
	s = &Stream{g: g, r: r, rc: rc, gz: gz}
	s.src = readerFunc(s.readBody)
	s.body = s.src
	ss := &g.shared(r).streams
	ss.mu.Lock()
	if ss.live == nil {
		ss.live = map[*Stream]struct{}{}
	}
	ss.live[s] = struct{}{}
	ss.mu.Unlock()
	if r.ProtoMajor == 1 {
		if u, ok := unwrap(netConn(r)).(uploader); ok {
			s.up = u
			u.Uploading(0)
		}
	}
	return s, nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// readBody reads r.Body with the idle deadline set before each read; once
// EndStreams is called it fails with ErrShutdown.
func (s *Stream) readBody(p []byte) (int, error) {
	ss := &s.g.shared(s.r).streams
	ss.mu.Lock()
	ended := ss.ended
	if !ended {
		s.rc.SetReadDeadline(time.Now().Add(s.g.cfg.BodyIdleTimeout))
	}
	ss.mu.Unlock()
	if ended {
		return 0, ErrShutdown
	}
	n, err := s.r.Body.Read(p)
	if err != nil && err != io.EOF && ss.isEnded() {
		err = ErrShutdown
	}
	s.n += int64(n)
	if s.up != nil && n > 0 {
		s.up.Uploading(s.n)
	}
	return n, err
}

// gzipBytes is what a gzip reader holds, taken from the budget for the
// stream's life once its first byte has arrived: its 32 KiB window, its
// Huffman tables and its 4 KiB read buffer (41 KiB), rounded up.
const gzipBytes = 64 << 10

// errNoRoom fails a stream's read when the budget cannot hold what the
// read needs.
var errNoRoom = errors.New("intake: the budget has no room for the stream")

// Read reads the (decompressed) body.
func (s *Stream) Read(p []byte) (int, error) {
	if s.gz {
		// The decompressor is made once a byte of the body is in, so that
		// a stream that has sent nothing holds nothing.
		var first [1]byte
		n, err := io.ReadFull(s.src, first[:])
		if n == 0 {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return 0, err
		}
		s.gz = false
		if !s.g.Hold(gzipBytes) {
			return 0, errNoRoom
		}
		s.zheld = true
		zr, err := gzip.NewReader(io.MultiReader(bytes.NewReader(first[:]), s.src))
		if err != nil {
			return 0, err
		}
		s.body = zr
	}
	return s.body.Read(p)
}

// Received returns the bytes of the body received so far, as sent.
func (s *Stream) Received() int64 { return s.n }

// Interrupt ends a Read blocked on the body now, and every later one; call
// it when the answer stops early, so that the reading stops too.
func (s *Stream) Interrupt() { s.rc.SetReadDeadline(time.Now()) }

// Done ends the stream: its connection is no longer an upload.
func (s *Stream) Done() {
	if s.closed {
		return
	}
	s.closed = true
	if s.up != nil {
		s.up.Uploading(-1)
	}
	if s.zheld {
		s.g.Unhold(gzipBytes)
	}
	ss := &s.g.shared(s.r).streams
	ss.mu.Lock()
	delete(ss.live, s)
	ss.mu.Unlock()
}

// Failure is the error document that answers a read of the body that
// failed with err (request_timeout, invalid_input of a broken body,
// overloaded when the budget had no room for the decompressor), or nil
// when the client went away.
func (s *Stream) Failure(err error) *claimcheck.Error {
	if errors.Is(err, errNoRoom) {
		return httpjson.Busy(http.Header{}, "the stream does not fit the memory budget now; try again")
	}
	return s.g.readFailure(s.r, err).Err
}

// Writer returns w with each Write and Flush under the Gate's
// WriteTimeout: a write the client does not take within it fails.
func (s *Stream) Writer(w io.Writer) *StreamWriter { return &StreamWriter{s: s, w: w} }

// A StreamWriter is the writer of a stream's answer ([Stream.Writer]).
type StreamWriter struct {
	s *Stream
	w io.Writer
}

// Write writes p within WriteTimeout.
func (sw *StreamWriter) Write(p []byte) (int, error) {
	sw.s.rc.SetWriteDeadline(time.Now().Add(sw.s.g.cfg.WriteTimeout))
	return sw.w.Write(p)
}

// Flush sends what the response holds to the client, within WriteTimeout.
func (sw *StreamWriter) Flush() error {
	sw.s.rc.SetWriteDeadline(time.Now().Add(sw.s.g.cfg.WriteTimeout))
	return sw.s.rc.Flush()
}

// WaitSlot waits for a check slot, as [Gate.Slot] does (at most
// WriteTimeout/2), and returns its release; it fails with the overloaded
// error document when none came free in time, and with a nil one when ctx
// ended first. It sets no deadline: a stream sets its own per write.
func (g *Gate) WaitSlot(ctx context.Context) (release func(), e *claimcheck.Error, ok bool) {
	p := g.shared(nil)
	select {
	case p.slots <- struct{}{}:
		return p.release, nil, true
	default:
	}
	t := time.NewTimer(g.cfg.WriteTimeout / 2)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return p.release, nil, true
	case <-ctx.Done():
		return noop, nil, false
	case <-t.C:
		return noop, httpjson.Busy(http.Header{}, "no check slot came free in time; try again"), false
	}
}

// Hold takes n bytes of the shared budget (from the reserve too when n is
// at most 64 KiB) and reports whether it could; Unhold gives them back. A
// stream holds the bytes of the lines it has received and not yet
// answered this way.
func (g *Gate) Hold(n int64) bool { return g.shared(nil).budget.take(n, n <= smallBody) }

// Unhold gives back n bytes taken with Hold.
func (g *Gate) Unhold(n int64) { g.shared(nil).budget.give(n) }

// Slots returns the check slots of the budget the Gate takes from (its
// own, or those of the Gate it shares).
func (g *Gate) Slots() int { return g.shared(nil).cfg.MaxConcurrent }
