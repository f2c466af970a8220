package jsonwire

import (
	"encoding/json"
	"testing"
)

// TestIsSpace: exactly the four bytes encoding/json's grammar skips
// between tokens are white space; every other byte value, U+00A0's and
// U+FEFF's first bytes and the vertical tab and form feed among them, is
// not.
func TestIsSpace(t *testing.T) {
	for c := range 256 {
		want := json.Valid([]byte{'{', byte(c), '}'})
		if got := IsSpace(byte(c)); got != want {
			t.Errorf("IsSpace(%#x) = %v, want %v", c, got, want)
		}
	}
}

func TestSkipSpace(t *testing.T) {
	for _, tc := range []struct {
		s    string
		i    int
		want int
	}{
		{"", 0, 0},
		{" \t\r\n", 0, 4},
		{" \t\r\nx ", 0, 4},
		{"x  y", 1, 3},
		{"x \v", 1, 2},
		{"ab", 2, 2},
	} {
		if got := SkipSpace(tc.s, tc.i); got != tc.want {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", tc.s, tc.i, got, tc.want)
		}
	}
}
