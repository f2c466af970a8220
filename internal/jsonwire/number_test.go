package jsonwire

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"pgregory.net/rapid"
)

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in     string
		n      int
		fault  Fault
		reason string
	}{
		{"0", 1, OK, "zero"},
		{"-0", 2, OK, "negative zero is grammatical"},
		{"123", 3, OK, "an integer"},
		{"-1.5e+10", 8, OK, "every part"},
		{"1E-2", 4, OK, "capital E and a minus exponent"},
		{"1e05", 4, OK, "exponent digits may have leading zeros"},
		{"0.000", 5, OK, "fraction digits may be zeros"},
		{"01", 1, OK, "a leading zero ends the integer part; the caller sees the rest"},
		{"1x", 1, OK, "ParseNumber stops at the first byte that cannot continue the literal"},
		{"1,2", 1, OK, "a comma ends a literal in an array"},
		{"12]", 2, OK, "a bracket ends a literal"},
		{"", 0, NoInt, "empty"},
		{"-", 1, NoInt, "a sign alone"},
		{"+1", 0, NoInt, "no plus sign"},
		{".5", 0, NoInt, "no bare fraction"},
		{"-.5", 1, NoInt, "no bare fraction after a sign"},
		{"-a", 1, NoInt, "a sign then a letter"},
		{"1.", 2, NoFracDigit, "a point needs a digit"},
		{"1.e5", 2, NoFracDigit, "a point then an exponent"},
		{"1e", 2, NoExpDigit, "an exponent needs a digit"},
		{"1e+", 3, NoExpDigit, "an exponent sign needs a digit"},
		{"1.5E-x", 5, NoExpDigit, "the fault's offset is after the sign"},
		{"Infinity", 0, NoInt, "no words"},
		{"\xff", 0, NoInt, "a non-ASCII byte"},
		{"1\x00", 1, OK, "NUL ends a literal"},
		{"1e5e5", 3, OK, "one exponent only"},
		{"1" + string(rune(0x660)), 1, OK, "Arabic-Indic digits are not digits"},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatalf("%q: a row without a reason", tc.in)
		}
		num, f := ParseNumber(tc.in)
		if num.Len != tc.n || f != tc.fault {
			t.Errorf("%s: ParseNumber(%q) = %d, %d; want %d, %d", tc.reason, tc.in, num.Len, f, tc.n, tc.fault)
		}
		if want := tc.fault == OK && tc.n == len(tc.in); ValidNumber(tc.in) != want {
			t.Errorf("%s: ValidNumber(%q) = %v, want %v", tc.reason, tc.in, !want, want)
		}
	}
}

// grammar is the RFC's grammar as a regular expression, the oracle.
var grammar = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`)

// FuzzParseNumber checks ParseNumber and ValidNumber against the grammar's
// regular expression on any bytes: the accepted prefix is the longest
// grammatical one, and a literal of at most 19 significant digits reads as
// strconv reads it.
func FuzzParseNumber(f *testing.F) {
	for _, seed := range []string{"0", "-0", "1.5e-7", "01", "1.", ".5", "-", "1e+", "12345678901234567890.5e3", "9\xb9", "1E400"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		num, fault := ParseNumber(s)
		m := grammar.FindString(s)
		switch {
		case fault == OK && s[:num.Len] != m:
			t.Fatalf("ParseNumber(%q) accepts %q; the grammar's longest prefix is %q", s, s[:num.Len], m)
		case fault != OK && m == "" && fault != NoInt:
			t.Fatalf("ParseNumber(%q) faults %d; no literal starts it, want NoInt", s, fault)
		case fault != OK && m != "" && !isPrefixLonger(s, m, num.Len):
			t.Fatalf("ParseNumber(%q) faults %d at %d; the grammar matches %q", s, fault, num.Len, m)
		}
		if whole := m != "" && m == s; ValidNumber(s) != whole {
			t.Fatalf("ValidNumber(%q) = %v; the grammar says %v", s, ValidNumber(s), whole)
		}
		if fault == OK && num.Digits <= 19 {
			sign := ""
			if num.Neg {
				sign = "-"
			}
			want, _ := strconv.ParseFloat(m, 64)
			got, _ := strconv.ParseFloat(sign+strconv.FormatUint(num.Mant, 10)+"e"+strconv.Itoa(num.Exp), 64)
			if got != want {
				t.Fatalf("ParseNumber(%q) = %+v reads as %v; the literal is %v", s, num, got, want)
			}
		}
		checkShortAndFloat(t, s)
	})
}

// short is the form Short reads, as a regular expression (a literal without
// an exponent), and next the bytes that may not follow it.
var (
	short = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?`)
	next  = regexp.MustCompile(`^[0-9.eE]`)
)

