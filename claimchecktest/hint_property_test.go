package claimchecktest_test

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/claimchecktest"
)

// writeHint is the value a report's "(write …)" hint gives, quoted as Go
// quotes it.
var writeHint = regexp.MustCompile(`\(write ("(?:[^"\\]|\\.)*")\)`)

// TestPropertyEveryHintIsAccepted: every value a report of Rational or
// RationalCanonical tells the student to write is accepted by the same
// check in the same mode. The claims are the expression's right value,
// written in each malformed or non-canonical form the helpers hint at.
func TestPropertyEveryHintIsAccepted(t *testing.T) {
	forms := []struct {
		name  string
		write func(neg bool, n, d, w *big.Int) string // n/d, w = n div d
	}{
		{"U+2212", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "\u2212", n.String()+"/"+d.String()) }},
		{"plus", func(neg bool, n, d, _ *big.Int) string {
			if neg {
				return "-" + n.String() + "/" + d.String() + " "
			}
			return "+" + n.String() + "/" + d.String()
		}},
		{"space after", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "-", n.String()+"/"+d.String()) + " " }},
		{"space around bar", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "-", n.String()+" / "+d.String()) }},
		{"negative denominator", func(neg bool, n, d, _ *big.Int) string {
			return signed(!neg, "-", n.String()) + "/-" + d.String()
		}},
		{"leading zero", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "-", "0"+n.String()+"/0"+d.String()) }},
		{"full-width digits", func(neg bool, n, d, _ *big.Int) string {
			return signed(neg, "-", strings.Map(fullWidth, n.String())+"/"+d.String())
		}},
		{"fraction slash", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "-", n.String()+"\u2044"+d.String()) }},
		{"second slash", func(neg bool, n, d, _ *big.Int) string { return signed(neg, "-", n.String()+"/"+d.String()+"/1") }},
		{"mixed number", func(neg bool, n, d, w *big.Int) string {
			rem := new(big.Int).Sub(n, new(big.Int).Mul(w, d))
			return signed(neg, "-", w.String()+" "+rem.String()+"/"+d.String())
		}},
		{"mixed number, spaced bar", func(neg bool, n, d, w *big.Int) string {
			rem := new(big.Int).Sub(n, new(big.Int).Mul(w, d))
			return signed(neg, "-", w.String()+" "+rem.String()+" / "+d.String())
		}},
		{"not in lowest terms", func(neg bool, n, d, _ *big.Int) string {
			return signed(neg, "-", new(big.Int).Lsh(n, 1).String()+"/"+new(big.Int).Lsh(d, 1).String())
		}},
	}
	rapid.Check(t, func(t *rapid.T) {
		num := rapid.Int64Range(0, 1e12).Draw(t, "num")
		den := rapid.Int64Range(1, 1e6).Draw(t, "den")
		neg := rapid.Bool().Draw(t, "neg")
		form := rapid.SampledFrom(forms).Draw(t, "form")
		canonical := rapid.Bool().Draw(t, "canonical")
		n, d := big.NewInt(num), big.NewInt(den)
		w := new(big.Int).Quo(n, d)
		claim := form.write(neg, n, d, w)
		expr := signed(neg, "-", "("+n.String()+")/("+d.String()+")")
		check := claimchecktest.CheckRational
		if canonical {
			check = claimchecktest.CheckRationalCanonical
		}
		r := report(check(expr, claim))
		m := writeHint.FindStringSubmatch(r.Text)
		if m == nil {
			return // no hint to apply
		}
		hinted, err := strconv.Unquote(m[1])
		if err != nil {
			t.Fatalf("%s: hint %s does not unquote: %v", r.Text, m[1], err)
		}
		if h := report(check(expr, hinted)); !h.Valid {
			t.Fatalf("claim %q of %s (canonical %v): the report says write %q, which the check rejects:\n%s\nfirst report:\n%s", claim, expr, canonical, hinted, h.Text, r.Text)
		}
	})
}

func signed(neg bool, minus, s string) string {
	if neg {
		return minus + s
	}
	return s
}

func fullWidth(r rune) rune {
	if '0' <= r && r <= '9' {
		return r - '0' + '\uff10'
	}
	return r
}
