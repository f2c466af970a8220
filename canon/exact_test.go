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
// as the JSON tools read it; with it, a literal whose rounding changes an
// integer is refused at its path, saying what it would have become, and
// every other document reads to the same Scalars as without.
func TestExactNumbers(t *testing.T) {
	type row struct {
		doc    string
		keys   string // the keys without the option
		path   string // the error's path with it; "" when accepted
		msg    string
		reason string
	}
	testutil.Run(t, []row{
		{`[9007199254740993]`, "9007199254740992", "/0", "number 9007199254740993 is not exact as a double: it would become 9007199254740992", "2^53+1"},
		{`[1, 9007199254740993.0]`, "1,9007199254740992", "/1", "number 9007199254740993.0 is not exact as a double: it would become 9007199254740992", "the same integer with a fraction of zeros"},
		{`[9.007199254740993e15]`, "9007199254740992", "/0", "it would become 9007199254740992", "the same integer in exponent form"},
		{`[1e23]`, "1e+23", "/0", "number 1e23 is not exact as a double: it would become 1e+23", "10^23, which no double is: the message shows the double's form"},
		{`[1e-400]`, "0", "/0", "number 1e-400 is not exact as a double: it would become 0", "a non-zero literal that rounds to zero"},
		{`[-1e-400]`, "0", "/0", "it would become 0", "negative: -0 is 0"},
		{`[9007199254740992.5]`, "9007199254740992", "/0", "it would become 9007199254740992", "a fraction that becomes an integer"},
		{`[0.1, 2.50, -0, 1e22, 1152921504606846976, 5e-324, "9007199254740993"]`, `0.1,2.5,0,1e+22,1152921504606847000,5e-324,"9007199254740993"`, "", "", "fractions, doubles and strings are as without the option"},
		{`[9007199254740993, "` + "\xff" + `"]`, "", "/0", "not exact", "the first fault in index order: the number"},
		{`["` + "\xff" + `", 9007199254740993]`, "", "/0", "not UTF-8", "the first fault in index order: the string"},
		{`[1, [2], 9007199254740993]`, "", "/1", "array", "an array element before an inexact number"},
		{`[0.` + strings.Repeat("9", 400) + `]`, "1", "/0", "is not exact as a double: it would become 1", "0.99…9 in 400 digits: a long fraction that becomes 1"},
	}, func(t *testing.T, r row) {
		plain, perr := canon.ParseArray([]byte(r.doc))
		if r.keys != "" && (perr != nil || keys(plain) != r.keys) {
			t.Fatalf("without ExactNumbers: %s, %v; want %s", keys(plain), perr, r.keys)
		}
		got, err := canon.ParseArray([]byte(r.doc), canon.ExactNumbers())
		if r.path == "" && r.msg == "" {
			if err != nil || keys(got) != keys(plain) {
				t.Errorf("with ExactNumbers: %s, %v; want %s as without", keys(got), err, keys(plain))
			}
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Code != claimcheck.InvalidInput || e.Path != r.path || !strings.Contains(e.Message, r.msg) {
			t.Errorf("with ExactNumbers: %v; want invalid_input at %s: …%s…", err, r.path, r.msg)
		}
	})
}
