package claimcheck_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

// TestZeroResultsSayNoVerdict: the zero result of every check, which is
// what a check returns with an error, says "no verdict" in String, Err and
// AppendJSON's error, and its Err still wraps the package's ErrRejected (it
// is not a pass). Before, a zero rational.Result read "claim rejected",
// so an input error read like a wrong answer.
func TestZeroResultsSayNoVerdict(t *testing.T) {
	type result interface {
		String() string
		Err() error
		AppendJSON([]byte) ([]byte, error)
	}
	for _, tc := range []struct {
		reason   string
		r        result
		rejected error
	}{
		{"multiset equality", multiset.EqualityResult{}, multiset.ErrRejected},
		{"multiset difference", multiset.DifferenceResult{}, multiset.ErrRejected},
		{"rational", rational.Result{}, rational.ErrRejected},
	} {
		doc, jerr := tc.r.AppendJSON(nil)
		err := tc.r.Err()
		switch {
		case !strings.Contains(tc.r.String(), "no verdict"):
			t.Errorf("%s: String() = %q, want it to say no verdict", tc.reason, tc.r.String())
		case err == nil || !strings.Contains(err.Error(), "no verdict") || !errors.Is(err, tc.rejected):
			t.Errorf("%s: Err() = %v, want a no-verdict error wrapping ErrRejected", tc.reason, err)
		case jerr == nil || !strings.Contains(jerr.Error(), "no verdict") || doc != nil:
			t.Errorf("%s: AppendJSON = %q, %v; want a no-verdict error", tc.reason, doc, jerr)
		}
	}
}
