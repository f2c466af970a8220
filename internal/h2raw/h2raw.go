// Package h2raw is an HTTP/2 client for tests that need what a client
// library hides: the frames a server sends (GOAWAY, RST_STREAM), streams
// opened and reset at will, and settings such as a zero window. It is
// built on golang.org/x/net/http2's Framer and is imported by tests only.
package h2raw

import (
	"bytes"
	"crypto/tls"
	"net"
	"strconv"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// A Conn is one HTTP/2 connection to a server, past its preface and
// settings.
type Conn struct {
	net.Conn
	fr   *http2.Framer
	hbuf bytes.Buffer
	enc  *hpack.Encoder
	t    testing.TB
}

// Dial connects to addr, over TLS with ALPN h2 when cfg is not nil (else
// cleartext, with prior knowledge), sends the preface and settings and
// acknowledges the server's.
func Dial(t testing.TB, addr string, cfg *tls.Config, settings ...http2.Setting) *Conn {
	t.Helper()
	var nc net.Conn
	var err error
	if cfg != nil {
		cfg = cfg.Clone()
		cfg.NextProtos = []string{"h2"}
		nc, err = tls.Dial("tcp", addr, cfg)
	} else {
		nc, err = net.Dial("tcp", addr)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &Conn{Conn: nc, fr: http2.NewFramer(nc, nc), t: t}
	c.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	c.enc = hpack.NewEncoder(&c.hbuf)
	if _, err := nc.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	if err := c.fr.WriteSettings(settings...); err != nil {
		t.Fatal(err)
	}
	return c
}

// Headers opens stream id with a request of method to path (authority
// 127.0.0.1) and the header fields given as name, value pairs.
func (c *Conn) Headers(id uint32, endStream bool, method, path string, fields ...string) {
	c.t.Helper()
	c.hbuf.Reset()
	all := append([]string{":method", method, ":scheme", "http", ":authority", "127.0.0.1", ":path", path}, fields...)
	for i := 0; i+1 < len(all); i += 2 {
		c.enc.WriteField(hpack.HeaderField{Name: all[i], Value: all[i+1]})
	}
	if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.hbuf.Bytes(), EndStream: endStream, EndHeaders: true}); err != nil {
		c.t.Fatal(err)
	}
}

// Data sends b on stream id.
func (c *Conn) Data(id uint32, endStream bool, b []byte) {
	c.t.Helper()
	if err := c.fr.WriteData(id, endStream, b); err != nil {
		c.t.Fatal(err)
	}
}

// Reset resets stream id with code.
func (c *Conn) Reset(id uint32, code http2.ErrCode) {
	c.t.Helper()
	if err := c.fr.WriteRSTStream(id, code); err != nil {
		c.t.Fatal(err)
	}
}

// Sync sends PING and waits up to d for its acknowledgement, passing over
// what comes before it: the server handles a connection's frames in
// order, so every frame sent before has been handled.
func (c *Conn) Sync(d time.Duration) error {
	data := [8]byte{'s', 'y', 'n', 'c'}
	if err := c.fr.WritePing(false, data); err != nil {
		return err
	}
	c.SetReadDeadline(time.Now().Add(d))
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			return err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				c.fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if f.IsAck() && f.Data == data {
				return nil
			}
			if !f.IsAck() {
				c.fr.WritePing(true, f.Data)
			}
		}
	}
}

// An Event is what the server sent that a test waits for: the status of a
// stream's response, a stream's reset, or GOAWAY.
type Event struct {
	Stream uint32
	Status int           // of a response's headers, or 0
	Reset  http2.ErrCode // of RST_STREAM, when Stream is set and Status is 0
	GoAway *http2.GoAwayFrame
}

func (e Event) String() string {
	switch {
	case e.GoAway != nil:
		return "GOAWAY " + e.GoAway.ErrCode.String() + " last stream " + strconv.Itoa(int(e.GoAway.LastStreamID))
	case e.Status != 0:
		return "stream " + strconv.Itoa(int(e.Stream)) + " status " + strconv.Itoa(e.Status)
	}
	return "stream " + strconv.Itoa(int(e.Stream)) + " reset " + e.Reset.String()
}

// Next returns the next event the server sends within d, answering its
// settings and pings and passing over everything else (data, window
// updates); err is the connection's end (io.EOF, a reset) or a timeout.
func (c *Conn) Next(d time.Duration) (Event, error) {
	c.SetReadDeadline(time.Now().Add(d))
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			return Event{}, err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				c.fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				c.fr.WritePing(true, f.Data)
			}
		case *http2.MetaHeadersFrame:
			st, _ := strconv.Atoi(f.PseudoValue("status"))
			return Event{Stream: f.StreamID, Status: st}, nil
		case *http2.RSTStreamFrame:
			return Event{Stream: f.StreamID, Reset: f.ErrCode}, nil
		case *http2.GoAwayFrame:
			return Event{GoAway: f}, nil
		}
	}
}
