package bag

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// elemTexts are array elements of every kind and every path of fillKeys:
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

// TestFillKeysIsKeyOfElemScalar: for any batch of document elements,
// fillKeys returns the error ElemScalar gives the first element that has
// one, and otherwise, for every element, the key index.key gives its
// Scalar, with that Scalar in dst where it is a long string (which
// internKeys compares by its text).
func TestFillKeysIsKeyOfElemScalar(t *testing.T) {
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
			dst := ix.buf[:min(batch, a.N-i)]
			var k keys
			err := a.fillKeys(ix, i, dst, &k)
			for j := range dst {
				if _, wantErr := ElemScalar(a.Path, i+j, &a.Elems[i+j]); wantErr != nil {
					if err == nil || err.Error() != wantErr.Error() {
						t.Fatalf("%s: element %d: fillKeys %v, ElemScalar %v", src, i+j, err, wantErr)
					}
					return
				}
			}
			if err != nil {
				t.Fatalf("%s: fillKeys %v for a batch that converts", src, err)
			}
			for j := range dst {
				want, _ := ElemScalar(a.Path, i+j, &a.Elems[i+j])
				x, y, tag := ix.key(&want)
				if k.a[j] != x || k.b[j] != y || k.tag[j] != tag {
					t.Fatalf("%s: element %d (%s): key %x %x %d, want %x %x %d", src, i+j, a.Elems[i+j].Raw, k.a[j], k.b[j], k.tag[j], x, y, tag)
				}
				if tag == tagLong && dst[j] != want {
					t.Fatalf("%s: element %d: dst %v, want %v", src, i+j, dst[j], want)
				}
			}
		}
	})
}

// TestFillKeysOfValues: an array of Go values (Fill) gets the keys of its
// Scalars.
func TestFillKeysOfValues(t *testing.T) {
	xs := []canon.Scalar{num(t, 1), str(t, "a"), str(t, "a string longer than sixteen bytes"), {}}
	a := Array{Path: "/a", N: len(xs), Fill: func(i int, dst []canon.Scalar) error { copy(dst, xs[i:]); return nil }}
	ix := newIndex(a.N)
	defer ix.release()
	var k keys
	dst := ix.buf[:len(xs)]
	if err := a.fillKeys(ix, 0, dst, &k); err != nil {
		t.Fatal(err)
	}
	for j := range xs {
		if x, y, tag := ix.key(&xs[j]); k.a[j] != x || k.b[j] != y || k.tag[j] != tag || dst[j] != xs[j] {
			t.Fatalf("element %d: key %x %x %d, want %x %x %d", j, k.a[j], k.b[j], k.tag[j], x, y, tag)
		}
	}
}
