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
	"time"
)

// A Listener is a net.Listener that caps its open connections. It is safe
// for concurrent use.
type Listener struct {
	net.Listener
	max   int
	mu    sync.Mutex
	freed chan struct{} // closed and replaced when a connection closes
	conns map[*conn]*state
}

type state struct {
	idle  bool      // between requests, or before the first
	since time.Time // when it became idle
}

// New returns ln capped at limit open connections (at least 1).
func New(ln net.Listener, limit int) *Listener {
	return &Listener{Listener: ln, max: max(1, limit), freed: make(chan struct{}), conns: map[*conn]*state{}}
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
		for c, s := range l.conns {
			if s.idle && (victim == nil || s.since.Before(l.conns[victim].since)) {
				victim = c
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
	l.conns[c] = &state{idle: true, since: time.Now()}
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
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.conns[c]
	if st == nil {
		return
	}
	switch s {
	case http.StateActive:
		st.idle = false
	case http.StateIdle:
		st.idle, st.since = true, time.Now()
	case http.StateHijacked, http.StateClosed:
		l.forget(c)
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
		now := time.Now()
		var idle []*conn
		for c, s := range l.conns {
			if s.idle && now.Sub(s.since) >= idleGrace && now.Sub(start) >= idleGrace {
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

// A conn forgets itself when closed.
type conn struct {
	net.Conn
	l    *Listener
	once sync.Once
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
