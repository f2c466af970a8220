// Package intake admits the bodies of requests that carry a document: it
// reads a body under a byte cap, a memory budget shared by every request
// and two deadlines, and hands out the slots in which documents are
// checked. httpapi's execute route and the MCP endpoint share one [Gate],
// so that one process holds one budget and one set of slots.
//
// A Gate answers nothing itself. When it refuses a request it returns a
// [Failure] (a status and an error document) and has set on the response's
// header what that answer needs (Connection: close, Retry-After); the
// caller writes the answer.
//
// The package imports only the standard library and claimcheck's own
// packages.
package intake

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// Defaults of [Config].
const (
	DefaultMaxBodyBytes    = 64 << 20
	DefaultBodyTimeout     = 60 * time.Second
	DefaultBodyIdleTimeout = 10 * time.Second
)

// Error codes of a [Failure] besides the contract's limit_exceeded and
// invalid_input. They are the same strings as httpapi's codes of the same
// names.
const (
	// RequestTimeout: the body did not arrive within BodyTimeout, or
	// stalled for BodyIdleTimeout (408).
	RequestTimeout claimcheck.Code = "request_timeout"
	// Overloaded: the body could not be buffered within MaxBufferedBytes
	// (503, with Retry-After).
	Overloaded claimcheck.Code = "overloaded"
)

// Config configures [New]. The zero value is ready to use; [Gate.Config]
// reports the values in effect.
type Config struct {
	// MaxBodyBytes caps the bytes of a body; a larger one is answered 413
	// limit_exceeded, limit max_document_bytes. Zero or negative means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxBufferedBytes caps the body bytes held in memory at once, summed
	// over the requests being read, waiting for a slot or being checked.
	// Zero or negative means 2 × MaxConcurrent × MaxBodyBytes; a value
	// below MaxBodyBytes+1 is raised to it.
	MaxBufferedBytes int64
	// MaxConcurrent caps the slots: the documents checked at once. Zero or
	// negative means 2 × GOMAXPROCS.
	MaxConcurrent int
	// BodyTimeout caps the time a body may take to arrive, from the call
	// of ReadBody; a body still incomplete then is answered 408
	// request_timeout. Zero or negative means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// BodyIdleTimeout caps the time between two arrivals of body bytes;
	// an upload that stalls this long is answered 408 request_timeout.
	// Zero or negative means DefaultBodyIdleTimeout.
	BodyIdleTimeout time.Duration
}

// A Gate admits request bodies and hands out check slots. It is safe for
// concurrent use.
type Gate struct {
	cfg    Config
	slots  chan struct{}
	budget *budget
}

// New returns a Gate configured by c (defaults filled in).
func New(c Config) *Gate {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if c.MaxBufferedBytes <= 0 {
		c.MaxBufferedBytes = 2 * int64(c.MaxConcurrent) * c.MaxBodyBytes
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
	return &Gate{cfg: c, slots: make(chan struct{}, c.MaxConcurrent), budget: newBudget(c.MaxBufferedBytes)}
}

// Config returns the configuration in effect, defaults filled in.
func (g *Gate) Config() Config { return g.cfg }

// A Failure is the answer a Gate gives instead of admitting a request.
type Failure struct {
	// Status is the HTTP status to answer with, or 0 when the client went
	// away and there is nobody to answer (then Err is nil).
	Status int
	// Err is the error document to answer with.
	Err *claimcheck.Error
}

// Gone reports whether the client went away: there is nothing to answer.
func (f *Failure) Gone() bool { return f.Status == 0 }

// TooLarge returns the error document of a body over MaxBodyBytes.
func (g *Gate) TooLarge() *claimcheck.Error {
	return errs.Limit("", "max_document_bytes", "the document is larger than "+strconv.FormatInt(g.cfg.MaxBodyBytes, 10)+" bytes")
}

func noop() {}

var gone = &Failure{}

// ReadBody reads r's body whole, at most MaxBodyBytes, under the budget
// and the deadlines. On success it returns the body and release, which
// gives the body's bytes back to the budget: call it once, when done with
// the body (after the check). On failure it returns f, has given back
// everything it took, and has set on w's header what the answer needs;
// body then holds the bytes read before the failure, to count them only.
// A declared Content-Length over the cap is refused without reading.
//
// The read deadlines are set through [http.ResponseController]; a writer
// that cannot set them is read without them.
func (g *Gate) ReadBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), f *Failure) {
	if r.ContentLength > g.cfg.MaxBodyBytes {
		// Refused unread: the server closes the connection rather than
		// draining a body it will not use.
		w.Header().Set("Connection", "close")
		return nil, noop, &Failure{Status: http.StatusRequestEntityTooLarge, Err: g.TooLarge()}
	}
	body, held, f := g.read(w, r)
	if f != nil {
		g.budget.release(held)
		return body, noop, f
	}
	return body, func() { g.budget.release(held) }, nil
}

