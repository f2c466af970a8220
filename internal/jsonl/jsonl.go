package jsonl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// Outcome is the kind of document a line got, from best to worst.
type Outcome uint8

// The outcomes, in order: a run's worst outcome is the largest.
const (
	Valid    Outcome = iota // an output document with "valid":true
	Invalid                 // an output document with "valid":false
	Error                   // an error document of the contract
	Internal                // the tool panicked: an internal_error document
)

// CodeInternal is the code of the document a line gets when its tool
// panicked. It is the serving layers' code, not the tools' contract's.
const CodeInternal = httpjson.InternalError

// Execute is the signature of (*schema.Tool).Execute, replaceable in
// [Config] (tests reach the panic path through it).
type Execute func(*schema.Tool, []byte) (schema.Output, error)

// Answer appends the document for input (output or error document, no
// newline) to dst, and says what it is: its outcome, and the reason of an
// invalid verdict or the code of an error document (detail), as Execute
// hands them back. A panic in the tool is recovered into an internal_error
// document and described, with its stack, in report. A nil exec means
// (*schema.Tool).Execute.
func Answer(dst []byte, t *schema.Tool, input []byte, exec Execute) (out []byte, o Outcome, detail, report string) {
	defer func() {
		if v := recover(); v != nil {
			e := errs.Coded(CodeInternal, "internal error: the tool panicked")
			out, o, detail, report = e.AppendJSON(dst), Internal, string(CodeInternal), fmt.Sprintf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	if exec == nil {
		exec = (*schema.Tool).Execute
	}
	res, err := exec(t, input)
	if err == nil {
		o = Invalid
		if res.Valid {
			o = Valid
		}
		return append(dst, res.Doc...), o, res.Reason, ""
	}
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		// Execute documents *claimcheck.Error as its only error; anything else
		// is a bug, reported the same way as a panic.
		panic(fmt.Sprintf("%s returned %T, not *claimcheck.Error: %v", t.ID, err, err))
	}
	return e.AppendJSON(dst), Error, string(e.Code), ""
}

// TooLarge is the error document of a line (or document) over the byte cap.
func TooLarge(what string, max int64) *claimcheck.Error { return httpjson.TooLarge(what, max, "") }

// BlankLine is the error document of a line that is empty or only JSON
// whitespace. Its code and path are what the tool answers for those bytes
// (no JSON value: invalid_input at ""); the message says what happened.
func BlankLine() *claimcheck.Error {
	return errs.Invalid("", "blank line: want one JSON document per line")
}

// MaxWorkers is the most workers a run uses, GOMAXPROCS: the checks are
// CPU-bound, so workers beyond the processors that run them only add
// chunks in flight (memory) and no speed.
func MaxWorkers() int { return runtime.GOMAXPROCS(0) }

// Config configures [Run].
type Config struct {
	// Tool answers every line.
	Tool *schema.Tool
	// Workers is how many chunks are checked at once; it is held at
	// [1, MaxWorkers()].
	Workers int
	// MaxLine caps the bytes of a line, not counting "\n" or "\r\n"; a
	// longer line gets the limit_exceeded error document.
	MaxLine int64
	// MaxLines, when positive, is the most lines read: when the input has
	// more, the run stops after them and Result.LimitReached is set.
	MaxLines int64
	// Execute checks a line; nil means (*schema.Tool).Execute.
	Execute Execute
	// Slot, if not nil, is called by a worker before it checks a chunk;
	// it returns the function that gives the slot back, called once the
	// chunk is checked, or an error, which stops the run (Result.Stop):
	// the lines of that chunk and after it are not answered.
	Slot func() (release func(), err error)
	// Take, if not nil, is called before the run's buffers of lines and
	// answers grow by n bytes, so that what a run holds is what it has
	// received and not yet answered, as it arrives (the bytes of a line
	// still being read included), and no more than twice that: the
	// reader's buffer grows before the bytes that fill it are appended,
	// and an answer's buffer as soon as its line is checked. An error
	// stops the run (Result.Stop) before the line it was taken for. Give
	// gives bytes back: those of buffers the run drops, and at its end
	// every byte it took.
	Take func(n int64) error
	Give func(n int64)
	// ReadBuffer is the size of the buffer the input is read through;
	// zero means 64 KiB. A server reading a body sets it to what a
	// connection may hold beyond its budget.
	ReadBuffer int
	// Flush, if not nil, is called whenever the writer is about to wait
	// (for the next chunk or for its answers), so that what is written so
	// far reaches a reader that waits for it, and once at the end; an
	// error stops the run as a write error does.
	Flush func() error
	// Stopped, if not nil, is called once when the run stops early (a
	// write error, or a Slot or Take error), so that the caller can end a
	// read the reader is blocked in.
	Stopped func()
	// Answered, if not nil, is called on the writer's goroutine for each
	// chunk, in input order, once its answers are written: the chunk's
	// lines, and the bytes of input consumed up to its end. lines is
	// reused after the call.
	Answered func(lines []Line, consumed int64)
}

// A Line is what one input line got.
type Line struct {
	Num     int64 // 1-based input line number
	Outcome Outcome
	// Detail is the reason of an invalid verdict or the code of an error
	// document, "" for a valid verdict.
	Detail string
	// Report describes a panic of the tool (Outcome Internal), with its
	// stack; else "".
	Report string
}

// Result is how a run ended.
type Result struct {
	Lines        int64 // lines answered (written)
	ReadErr      error // reading the input failed (the lines before it are answered)
	WriteErr     error // writing (or flushing) the answers failed
	Stop         error // a Slot or Take error stopped the run
	LimitReached bool  // the input had more than MaxLines lines
}

// Lines travel in chunks so that the cost of handing work between
// goroutines is paid per chunk, not per line. A chunk is sent on as soon
// as the reader would block (bufio reports nothing buffered), so a slow
// producer on a pipe still gets each answer without waiting for a full chunk.
const (
	chunkLines = 256
	chunkBytes = 256 << 10
	// keepBytes caps the buffers a recycled chunk keeps, so one huge line
	// does not pin its memory for the rest of the run.
	keepBytes = 4 << 20
)

type chunk struct {
	in    []byte // the chunk's lines, back to back
	lines []lineRef
	out   []byte // one document and "\n" per line, in order
	res   []Line // one per line, once checked
	held  int64  // bytes of in's and out's capacity taken with Config.Take
	stop  error  // the Slot error that left the chunk unchecked
	// consumed is how many bytes of the input the reader had used up when
	// the chunk was complete, for the progress line.
	consumed int64
	done     chan struct{} // capacity 1: the worker's signal that out is ready
}

type lineRef struct {
	start, end int   // in chunk.in
	num        int64 // 1-based input line number
	over       bool  // longer than the cap; not stored
}

// Run answers every line of r on w, in order, output line N for input
// line N, checking up to cfg.Workers chunks at a time.
//
// Three stages: one reader fills chunks taken from a free list (made as
// needed, at most window of them) and sends each on two channels, ordered
// (to the writer, in input order) and work (to the workers); the workers
// fill each chunk's out; the writer (this goroutine) waits for the chunks
// in order, writes them, and puts them back on the free list. So memory is
// bounded by window chunks of input and output.
func Run(cfg Config, r io.Reader, w io.Writer) Result {
	workers := min(max(cfg.Workers, 1), MaxWorkers())
	window := 2*workers + 2
	free := make(chan *chunk, window)
	ordered := make(chan *chunk, window)
	work := make(chan *chunk, window)
	quit := make(chan struct{}) // closed by the writer when the run stops early

	var res Result
	var readErr, takeErr error
	go func() {
		defer close(work)
		defer close(ordered)
		readErr, takeErr = readChunks(r, cfg, window, free, quit, &res.LimitReached, func(c *chunk) {
			ordered <- c // never blocks: at most window chunks exist
			work <- c
		})
	}()

	var wg sync.WaitGroup
	ck := newChecker(cfg)
	for range workers {
		wg.Go(func() {
			for c := range work {
				ck.check(c, quit)
			}
		})
	}

	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			close(quit)
			if cfg.Stopped != nil {
				cfg.Stopped()
			}
		}
	}
	flush := func() {
		if !stopped && cfg.Flush != nil {
			if err := cfg.Flush(); err != nil {
				res.WriteErr = err
				stop()
			}
		}
	}
	for {
		// Before any wait, for the next chunk or for its answers, let what
		// is written so far out: a producer on a pipe may be waiting for it.
		var c *chunk
		var more bool
		select {
		case c, more = <-ordered:
		default:
			flush()
			c, more = <-ordered
		}
		if !more {
			break
		}
		select {
		case <-c.done:
		default:
			flush()
			<-c.done
		}
		if !stopped && c.stop != nil {
			res.Stop = c.stop
			stop()
		}
		if !stopped {
			if _, err := w.Write(c.out); err != nil {
				res.WriteErr = err
				stop()
			} else {
				res.Lines += int64(len(c.res))
				if cfg.Answered != nil {
					cfg.Answered(c.res, c.consumed)
				}
			}
		}
		c.recycle(cfg.Give)
		free <- c
	}
	wg.Wait()
	flush()
	// Every chunk made is back on the free list: the buffers go, and what
	// they held with them.
	for len(free) > 0 {
		c := <-free
		if cfg.Give != nil && c.held > 0 {
			cfg.Give(c.held)
		}
	}
	res.ReadErr = readErr
	if res.Stop == nil && takeErr != nil {
		res.Stop = takeErr
	}
	if res.Stop != nil || res.WriteErr != nil {
		res.LimitReached = false
	}
	return res
}

