package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// progressEvery is the time between two progress lines: a few a second at
// most, so a fast run is not slowed by its terminal.
const progressEvery = 250 * time.Millisecond

// isTerminal reports whether w is a terminal (a variable, for tests). Only
// a *os.File can be one.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && fdIsTerminal(f.Fd())
}

// progress shows batch's progress on one terminal line, rewritten in place
// (carriage return, erase to end of line), and erases it when the run ends.
type progress struct {
	w     io.Writer
	size  int64 // the input's size in bytes when it is a regular file, else 0
	start time.Time
	lines atomic.Int64 // answered so far
	bytes atomic.Int64 // input bytes of the answered lines
	stop  chan struct{}
	done  sync.WaitGroup
}

// startProgress starts the progress line of a batch over r on stderr, or
// returns nil when stderr is not a terminal.
func startProgress(stderr io.Writer, r io.Reader) *progress {
	if !isTerminal(stderr) {
		return nil
	}
	p := &progress{w: stderr, size: regularSize(r), start: time.Now(), stop: make(chan struct{})}
	p.done.Go(func() {
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		last := int64(-1)
		for {
			select {
			case <-p.stop:
				if last >= 0 {
					io.WriteString(p.w, "\r\x1b[K")
				}
				return
			case now := <-tick.C:
				if n := p.lines.Load(); n != last {
					last = n
					io.WriteString(p.w, "\r\x1b[K"+p.line(now))
				}
			}
		}
	})
	return p
}

// answered counts lines written, and the input bytes they came from.
func (p *progress) answered(lines int, consumed int64) {
	if p != nil {
		p.lines.Add(int64(lines))
		p.bytes.Store(consumed)
	}
}

// end erases the progress line; nothing is written to stderr after it
// returns but by the caller.
func (p *progress) end() {
	if p != nil {
		close(p.stop)
		p.done.Wait()
	}
}

// line is the progress at now: lines done and lines a second, then, for a
// regular file, the percentage read and the time left at the rate so far.
func (p *progress) line(now time.Time) string {
	n, b := p.lines.Load(), p.bytes.Load()
	el := now.Sub(p.start).Seconds()
	s := "claimcheck: " + strconv.FormatInt(n, 10) + " lines"
	if el > 0 {
		s += fmt.Sprintf(", %.0f lines/s", float64(n)/el)
	}
	if p.size > 0 {
		s += fmt.Sprintf(", %d%%", min(100, b*100/p.size))
		if b > 0 && el > 0 {
			left := time.Duration(float64(p.size-b) / (float64(b) / el) * float64(time.Second))
			s += ", ETA " + clock(left)
		}
	}
	return s
}

// clock is d rounded to the second as m:ss, or h:mm:ss from an hour.
func clock(d time.Duration) string {
	sec := int64(d.Round(time.Second) / time.Second)
	if sec < 0 {
		sec = 0
	}
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}

// regularSize is the number of bytes left to read in r when r is a regular
// file (a FILE argument, or stdin redirected from one), else 0.
func regularSize(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || off > st.Size() {
		return 0
	}
	return st.Size() - off
}
