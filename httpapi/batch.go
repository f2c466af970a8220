package httpapi

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/internal/intake"
	"github.com/claimcheck/claimcheck/internal/jsonl"
	"github.com/claimcheck/claimcheck/schema"
)

// The trailers of a batch answer: what the status line cannot say once
// the answers have started. Each is a decimal count but Cut, which is
// present only when the server ended the stream before the end of the
// body, and names why with an error code: max_batch_lines (the body had
// more lines than the server answers in one request), overloaded (no
// check slot came free in time, or the lines did not fit the memory
// budget), request_timeout (the body stalled), invalid_input (the body
// broke off: a bad chunked or gzip encoding), shutdown (the server is
// shutting down: it answered the lines it had read).
const (
	TrailerLines   = "Claimcheck-Lines"   // lines answered
	TrailerValid   = "Claimcheck-Valid"   // of them, output documents with "valid":true
	TrailerInvalid = "Claimcheck-Invalid" // output documents with "valid":false
	TrailerErrors  = "Claimcheck-Errors"  // error documents
	TrailerCut     = "Claimcheck-Cut"     // why the server ended the stream early
)

// The Claimcheck-Cut values that are not error codes: a body with more
// lines than Options.MaxBatchLines, and a stream ended by the server's
// shutdown (service.Service.EndStreams).
const (
	CutMaxBatchLines = "max_batch_lines"
	CutShutdown      = "shutdown"
)

var batchTrailers = []string{TrailerLines + ", " + TrailerValid + ", " + TrailerInvalid + ", " + TrailerErrors + ", " + TrailerCut}

// errStop is a Slot or Take failure of a batch: e is the error document
// that names it (nil: the client went away).
type errStop struct{ e *claimcheck.Error }

func (e errStop) Error() string {
	if e.e == nil {
		return "the client went away"
	}
	return e.e.Message
}

