// Package connlimit guards the connections a server holds open: it caps
// them, makes room at the cap, and tracks the connections' states, so that
// a server neither runs out of file descriptors nor leaves a new client
// unanswered, nor loses a request at shutdown. It reads nothing of what a
// connection carries but the first bytes, to tell HTTP/2 with prior
// knowledge from HTTP/1: the framing of requests is net/http's alone.
//
// # The cap
//
// A [Listener] holds at most Max connections, and Spare more. When a new
// connection arrives at Max, it makes room by closing, in this order:
//
//  1. the connection idle the longest (a keep-alive connection between
//     requests, or one that has not sent a request yet);
//  2. else the slowest upload: the HTTP/1 connection whose request has
//     been reading its body for at least [UploadGrace] at the lowest rate
//     of bytes per second (package intake tells the connection how its
//     reading goes), so that uploads trickling a byte at a time cannot
//     hold every connection.
//
// When no connection is idle or uploading, the new one is a spare
// ([IsSpare]): the server is to answer its requests at once, probes
// served and anything else refused (claimcheck serve answers 503), and
// close it. At most Spare are open at once; one more closes the oldest.
// So a new connection is always accepted and answered, whatever holds the
// others. Set [Listener.ConnState] as the http.Server's ConnState.
//
// # Shutdown
//
// [Listener.Drain] is the end of a graceful shutdown for HTTP/1: after the
// listener is closed, it waits for every HTTP/1 connection to finish,
// closing those that stay idle; net/http's Shutdown would close an idle
// connection on which a request was already on its way, losing it. HTTP/2
// connections (over TLS, by the protocol negotiated; in cleartext, by the
// preface they begin with) are left to Shutdown, which sends them GOAWAY
// first.
//
// The package imports only the standard library.
package connlimit

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Spare is the number of connections a Listener holds beyond its cap, for
// the new connections that arrive when no connection can be closed to
// make room (see the package documentation).
const Spare = 16

// UploadGrace is how long a request must have been reading its body before
// its connection may be closed to make room: a request that has just begun
// has sent nothing yet, whatever its rate will be.
const UploadGrace = time.Second

// A Listener is a net.Listener that caps its open connections. It is safe
// for concurrent use.
type Listener struct {
	net.Listener
	max    int
	grace  int64 // UploadGrace, in clock units
	mu     sync.Mutex
	freed  chan struct{} // closed and replaced when a connection closes
	conns  map[*conn]struct{}
	spares map[*conn]struct{}
}

// New returns ln capped at limit open connections (at least 1), and Spare
// more.
func New(ln net.Listener, limit int) *Listener {
	return &Listener{Listener: ln, max: max(1, limit), grace: int64(UploadGrace), freed: make(chan struct{}),
		conns: map[*conn]struct{}{}, spares: map[*conn]struct{}{}}
}

// Max returns the cap.
func (l *Listener) Max() int { return l.max }

// Open returns the number of connections open now, spares included.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns) + len(l.spares)
}

// Accept waits for a connection and returns it, making room for it at the
// cap as the package documentation says.
func (l *Listener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &conn{Conn: nc, l: l, born: clock()}
	c.idleSince.Store(c.born)
	l.mu.Lock()
	for len(l.conns) >= l.max {
		victim := l.victim(c.born)
		if victim == nil {
			break
		}
		delete(l.conns, victim)
		l.mu.Unlock()
		victim.Conn.Close()
		l.mu.Lock()
	}
	if len(l.conns) < l.max {
		l.conns[c] = struct{}{}
		l.mu.Unlock()
		return c, nil
	}
	c.spare = true
	var oldest *conn
	if len(l.spares) >= Spare {
		for s := range l.spares {
			if oldest == nil || s.born < oldest.born {
				oldest = s
			}
		}
		delete(l.spares, oldest)
	}
	l.spares[c] = struct{}{}
	l.mu.Unlock()
	if oldest != nil {
		oldest.Conn.Close()
	}
	return c, nil
}

// victim returns the connection to close to make room at now (idle
// longest, else slowest upload of at least UploadGrace), or nil; l.mu is
// held.
func (l *Listener) victim(now int64) *conn {
	var idle, slow *conn
	var oldest int64
	var slowest float64
	for c := range l.conns {
		if since := c.idleSince.Load(); since != 0 {
			if idle == nil || since < oldest {
				idle, oldest = c, since
			}
			continue
		}
		if idle != nil {
			continue
		}
		start := c.upStart.Load()
		if start == 0 || now-start < l.grace {
			continue
		}
		rate := float64(c.upBytes.Load()) / float64(now-start)
		if slow == nil || rate < slowest {
			slow, slowest = c, rate
		}
	}
	if idle != nil {
		return idle
	}
	return slow
}

// IsSpare reports whether c, a connection a Listener accepted (below any
// TLS layer), is one of its spares: accepted at the cap with no room to
// make, to be answered at once and closed.
func IsSpare(c net.Conn) bool {
	cc, ok := c.(*conn)
	return ok && cc.spare
}

// Streams returns the counter of the requests in flight on c, a
// connection a Listener accepted (below any TLS layer), or nil for any
// other connection. The Listener keeps it for the server, which adds and
// removes its requests: claimcheck serve gives the streams of an HTTP/2
// connection beyond its first only what leaves a request in flight for
// every other open connection.
func Streams(c net.Conn) *atomic.Int64 {
	if cc, ok := c.(*conn); ok {
		return &cc.streams
	}
	return nil
}

