package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/schema"
)

const batchSynopsis = "claimcheck batch [-exit-code] [-summary] [-j N] [-max-line-bytes N] TOOL_ID [FILE]"

func batchCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("batch", flag.ContinueOnError)
	invalidExit := fs.Bool("exit-code", false, "exit 4 when every line got an output document and a verdict is \"valid\":false")
	workers := fs.Int("j", runtime.NumCPU(), "check up to `N` lines in parallel")
	maxLine := fs.Int64("max-line-bytes", defaultMaxBytes, "refuse a line of more `bytes` (not counting its line ending) with limit_exceeded")
	summarize := fs.Bool("summary", false, "at the end, write to stderr the count of lines by verdict, by reason and by error code, each with its first line")
	t, unknown, file, code, ok := toolArgs(fs, args, stdout, stderr, batchSynopsis,
		func() string { return cond(*workers < 1, "-j must be at least 1") },
		func() string { return cond(*maxLine < 0, "-max-line-bytes must not be negative") })
	if !ok {
		return code
	}
	if t == nil {
		// Unlike run, an unknown tool is a usage error here: writing one
		// unknown_tool document per line would only repeat the mistake, and
		// one document for the whole run would break the one-line-per-line
		// contract.
		fmt.Fprintf(stderr, "claimcheck: %s; the tools are %s\n", unknown.Message, toolList())
		return exitUsage
	}
	r, name, closeFn, err := openInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	defer closeFn()
	cfg := batchConfig{tool: t, workers: *workers, maxLine: *maxLine, invalidExit: *invalidExit, summary: *summarize}
	cfg.progress = startProgress(stderr, r)
	return batch(cfg, r, name, stdout, stderr)
}

type batchConfig struct {
	tool        *schema.Tool
	workers     int
	maxLine     int64 // bytes of a line, not counting "\n" or "\r\n"
	invalidExit bool  // -exit-code: a false verdict exits 4
	summary     bool  // -summary: count the lines' classes, report them at the end
	// progress, when stderr is a terminal, shows the lines answered; batch
	// ends it before it writes anything else to stderr.
	progress *progress
}

