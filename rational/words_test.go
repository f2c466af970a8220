package rational_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/rational"
)

// TestWordBoundaries runs expressions whose values cross the evaluator's
// word sizes (2^63, 2^64, 2^127, 2^128, 32-bit divisions) through
// CheckRational and compares each with math/big.Rat (peerEval): the value,
// the canonical claim as valid, and a division by zero where big.Rat finds
// one.
func TestWordBoundaries(t *testing.T) {
	rows := []struct{ reason, expr string }{
		{"2^64-1 plus 1 overflows a word into double words", "18446744073709551615 + 1"},
		{"(2^64-1)^2 fills double words", "18446744073709551615 * 18446744073709551615"},
		{"2^128-1 is a big literal, plus 1 stays big", "340282366920938463463374607431768211455 + 1"},
		{"a value past 2^128 comes back into words", "340282366920938463463374607431768211455 * 4 / 8"},
		{"-2^63 minus 2^63 is -2^64", "-9223372036854775808 - 9223372036854775808"},
		{"negating -2^63, MinInt64", "-(-9223372036854775808)"},
		{"denominators whose product passes 2^128", "1/18446744073709551615 + 1/18446744073709551614"},
		{"the 32-bit division boundary", "4294967295/4294967296 + 1/4294967297"},
		{"operands just past 32 bits", "4294967296 / 4294967296 * 8589934592 / 4294967296"},
		{"a sum that cancels to 0", "12/18 - 2/3"},
		{"a product with 0", "0 * 18446744073709551615 / 3"},
		{"a product that reduces to 1 minus 1", "(2/3) * (3/2) - 1"},
		{"a zero divisor from a word subtraction", "1 / (18446744073709551615 - 18446744073709551615)"},
		{"a zero divisor from a double-word subtraction", "7 / (340282366920938463463374607431768211455 - 340282366920938463463374607431768211455)"},
		{"2^127-1 over 2^127", "170141183460469231731687303715884105727 / 170141183460469231731687303715884105728"},
		{"negated double words over negated double words", "-(340282366920938463463374607431768211455) / -(340282366920938463463374607431768211454)"},
		{"gcd of a word and a double word", "18446744073709551616/6 + 18446744073709551615/4"},
		{"a reciprocal of a negative value", "1 / -(1/18446744073709551615)"},
	}
	testutil.Run(t, rows, func(t *testing.T, row struct{ reason, expr string }) {
		want := peerEval(row.expr)
		res, err := rational.CheckRational(rational.Input{Expression: row.expr, ClaimedValue: "0"}, rational.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", row.expr, err)
		}
		if want == nil {
			if res.Reason != rational.DivisionByZero {
				t.Fatalf("%s: got %s, %v; want division by zero", row.expr, res.Reason, res.Value)
			}
			return
		}
		if res.Value == nil || res.Value.String() != want.RatString() {
			t.Fatalf("%s = %v, want %s", row.expr, res.Value, want.RatString())
		}
		res, err = rational.CheckRational(rational.Input{Expression: row.expr, ClaimedValue: want.RatString(), RequireCanonical: true}, rational.Limits{})
		if err != nil || !res.Valid {
			t.Fatalf("%s claimed %s: %v, %v", row.expr, want.RatString(), res.Err(), err)
		}
		if want.IsInt() {
			res, err = rational.CheckRational(rational.Input{Expression: row.expr, ClaimedValue: want.RatString() + "/1", RequireCanonical: true}, rational.Limits{})
			if err != nil || res.Reason != rational.NotCanonical {
				t.Fatalf("%s claimed %s/1: %v, %v", row.expr, want.RatString(), res.Err(), err)
			}
		}
	})
}

// TestClaimAgainstWordValue: a claim is compared with a value held in
// words without converting either; each row is a claim of the same value
// in another form, of another value in the same digits, or with a part of
// 20 digits, whose verdict must be the one math/big.Rat gives.
func TestClaimAgainstWordValue(t *testing.T) {
	type row struct {
		reason, expr, claim string
		valid               bool
		reason2             rational.Reason
	}
	testutil.Run(t, []row{
		{reason: "the canonical claim", expr: "1 + 1/2", claim: "3/2", valid: true},
		{reason: "an integer over 1 is not canonical", expr: "2", claim: "2/1", reason2: rational.NotCanonical},
		{reason: "-0 is not canonical", expr: "1 - 1", claim: "-0", reason2: rational.NotCanonical},
		{reason: "the sign is compared", expr: "-3/2", claim: "3/2", reason2: rational.ValueMismatch},
		{reason: "a numerator of 20 digits is no word of the value", expr: "0", claim: "18446744073709551616", reason2: rational.ValueMismatch},
		{reason: "20 digits that wrap to the value modulo 2^64", expr: "5", claim: "18446744073709551621", reason2: rational.ValueMismatch},
		{reason: "a denominator of 20 digits that wraps to the value's", expr: "1/5", claim: "1/18446744073709551621", reason2: rational.ValueMismatch},
		{reason: "an unreduced claim of the value", expr: "1/2", claim: "2/4", reason2: rational.NotCanonical},
		{reason: "the largest word value", expr: "18446744073709551615", claim: "18446744073709551615", valid: true},
		{reason: "a claim of 20 digits of a value past a word", expr: "18446744073709551615 + 1", claim: "18446744073709551616", valid: true},
	}, func(t *testing.T, r row) {
		res, err := rational.CheckRational(rational.Input{Expression: r.expr, ClaimedValue: r.claim, RequireCanonical: true}, rational.Limits{})
		if err != nil || res.Valid != r.valid || res.Reason != r.reason2 {
			t.Fatalf("%q claimed %q: %v %q %v, want %v %q", r.expr, r.claim, res.Valid, res.Reason, err, r.valid, r.reason2)
		}
	})
}
