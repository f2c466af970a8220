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
