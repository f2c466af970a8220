package rational_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/rational"
	"pgregory.net/rapid"
)

// sameAsTwoPass fails t unless the one-pass machine and the two-pass
// reference give src the same answer under lim: the same value, the same
// division by zero, or the same error in every field.
func sameAsTwoPass(t interface {
	Helper()
	Fatalf(string, ...any)
}, lim rational.Limits, src string) {
	t.Helper()
	v, zd, err := lim.Evaluate(src)
	v2, zd2, err2 := lim.EvaluateTwoPass(src)
	var e, e2 *claimcheck.Error
	switch {
	case (err == nil) != (err2 == nil):
		t.Fatalf("%q %+v: one pass %v, two passes %v", src, lim, err, err2)
	case err != nil:
		if !errors.As(err, &e) || !errors.As(err2, &e2) || *e != *e2 {
			t.Fatalf("%q %+v: one pass %#v, two passes %#v", src, lim, err, err2)
		}
	case (zd == nil) != (zd2 == nil) || zd != nil && *zd != *zd2:
		t.Fatalf("%q %+v: one pass %+v, two passes %+v", src, lim, zd, zd2)
	case zd == nil && (!v.Equal(v2) || v.String() != v2.String()):
		t.Fatalf("%q %+v: one pass %v, two passes %v", src, lim, v, v2)
	}
}

// TestOnePassKeepsTheCheckOrder: where errors of several steps meet, the
// one-pass machine answers with the one the check order puts first, as the
// two-pass reference (which runs the steps one after the other) does.
func TestOnePassKeepsTheCheckOrder(t *testing.T) {
	small := rational.Limits{MaxTokens: 7, MaxDepth: 2, MaxValueDigits: 3}
	shallow := rational.Limits{MaxTokens: 20, MaxDepth: 2, MaxValueDigits: 3}
	type row struct {
		reason string
		lim    rational.Limits
		src    string
		code   claimcheck.Code
		limit  string
		pos    int
	}
	testutil.Run(t, []row{
		{reason: "a lexical error after a syntax error wins", src: "1 ) $", code: claimcheck.InvalidInput, pos: 4},
		{reason: "a leading zero after a syntax error wins", src: "(1 ) 07", code: claimcheck.InvalidInput, pos: 6},
		{reason: "the token limit after a syntax error wins", lim: small, src: ") 1 1 1 1 1 1 1", code: claimcheck.LimitExceeded, limit: "max_tokens", pos: 14},
		{reason: "a long literal after a depth error wins", lim: shallow, src: "(((1))) + 1234", code: claimcheck.LimitExceeded, limit: "max_value_digits", pos: 10},
		{reason: "a syntax error after a division by zero wins", src: "1/0 + )", code: claimcheck.InvalidInput, pos: 6},
		{reason: "a lexical error after a division by zero wins", src: "1/0 + 2.5", code: claimcheck.InvalidInput, pos: 7},
		{reason: "a depth error after a value over the digit limit wins", lim: shallow, src: "999*999 + ---1", code: claimcheck.LimitExceeded, limit: "max_depth", pos: 12},
		{reason: "the first evaluation error wins: digits before a zero divisor", lim: shallow, src: "999*999 + 1/0", code: claimcheck.LimitExceeded, limit: "max_value_digits", pos: 3},
		{reason: "the end of the expression is reported after a held division by zero", src: "1/0 +", code: claimcheck.InvalidInput, pos: 5},
		{reason: "a missing ')' is reported at the end", src: "(1/0", code: claimcheck.InvalidInput, pos: 4},
	}, func(t *testing.T, r row) {
		_, _, err := r.lim.Evaluate(r.src)
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Code != r.code || e.Limit != r.limit || e.Position != r.pos {
			t.Fatalf("%q: %#v, want %s %q at %d", r.src, err, r.code, r.limit, r.pos)
		}
		sameAsTwoPass(t, r.lim, r.src)
	})
}

// TestOnePassMatchesTwoPass: on expressions drawn from the grammar with
// faults mixed in, under small limits, the one-pass machine and the
// two-pass reference give the same answer.
func TestOnePassMatchesTwoPass(t *testing.T) {
	pieces := []string{"1", "0", "7", "12", "999", "18446744073709551616", "340282366920938463463374607431768211457",
		"123456789012345678901234567890123456789012", " + ", " - ", "*", "/", "\u2212", "\u00d7", "\u00f7",
		"(", ")", "-", " ", "0/", "/0", "/(1-1)", "$", "07", "2.5", "\xff", "+"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		lim := rational.Limits{
			MaxTokens:      rapid.IntRange(0, 40).Draw(t, "tokens"),
			MaxDepth:       rapid.IntRange(0, 6).Draw(t, "depth"),
			MaxValueDigits: rapid.IntRange(0, 60).Draw(t, "digits"),
		}
		sameAsTwoPass(t, lim, b.String())
	})
}

