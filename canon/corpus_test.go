package canon_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// The ES6 number corpus of the JCS reference project
// (cyberphone/json-canonicalization), regenerated locally rather than
// downloaded: the sequence of doubles is deterministic and the project
// publishes the SHA-256 of its first N lines (corpusCheckpoints). A normal
// run checks the first 100,000 lines, the long run (testutil.Long) the first
// 1,000,000; -corpus.full or CLAIMCHECK_FULL_CORPUS=1 checks all 100,000,000.

var corpusFull = flag.Bool("corpus.full", false, "check all 100,000,000 lines of the ES6 number corpus (also CLAIMCHECK_FULL_CORPUS=1)")

// corpusCheckpoints are the published hashes of the corpus's first lines.
var corpusCheckpoints = []struct {
	lines int
	sum   string
}{
	{1000, "be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687"},
	{10000, "b9f7a8e75ef22a835685a52ccba7f7d6bdc99e34b010992cbc5864cd12be6892"},
	{100000, "22776e6d4b49fa294a0d0f349268e5c28808fe7e0cb2bcbe28f63894e494d4c7"},
	{1000000, "49415fee2c56c77864931bd3624faad425c3c577d6d74e89a83bc725506dad16"},
	{10000000, "b9f8a44a91d46813b21b9602e72f112613c91408db0b8341fb94603d9db135e0"},
	{100000000, "0f7dda6b0837dde083c5d6b896f7d62340c8a2415b0c7121d83145e08a755272"},
}

const (
	corpusSerialStart = 0x0010000000000000
	corpusSerialCount = 2000
	// corpusChunkLines divides every checkpoint, so checkpoints fall on chunk
	// boundaries and the hasher never splits a chunk.
	corpusChunkLines = 1000
)

// corpusSource yields the corpus's bit patterns in order: the static
// patterns, the serial ones, then the SHA-256 stream.
type corpusSource struct {
	static []uint64
	n      int       // patterns taken from static and serial so far
	block  [32]byte  // the current SHA-256 block
	stream [4]uint64 // block read as little-endian uint64s
	pos    int       // next unread index in stream; 4 when empty
}

