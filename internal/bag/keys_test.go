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
				// The fused loops' key (countFirstElemRun), where they take
				// the element, is the same.
				if wa, wtag := elemWord(&a.Elems[i+j]); wtag != 0 && (wa != x || y != 0 || wtag != tag) {
					t.Fatalf("%s: element %d (%s): elemWord %x %d, want %x %x %d", src, i+j, a.Elems[i+j].Raw, wa, wtag, x, y, tag)
				}
			}
		}
	})
}

// TestWordsAreTheBytes: words, and the inline copies of its 4-to-8-byte
// path (shortWord), hold a string's bytes little-endian, zero-padded, for
// every length up to 16.
func TestWordsAreTheBytes(t *testing.T) {
	const text = "\x01\x82\x03\xf4\x05\x06\x07\x88\x09\x0a\x0b\x0c\x0d\x0e\x0f\xa0"
	for n := 0; n <= shortStr; n++ {
		s := text[:n]
		var want [2]uint64
		for i := 0; i < n; i++ {
			want[i/8] |= uint64(s[i]) << (8 * (i % 8))
		}
		if a, b := words(s); [2]uint64{a, b} != want {
			t.Errorf("words(%q) = %x %x, want %x", s, a, b, want)
		}
		if n >= 4 && n <= 8 && shortWord(s) != want[0] {
			t.Errorf("shortWord(%q) = %x, want %x", s, shortWord(s), want[0])
		}
	}
}

// TestAnyKeysAreScalarKeys: the keys anyKeys sets for Go values (numbers
// and short strings through its inline paths, the rest through the Set
// methods) are the keys index.key gives their Scalars, hashed, and it
// refuses exactly the values anyScalar refuses.
func TestAnyKeysAreScalarKeys(t *testing.T) {
	xs := []any{
		0.0, math.Copysign(0, -1), 7.0, -12.5, 1e300, math.NaN(), math.Inf(1), math.Inf(-1),
		nil, true, false, 3, testutil.Int(1 << 62),
		"", "a", "abc", "abcd", "s7082", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef",
		"0123456789abcdefg", "a string longer than sixteen bytes", "éabc", "abcé", "ab\xffd", "abcdefg\xff", "\xff",
		[]any{}, int8(1),
	}
	ix := newIndex(0)
	for _, x := range xs {
		err := anyKeys(&ix.kb, "/x", []any{x}, 0)
		s, serr := anyScalar(x)
		if (err != nil) != (serr != nil) {
			t.Errorf("%#v: anyKeys error %v, anyScalar error %v", x, err, serr)
			continue
		}
		if err != nil {
			continue
		}
		a, b, tag := ix.key(&s)
		want := key{a: a, b: b, tag: tag, h: ix.h.hash(a, b, tag)}
		if got := ix.kb.k[0]; got != want {
			t.Errorf("%#v: key %+v, want %+v", x, got, want)
		}
		if tag == tagLong && ix.kb.long[0] != s.Str() {
			t.Errorf("%#v: long string %q", x, ix.kb.long[0])
		}
	}
}

// TestOneWordKeysHaveNoSecondWord: the key of null, a boolean, a number and
// a string of at most 8 bytes has b 0, so that the fused loops
// (countFirstRun and the others), which only take such keys, compare a
// slot's tag and a, and not b: a slot with one of their tags holds b 0.
func TestOneWordKeysHaveNoSecondWord(t *testing.T) {
	ss := literalsAndNumbers(t)
	const text = "\xffabcdefghijklmnopq"
	for n := 0; n <= len(text); n++ {
		s, _ := canon.StringScalar(strings.ToValidUTF8(text[:n], "\x01"))
		ss = append(ss, s)
	}
	ix := newIndex(0)
	defer ix.release()
	for _, s := range ss {
		a, b, tag := ix.key(&s)
		oneWord := tag == tagNull || tag == tagBool || tag == tagNum || tag >= tagStr && tag <= tagStr+8
		if oneWord && b != 0 {
			t.Errorf("%v: key %x %x tag %d: a one-word tag with b not 0", s, a, b, tag)
		}
		if tag > tagStr+8 && tag <= tagStr+shortStr && b == 0 && s.Str()[8:] != strings.Repeat("\x00", len(s.Str())-8) {
			t.Errorf("%v: key %x %x tag %d: bytes past 8 not in b", s, a, b, tag)
		}
	}
}

// TestWordKeyIsKey: for every scalar the fused loops take (null, a
// boolean, a number, a string of 4 to 8 bytes), wordBytes and wordKey
// give the key index.key gives, and numWord is the number word: the
// float's bits, true's boolTrue, null's and false's 0.
func TestWordKeyIsKey(t *testing.T) {
	ss := literalsAndNumbers(t)
	for _, v := range []string{"abcd", "s7082", "abcdef", "\x01bcdefg", "abcdefgh", "éabcd", "ab\x00d"} {
		s, err := canon.StringScalar(v)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	ix := newIndex(0)
	defer ix.release()
	for _, s := range ss {
		a, b, tag := ix.key(&s)
		kind, str := s.Kind(), s.Str()
		p, m := wordBytes(str, kind == canon.String)
		if wa, wtag := wordKey(&s, kind, p, m); wa != a || b != 0 || wtag != tag {
			t.Errorf("%v: wordKey %x %d, index.key %x %x %d", s, wa, wtag, a, b, tag)
		}
		if kind != canon.String && numWord(&s) != a {
			t.Errorf("%v: numWord %x, key word %x", s, numWord(&s), a)
		}
	}
}

// literalsAndNumbers returns null, false, true and numbers of every
// magnitude.
func literalsAndNumbers(t *testing.T) []canon.Scalar {
	ss := []canon.Scalar{canon.NullScalar(), canon.BoolScalar(false), canon.BoolScalar(true)}
	for _, f := range []float64{0, 1, -1, 0.5, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		s, err := canon.NumberScalar(f)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	return ss
}