// recycle readies c for the free list: a buffer over keepBytes is dropped,
// and what it held given back.
func (c *chunk) recycle(give func(int64)) {
	if cap(c.in) > keepBytes {
		c.drop(cap(c.in), give)
		c.in = nil
	}
	if cap(c.out) > keepBytes {
		c.drop(cap(c.out), give)
		c.out = nil
	}
}

// drop gives back the n bytes of a buffer of c that goes, if they were
// taken.
func (c *chunk) drop(n int, give func(int64)) {
	if give != nil && c.held > 0 {
		k := min(int64(n), c.held)
		give(k)
		c.held -= k
	}
}

// A checker fills the answers of chunks (Run's workers).
type checker struct {
	cfg            Config
	tooLong, blank []byte
}

func newChecker(cfg Config) *checker {
	return &checker{cfg: cfg,
		tooLong: append(TooLarge("the line", cfg.MaxLine).AppendJSON(nil), '\n'),
		blank:   append(BlankLine().AppendJSON(nil), '\n')}
}

// check answers c's lines into c.out under a check slot, and signals
// c.done; a run that has stopped gets nothing more checked.
func (k *checker) check(c *chunk, quit <-chan struct{}) {
	defer func() { c.done <- struct{}{} }()
	c.out, c.res, c.stop = c.out[:0], c.res[:0], nil
	select {
	case <-quit: // stopped: nothing more is written
		return
	default:
	}
	release := func() {}
	if k.cfg.Slot != nil {
		rel, err := k.cfg.Slot()
		if err != nil {
			c.stop = err
			return
		}
		release = rel
	}
	defer release()
	for _, l := range c.lines {
		line := c.in[l.start:l.end]
		ln := Line{Num: l.num}
		before := cap(c.out)
		switch {
		case l.over:
			c.out, ln.Outcome, ln.Detail = append(c.out, k.tooLong...), Error, string(claimcheck.LimitExceeded)
		case isBlank(line):
			c.out, ln.Outcome, ln.Detail = append(c.out, k.blank...), Error, string(claimcheck.InvalidInput)
		default:
			c.out, ln.Outcome, ln.Detail, ln.Report = Answer(c.out, k.cfg.Tool, line, k.cfg.Execute)
			c.out = append(c.out, '\n')
		}
		c.res = append(c.res, ln)
		if grew := int64(cap(c.out) - before); grew > 0 && k.cfg.Take != nil {
			// The answer is made before its size is known: its growth is
			// taken once it is, and the lines after it wait for room.
			if err := k.cfg.Take(grew); err != nil {
				c.stop = err
				c.drop(before, k.cfg.Give)
				c.out = nil
				return
			}
			c.held += grew
		}
	}
}

