package rational_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/rational"
)

// TestRatText: Append and MarshalText write the canonical form, as String.
func TestRatText(t *testing.T) {
	for _, x := range []rational.Rat{rational.NewRat(0, 5), rational.NewRat(-6, 4), rational.NewRat(10, 2)} {
		text, err := x.MarshalText()
		if err != nil || string(text) != x.String() || string(x.Append([]byte("x="))) != "x="+x.String() {
			t.Errorf("%v: MarshalText = %q, %v; Append = %q", x, text, err, x.Append(nil))
		}
	}
	if got := rational.NewRat(-6, 4).String(); got != "-3/2" {
		t.Errorf("NewRat(-6, 4) = %s, want -3/2", got)
	}
}
