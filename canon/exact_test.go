package canon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestExactNumbers: without the option a number is the double nearest it,
// as the JSON tools read it; with it, a literal whose value is an integer
// no double holds is that exact integer (its key the digits and "n"), one
// whose rounding makes a fraction an integer is refused at its path,
// saying what it would have become, and every other document reads to the
// same Scalars as without.
func TestExactNumbers(t *testing.T) {
	type row struct {
		doc    string
		keys   string // the keys without the option
		exact  string // the keys with it; "" when refused
		path   string // the error's path with it
		msg    string
		reason string
	}
	testutil.Run(t, []row{
		{`[9007199254740993]`, "9007199254740992", "9007199254740993n", "", "", "2^53+1 is kept, not rounded to 2^53 (nor refused, as before)"},
		{`[9007199254740992, 9007199254740993]`, "9007199254740992,9007199254740992", "9007199254740992,9007199254740993n", "", "", "2^53 is a double, 2^53+1 is not: two integers, two keys"},
		{`[1, 9007199254740993.0]`, "1,9007199254740992", "1,9007199254740993n", "", "", "the same integer with a fraction of zeros: the value decides"},
		{`[9.007199254740993e15, 90071992547409930e-1]`, "9007199254740992,9007199254740992", "9007199254740993n,9007199254740993n", "", "", "the same integer in exponent forms"},
		{`[-9007199254740993]`, "-9007199254740992", "-9007199254740993n", "", "", "below zero"},
		{`[1e23]`, "1e+23", "100000000000000000000000n", "", "", "10^23, which no double is, in digits"},
		{`[1152921504606846976, 1.152921504606846976e18, 1152921504606847000]`, "1152921504606847000,1152921504606847000,1152921504606847000", "1152921504606847000,1152921504606847000,1152921504606847000n", "", "", "2^60 is a double, its RFC 8785 key however written; 1152921504606847000, the text of that key, is another integer: marked"},
		{`[18446744073709551616, 18446744073709551615]`, "18446744073709552000,18446744073709552000", "18446744073709552000,18446744073709551615n", "", "", "2^64 is a double; math.MaxUint64 is not"},
		{`[1e308]`, "1e+308", "1" + strings.Repeat("0", 308) + "n", "", "", "10^308, near the top of a double's range, is an integer no double is"},
		{`[1e-400]`, "0", "", "/0", "number 1e-400 is not exact as a double: it would become 0", "a non-zero fraction that rounds to zero is refused, as before"},
		{`[-1e-400]`, "0", "", "/0", "it would become 0", "negative: -0 is 0"},
		{`[9007199254740992.5]`, "9007199254740992", "", "/0", "it would become 9007199254740992", "a fraction that becomes an integer is refused, as before"},
		{`[1e400]`, "", "", "/0", "out of the range of a double", "a literal beyond a double's range is refused with or without the option"},
		{`[0.1, 2.50, -0, 1e22, 5e-324, "9007199254740993"]`, `0.1,2.5,0,1e+22,5e-324,"9007199254740993"`, `0.1,2.5,0,1e+22,5e-324,"9007199254740993"`, "", "", "fractions, doubles and strings are as without the option"},
		{`[9007199254740992.5, "` + "\xff" + `"]`, "", "", "/0", "not exact", "the first fault in index order: the number"},
		{`["` + "\xff" + `", 9007199254740992.5]`, "", "", "/0", "not UTF-8", "the first fault in index order: the string"},
		{`[9007199254740993, "` + "\xff" + `"]`, "", "", "/1", "not UTF-8", "an exact integer is no fault: the string after it is"},
		{`[1, [2], 9007199254740992.5]`, "", "", "/1", "array", "an array element before an inexact number"},
		{`[0.` + strings.Repeat("9", 400) + `]`, "1", "", "/0", "is not exact as a double: it would become 1", "0.99…9 in 400 digits: a long fraction that becomes 1"},
		{`[1` + strings.Repeat("0", 400) + `e-100]`, "1e+300", "1" + strings.Repeat("0", 300) + "n", "", "", "10^300 in a long literal: 301 digits"},
	}, func(t *testing.T, r row) {
		plain, perr := canon.ParseArray([]byte(r.doc))
		if r.keys != "" && (perr != nil || keys(plain) != r.keys) {
			t.Fatalf("without ExactNumbers: %s, %v; want %s", keys(plain), perr, r.keys)
		}
		got, err := canon.ParseArray([]byte(r.doc), canon.ExactNumbers())
		if r.exact != "" {
			if err != nil || keys(got) != r.exact {
				t.Errorf("with ExactNumbers: %s, %v; want %s", keys(got), err, r.exact)
			}
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Code != claimcheck.InvalidInput || e.Path != r.path || !strings.Contains(e.Message, r.msg) {
			t.Errorf("with ExactNumbers: %v; want invalid_input at %s: …%s…", err, r.path, r.msg)
		}
	})
}