// readChunks reads r line by line into chunks taken from free (or made,
// while fewer than window exist) and hands each non-empty chunk to send.
// It stops at the end of r, at a read error (returned, after the lines
// before it are sent), at cfg.MaxLines lines (setting *limit when more
// follow), at a Take error (returned as stop), or when quit is closed.
func readChunks(r io.Reader, cfg Config, window int, free chan *chunk, quit <-chan struct{}, limit *bool, send func(*chunk)) (readErr, stop error) {
	cr := &countingReader{r: r}
	size := cfg.ReadBuffer
	if size <= 0 {
		size = 64 << 10
	}
	br := bufio.NewReaderSize(cr, size)
	var c *chunk
	var num int64
	made := 0
	for {
		if c == nil {
			if c = nextChunk(free, quit, &made, window); c == nil {
				return nil, nil
			}
			c.in, c.lines = c.in[:0], c.lines[:0]
		}
		start, had := len(c.in), cap(c.in)
		var k lineKind
		var err error
		c.in, k, err = readLine(br, c.in, cfg.MaxLine, cfg.Take)
		c.held += int64(cap(c.in) - had) // taken as it grew
		if k == lineStop {
			c.in = c.in[:start]
			if len(c.lines) > 0 {
				send(c)
			} else {
				free <- c
			}
			return nil, err
		}
		if k != lineEOF {
			num++
		}
		switch k {
		case lineDoc:
			c.lines = append(c.lines, lineRef{start: start, end: len(c.in), num: num})
		case lineOver:
			c.lines = append(c.lines, lineRef{num: num, over: true})
		}
		end := k == lineEOF || err != nil
		if !end && cfg.MaxLines > 0 && num >= cfg.MaxLines {
			end = true
			if _, perr := br.Peek(1); perr == nil {
				*limit = true
			}
		}
		if len(c.lines) > 0 && (end || len(c.lines) >= chunkLines || len(c.in) >= chunkBytes || br.Buffered() == 0) {
			c.consumed = cr.n - int64(br.Buffered())
			send(c)
			c = nil
		}
		if end {
			if c != nil {
				free <- c
			}
			return err, nil
		}
	}
}

