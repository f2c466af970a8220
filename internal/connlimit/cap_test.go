package connlimit

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// accept dials l and returns the connection l accepted.
func accept(t *testing.T, l *Listener) (server *conn, client net.Conn) {
	t.Helper()
	client, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	nc, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc.(*conn), client
}

// closed reports whether the server closed client's connection.
func closed(client net.Conn) bool {
	// Accept closes a connection before it returns the new one: its EOF
	// is there at once.
	client.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	_, err := client.Read(make([]byte, 1))
	return err == io.EOF
}

// TestRoomAtTheCap: at the cap, a new connection closes the idle one
// first, else the slowest upload of at least the grace, never an upload
// younger than it nor a connection busy otherwise; with none to close it
// is a spare, and one spare more than Spare closes the oldest spare.
// Before, a new connection waited until one closed, so that busy uploads
// left /healthz unanswered.
func TestRoomAtTheCap(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(inner, 3)
	defer l.Close()
	l.grace = int64(50 * time.Millisecond)
	slow, slowClient := accept(t, l)
	fast, fastClient := accept(t, l)
	young, youngClient := accept(t, l)
	for _, c := range []*conn{slow, fast, young} {
		l.ConnState(c, http.StateActive)
	}
	slow.Uploading(0)
	fast.Uploading(0)
	time.Sleep(60 * time.Millisecond)
	slow.Uploading(10)
	fast.Uploading(1 << 20)
	young.Uploading(0) // it has sent nothing yet, but only just begun
	idle, idleClient := accept(t, l)
	l.ConnState(idle, http.StateIdle) // the newest, but idle
	if IsSpare(idle) || !closed(slowClient) || closed(fastClient) || closed(youngClient) {
		t.Fatalf("spare %v; closed: slow %v, fast %v, young %v; want the slow upload closed", IsSpare(idle), closed(slowClient), closed(fastClient), closed(youngClient))
	}
	next, _ := accept(t, l)
	l.ConnState(next, http.StateActive)
	if !closed(idleClient) || IsSpare(next) {
		t.Fatalf("idle closed %v, next a spare %v; want the idle one closed first", closed(idleClient), IsSpare(next))
	}
	fast.Uploading(-1) // busy, but no longer uploading
	young.Uploading(-1)
	var spares []net.Conn
	for range Spare {
		c, client := accept(t, l)
		if !IsSpare(c) {
			t.Fatal("a connection with none to close is not a spare")
		}
		spares = append(spares, client)
	}
	if n := l.Open(); n != 3+Spare {
		t.Fatalf("%d open, want the cap and %d spares", n, Spare)
	}
	accept(t, l)
	if !closed(spares[0]) || l.Open() != 3+Spare {
		t.Fatalf("one spare more: oldest closed %v, %d open; want it closed and %d open", closed(spares[0]), l.Open(), 3+Spare)
	}
}