// checkShortAndFloat: Short accepts exactly the literals of its form with at
// most 19 digits making an integer of at most 2^53, not followed by
// [0-9.eE], with ParseNumber's length and strconv's value; Float and
// Exact, when they give a value, give strconv's.
func checkShortAndFloat(t testutil.TB, s string) {
	t.Helper()
	num, fault := ParseNumber(s)
	want, _ := strconv.ParseFloat(s[:num.Len], 64)
	if fault == OK {
		if f, ok := num.Float(); ok && f != want {
			t.Fatalf("ParseNumber(%q).Float() = %v; strconv reads %v", s, f, want)
		}
		if f, ok := num.Exact(); ok && f != want {
			t.Fatalf("ParseNumber(%q).Exact() = %v; strconv reads %v", s, f, want)
		}
	}
	n, f := Short(s)
	m := short.FindString(s)
	all := strings.NewReplacer("-", "", ".", "").Replace(m)
	mant, err := strconv.ParseUint(all, 10, 64)
	digits := len(all)
	wantShort := m != "" && digits <= 19 && err == nil && mant <= 1<<53 && !next.MatchString(s[len(m):])
	switch {
	case wantShort != (n > 0):
		t.Fatalf("Short(%q) = %d; its form (%q, %d digits) says %v", s, n, m, digits, wantShort)
	case n > 0 && (fault != OK || n != num.Len):
		t.Fatalf("Short(%q) = %d; ParseNumber reads %d (fault %d)", s, n, num.Len, fault)
	case n > 0 && f != want:
		t.Fatalf("Short(%q) = %v; strconv reads %v", s, f, want)
	}
}

// TestExponentClamp: Exp, the written exponent less the fraction's digits,
// is exact within ±10^9 and clamped there, never wrapped: where an int has
// 32 bits, reading one digit more wrapped 1e4294967300 to 1e4, a double
// ParseNumber then called exact; and the fraction's digits are taken off
// before the clamp, not after it.
func TestExponentClamp(t *testing.T) {
	tests := []struct {
		in     string
		exp    int
		reason string
	}{
		{"1e999999999", 999999999, "nine digits are read exactly"},
		{"1e1000000000", maxExp, "10^9 itself"},
		{"1e1000000001", maxExp, "past 10^9: clamped"},
		{"1e4294967300", maxExp, "2^32 + 4: clamped, not wrapped to 4"},
		{"1e-4294967300", -maxExp, "the same below 1"},
		{"1.5e4294967300", maxExp, "a fraction digit less, then clamped"},
		{"0.001e1000000001", 999999998, "the fraction's digits taken off before the clamp"},
		{"0.001e-999999999", -maxExp, "the same below 1, past the clamp"},
		{"1e99999999999999999999", maxExp, "twenty digits"},
		{"1e00000000000000000005", 5, "leading zeros read as zeros, not as digits past the clamp"},
	}
	for _, tc := range tests {
		n, f := ParseNumber(tc.in)
		if f != OK || n.Len != len(tc.in) || n.Exp != tc.exp {
			t.Errorf("%s: ParseNumber(%q) = Len %d, Exp %d, fault %d; want Exp %d", tc.reason, tc.in, n.Len, n.Exp, f, tc.exp)
		}
		if v, ok := n.Float(); ok && tc.exp > 400 {
			t.Errorf("%s: %q is exactly the double %v", tc.reason, tc.in, v)
		}
	}
}

