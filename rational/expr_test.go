package rational_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/rational"
	"pgregory.net/rapid"
)

// TestStringIsAFixedPoint: Expr.String prints a fully parenthesised
// expression that parses back to an Expr with the same String and value.
func TestStringIsAFixedPoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		n := rapid.IntRange(1, 30).Draw(t, "terms")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(rapid.SampledFrom([]string{" + ", " - ", " * ", " / ", "\u2212", "\u00d7"}).Draw(t, "op"))
			}
			if rapid.Bool().Draw(t, "neg") {
				b.WriteString("-")
			}
			if rapid.Bool().Draw(t, "paren") {
				b.WriteString("(" + rapid.StringMatching(`[1-9][0-9]{0,3}`).Draw(t, "a") + " - 1)")
			} else {
				b.WriteString(rapid.StringMatching(`[1-9][0-9]{0,3}`).Draw(t, "lit"))
			}
		}
		e, err := rational.Parse(b.String())
		if err != nil {
			t.Fatalf("Parse(%q): %v", b.String(), err)
		}
		s := e.String()
		e2, err := rational.Parse(s)
		if err != nil {
			t.Fatalf("Parse(String() = %q): %v", s, err)
		}
		if s2 := e2.String(); s2 != s {
			t.Fatalf("String not a fixed point:\n%s\n%s", s, s2)
		}
		v1, z1, err1 := e.Eval()
		v2, z2, err2 := e2.Eval()
		if (z1 == nil) != (z2 == nil) || (err1 == nil) != (err2 == nil) || z1 == nil && err1 == nil && !v1.Equal(v2) {
			t.Fatalf("%q = %v %v %v, but %q = %v %v %v", b.String(), v1, z1, err1, s, v2, z2, err2)
		}
	})
}

// TestMaxValueDigitsIsCapped: a caller's MaxValueDigits above 2^31 − 1 is
// held there: the digit tests multiply it by 33,220, and from about
// 2.8·10^14 on that wrapped, so 2^129, far within the limit, was over it.
func TestMaxValueDigitsIsCapped(t *testing.T) {
	in := rational.Input{Expression: "340282366920938463463374607431768211456 * 2", ClaimedValue: "680564733841876926926749214863536422912"}
	ds := []int{1000, math.MaxInt32, math.MaxInt}
	if strconv.IntSize == 64 {
		wide := []int64{1 << 48, 1e15, 1 << 62}
		for _, d := range wide {
			ds = append(ds, int(d))
		}
	}
	for _, d := range ds {
		r, err := rational.CheckRational(in, rational.Limits{MaxValueDigits: d})
		if err != nil || !r.Valid {
			t.Errorf("MaxValueDigits %d: 2^128 × 2 = 2^129: %v, %v", d, r.Err(), err)
		}
	}
}

// TestMaxDepthIsCapped: a caller's MaxDepth above 4096 is held at 4096, so
// deep nesting is a limit error, never a stack overflow.
func TestMaxDepthIsCapped(t *testing.T) {
	lim := rational.Limits{MaxExpressionBytes: 1 << 24, MaxTokens: 1 << 22, MaxDepth: 1 << 30}
	expr := strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000)
	deep := strings.Repeat("(", 4096) + "1" + strings.Repeat(")", 4096)
	// The machine CheckRational runs, and the two-pass reference's parser.
	for _, c := range []struct {
		name string
		run  func(string) error
	}{
		{"Evaluate", func(s string) error { _, _, err := lim.Evaluate(s); return err }},
		{"Parse", func(s string) error { _, err := lim.Parse(s); return err }},
	} {
		name, run := c.name, c.run
		var e *claimcheck.Error
		if err := run(expr); !errors.As(err, &e) || e.Limit != "max_depth" || e.Position != 4096 {
			t.Errorf("%s(100000 parentheses) = %v, want max_depth at 4096", name, err)
		}
		if err := run(deep); err != nil {
			t.Errorf("%s(depth 4096): %v", name, err)
		}
	}
}
