// Package connlimit caps the connections a server holds open and tracks
// their states, so that a server neither runs out of file descriptors nor
// loses a request at shutdown.
//
// A [Listener] accepts at most Max connections at once. When a new
// connection arrives at the limit, the connection idle the longest (a
// keep-alive connection between requests, or one that has not sent a
// request yet) is closed to make room, so a probe on a new connection is
// answered while idle clients hold the rest; when every connection is busy
// with a request, the new one waits until one closes. Set
// [Listener.ConnState] as the http.Server's ConnState.
//
// [Listener.Drain] is the end of a graceful shutdown: after the listener
// is closed, it waits for every connection to finish, closing those that
// stay idle; net/http's Shutdown would close an idle connection on which a
// request was already on its way, losing it.
//
// The package imports only the standard library.
package connlimit

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A Listener is a net.Listener that caps its open connections. It is safe
// for concurrent use.
type Listener struct {
	net.Listener
	max   int
	mu    sync.Mutex
	freed chan struct{} // closed and replaced when a connection closes
	conns map[*conn]struct{}
}

// New returns ln capped at limit open connections (at least 1).
func New(ln net.Listener, limit int) *Listener {
	return &Listener{Listener: ln, max: max(1, limit), freed: make(chan struct{}), conns: map[*conn]struct{}{}}
}

// Max returns the cap.
func (l *Listener) Max() int { return l.max }

// Open returns the number of connections open now.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// Accept waits for a connection and returns it, closing the longest idle
// connection to make room when at the cap, or waiting for one to close
// when none is idle.
func (l *Listener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	for len(l.conns) >= l.max {
		var victim *conn
		var oldest int64
		for c := range l.conns {
			if since := c.idleSince.Load(); since != 0 && (victim == nil || since < oldest) {
				victim, oldest = c, since
			}
		}
		if victim != nil {
			delete(l.conns, victim)
			l.mu.Unlock()
			victim.Conn.Close()
			l.mu.Lock()
			continue
		}
		freed := l.freed
		l.mu.Unlock()
		<-freed
		l.mu.Lock()
	}
	c := &conn{Conn: nc, l: l}
	c.idleSince.Store(clock())
	l.conns[c] = struct{}{}
	l.mu.Unlock()
	return c, nil
}

// ConnState records c's state; set it as http.Server.ConnState.
func (l *Listener) ConnState(nc net.Conn, s http.ConnState) {
	if t, ok := nc.(interface{ NetConn() net.Conn }); ok { // TLS
		nc = t.NetConn()
	}
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	// The busy and idle states, once or twice a request, are atomic
	// stores: no lock.
	switch s {
	case http.StateActive:
		c.idleSince.Store(0)
	case http.StateIdle:
		c.idleSince.Store(clock())
	case http.StateHijacked, http.StateClosed:
		l.mu.Lock()
		l.forget(c)
		l.mu.Unlock()
	}
}

// forget drops c; l.mu is held.
func (l *Listener) forget(c *conn) {
	if _, ok := l.conns[c]; ok {
		delete(l.conns, c)
		close(l.freed)
		l.freed = make(chan struct{})
	}
}

// Drain waits until every connection is closed, closing each one once it
// has been idle for idleGrace (counted from the call at the earliest):
// long enough for a client that has just been answered to send its next
// request, which is then served. Call it after closing the listener, with
// the server answering Connection: close. It returns ctx's error if ctx
// ends first, leaving the rest open.
func (l *Listener) Drain(ctx context.Context, idleGrace time.Duration) error {
	start := time.Now()
	tick := time.NewTicker(min(idleGrace/4+time.Millisecond, 50*time.Millisecond))
	defer tick.Stop()
	for {
		l.mu.Lock()
		if len(l.conns) == 0 {
			l.mu.Unlock()
			return nil
		}
		now := clock()
		var idle []*conn
		for c := range l.conns {
			if since := c.idleSince.Load(); since != 0 && now-since >= int64(idleGrace) && time.Since(start) >= idleGrace {
				idle = append(idle, c)
			}
		}
		freed := l.freed
		l.mu.Unlock()
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
	l *Listener
	// idleSince is the clock() of when the connection became idle
	// (between requests, or before the first), or 0 while it is busy.
	idleSince atomic.Int64
	once      sync.Once
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