// TestParseNumberMatchesGrammar: on strings made of the bytes that matter,
// ParseNumber accepts exactly the longest prefix the regular expression
// matches, and ValidNumber exactly the strings it matches whole; the value
// it reads is the literal's (checked through strconv, when the mantissa is
// exact).
func TestParseNumberMatchesGrammar(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Mostly digits, so that runs reach past the eight bytes read at a
		// time; the neighbours of '0' and '9' in ASCII, and bytes with the
		// high bit set, which the word-wise test must not take for digits.
		alphabet := []rune("0123456789012345678901234567890123456789-+.eE/: ")
		s := rapid.StringOfN(rapid.SampledFrom(alphabet), 0, 40, -1).Draw(t, "s")
		if rapid.Bool().Draw(t, "high byte") {
			k := rapid.IntRange(0, len(s)).Draw(t, "at")
			s = s[:k] + string([]byte{rapid.SampledFrom([]byte{0x80, 0xb0, 0xb9, 0xff}).Draw(t, "byte")}) + s[k:]
		}
		num, f := ParseNumber(s)
		n := num.Len
		m := grammar.FindString(s)
		if f == OK && s[:n] != m {
			t.Fatalf("ParseNumber(%q) = %d, OK; the grammar's longest prefix is %q", s, n, m)
		}
		if f == OK {
			mant, digits, exp := num.Mant, num.Digits, num.Exp
			sign := ""
			if num.Neg {
				sign = "-"
			}
			want, _ := strconv.ParseFloat(m, 64)
			got, _ := strconv.ParseFloat(sign+strconv.FormatUint(mant, 10)+"e"+strconv.Itoa(exp), 64)
			if digits <= 19 && got != want || (digits == 0) != (mant == 0) {
				t.Fatalf("ParseNumber(%q) = %+v: reads as %v, the literal as %v", s, num, got, want)
			}
		}
		if f != OK && m == "" && f != NoInt {
			t.Fatalf("ParseNumber(%q) = %d, %d; no literal starts it, want NoInt", s, n, f)
		}
		if f != OK && m != "" && !isPrefixLonger(s, m, n) {
			t.Fatalf("ParseNumber(%q) faults %d at %d; the grammar matches %q", s, f, n, m)
		}
		if whole := m != "" && m == s; ValidNumber(s) != whole {
			t.Fatalf("ValidNumber(%q) = %v; the grammar says %v", s, ValidNumber(s), whole)
		}
		checkShortAndFloat(t, s)
	})
}

// isPrefixLonger: a fault at n after a grammatical prefix m happens only
// where the literal tried to go on ('.', or an exponent marker) and could
// not; m then ends at the byte before that attempt.
func isPrefixLonger(s, m string, n int) bool {
	return n > len(m) && (s[len(m)] == '.' || s[len(m)] == 'e' || s[len(m)] == 'E')
}

// TestNonDigits: the word-wise test agrees with the byte-wise one on every
// byte value in every position.
func TestNonDigits(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			w := []byte("01234567")
			w[pos] = byte(b)
			got := nonDigits(LE64(string(w)))
			for k := 0; k < 8; k++ {
				want := w[k] < '0' || w[k] > '9'
				if (got>>(8*k+7))&1 == 1 != want || got&^0x8080808080808080 != 0 {
					t.Fatalf("nonDigits(%q) = %#x: byte %d wrong", w, got, k)
				}
			}
		}
	}
}

// TestFirstNonDigit: the word-wise search agrees with the byte-wise one on
// every byte value in every position, after digits and before anything.
func TestFirstNonDigit(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			for _, after := range []byte{'5', 0xff, 0xfa, '/', ':'} {
				w := []byte("01234567")
				for k := pos + 1; k < 8; k++ {
					w[k] = after
				}
				w[pos] = byte(b)
				want := 0
				for want < 8 && w[want] >= '0' && w[want] <= '9' {
					want++
				}
				if got := firstNonDigit(LE64(string(w))); got != want {
					t.Fatalf("firstNonDigit(%q) = %d, want %d", w, got, want)
				}
			}
		}
	}
}