// blankLine is the error document of a line that is empty or only JSON
// whitespace. Its code and path are what the tool answers for those bytes
// (no JSON value: invalid_input at ""); the message says what happened.
func blankLine() *claimcheck.Error {
	return errs.Invalid("", "blank line: want one JSON document per line")
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
	in      []byte // the chunk's lines, back to back
	lines   []lineRef
	out     []byte // one document and "\n" per line, in order
	worst   outcome
	reports []string    // internal errors, for stderr
	classes []lineClass // with -summary: each line's
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

// batch answers every line of r on w, in order, output line N for input
// line N, checking up to cfg.workers chunks at a time, and returns the exit
// code.
//
// Three stages: one reader fills chunks taken from a free list and sends
// each on two channels, ordered (to the writer, in input order) and work
// (to the workers); the workers fill each chunk's out; the writer (this
// goroutine) waits for the chunks in order, writes them, and puts them back
// on the free list. The free list holds window chunks, all there will ever
// be, so memory is bounded by window chunks of input and output.
func batch(cfg batchConfig, r io.Reader, name string, w, stderr io.Writer) int {
	window := 2*cfg.workers + 2
	free := make(chan *chunk, window)
	for range window {
		free <- &chunk{done: make(chan struct{}, 1)}
	}
	ordered := make(chan *chunk, window)
	work := make(chan *chunk, window)
	quit := make(chan struct{}) // closed by the writer when writing fails

	var readErr error
	go func() {
		defer close(work)
		defer close(ordered)
		readErr = readChunks(r, cfg.maxLine, free, quit, func(c *chunk) {
			ordered <- c // never blocks: at most window chunks exist
			work <- c
		})
	}()

	tooLong := append(tooLarge("the line", cfg.maxLine).AppendJSON(nil), '\n')
	blank := append(blankLine().AppendJSON(nil), '\n')
	var wg sync.WaitGroup
	for range cfg.workers {
		wg.Go(func() {
			for c := range work {
				c.out, c.worst, c.reports, c.classes = c.out[:0], gotValid, c.reports[:0], c.classes[:0]
				for _, l := range c.lines {
					line := c.in[l.start:l.end]
					var o outcome
					var detail, report string
					switch {
					case l.over:
						c.out, o, detail = append(c.out, tooLong...), gotError, string(claimcheck.LimitExceeded)
					case isBlank(line):
						c.out, o, detail = append(c.out, blank...), gotError, string(claimcheck.InvalidInput)
					default:
						c.out, o, detail, report = answer(c.out, cfg.tool, line)
						c.out = append(c.out, '\n')
					}
					c.worst = max(c.worst, o)
					if cfg.summary {
						c.classes = append(c.classes, classOf(o, detail))
					}
					if report != "" {
						c.reports = append(c.reports, fmt.Sprintf("claimcheck: internal error on %s line %d: %s", name, l.num, report))
					}
				}
				c.done <- struct{}{}
			}
		})
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	var werr error
	fail := func(err error) {
		if werr == nil {
			werr = err
			close(quit)
		}
	}
	worst := gotValid
	var sum *summary
	if cfg.summary {
		sum = newSummary()
	}
	flush := func() {
		if werr == nil {
			if err := bw.Flush(); err != nil {
				fail(err)
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
		if werr == nil {
			if _, err := bw.Write(c.out); err != nil {
				fail(err)
			}
			worst = max(worst, c.worst)
			for _, rep := range c.reports {
				io.WriteString(stderr, rep)
			}
			if sum != nil {
				for k, l := range c.lines {
					sum.add(l.num, c.classes[k])
				}
			}
			cfg.progress.answered(len(c.lines), c.consumed)
		}
		if cap(c.in) > keepBytes {
			c.in = nil
		}
		if cap(c.out) > keepBytes {
			c.out = nil
		}
		free <- c
	}
	wg.Wait()
	flush()
	cfg.progress.end()
	if sum != nil {
		sum.write(stderr, name)
	}
	switch {
	case werr != nil:
		fmt.Fprintf(stderr, "claimcheck: writing the answers: %v\n", werr)
		return exitUsage
	case readErr != nil:
		fmt.Fprintf(stderr, "claimcheck: reading %s: %v\n", name, readErr)
		return exitUsage
	}
	return exitCode(worst, cfg.invalidExit)
}

// readChunks reads r line by line into chunks taken from free and hands
// each non-empty chunk to send. It stops at the end of r, at a read error
// (returned, after the lines before it are sent), or when quit is closed.
func readChunks(r io.Reader, maxLine int64, free <-chan *chunk, quit <-chan struct{}, send func(*chunk)) error {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	var c *chunk
	var num int64
	for {
		if c == nil {
			select {
			case c = <-free:
			case <-quit:
				return nil
			}
			c.in, c.lines = c.in[:0], c.lines[:0]
		}
		start := len(c.in)
		var k lineKind
		var err error
		c.in, k, err = readLine(br, c.in, maxLine)
		num++
		switch k {
		case lineDoc:
			c.lines = append(c.lines, lineRef{start: start, end: len(c.in), num: num})
		case lineOver:
			c.lines = append(c.lines, lineRef{num: num, over: true})
		}
		end := k == lineEOF || err != nil
		if len(c.lines) > 0 && (end || len(c.lines) >= chunkLines || len(c.in) >= chunkBytes || br.Buffered() == 0) {
			c.consumed = cr.n - int64(br.Buffered())
			send(c)
			c = nil
		}
		if err != nil {
			return err
		}
		if end {
			return nil
		}
	}
}

type lineKind uint8

const (
	lineEOF  lineKind = iota // no line: the input is finished
	lineDoc                  // a line, appended to the buffer (it may be blank)
	lineOver                 // longer than the cap: discarded unread
)

// readLine reads one line, appending its bytes, without the line ending
// ("\n", "\r\n", or a final "\r" at the end of input), to buf. A line over
// maxLine bytes is discarded as it streams: at most maxLine+1 of its bytes
// are ever held. The bytes before a read error are dropped with it. The end
// of input ends the last line; it starts none: "a\n" is one line, "" none.
func readLine(br *bufio.Reader, buf []byte, maxLine int64) ([]byte, lineKind, error) {
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

// isBlank reports whether b is only JSON whitespace.
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