// nextChunk returns a chunk from free, or a new one while fewer than
// window are made, or nil once quit is closed.
func nextChunk(free chan *chunk, quit <-chan struct{}, made *int, window int) *chunk {
	select {
	case <-quit:
		return nil
	default:
	}
	if *made < window && len(free) == 0 {
		*made++
		return &chunk{done: make(chan struct{}, 1)}
	}
	select {
	case c := <-free:
		return c
	case <-quit:
		return nil
	}
}

type lineKind uint8

const (
	lineEOF  lineKind = iota // no line: the input is finished
	lineDoc                  // a line, appended to the buffer (it may be blank)
	lineOver                 // longer than the cap: discarded unread
	lineStop                 // take refused the buffer's growth: the line is dropped
)

// readLine reads one line, appending its bytes, without the line ending
// ("\n", "\r\n", or a final "\r" at the end of input), to buf. A line over
// maxLine bytes is discarded as it streams: at most maxLine+1 of its bytes
// are ever held. The bytes before a read error are dropped with it. The end
// of input ends the last line; it starts none: "a\n" is one line, "" none.
// With take, buf grows only by what take allows first (Config.Take): when
// it refuses, the line is dropped (lineStop) with take's error.
func readLine(br *bufio.Reader, buf []byte, maxLine int64, take func(int64) error) ([]byte, lineKind, error) {
	start := len(buf)
	var n int64 // the line's bytes so far
	over := false
	for first := true; ; first = false {
		frag, err := br.ReadSlice('\n')
		switch err {
		case nil:
			frag = frag[:len(frag)-1]
		case io.EOF:
			if first && len(frag) == 0 {
				return buf, lineEOF, nil
			}
		case bufio.ErrBufferFull:
		default:
			return buf[:start], lineEOF, err
		}
		n += int64(len(frag))
		switch {
		case over:
		case n-1 > maxLine:
			// Even without a trailing "\r" the line is over: stop keeping it.
			over = true
			buf = buf[:start]
		case take != nil && len(frag) > cap(buf)-len(buf):
			// Doubling, but never past what a chunk can come to (a full
			// chunk and one line), so that a line of the cap fits a
			// budget of a chunk and the cap.
			most := math.MaxInt
			if maxLine < int64(math.MaxInt-chunkBytes-2) {
				most = chunkBytes + int(maxLine) + 2
			}
			grown := make([]byte, len(buf), max(min(2*cap(buf), most), len(buf)+len(frag), 512))
			if terr := take(int64(cap(grown) - cap(buf))); terr != nil {
				return buf[:start], lineStop, terr
			}
			buf = append(grown[:copy(grown, buf)], frag...)
		default:
			buf = append(buf, frag...)
		}
		if err != bufio.ErrBufferFull {
			break
		}
	}
	if !over {
		if l := len(buf); l > start && buf[l-1] == '\r' {
			buf = buf[:l-1]
		}
		over = int64(len(buf)-start) > maxLine
	}
	if over {
		return buf[:start], lineOver, nil
	}
	return buf, lineDoc, nil
}

// IsBlank reports whether b is only JSON whitespace.
func IsBlank(b []byte) bool { return isBlank(b) }

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