// serveBatch answers a body of JSON Lines with JSON Lines, line N for line
// N, each the bytes `claimcheck batch` writes for it (package jsonl runs
// both), streaming: answers go out while the body arrives, up to
// min(GOMAXPROCS, slots) chunks are checked at once, each taking one of
// the shared check slots while it is checked, and the lines received and
// not yet answered hold their bytes in the shared budget.
func (h *handler) serveBatch(w *httpjson.Recorder, r *http.Request, t *schema.Tool, obs *Observation) {
	mt, e := httpjson.LinesContentType(r)
	if e != nil {
		intake.Unread(w, r)
		httpjson.WriteError(w, e)
		return
	}
	st, f := h.gate.Stream(w, r)
	if f != nil {
		httpjson.WriteError(w, f.Err)
		return
	}
	defer st.Done()
	workers := min(jsonl.MaxWorkers(), h.gate.Slots())
	ow := &batchWriter{w: w, mediaType: mt}
	sw := st.Writer(ow)
	bw := bufio.NewWriterSize(sw, 32<<10)
	var counts [4]int64 // by jsonl.Outcome
	b := &Batch{}
	ctx := r.Context()
	res := jsonl.Run(jsonl.Config{
		Tool:     t,
		Workers:  workers,
		MaxLine:  h.gate.Config().MaxBodyBytes,
		MaxLines: h.maxBatchLines,
		// The reader's buffer is what a connection may hold beyond the
		// budget; every other byte the run holds is taken from it.
		ReadBuffer: intake.ReadAhead,
		Execute:    jsonl.Execute(h.execute),
		Slot: func() (func(), error) {
			release, e, ok := h.gate.WaitSlot(ctx)
			if !ok {
				return nil, errStop{e}
			}
			return release, nil
		},
		Take: func(n int64) error {
			if !h.gate.Hold(n) {
				return errStop{httpjson.Busy(http.Header{}, "the lines do not fit the memory budget now; try again")}
			}
			return nil
		},
		Give: h.gate.Unhold,
		Flush: func() error {
			if !ow.started && bw.Buffered() == 0 {
				return nil // nothing to send: the status line is still free
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			ow.start()
			return sw.Flush()
		},
		Stopped: st.Interrupt,
		Answered: func(lines []jsonl.Line, _ int64) {
			for _, l := range lines {
				counts[l.Outcome]++
				b.Verdicts = countVerdict(b.Verdicts, l)
				if l.Report != "" {
					h.log.LogAttrs(context.Background(), slog.LevelError, "httpapi: panic checking a batch line",
						slog.String("tool", t.ID), slog.Int64("line", l.Num), slog.String("panic", l.Report))
				}
			}
		},
	}, st, bw)
	obs.BodyBytes = st.Received()
	var cut *claimcheck.Error
	shutdown := errors.Is(res.ReadErr, intake.ErrShutdown)
	switch {
	case res.WriteErr != nil:
		return // the client went away or stopped reading: nobody to tell
	case res.Stop != nil:
		var s errStop
		if errors.As(res.Stop, &s) {
			cut = s.e
		}
		if cut == nil {
			return
		}
	case shutdown:
		cut = httpjson.Busy(w.Header(), "the server is shutting down; try again")
	case res.ReadErr != nil:
		if cut = st.Failure(res.ReadErr); cut == nil {
			return
		}
	}
	if !ow.started && cut != nil {
		// Nothing answered yet: the status line can still say it.
		if cut.Code == httpjson.Overloaded {
			httpjson.Busy(w.Header(), cut.Message)
		}
		httpjson.WriteError(w, cut)
		return
	}
	ow.start()
	b.Lines, b.Valid, b.Invalid, b.Errors = res.Lines, counts[jsonl.Valid], counts[jsonl.Invalid], counts[jsonl.Error]+counts[jsonl.Internal]
	switch {
	case shutdown:
		b.Cut = CutShutdown
	case cut != nil:
		b.Cut = string(cut.Code)
	case res.LimitReached:
		b.Cut = CutMaxBatchLines
	}
	obs.Batch = b
	hd := w.Header()
	hd.Set(TrailerLines, strconv.FormatInt(b.Lines, 10))
	hd.Set(TrailerValid, strconv.FormatInt(b.Valid, 10))
	hd.Set(TrailerInvalid, strconv.FormatInt(b.Invalid, 10))
	hd.Set(TrailerErrors, strconv.FormatInt(b.Errors, 10))
	if b.Cut != "" {
		hd.Set(TrailerCut, b.Cut)
	}
	if cut != nil || res.LimitReached {
		// The rest of the body is not read (the connection is closed
		// after the answer: see intake.Stream).
		st.Interrupt()
	}
}

// countVerdict adds line l to counts, by verdict (Observation.Lines).
func countVerdict(counts []LineCount, l jsonl.Line) []LineCount {
	v := "valid"
	switch l.Outcome {
	case jsonl.Invalid:
		v = l.Detail
	case jsonl.Error, jsonl.Internal:
		v = "error"
	}
	for i := range counts {
		if counts[i].Verdict == v {
			counts[i].Count++
			return counts
		}
	}
	return append(counts, LineCount{v, 1})
}

// A batchWriter writes a batch answer's header (200, JSON Lines, the
// trailers declared) before its first byte, so that a failure before any
// answer can still be an error document with its status.
type batchWriter struct {
	w         http.ResponseWriter
	mediaType string
	started   bool
}

func (b *batchWriter) start() {
	if b.started {
		return
	}
	b.started = true
	h := b.w.Header()
	h.Set("Content-Type", b.mediaType)
	h.Set("X-Content-Type-Options", "nosniff")
	h["Trailer"] = batchTrailers
	b.w.WriteHeader(http.StatusOK)
}

func (b *batchWriter) Write(p []byte) (int, error) {
	b.start()
	return b.w.Write(p)
}
