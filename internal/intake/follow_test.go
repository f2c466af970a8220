package intake

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestReadBodyFollow: a body over MaxBodyBytes and within the Follower's
// hard cap is handed to Feed whole and in order, holds no more budget than
// a body of MaxBodyBytes and gives it all back; one over the hard cap
// (declared, sent or decompressed) is 413; one within MaxBodyBytes is
// read as ReadBody reads it.
func TestReadBodyFollow(t *testing.T) {
	const maxBody, hard = 16 << 10, 64 << 10 // over ReadAhead: a body over it holds budget
	type row struct {
		reason   string
		size     int
		declared bool // Content-Length set (else chunked)
		gz       bool
		over     bool // followed
		status   int  // 0: admitted
	}
	testutil.Run(t, []row{
		{reason: "within the cap: read and held", size: maxBody, declared: true},
		{reason: "declared over the cap, within the hard cap: followed", size: maxBody + 1, declared: true, over: true},
		{reason: "chunked, at the hard cap: followed", size: hard, over: true},
		{reason: "gzip, decompressed within the hard cap: followed", size: 3 * maxBody, gz: true, over: true},
		{reason: "declared over the hard cap: refused unread", size: hard + 1, declared: true, status: 413},
		{reason: "chunked, over the hard cap once read", size: hard + 1, status: 413},
		{reason: "gzip, decompressed over the hard cap: a zip bomb", size: 64 * hard, gz: true, status: 413},
	}, func(t *testing.T, tc row) {
		g := New(Config{MaxBodyBytes: maxBody, MaxBufferedBytes: 4 * maxBody})
		free := g.Free()
		want := bytes.Repeat([]byte("0123456789abcdef"), tc.size/16+1)[:tc.size]
		var src io.Reader = bytes.NewReader(want)
		if tc.gz {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(want)
			zw.Close()
			src = &z
		}
		r := httptest.NewRequest("POST", "/", io.NopCloser(src))
		r.ContentLength = -1
		if tc.declared {
			r.ContentLength = int64(tc.size)
		}
		if tc.gz {
			r.Header.Set("Content-Encoding", "gzip")
		}
		var fed []byte
		body, over, release, f := g.ReadBodyFollow(httptest.NewRecorder(), r, Follower{Hard: hard, Feed: func(p []byte) {
			if free-g.Free() > maxBody {
				t.Errorf("holds %d bytes of the budget while followed", free-g.Free())
			}
			fed = append(fed, p...)
		}})
		switch {
		case tc.status != 0:
			if f == nil || f.Status != tc.status {
				t.Fatalf("%+v, want %d", f, tc.status)
			}
		case f != nil:
			t.Fatalf("refused: %+v", f)
		case over != tc.over:
			t.Fatalf("over %v, want %v", over, tc.over)
		case over && (len(body) != 0 || !bytes.Equal(fed, want)):
			t.Fatalf("followed: body %d bytes, fed %d bytes (%q…), want none and the %d sent", len(body), len(fed), fed[:min(len(fed), 20)], len(want))
		case !over && (!bytes.Equal(body, want) || fed != nil):
			t.Fatalf("read: body %d bytes, fed %d", len(body), len(fed))
		}
		release()
		if g.Free() != free {
			t.Errorf("budget free %d after, %d before", g.Free(), free)
		}
	})
}
