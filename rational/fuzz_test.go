package rational_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/rational"
)

// seedInputs returns the inputs of every conformance case this package runs.
func seedInputs(f *testing.F) []rational.Input {
	var ins []rational.Input
	for _, c := range conformance.Load(f, tool) {
		if in, ok := decodeInput(c.Input); ok {
			ins = append(ins, in)
		}
	}
	return ins
}

// checkFuzzError checks the contract of every error: an *claimcheck.Error with the
// expected path and, for expression errors, a position within the expression.
func checkFuzzError(t *testing.T, err error, expr string) {
	t.Helper()
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not a *claimcheck.Error", err, err)
	}
	switch e.Path {
	case "/expression":
		if e.Position < 0 || e.Position > utf8.RuneCountInString(expr) {
			t.Fatalf("%q: position %d outside [0, %d]", expr, e.Position, utf8.RuneCountInString(expr))
		}
	case "/claimed_value":
		if e.Position != claimcheck.NoPosition {
			t.Fatalf("claim error with position %d", e.Position)
		}
	default:
		t.Fatalf("error path %q", e.Path)
	}
	if e.Message == "" || bytes.ContainsAny([]byte(e.Message), "\n\r") {
		t.Fatalf("message %q", e.Message)
	}
}

func FuzzParse(f *testing.F) {
	for _, in := range seedInputs(f) {
		f.Add(in.Expression)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		e, err := rational.Parse(expr)
		e2, err2 := rational.Parse(expr)
		if err != nil {
			checkFuzzError(t, err, expr)
			if err2 == nil || err.Error() != err2.Error() {
				t.Fatalf("%q: nondeterministic errors %v, %v", expr, err, err2)
			}
			return
		}
		if err2 != nil || e.String() != e2.String() {
			t.Fatalf("%q: nondeterministic parse", expr)
		}
		v, zd, err := e.Eval()
		v2, zd2, err2 := e.Eval()
		switch {
		case err != nil:
			checkFuzzError(t, err, expr)
			if err2 == nil || err.Error() != err2.Error() {
				t.Fatalf("%q: nondeterministic eval errors", expr)
			}
		case zd != nil:
			if zd2 == nil || *zd != *zd2 || zd.Position < 0 || zd.Position >= utf8.RuneCountInString(expr) || zd.DivisorText == "" {
				t.Fatalf("%q: zero division %+v, %+v", expr, zd, zd2)
			}
		default:
			if !v.Equal(v2) {
				t.Fatalf("%q: nondeterministic value", expr)
			}
			// The canonical form parses back to the same value.
			back, err := rational.Limits{MaxValueDigits: 1 << 20}.ParseClaim(v.String())
			if err != nil || !back.Equal(v) {
				t.Fatalf("%q = %v does not round-trip: %v", expr, v, err)
			}
		}
	})
}

// FuzzOnePass: the one-pass machine CheckRational runs gives every
// expression, under any small limits, the answer of the two-pass reference.
func FuzzOnePass(f *testing.F) {
	for _, in := range seedInputs(f) {
		f.Add(in.Expression, uint8(0), uint8(0), uint8(0))
		f.Add(in.Expression, uint8(5), uint8(2), uint8(3))
	}
	f.Fuzz(func(t *testing.T, expr string, tokens, depth, digits uint8) {
		lim := rational.Limits{MaxTokens: int(tokens), MaxDepth: int(depth), MaxValueDigits: int(digits)}
		sameAsTwoPass(t, lim, expr)
	})
}

func FuzzCheckRational(f *testing.F) {
	for _, in := range seedInputs(f) {
		f.Add(in.Expression, in.ClaimedValue, in.RequireCanonical)
	}
	f.Fuzz(func(t *testing.T, expr, claim string, requireCanonical bool) {
		in := rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: requireCanonical}
		res, err := rational.CheckRational(in, rational.Limits{})
		res2, err2 := rational.CheckRational(in, rational.Limits{})
		if err != nil {
			checkFuzzError(t, err, expr)
			if err2 == nil || err.Error() != err2.Error() {
				t.Fatalf("%+v: nondeterministic errors %v, %v", in, err, err2)
			}
			return
		}
		out, jerr := res.AppendJSON(nil)
		out2, jerr2 := res2.AppendJSON(nil)
		if err2 != nil || jerr != nil || jerr2 != nil || !bytes.Equal(out, out2) {
			t.Fatalf("%+v: nondeterministic result", in)
		}
		if !json.Valid(out) || (res.Err() == nil) != res.Valid || (res.FirstDiscrepancy == nil) != res.Valid {
			t.Fatalf("%+v: inconsistent result %s", in, out)
		}
	})
}
