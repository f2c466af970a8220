package scalar

import "testing"

// TestExponent: parseFloat's written exponent is read exactly up to 18
// digits. It refused 10^9 and more as out of range, but a literal's point
// can bring such an exponent back: "0." + a billion zeros + 23 digits +
// "e1000000005" is about 10^5 (a literal of a gigabyte, so not a row here).
func TestExponent(t *testing.T) {
	for _, tc := range []struct {
		in     string
		e      int64
		ok     bool
		reason string
	}{
		{"", 0, true, "no exponent"},
		{"+000012", 12, true, "a sign and leading zeros"},
		{"1000000005", 1000000005, true, "ten digits"},
		{"-999999999999999999", -999999999999999999, true, "eighteen digits"},
		{"1000000000000000000", 0, false, "nineteen digits: refused"},
		{"-0000000000000000000000000000001", -1, true, "leading zeros count for nothing"},
	} {
		if e, ok := exponent(tc.in); e != tc.e || ok != tc.ok {
			t.Errorf("%s: exponent(%q) = %d, %v; want %d, %v", tc.reason, tc.in, e, ok, tc.e, tc.ok)
		}
	}
}