// TestDigits: the run's value and end agree with a digit-by-digit reading,
// for runs of every length up to 19 at every alignment, followed by every
// kind of byte, and m accumulates.
func TestDigits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pre := rapid.StringOfN(rapid.RuneFrom([]rune("x-.")), 0, 9, -1).Draw(t, "pre")
		run := rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 0, 19, -1).Draw(t, "run")
		post := rapid.StringOfN(rapid.SampledFrom([]rune("0123456789e.,]/: \x00\u00b9")), 0, 10, -1).Draw(t, "post")
		m0 := rapid.Uint64Range(0, 9).Draw(t, "m")
		s := pre + run + post
		wantEnd := len(pre)
		want := m0
		for wantEnd < len(s) && s[wantEnd] >= '0' && s[wantEnd] <= '9' {
			want = want*10 + uint64(s[wantEnd]-'0')
			wantEnd++
		}
		m, end := Digits(s, len(pre), m0)
		exact := wantEnd-len(pre) <= 18 || m0 == 0 && wantEnd-len(pre) == 19 // else the sum may wrap
		if end != wantEnd || exact && m != want {
			t.Fatalf("Digits(%q, %d, %d) = %d, %d; want %d, %d", s, len(pre), m0, m, end, want, wantEnd)
		}
	})
}

// TestShort pins down Short's edges; checkShortAndFloat, in the random
// tests, holds it to its form in general.
func TestShort(t *testing.T) {
	type row struct {
		s      string
		n      int
		reason string
	}
	rows := []row{
		{"0", 1, "zero"},
		{"-0,", 2, "negative zero, then a comma"},
		{"7]", 1, "a digit before a bracket"},
		{"0.5 ", 3, "a short decimal before a space"},
		{"123456789012345", 15, "fifteen digits"},
		{"1234567890123456", 16, "sixteen digits, below 2^53"},
		{"9007199254740992,", 16, "2^53, the largest integer it takes"},
		{"9007199254740993", 0, "2^53+1: no double, ParseNumber's"},
		{"-9007199254740992", 17, "-2^53"},
		{"12345678.1234567", 16, "fifteen digits across the point"},
		{"12345678.12345678", 17, "sixteen digits across the point, below 2^53"},
		{"92345678.12345678", 0, "sixteen digits across the point, above 2^53"},
		{"0.000000000000001", 17, "sixteen digits, the zeros counted, making 1"},
		{"0.000000000000000001", 20, "nineteen digits, the zeros counted"},
		{"0.0000000000000000001", 0, "twenty digits, the zeros counted: ParseNumber's"},
		{"1.000000000000000000", 0, "twenty digits: ParseNumber's though the value is 1"},
		{"0.1", 3, "a decimal no double is: rounded once, by the division"},
		{"-0.0", 4, "negative zero with a fraction"},
		{"12345678]", 8, "eight digits, a whole word"},
		{"1234567.1234567]", 15, "seven digits each side: a word each"},
		{"1234567.12345678]", 16, "eight after the point"},
		{"7.0e1", 0, "an exponent after a fraction read in a word"},
		{"7e1", 0, "an exponent after an integer read in a word"},
		{"7.5.5", 0, "a point after a fraction read in a word"},
		{"-7.", 0, "a point without a digit, negative"},
		{"-x", 0, "a sign, then no digit"},
		{"123456789.1234567]", 17, "words across the point"},
		{"1e5", 0, "an exponent: ParseNumber's"},
		{"1.5E5", 0, "an upper-case exponent after a fraction"},
		{"01", 0, "a digit after a leading zero: left to ParseNumber and the grammar"},
		{"1.5.", 0, "a point after the fraction"},
		{"1.", 0, "a point without a digit"},
		{"-", 0, "a sign alone"},
		{"", 0, "nothing"},
		{".5", 0, "no integer part"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		// As it is, and with spaces after it, which end no literal
		// differently: Short reads words only with 17 bytes to go.
		for _, s := range []string{r.s, r.s + strings.Repeat(" ", 17)} {
			n, f := Short(s)
			if n != r.n {
				t.Fatalf("Short(%q) = %d, want %d", s, n, r.n)
			}
			if want, _ := strconv.ParseFloat(s[:n], 64); n > 0 && f != want {
				t.Fatalf("Short(%q) = %v, want %v", s, f, want)
			}
			checkShortAndFloat(t, s)
		}
	})
}
