package bag

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/testutil"
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
// one, and otherwise, for every element, the key setScalar gives its
// Scalar: the tape's keys (scalar.ElemKey) and the converted elements'
// agree, a long string's number included.
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
				got := ix.kb.k[j]
				want, _ := ElemScalar(a.Path, i+j, &a.Elems[i+j])
				ix.kb.setScalar(j, &want)
				if ix.kb.k[j] != got {
					t.Fatalf("%s: element %d (%s): key %+v, its Scalar's %+v", src, i+j, a.Elems[i+j].Raw, got, ix.kb.k[j])
				}
			}
		}
	})
}

// TestAnyKeysAreScalarKeys: the keys anyKeys sets for Go values (the
// commonest through anyKeysRun, the rest through canon.Of) are the keys
// setScalar gives their Scalars, and it refuses exactly the values canon.Of
// refuses, with its error at the element's path.
func TestAnyKeysAreScalarKeys(t *testing.T) {
	xs := []any{
		0.0, math.Copysign(0, -1), 7.0, -12.5, 1e300, math.NaN(), math.Inf(1), math.Inf(-1),
		nil, true, false, 3, testutil.Int(1 << 62), testutil.Int(1<<53 + 1), float32(0.1),
		"", "a", "abc", "abcd", "s7082", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef",
		"0123456789abcdefg", "a string longer than sixteen bytes", "éabc", "abcé", "ab\xffd", "abcdefg\xff", "\xff",
		[]any{}, int8(1), canon.BoolScalar(true),
	}
	ix := newIndex(0)
	defer ix.release()
	for _, x := range xs {
		err := anyKeys(&ix.kb, "/x", []any{x}, 7)
		s, serr := canon.Of(x)
		if (err != nil) != (serr != nil) {
			t.Errorf("%#v: anyKeys error %v, canon.Of error %v", x, err, serr)
			continue
		}
		if err != nil {
			if want := at(serr, "/x", 7).Error(); err.Error() != want {
				t.Errorf("%#v: anyKeys error %v, want %v", x, err, want)
			}
			continue
		}
		got := ix.kb.k[0]
		ix.kb.setScalar(0, &s)
		if want := ix.kb.k[0]; got != want {
			t.Errorf("%#v: key %+v, its Scalar's %+v", x, got, want)
		}
	}
}

// TestGoSliceKeysAreScalarKeys: the keys of the Go slices the engine keys
// itself ([]string, []float64, []int, []int64) are the keys of the
// Scalars fill converts them to, an integer no double holds included, and
// a batch stops at the first element fill refuses, with fill's error.
func TestGoSliceKeysAreScalarKeys(t *testing.T) {
	type row struct {
		g      GoSlice
		reason string
	}
	ints := []int{0, -7, 1 << 30, 3}
	if big := int64(1<<53 + 1); int64(int(big)) == big { // where an int holds it
		ints = append(ints[:3], int(big), 3)
	}
	testutil.Run(t, []row{
		{GoSlice{Strings: []string{"", "abcd", "a string longer than sixteen bytes", "é", "ab\xff", "x"}}, "strings, the fifth invalid"},
		{GoSlice{Floats: []float64{0, math.Copysign(0, -1), 1.5, math.Inf(1), 2}}, "floats, the fourth infinite"},
		{GoSlice{Ints: ints}, "ints, the fourth exact only (no double holds it) where an int has 64 bits, between doubles"},
		{GoSlice{Int64s: []int64{0, math.MinInt64, math.MaxInt64, 5, math.MaxInt64 - 1}}, "int64s, the third and fifth exact only: two texts, two keys"},
	}, func(t *testing.T, r row) {
		n := len(r.g.Strings) + len(r.g.Floats) + len(r.g.Ints) + len(r.g.Int64s)
		ix := newIndex(n)
		defer ix.release()
		_, err := r.g.keys(&ix.kb, "/g", 0, n)
		dst := make([]canon.Scalar, 1)
		for i := range n {
			_, ferr := r.g.fill("/g", i, dst)
			if ferr != nil {
				if err == nil || err.Error() != ferr.Error() {
					t.Fatalf("element %d: keys %v, fill %v", i, err, ferr)
				}
				return
			}
			got := ix.kb.k[i]
			ix.kb.setScalar(i, &dst[0])
			if ix.kb.k[i] != got {
				t.Fatalf("element %d (%v): key %+v, its Scalar's %+v", i, dst[0], got, ix.kb.k[i])
			}
		}
		if err != nil || len(r.g.Strings)+len(r.g.Floats) > 0 {
			t.Fatalf("no element refused; keys said %v", err)
		}
	})
}