// ConnState records c's state; set it as http.Server.ConnState.
func (l *Listener) ConnState(nc net.Conn, s http.ConnState) {
	tc, isTLS := nc.(*tls.Conn)
	if isTLS {
		nc = tc.NetConn()
	}
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	// The busy and idle states, once or twice a request, are atomic
	// stores: no lock.
	switch s {
	case http.StateActive, http.StateIdle:
		if isTLS && !c.alpn.Load() {
			// The handshake is done by now: HTTP/2 over TLS is left to
			// the server's Shutdown (Drain).
			c.alpn.Store(true)
			if tc.ConnectionState().NegotiatedProtocol == "h2" {
				c.h2.Store(true)
			}
		}
		if s == http.StateActive {
			c.idleSince.Store(0)
		} else {
			c.idleSince.Store(clock())
		}
	case http.StateHijacked, http.StateClosed:
		l.mu.Lock()
		l.forget(c)
		l.mu.Unlock()
	}
}

// forget drops c; l.mu is held.
func (l *Listener) forget(c *conn) {
	m := l.conns
	if c.spare {
		m = l.spares
	}
	if _, ok := m[c]; ok {
		delete(m, c)
		close(l.freed)
		l.freed = make(chan struct{})
	}
}

// Drain waits until every HTTP/1 connection is closed, closing each one
// once it has been idle for idleGrace (counted from the call at the
// earliest): long enough for a client that has just been answered to send
// its next request, which is then served. Call it after closing the
// listener, with the server answering Connection: close, and call the
// server's Shutdown after it: the HTTP/2 connections left open are its to
// end, with GOAWAY first (closing one here would lose a stream on its way
// without a word). It returns ctx's error if ctx ends first, leaving the
// rest open.
func (l *Listener) Drain(ctx context.Context, idleGrace time.Duration) error {
	start := time.Now()
	tick := time.NewTicker(min(idleGrace/4+time.Millisecond, 50*time.Millisecond))
	defer tick.Stop()
	for {
		l.mu.Lock()
		now := clock()
		var idle []*conn
		h1 := 0
		for _, m := range []map[*conn]struct{}{l.conns, l.spares} {
			for c := range m {
				if c.h2.Load() {
					continue
				}
				h1++
				if since := c.idleSince.Load(); since != 0 && now-since >= int64(idleGrace) && time.Since(start) >= idleGrace {
					idle = append(idle, c)
				}
			}
		}
		freed := l.freed
		l.mu.Unlock()
		if h1 == 0 {
			return nil
		}
		for _, c := range idle {
			c.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-freed:
		case <-tick.C:
		}
	}
}

// epoch is the origin of clock.
var epoch = time.Now()

// clock returns the monotonic time in nanoseconds since epoch, plus one so
// that it is never 0: a single read of the monotonic clock, which
// time.Now pairs with a read of the wall clock.
func clock() int64 { return int64(time.Since(epoch)) + 1 }

// A conn forgets itself when closed.
type conn struct {
	net.Conn
	l     *Listener
	born  int64 // clock() at Accept
	spare bool  // accepted beyond the cap (IsSpare); set before Accept returns
	// idleSince is the clock() of when the connection became idle
	// (between requests, or before the first), or 0 while it is busy.
	idleSince atomic.Int64
	// upStart is the clock() of when its request began reading its body,
	// or 0 when none is being read; upBytes is how many it has read.
	upStart, upBytes atomic.Int64
	h2, alpn         atomic.Bool  // speaks HTTP/2; its TLS protocol was looked at
	streams          atomic.Int64 // requests in flight (Streams)
	// first is the connection's first bytes, up to len(h2Preface), while
	// they may still begin the HTTP/2 preface (read by Read only).
	first []byte
	seen  bool // Read has decided what the connection speaks
	once  sync.Once
}

// Uploading records how the reading of a body on c goes: n bytes read so
// far, from 0 at the start, and -1 at the end (package intake calls it).
func (c *conn) Uploading(n int64) {
	switch {
	case n == 0:
		c.upBytes.Store(0)
		c.upStart.Store(clock())
	case n > 0:
		c.upBytes.Store(n)
	default:
		c.upStart.Store(0)
	}
}

// h2Preface begins every cleartext HTTP/2 connection with prior knowledge
// (RFC 9113 section 3.4).
const h2Preface = "PRI * HTTP/2.0\r\n"

// Read reads from the connection; until it has seen enough of the first
// bytes to tell, it looks for the HTTP/2 preface (a TLS connection's
// first bytes are its handshake, and its protocol is told by ConnState).
func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.seen && n > 0 {
		k := min(n, len(h2Preface)-len(c.first))
		c.first = append(c.first, p[:k]...)
		switch {
		case !strings.HasPrefix(h2Preface, string(c.first)):
			c.seen, c.first = true, nil
		case len(c.first) == len(h2Preface):
			c.seen, c.first = true, nil
			c.h2.Store(true)
		}
	}
	return n, err
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.forget(c)
		c.l.mu.Unlock()
	})
	return err
}
