package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// ServeStdio serves MCP's stdio transport: each line of r (ending at "\n";
// the last may end at the end of r) is one message, answered as
// [Server.Answer] answers it, and each answer is one line of w. Lines
// holding only JSON whitespace are skipped. Messages are answered concurrently, up to the
// server's MaxConcurrent at once, so answers may come out of order (each
// carries its request's id).
//
// A line over MaxDocumentBytes + EnvelopeBytes is not held in memory: it
// is followed as it streams past (see Answer's rule 2), so that a
// tools/call with arguments over the cap still gets its limit_exceeded
// tool error, and anything else that long a -32600 error whose data is
// that error document. At most MaxBufferedBytes of lines read and not yet
// answered are held; reading waits while they are.
//
// ServeStdio returns when r ends (nil, or the read error) or ctx is done
// (nil), in either case only after every message already read has been
// answered: a message whose line had ended when input ended or ctx was
// done is never dropped. It returns the first error writing w, if any,
// after the same drain. The goroutine reading r may still be blocked in a
// Read when ServeStdio returns after ctx is done; it ends with r.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	out := &lineWriter{w: w}
	d := &dispatcher{s: s, out: out, held: 0}
	d.room = sync.NewCond(&d.mu)
	readDone := make(chan error, 1)
	go func() { readDone <- d.read(r) }()
	var err error
	select {
	case err = <-readDone:
	case <-ctx.Done():
	}
	d.mu.Lock()
	d.stopped = true
	d.room.Broadcast()
	d.mu.Unlock()
	d.wg.Wait()
	if out.err != nil {
		return out.err
	}
	return err
}

// maxPending × MaxConcurrent is the most lines read and not yet answered:
// a line waiting for its turn costs a goroutine.
const maxPending = 16

// dispatcher hands the lines read to goroutines that answer them.
type dispatcher struct {
	s   *Server
	out *lineWriter
	wg  sync.WaitGroup

	mu      sync.Mutex
	room    *sync.Cond // signalled when held shrinks or stopped is set
	held    int64      // bytes of lines read and not yet answered, plus the one being read
	pending int        // lines read and not yet answered
	stopped bool
}

// read reads lines until r ends, dispatching each.
func (d *dispatcher) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	maxFrame := d.s.opts.maxFrame()
	var buf []byte
	for {
		// Room for a line of the largest size before reading it.
		if !d.reserve(maxFrame) {
			return nil
		}
		buf = buf[:0]
		var sc *scanner
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			chunk = bytes.TrimSuffix(chunk, []byte{'\n'})
			switch {
			case sc != nil:
				sc.feed(chunk)
			case int64(len(buf)+len(chunk)) > maxFrame:
				sc = newScanner(EnvelopeBytes)
				sc.feed(buf)
				sc.feed(chunk)
				buf = nil
			default:
				buf = append(buf, chunk...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		switch {
		case sc != nil:
			d.unreserve(maxFrame)
			if r := sc.end(); !r.blank { // a blank line is skipped, however long
				res, _ := d.s.answerScanned(&exchange{}, r, "", true)
				d.out.write(res)
			}
		case jsonwire.SkipSpace(view(buf), 0) == len(buf):
			d.unreserve(maxFrame)
		default:
			frame := bytes.Clone(buf)
			if cap(buf) > 1<<20 {
				buf = nil // do not keep a large buffer for small lines
			}
			d.unreserve(maxFrame - int64(len(frame)))
			if !d.dispatch(frame) {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reserve waits for n bytes of room (or stop) and takes them. Where
// MaxBufferedBytes is math.MaxInt64 (a document cap near it makes it so),
// held+n can wrap: the sum is modular, so held comes back to 0 as the
// lines are answered, and the wrapped comparison admits every line, which
// is what a budget that large means; maxPending still bounds the lines.
func (d *dispatcher) reserve(n int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for !d.stopped && d.held > 0 && (d.held+n > d.s.opts.MaxBufferedBytes || d.pending >= maxPending*d.s.opts.MaxConcurrent) {
		d.room.Wait()
	}
	if d.stopped {
		return false
	}
	d.held += n
	return true
}

func (d *dispatcher) unreserve(n int64) {
	d.mu.Lock()
	d.held -= n
	d.room.Broadcast()
	d.mu.Unlock()
}

// dispatch answers frame on its own goroutine, unless the server has
// stopped reading.
func (d *dispatcher) dispatch(frame []byte) bool {
	d.mu.Lock()
	if d.stopped {
		d.held -= int64(len(frame))
		d.mu.Unlock()
		return false
	}
	d.wg.Add(1)
	d.pending++
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		defer func() {
			d.mu.Lock()
			d.held -= int64(len(frame))
			d.pending--
			d.room.Broadcast()
			d.mu.Unlock()
		}()
		if res := d.s.Answer(context.Background(), frame); res != nil {
			d.out.write(res)
		}
	}()
	return true
}

// lineWriter writes answers as lines, one at a time; after a failed write
// it writes nothing more and keeps the error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *lineWriter) write(msg []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	_, l.err = l.w.Write(append(msg, '\n'))
}