func (g *Gate) read(w http.ResponseWriter, r *http.Request) (body []byte, held int64, f *Failure) {
	start := time.Now()
	hard := start.Add(g.cfg.BodyTimeout)
	rc := http.NewResponseController(w)
	deadlines := rc.SetReadDeadline(hard) == nil
	if deadlines {
		// Lift the deadline once the body is in: the check may take
		// longer, and net/http's watch for a closed connection reads on.
		defer rc.SetReadDeadline(time.Time{})
	}
	maxBody := g.cfg.MaxBodyBytes
	src := http.MaxBytesReader(w, r.Body, maxBody)
	// The buffer holds one byte more than a known length, so the read
	// that sees the end needs no growth.
	const initial = 16 << 10
	size := int64(initial)
	if r.ContentLength >= 0 {
		size = min(r.ContentLength+1, 4*initial)
	}
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			grow := max(size, int64(cap(buf))) // double, or the first size
			if r.ContentLength >= 0 {
				grow = min(grow, r.ContentLength+1-int64(cap(buf)))
			}
			grow = min(grow, maxBody+1-int64(cap(buf))) // never more than the cap needs
			if grow <= 0 {
				// Not reached: the body ends, or is cut at the cap, first.
				return buf, held, &Failure{Status: http.StatusRequestEntityTooLarge, Err: g.TooLarge()}
			}
			if !g.budget.tryAcquire(grow) {
				ctx, cancel := context.WithDeadline(r.Context(), hard)
				err := g.budget.acquire(ctx, grow)
				cancel()
				if err != nil {
					if r.Context().Err() != nil {
						return buf, held, gone
					}
					w.Header().Set("Retry-After", "1")
					return buf, held, &Failure{Status: http.StatusServiceUnavailable, Err: errs.Coded(Overloaded, "too many bodies are being read; try again")}
				}
			}
			held += grow
			nb := make([]byte, len(buf), int64(cap(buf))+grow)
			copy(nb, buf)
			buf = nb
		}
		if deadlines {
			idle := time.Now().Add(g.cfg.BodyIdleTimeout)
			if idle.After(hard) {
				idle = hard
			}
			rc.SetReadDeadline(idle)
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == nil:
			continue
		case err == io.EOF:
			return buf, held, nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			return buf, held, &Failure{Status: http.StatusRequestTimeout, Err: errs.Coded(RequestTimeout, "the body did not arrive in time")}
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return buf, held, &Failure{Status: http.StatusRequestEntityTooLarge, Err: g.TooLarge()}
		}
		if r.Context().Err() != nil {
			return buf, held, gone
		}
		// A broken chunked body or a connection cut short; the answer
		// most likely goes nowhere, but it is still a JSON one.
		return buf, held, &Failure{Status: http.StatusBadRequest, Err: errs.Invalid("", "reading the body: "+err.Error())}
	}
}

// Slot waits for a check slot and returns its release, to call once when
// the check is done. It fails only when the client went away first
// (f.Gone()).
func (g *Gate) Slot(w http.ResponseWriter, r *http.Request) (release func(), f *Failure) {
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	case <-r.Context().Done():
		return noop, gone
	}
}

// Free returns the bytes of the budget not held by any request now; it is
// Config().MaxBufferedBytes when no body is held.
func (g *Gate) Free() int64 {
	g.budget.mu.Lock()
	defer g.budget.mu.Unlock()
	return g.budget.free
}