func newCorpusSource(t testing.TB) *corpusSource {
	t.Helper()
	f, err := os.Open("../testdata/es6-static.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var static []uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		b, err := strconv.ParseUint(line, 16, 64)
		if err != nil {
			t.Fatalf("es6-static.txt: %v", err)
		}
		static = append(static, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(static) != 168 {
		t.Fatalf("es6-static.txt has %d patterns, want 168", len(static))
	}
	return &corpusSource{static: static, pos: 4}
}

func (s *corpusSource) next() uint64 {
	if s.n < len(s.static) {
		s.n++
		return s.static[s.n-1]
	}
	if s.n < len(s.static)+corpusSerialCount {
		s.n++
		return corpusSerialStart + uint64(s.n-1-len(s.static))
	}
	for {
		if s.pos == 4 {
			s.block = sha256.Sum256(s.block[:])
			for i := range s.stream {
				s.stream[i] = binary.LittleEndian.Uint64(s.block[8*i:])
			}
			s.pos = 0
		}
		b := s.stream[s.pos]
		s.pos++
		// Exponent all ones is ±Inf or NaN; the rest of the bits zero is ±0.
		if b&0x7ff0000000000000 == 0x7ff0000000000000 || b&^(1<<63) == 0 {
			continue
		}
		return b
	}
}

// corpusChunk carries corpusChunkLines patterns to a formatter and their
// lines on to the hasher.
type corpusChunk struct {
	bits []uint64
	out  []byte
	bad  string        // the first line canon could not produce, if any
	done chan struct{} // formatted
}

// appendCorpusLine appends one corpus line for the bit pattern b, using
// canon's number serialization. It does not allocate.
func appendCorpusLine(dst []byte, b uint64) ([]byte, bool) {
	dst = strconv.AppendUint(dst, b, 16)
	dst = append(dst, ',')
	s, err := canon.NumberScalar(math.Float64frombits(b))
	if err != nil {
		return dst, false
	}
	dst = s.AppendKey(dst)
	return append(dst, '\n'), true
}

func (c *corpusChunk) format() {
	c.out = c.out[:0]
	c.bad = ""
	for _, b := range c.bits {
		var ok bool
		c.out, ok = appendCorpusLine(c.out, b)
		if !ok && c.bad == "" {
			c.bad = strconv.FormatUint(b, 16)
		}
	}
	c.done <- struct{}{}
}

// hashCorpus regenerates the first lines lines of the corpus and returns the
// SHA-256 of its first N lines for every checkpoint N <= lines. Generation
// and hashing are sequential by nature; formatting, the expensive part, runs
// on up to GOMAXPROCS workers, and the hasher takes chunks in order.
func hashCorpus(t testing.TB, lines int) map[int]string {
	t.Helper()
	if lines%corpusChunkLines != 0 {
		t.Fatalf("lines %d is not a multiple of %d", lines, corpusChunkLines)
	}
	src := newCorpusSource(t)
	workers := runtime.GOMAXPROCS(0)
	nchunks := 4 * (workers + 1)
	free := make(chan *corpusChunk, nchunks)
	work := make(chan *corpusChunk, nchunks)
	order := make(chan *corpusChunk, nchunks)
	for range nchunks {
		free <- &corpusChunk{
			bits: make([]uint64, corpusChunkLines),
			out:  make([]byte, 0, corpusChunkLines*48),
			done: make(chan struct{}, 1),
		}
	}
	for range workers {
		go func() {
			for c := range work {
				c.format()
			}
		}()
	}
	total := lines / corpusChunkLines
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(work)
		for range total {
			var c *corpusChunk
			select {
			case c = <-free:
			case <-stop:
				return
			}
			for i := range c.bits {
				c.bits[i] = src.next()
			}
			work <- c
			order <- c
		}
	}()

	sums := make(map[int]string)
	h := sha256.New()
	var sum [sha256.Size]byte
	cp := 0
	for i := range total {
		c := <-order
		<-c.done
		if c.bad != "" {
			t.Fatalf("chunk %d: canon refused corpus pattern %s", i, c.bad)
		}
		h.Write(c.out)
		free <- c
		done := (i + 1) * corpusChunkLines
		for cp < len(corpusCheckpoints) && corpusCheckpoints[cp].lines <= done {
			if corpusCheckpoints[cp].lines == done {
				sums[done] = hex.EncodeToString(h.Sum(sum[:0]))
			}
			cp++
		}
	}
	return sums
}

// firstCorpusDifference names the first of the first lines lines where canon
// and jcs.NumberToJSON disagree, to explain a hash mismatch.
func firstCorpusDifference(t testing.TB, lines int) string {
	src := newCorpusSource(t)
	var buf []byte
	for i := range lines {
		b := src.next()
		f := math.Float64frombits(b)
		want, err := jcs.NumberToJSON(f)
		var ok bool
		buf, ok = appendCorpusLine(buf[:0], b)
		got := strings.TrimSuffix(string(buf), "\n")
		if err != nil || !ok || got != strconv.FormatUint(b, 16)+","+want {
			return fmt.Sprintf("line %d: canon %q, jcs.NumberToJSON %q (err %v)", i+1, got, want, err)
		}
	}
	return "no line differs from jcs.NumberToJSON (the generator itself is off)"
}

func corpusFullRequested() bool {
	return *corpusFull || os.Getenv("CLAIMCHECK_FULL_CORPUS") == "1"
}

func TestES6NumberCorpus(t *testing.T) {
	lines := testutil.Size(100_000, 1_000_000)
	if corpusFullRequested() {
		lines = 100000000
	}
	start := time.Now()
	sums := hashCorpus(t, lines)
	t.Logf("hashed %d corpus lines in %v", lines, time.Since(start).Round(time.Millisecond))
	checked := 0
	for _, cp := range corpusCheckpoints {
		if cp.lines > lines {
			continue
		}
		checked++
		if got := sums[cp.lines]; got != cp.sum {
			t.Errorf("SHA-256 of the first %d lines = %s, want %s; %s",
				cp.lines, got, cp.sum, firstCorpusDifference(t, min(cp.lines, 10000000)))
		}
	}
	if checked < 3 {
		t.Fatalf("checked only %d checkpoints", checked)
	}
}

// TestCorpusSource pins the generator's first patterns of each part, so a
// generator bug is told apart from a serialization bug.
func TestCorpusSource(t *testing.T) {
	src := newCorpusSource(t)
	first := src.next()
	if first != 0 {
		t.Errorf("first pattern %x, want 0 (es6-static.txt starts with 0)", first)
	}
	for range 167 {
		src.next()
	}
	for i := range corpusSerialCount {
		if got, want := src.next(), uint64(corpusSerialStart)+uint64(i); got != want {
			t.Fatalf("serial pattern %d = %x, want %x", i, got, want)
		}
	}
	// The first stream block is SHA-256 of 32 zero bytes.
	var zero [32]byte
	blk := sha256.Sum256(zero[:])
	want := binary.LittleEndian.Uint64(blk[:8])
	if got := src.next(); got != want {
		t.Errorf("first stream pattern %x, want %x", got, want)
	}
}
