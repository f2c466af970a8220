package rattext

import (
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

func TestExpression(t *testing.T) {
	type row struct {
		in     string
		max    int
		code   claimcheck.Code // "" for no error
		pos    int
		reason string
	}
	testutil.Run(t, []row{
		{"1 + 2", 10, "", 0, "plain text passes"},
		{"", 10, claimcheck.InvalidInput, 0, "empty is invalid at position 0"},
		{strings.Repeat("1", 11), 10, claimcheck.LimitExceeded, 0, "over the byte limit at position 0"},
		{"×\xff", 10, claimcheck.InvalidInput, 1, "an invalid byte at its code point offset"},
		{"1\xed\xa0\x80", 10, claimcheck.InvalidInput, 1, "a surrogate's 3-byte encoding is invalid"},
		{"\xff", 0, claimcheck.LimitExceeded, 0, "the byte limit comes before the encoding"},
	}, func(t *testing.T, r row) {
		err := Expression(r.in, r.max)
		if r.code == "" {
			if err != nil {
				t.Fatalf("got %v", err)
			}
			return
		}
		if err == nil || err.Code != r.code || err.Position != r.pos || err.Path != "/expression" {
			t.Fatalf("got %v; want %s at position %d", err, r.code, r.pos)
		}
	})
}

func TestClaim(t *testing.T) {
	type row struct {
		in           string
		code         claimcheck.Code
		num, end, de int
		reason       string
	}
	testutil.Run(t, []row{
		{"-12/34", "", 1, 3, 4, "a negative fraction: digits after the sign and after the slash"},
		{"0", "", 0, 1, 1, "zero"},
		{"-0", "", 1, 2, 2, "minus zero has the right form (canonical form is checked later)"},
		{"007", claimcheck.InvalidInput, 0, 0, 0, "a leading zero"},
		{"1/0", claimcheck.InvalidInput, 0, 0, 0, "a zero denominator does not match the pattern"},
		{"1/", claimcheck.InvalidInput, 0, 0, 0, "a slash without a denominator"},
		{"+1", claimcheck.InvalidInput, 0, 0, 0, "no plus sign"},
		{" 1", claimcheck.InvalidInput, 0, 0, 0, "no space"},
		{"1234", claimcheck.LimitExceeded, 0, 0, 0, "over three digits"},
		{"-123/456", "", 1, 4, 5, "the sign is not a digit"},
		{"0" + strings.Repeat("9", 10), claimcheck.InvalidInput, 0, 0, 0, "the pattern before the digit limit"},
	}, func(t *testing.T, r row) {
		num, end, den, err := Claim(r.in, 3)
		if r.code == "" {
			if err != nil || num != r.num || end != r.end || den != r.de {
				t.Fatalf("got %d %d %d %v; want %d %d %d", num, end, den, err, r.num, r.end, r.de)
			}
			return
		}
		if err == nil || err.Code != r.code || err.Position != claimcheck.NoPosition || err.Path != "/claimed_value" {
			t.Fatalf("got %v; want %s without a position", err, r.code)
		}
	})
}

// TestClaimMessage: a malformed claim's message quotes it and, for the
// common faults, names the fault and the value written the right way.
func TestClaimMessage(t *testing.T) {
	const form = " is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?"
	type row struct {
		in, want, reason string
	}
	testutil.Run(t, []row{
		{"", "claimed value is empty: want an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?", "an empty string says so, with nothing to quote"},
		{"25/12 ", `claimed value "25/12 "` + form + `: there is white space after the value; remove it (write "25/12")`, "a trailing space the student cannot see"},
		{"\t3", `claimed value "\t3"` + form + `: there is white space before the value; remove it (write "3")`, "a leading tab, quoted with an escape"},
		{" 3\n", `claimed value " 3\n"` + form + `: there is white space before and after the value; remove it (write "3")`, "both sides; the newline is escaped, so the message stays one line"},
		{"  ", `claimed value "  "` + form + `: it is only white space`, "only spaces"},
		{"+25/12", `claimed value "+25/12"` + form + `: a positive value has no sign; remove the + (write "25/12")`, "a plus sign"},
		{"−1/6", `claimed value "−1/6"` + form + `: the minus sign must be the ASCII hyphen-minus '-', not U+2212 '−' (write "-1/6")`, "U+2212, which expressions accept"},
		{"2 1/12", `claimed value "2 1/12"` + form + `: a mixed number is not accepted; write the fraction (write "25/12")`, "a mixed number, worked out"},
		{"-2  1/12", `claimed value "-2  1/12"` + form + `: a mixed number is not accepted; write the fraction (write "-25/12")`, "a negative mixed number keeps its sign"},
		{"2.0833", `claimed value "2.0833"` + form + `: a decimal point is not accepted; write the value as a fraction such as 5/2 for 2.5`, "a decimal"},
		{"1/-2", `claimed value "1/-2"` + form + `: the denominator must be positive; put the sign on the numerator (write "-1/2")`, "a negative denominator"},
		{"-1/-2", `claimed value "-1/-2"` + form + `: the denominator must be positive; put the sign on the numerator (write "1/2")`, "two signs cancel"},
		{"3/0", `claimed value "3/0"` + form + `: the denominator is zero`, "a zero denominator"},
		{"007", `claimed value "007"` + form + `: an integer has no leading zero (write "7")`, "leading zeros"},
		{"-1/02", `claimed value "-1/02"` + form + `: an integer has no leading zero (write "-1/2")`, "a leading zero in the denominator"},
		{"00", `claimed value "00"` + form + `: an integer has no leading zero (write "0")`, "zero written twice"},
		{"x", `claimed value "x"` + form, "no hint for other faults"},
		{"1/2/3", `claimed value "1/2/3"` + form, "two slashes: no hint in the tools' message (a grading report gives one)"},
		{"\xff", `claimed value "\xff"` + form, "an invalid byte is escaped"},
		{strings.Repeat("9", 70) + "x", `claimed value "` + strings.Repeat("9", 64) + `"…` + form, "a long value is cut"},
	}, func(t *testing.T, r row) {
		_, _, _, err := Claim(r.in, 1000)
		if err == nil || err.Code != claimcheck.InvalidInput || err.Path != "/claimed_value" || err.Position != claimcheck.NoPosition {
			t.Fatalf("got %v; want invalid_input at /claimed_value", err)
		}
		if err.Message != r.want {
			t.Errorf("message\n got %s\nwant %s", err.Message, r.want)
		}
	})
}

// TestGradingClaimMessage: the grading helpers' message names the faults
// the tools' message leaves unnamed (non-ASCII digits, another fraction
// bar, white space around '/', a second '/'), and is the tools' message
// for every fault that one names.
func TestGradingClaimMessage(t *testing.T) {
	const form = " is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?"
	type row struct {
		in, want, reason string
	}
	testutil.Run(t, []row{
		{"25/12/1", `claimed value "25/12/1"` + form + `: a fraction has one '/', not 2 (write "25/12")`, "a second slash: the divisions' value"},
		{"1/2/3", `claimed value "1/2/3"` + form + `: a fraction has one '/', not 2 (write "1/6")`, "two slashes, read left to right"},
		{"1/2/0", `claimed value "1/2/0"` + form + `: a fraction has one '/', not 2`, "a zero divisor: no value to write"},
		{"25 / 12", `claimed value "25 / 12"` + form + `: there is white space around the fraction bar '/'; remove it (write "25/12")`, "white space inside a fraction"},
		{"-25/ 12", `claimed value "-25/ 12"` + form + `: there is white space around the fraction bar '/'; remove it (write "-25/12")`, "white space after the bar only"},
		{"2 1 / 12", `claimed value "2 1 / 12"` + form + `: a mixed number is not accepted; write the fraction (write "25/12")`, "a mixed number with a spaced bar"},
		{"２５/12", `claimed value "２５/12"` + form + `: the digits must be ASCII 0-9, not U+FF12 '２' (write "25/12")`, "full-width digits"},
		{"٢٥/١٢", `claimed value "٢٥/١٢"` + form + `: the digits must be ASCII 0-9, not U+0662 '٢' (write "25/12")`, "Arabic-Indic digits"},
		{"𝟐𝟓/12", `claimed value "𝟐𝟓/12"` + form + `: the digits must be ASCII 0-9, not U+1D7D0 '𝟐' (write "25/12")`, "mathematical bold digits, in a block of five runs"},
		{"25⁄12", `claimed value "25⁄12"` + form + `: the fraction bar must be the ASCII '/', not U+2044 '⁄' (write "25/12")`, "the fraction slash"},
		{"25／12", `claimed value "25／12"` + form + `: the fraction bar must be the ASCII '/', not U+FF0F '／' (write "25/12")`, "the full-width solidus"},
		{"２５/12 ", `claimed value "２５/12 "` + form + `: there is white space after the value; remove it`, "the tools' hint first, as ever (no write: the digits are still wrong)"},
		{"2.5/1/2", `claimed value "2.5/1/2"` + form + `: a decimal point is not accepted; write the value as a fraction such as 5/2 for 2.5`, "the tools' hint wins over a second slash"},
		{"x", `claimed value "x"` + form, "no hint for other faults"},
		{"−0", `claimed value "−0"` + form + `: the minus sign must be the ASCII hyphen-minus '-', not U+2212 '−' (write "0")`, "a hint is canonical: -0 is 0"},
		{"2 2/12", `claimed value "2 2/12"` + form + `: a mixed number is not accepted; write the fraction (write "13/6")`, "a hint is canonical: in lowest terms"},
		{"-50/-24", `claimed value "-50/-24"` + form + `: the denominator must be positive; put the sign on the numerator (write "25/12")`, "a hint is canonical: the signs cancel, in lowest terms"},
	}, func(t *testing.T, r row) {
		if got := ClaimMessage(r.in, true); got != r.want {
			t.Errorf("message\n got %s\nwant %s", got, r.want)
		}
		_, _, _, err := Claim(r.in, 1000)
		if err == nil || err.Message != ClaimMessage(r.in, false) {
			t.Errorf("the tools' message is %v, not ClaimMessage(s, false)", err)
		}
		if hint(r.in, false) != "" && hint(r.in, true) == "" {
			t.Errorf("a fault the tools name is not named in a grading report")
		}
	})
}

// TestExpressionByteAtEveryOffset: an invalid byte, and a valid multi-byte
// character, at every offset of expressions of 1 to 24 bytes (across the
// eight-byte words the ASCII test reads, and their overlapping tail): the
// invalid byte is reported at its offset, the character is accepted.
func TestExpressionByteAtEveryOffset(t *testing.T) {
	for n := 1; n <= 24; n++ {
		for k := 0; k < n; k++ {
			bad := strings.Repeat("1", k) + "\xff" + strings.Repeat("1", n-k-1)
			err := Expression(bad, 4096)
			if err == nil || err.Position != k {
				t.Fatalf("%q: %v, want an invalid byte at %d", bad, err, k)
			}
			good := strings.Repeat("1", k) + "\u00d7" + strings.Repeat("1", n-k-1)
			if err := Expression(good, 4096); err != nil {
				t.Fatalf("%q: %v", good, err)
			}
		}
	}
}
