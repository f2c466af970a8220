package claimcheck_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

func TestErrorForms(t *testing.T) {
	type row struct {
		err       *claimcheck.Error
		doc, text string
		is        error
		reason    string
	}
	testutil.Run(t, []row{
		{&claimcheck.Error{Code: claimcheck.InvalidInput, Position: claimcheck.NoPosition, Message: "bad"}, `{"error":{"code":"invalid_input","path":"","message":"bad"}}`,
			"invalid_input at the document root: bad", claimcheck.ErrInvalidInput, "no position, no limit"},
		{&claimcheck.Error{Code: claimcheck.InvalidInput, Path: "/expression", Position: 4, Message: "unexpected character 'a'"},
			`{"error":{"code":"invalid_input","path":"/expression","position":4,"message":"unexpected character 'a'"}}`,
			"invalid_input at /expression, position 4: unexpected character 'a'", claimcheck.ErrInvalidInput, "the contract's example"},
		{&claimcheck.Error{Code: claimcheck.LimitExceeded, Path: "/source", Position: claimcheck.NoPosition, Limit: "max_items", Message: "too many"}, `{"error":{"code":"limit_exceeded","path":"/source","limit":"max_items","message":"too many"}}`,
			"limit_exceeded at /source (max_items): too many", claimcheck.ErrLimitExceeded, "limit, no position"},
		{&claimcheck.Error{Code: claimcheck.LimitExceeded, Path: "/expression", Position: 0, Limit: "max_tokens", Message: "x"}, `{"error":{"code":"limit_exceeded","path":"/expression","position":0,"limit":"max_tokens","message":"x"}}`,
			"limit_exceeded at /expression, position 0 (max_tokens): x", claimcheck.ErrLimitExceeded, "position 0 is a position"},
		{&claimcheck.Error{Code: claimcheck.UnknownTool, Position: claimcheck.NoPosition, Message: "no tool x"}, `{"error":{"code":"unknown_tool","path":"","message":"no tool x"}}`,
			"unknown_tool at the document root: no tool x", claimcheck.ErrUnknownTool, "unknown tool"},
	}, func(t *testing.T, tc row) {
		b, err := json.Marshal(tc.err)
		if err != nil || string(b) != tc.doc {
			t.Errorf("json.Marshal = %s, %v; want %s", b, err, tc.doc)
		}
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("Error() = %q, want %q", got, tc.text)
		}
		var wrapped error = tc.err
		if !errors.Is(wrapped, tc.is) {
			t.Errorf("errors.Is(err, %v) = false", tc.is)
		}
		for _, other := range []error{claimcheck.ErrInvalidInput, claimcheck.ErrLimitExceeded, claimcheck.ErrUnknownTool} {
			if other != tc.is && errors.Is(wrapped, other) {
				t.Errorf("errors.Is(err, %v) = true", other)
			}
		}
	})
}

// TestZeroErrorSaysNoCode: an Error without a code, which no package
// returns, does not read like a real error at the document root.
func TestZeroErrorSaysNoCode(t *testing.T) {
	for _, tc := range []struct {
		err  *claimcheck.Error
		want string
	}{
		{&claimcheck.Error{}, "no error code"},
		{&claimcheck.Error{Path: "/source/1", Position: claimcheck.NoPosition, Message: "m"}, "no error code at /source/1: m"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%#v.Error() = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestOneRejectionSentinel: every result's Err wraps claimcheck.ErrRejected,
// and the packages' own names for it are the same value, so a caller that
// matches either name matches every package's rejections.
func TestOneRejectionSentinel(t *testing.T) {
	eq, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1}, Claim: []int{2}}, multiset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	df, err := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: []int{1}}, multiset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ra, err := rational.CheckRational(rational.Input{Expression: "1", ClaimedValue: "2"}, rational.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []error{eq.Err(), df.Err(), ra.Err(), multiset.EqualityResult{}.Err(), rational.Result{}.Err()} {
		for _, s := range []error{claimcheck.ErrRejected, multiset.ErrRejected, rational.ErrRejected} {
			if !errors.Is(r, s) {
				t.Errorf("errors.Is(%q, %v) = false", r, s)
			}
		}
	}
}
