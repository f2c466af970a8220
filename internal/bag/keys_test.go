package bag

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// elemTexts are array elements of every kind and every path of elemKeys:
// numbers with and without the reader's value, -0, strings plain, escaped,
// non-ASCII, invalid, of every length from 0 to 9, of 16 and 17 bytes,
// and containers.
var elemTexts = []string{
	`0`, `-0`, `-0.0`, `7`, `-12.5`, `0.1`, `1234567.1234567`, `9007199254740993`, `1e5`, `1E-400`, `1e400`,
	`null`, `true`, `false`, `""`, `"a"`, `"ab"`, `"abc"`, `"abcd"`, `"s7082"`, `"abcdef"`, `"abcdefg"`, `"abcdefgh"`,
	`"abcdefghi"`, `"0123456789abcdef"`, `"0123456789abcdefg"`,
	`"a string longer than sixteen bytes"`, `"tab\t"`, `"\u0041"`, `"\u00e9"`, `"é"`, "\"\xff\"", `"\ud800"`,
	`[]`, `[1,"x"]`, `{}`,
}

// TestElemKeysIsKeyOfElemScalar: for any batch of document elements,
// elemKeys returns the error ElemScalar gives the first element that has
// one, and otherwise, for every element, the key index.key gives its
// Scalar, hashed, with the string itself where it is a long one (which
// the index compares by its text).
func TestElemKeysIsKeyOfElemScalar(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		texts := rapid.SliceOfN(rapid.SampledFrom(elemTexts), 1, 3*batch).Draw(t, "elements")
		src := "[" + strings.Join(texts, ",") + "]"
		doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 1, MaxChildren: len(src) + 1, ArrayElems: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		a := Array{Path: "/a", N: len(texts), Elems: doc.ArrayElems(0)}
		ix := newIndex(a.N)
		defer ix.release()
		for i := 0; i < a.N; i += batch {
			n := min(batch, a.N-i)
			err := a.elemKeys(ix, i, n)
			for j := range n {
				if _, wantErr := ElemScalar(a.Path, i+j, &a.Elems[i+j]); wantErr != nil {
					if err == nil || err.Error() != wantErr.Error() {
						t.Fatalf("%s: element %d: elemKeys %v, ElemScalar %v", src, i+j, err, wantErr)
					}
					return
				}
			}
			if err != nil {
				t.Fatalf("%s: elemKeys %v for a batch that converts", src, err)
			}
			for j := range n {
				want, _ := ElemScalar(a.Path, i+j, &a.Elems[i+j])
				x, y, tag := ix.key(&want)
				k := &ix.kb.k[j]
				if k.a != x || k.b != y || k.tag != tag || k.h != ix.h.hash(x, y, tag) {
					t.Fatalf("%s: element %d (%s): key %x %x %d %x, want %x %x %d %x", src, i+j, a.Elems[i+j].Raw, k.a, k.b, k.tag, k.h, x, y, tag, ix.h.hash(x, y, tag))
				}
				if tag == tagLong && ix.kb.long[j] != want.Str() {
					t.Fatalf("%s: element %d: long %q, want %q", src, i+j, ix.kb.long[j], want.Str())
				}
			}
		}
	})
}
