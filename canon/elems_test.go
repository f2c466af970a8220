package canon

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// elemTexts are array elements of every kind and path: numbers the reader
// gives a value for and ones it leaves to the text, -0, strings plain,
// escaped, non-ASCII, invalid and long, and containers.
var elemTexts = []string{
	`0`, `-0`, `-0.0`, `7`, `-12.5`, `0.1`, `1234567.1234567`, `9007199254740993`, `1e5`, `1E-400`, `1e400`,
	`123456789012345678901234567890`, `null`, `true`, `false`,
	`""`, `"s7082"`, `"a string longer than sixteen bytes"`, `"tab\t"`, `"\u00e9"`, `"é"`, "\"\xff\"",
	`"\ud800"`, `"\/"`, `[]`, `[1,"x"]`, `{}`, `{"a":1}`,
}

// TestElemScalarsIsElemScalar: elemScalars, from any element and into a
// buffer of any length, converts each element exactly as elemScalar does
// (without error), and stops only at an element it does not vouch for,
// which elemScalar converts with the general checks: a number without
// HasNum, a string with flags, a container.
func TestElemScalarsIsElemScalar(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		texts := rapid.SliceOfN(rapid.SampledFrom(elemTexts), 0, 40).Draw(t, "elements")
		src := "[" + strings.Join(texts, ", ") + "]"
		doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 1, MaxChildren: len(src) + 1, ArrayElems: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		es := doc.ArrayElems(0)
		from := rapid.IntRange(0, len(es)).Draw(t, "from")
		dst := make([]Scalar, rapid.IntRange(0, len(es)+2).Draw(t, "room"))
		n := elemScalars(es[from:], dst)
		if n > len(dst) || n > len(es)-from {
			t.Fatalf("%s from %d into %d: converted %d", src, from, len(dst), n)
		}
		for k := range n {
			want, err := elemScalar(&es[from+k])
			if err != nil || dst[k] != want {
				t.Fatalf("%s: element %d is %v; elemScalar gives %v, %v", src, from+k, dst[k], want, err)
			}
		}
		if from+n < len(es) && n < len(dst) {
			switch e := &es[from+n]; {
			case e.Kind == jsontape.Number && e.Flags&jsontape.HasNum != 0,
				e.Kind == jsontape.String && e.Flags == 0,
				e.Kind == jsontape.Null, e.Kind == jsontape.True, e.Kind == jsontape.False:
				t.Fatalf("%s: stopped at element %d, %s, which it vouches for", src, from+n, e.Raw)
			}
		}
	})
}

// TestASCII16: the word-wise test agrees with the byte-wise one for every
// length up to 16 and a byte >= 0x80 (or none) in every position.
func TestASCII16(t *testing.T) {
	for n := 0; n <= 16; n++ {
		for pos := -1; pos < n; pos++ {
			for _, c := range []byte{0x7f, 0x80, 0xc3, 0xff} {
				b := []byte(strings.Repeat("a", n))
				if pos >= 0 {
					b[pos] = c
				}
				want := pos < 0 || c < 0x80
				if got := ascii16(string(b)); got != want {
					t.Fatalf("ascii16(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