// TestOnePassMatchesOracleOnValidExpressions: on grammatical expressions,
// which mostly reach evaluation (values on every tier, divisions by zero,
// intermediates over the digit limit), the one-pass machine gives the
// math/big.Rat oracle's answer (sameAsTwoPass).
func TestOnePassMatchesOracleOnValidExpressions(t *testing.T) {
	lits := []string{"0", "1", "2", "3", "7", "10", "999", "4294967296", "18446744073709551615", "18446744073709551616",
		"170141183460469231731687303715884105727", "340282366920938463463374607431768211457", "123456789012345678901234567890123456789012"}
	ops := []string{" + ", " - ", " * ", " / ", " \u2212 ", " \u00d7 ", " \u00f7 "}
	var operand func(t *rapid.T, depth int) string
	expr := func(t *rapid.T, depth int) string {
		n := rapid.IntRange(1, 4).Draw(t, "operands")
		s := operand(t, depth)
		for range n - 1 {
			s += rapid.SampledFrom(ops).Draw(t, "op") + operand(t, depth)
		}
		return s
	}
	operand = func(t *rapid.T, depth int) string {
		neg := strings.Repeat("-", rapid.IntRange(0, 2).Draw(t, "minus"))
		if depth < 3 && rapid.IntRange(0, 3).Draw(t, "nest") == 0 {
			return neg + "(" + expr(t, depth+1) + ")"
		}
		return neg + rapid.SampledFrom(lits).Draw(t, "lit")
	}
	rapid.Check(t, func(t *rapid.T) {
		lim := rational.Limits{MaxValueDigits: rapid.SampledFrom([]int{0, 3, 19, 20, 38, 39, 60}).Draw(t, "digits")}
		if lim.MaxValueDigits == 0 {
			lim.MaxValueDigits = 500 // the default, stated: a literal's digits are checked against it
		}
		sameAsTwoPass(t, lim, expr(t, 0))
	})
}

// TestOnePassDeepStack: an expression whose operand stack outgrows the
// machine's own slots (right-nested parentheses) evaluates as the two-pass
// reference does, with values on the word tiers and past them.
func TestOnePassDeepStack(t *testing.T) {
	for _, lit := range []string{"3", "18446744073709551617", "123456789012345678901234567890123456789012"} {
		var b strings.Builder
		for i := 0; i < 40; i++ {
			b.WriteString(lit + " - (1 + " + lit + " * (")
		}
		b.WriteString("1")
		b.WriteString(strings.Repeat("))", 40))
		sameAsTwoPass(t, rational.Limits{MaxDepth: 100, MaxValueDigits: 4000}, b.String())
	}
}

// TestApplyFastPath runs expressions at the edges of the machine's fast
// path (two operands on the machine, both below 2^64, neither 0 for a
// product or quotient): results that just fit a word or just do not, zero
// operands and divisors, signs, digit limits below and at 20 digits (where
// the path skips the digit test), and stacks past the machine's own slots.
// Each answer must be the two-pass reference's, and a value math/big.Rat's.
func TestApplyFastPath(t *testing.T) {
	type row struct {
		reason string
		digits int
		src    string
		over   bool // a value over the digit limit
	}
	testutil.Run(t, []row{
		{reason: "a sum of exactly 2^64-1 stays in a word", src: "9223372036854775808 + 9223372036854775807"},
		{reason: "a sum of 2^64 leaves the word", src: "9223372036854775808 + 9223372036854775808"},
		{reason: "a product of 2^64 leaves the word", src: "4294967296 * 4294967296"},
		{reason: "a quotient whose denominator passes 2^64", src: "1/4294967296 / 4294967297"},
		{reason: "a difference that cancels to 0", src: "18446744073709551615 - 18446744073709551615"},
		{reason: "0 times a value", src: "0 * 7"},
		{reason: "a value times 0", src: "7 * 0"},
		{reason: "0 divided by a value", src: "0 / 7"},
		{reason: "a zero divisor", src: "7 / 0"},
		{reason: "a zero divisor from a fast difference", src: "7 / (3 - 3)"},
		{reason: "a negative times a positive", src: "-3 * 4"},
		{reason: "a quotient by a negative", src: "3 / -4"},
		{reason: "a sum that changes sign", src: "1/3 - 1/2"},
		{reason: "a negative minus a negative", src: "-1/2 - -1/3"},
		{reason: "a product with common factors across", src: "6/35 * 14/15"},
		{reason: "a quotient with common factors", src: "6/35 / (15/14)"},
		{reason: "3 digits allowed, a sum of 4", digits: 3, src: "999 + 1", over: true},
		{reason: "3 digits allowed, a denominator of 4", digits: 3, src: "1/999 * 1/2", over: true},
		{reason: "3 digits allowed, a value of exactly 3", digits: 3, src: "99 * 10"},
		{reason: "19 digits allowed, a product of 20 below 2^64", digits: 19, src: "10000000000 * 1000000000", over: true},
		{reason: "20 digits allowed, a product of 20 below 2^64", digits: 20, src: "10000000000 * 1000000000"},
		{reason: "19 digits allowed, a product of 19", digits: 19, src: "9999999999 * 999999999"},
		{reason: "four operands: the machine's slots are full", src: "1 - (2 - (3 - 4 * 5))"},
		{reason: "five operands: the stack moves to the heap", src: "1 - (2 - (3 - (4 - 5 * 6)))"},
		{reason: "the stack back to two operands after the heap", src: "(1 - (2 - (3 - (4 - 5)))) / 7 * 3"},
	}, func(t *testing.T, r row) {
		lim := rational.Limits{MaxValueDigits: r.digits}
		sameAsTwoPass(t, lim, r.src)
		v, zd, err := lim.Evaluate(r.src)
		want := peerEval(r.src)
		switch {
		case (err != nil) != r.over:
			t.Fatalf("%q with %d digits: %v, want an error over the limit: %v", r.src, r.digits, err, r.over)
		case err != nil:
		case want == nil:
			if zd == nil {
				t.Fatalf("%q = %v, want a division by zero", r.src, v)
			}
		case zd != nil || v.String() != want.RatString():
			t.Fatalf("%q = %v (%+v), want %s", r.src, v, zd, want.RatString())
		}
	})
}
