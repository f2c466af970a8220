package claimchecktest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/canon"
)

// TestNamesTellValuesApart: however alike the values of one report are,
// no two show alike; a short value shows as its key, a long one no longer
// than its key. The values are random strings over a small alphabet (with
// "…" in it, the elision mark), so that they share long prefixes, suffixes
// and middles.
func TestNamesTellValuesApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	alphabet := []rune("yyyyyyyyAB…")
	for trial := range 3000 {
		base := make([]rune, 20+rng.IntN(80))
		for i := range base {
			base[i] = alphabet[rng.IntN(len(alphabet))]
		}
		var vals []canon.Scalar
		for range 1 + rng.IntN(8) {
			v := append([]rune(nil), base...)
			for range rng.IntN(3) { // a few changes anywhere
				v[rng.IntN(len(v))] = alphabet[rng.IntN(len(alphabet))]
			}
			if rng.IntN(4) == 0 {
				v = v[:rng.IntN(len(v))]
			}
			s, err := canon.StringScalar(string(v))
			if err != nil {
				t.Fatal(err)
			}
			vals = append(vals, s)
		}
		show := newNames(vals, canon.Scalar.Key)
		seen := map[string]canon.Scalar{}
		for _, v := range vals {
			d, k := show[v], v.Key()
			if w, dup := seen[d]; dup && w != v {
				t.Fatalf("trial %d: %s and %s both show as %s", trial, k, w.Key(), d)
			}
			seen[d] = v
			n := utf8.RuneCountInString(k)
			switch {
			case n <= maxShown && d != k:
				t.Fatalf("trial %d: short value %s shows as %s", trial, k, d)
			case utf8.RuneCountInString(d) > n:
				t.Fatalf("trial %d: %s shows longer, as %s", trial, k, d)
			case d != k && !strings.Contains(d, "…"):
				t.Fatalf("trial %d: %s shows as %s, neither whole nor elided", trial, k, d)
			}
		}
	}
}
