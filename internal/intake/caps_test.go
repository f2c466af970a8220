package intake

import (
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestHugeCaps: a body cap beyond what one buffer holds is held at
// math.MaxInt − 1, and the default budget it implies is held at
// math.MaxInt64 rather than wrapped.
// Where an int has 32 bits, a 3 GiB cap let a request declaring just under
// 3 GiB take them from the budget and then panic in make, never giving
// them back; math.MaxInt64 (no cap, in effect) made the default budget's
// product wrap to a negative budget, so every request was refused 503.
func TestHugeCaps(t *testing.T) {
	type row struct {
		reason   string
		max      int64
		declared int64 // a request declaring this length is refused 413
	}
	testutil.Run(t, []row{
		{reason: "a 3 GiB cap", max: 3 << 30, declared: min(3<<30-1, math.MaxInt)},
		{reason: "a 2^62 cap, whose default budget 2 × 2 × 2^62 passes math.MaxInt64", max: 1 << 62, declared: math.MaxInt},
		{reason: "no cap in effect", max: math.MaxInt64, declared: math.MaxInt},
	}, func(t *testing.T, tc row) {
		g := New(Config{MaxBodyBytes: tc.max, MaxConcurrent: 2})
		c := g.Config()
		want := min(tc.max, math.MaxInt-1)
		budget := int64(math.MaxInt64) // 2 × 2 × want, where that does not pass it
		if want <= math.MaxInt64/4 {
			budget = 4 * want
		}
		if c.MaxBodyBytes != want || c.MaxBufferedBytes != budget {
			t.Fatalf("in effect: MaxBodyBytes %d, MaxBufferedBytes %d; want %d, %d", c.MaxBodyBytes, c.MaxBufferedBytes, want, budget)
		}
		free := g.Free()
		if tc.declared > c.MaxBodyBytes {
			r := httptest.NewRequest("POST", "/", strings.NewReader("{}"))
			r.ContentLength = tc.declared
			if _, _, f := g.ReadBody(httptest.NewRecorder(), r); f == nil || f.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("a request declaring %d bytes: %+v, want 413", tc.declared, f)
			}
			if g.Free() != free {
				t.Errorf("budget free %d after a refused request, %d before", g.Free(), free)
			}
		}
		r := httptest.NewRequest("POST", "/", strings.NewReader(`{"a":1}`))
		body, release, f := g.ReadBody(httptest.NewRecorder(), r)
		if f != nil || string(body) != `{"a":1}` {
			t.Fatalf("a small request: %q, %+v", body, f)
		}
		release()
		if g.Free() != free {
			t.Errorf("budget free %d after a small request, %d before", g.Free(), free)
		}
	})
}
