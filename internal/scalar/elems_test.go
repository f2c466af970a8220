package scalar

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// elemTexts are array elements of every kind and path: numbers the reader
// gives a value for and ones it leaves to the text, -0, strings plain,
// escaped, non-ASCII, invalid, of every length from 0 to 9, of 16 and 17
// bytes, and containers.
var elemTexts = []string{
	`0`, `-0`, `-0.0`, `7`, `-12.5`, `0.1`, `1234567.1234567`, `9007199254740993`, `1e5`, `1E-400`, `1e400`,
	`123456789012345678901234567890`, `null`, `true`, `false`,
	`""`, `"a"`, `"ab"`, `"abc"`, `"abcd"`, `"s7082"`, `"abcdef"`, `"abcdefg"`, `"abcdefgh"`, `"abcdefghi"`,
	`"0123456789abcdef"`, `"0123456789abcdefg"`, `"a string longer than sixteen bytes"`, `"tab\t"`,
	`"\u0041"`, `"\u00e9"`, `"é"`, "\"\xff\"", `"\ud800"`, `"\/"`, `[]`, `[1,"x"]`, `{}`, `{"a":1}`,
}

// parseElems reads an array of the texts.
func parseElems(t interface{ Fatalf(string, ...any) }, texts []string) []jsontape.Elem {
	src := "[" + strings.Join(texts, ", ") + "]"
	doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 1, MaxChildren: len(src) + 1, ArrayElems: true})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return doc.ArrayElems(0)
}

// TestFromElemIsElem: FromElem converts an element exactly as Elem does
// (without error), and declines only an element it does not vouch for,
// which Elem converts with the general checks: a number without HasNum,
// a string with flags, a container.
func TestFromElemIsElem(t *testing.T) {
	es := parseElems(t, elemTexts)
	for i := range es {
		e := &es[i]
		var got Scalar
		ok := FromElem(e, &got)
		want, err := Elem(e)
		vouched := e.Kind == jsontape.Number && e.Flags&jsontape.HasNum != 0 || e.Kind == jsontape.String && e.Flags == 0 ||
			e.Kind == jsontape.Null || e.Kind == jsontape.True || e.Kind == jsontape.False
		switch {
		case ok != vouched:
			t.Errorf("%s: FromElem %v, but the reader vouches for it: %v", e.Raw, ok, vouched)
		case ok && (err != nil || got != want):
			t.Errorf("%s: FromElem gives %v; Elem gives %v, %v", e.Raw, got.AppendJSON(nil), want.AppendJSON(nil), err)
		}
	}
}

// TestElemKeyIsKey: ElemKey and ElemWord key an element exactly as Key
// keys the Scalar Elem gives it, wherever they take it, and ElemKey takes
// every element FromElem converts; ElemWord takes just the one-word keys.
func TestElemKeyIsKey(t *testing.T) {
	es := parseElems(t, elemTexts)
	for i := range es {
		e := &es[i]
		var s Scalar
		vouched := FromElem(e, &s)
		a, b, tag := ElemKey(e)
		if (tag != 0) != vouched {
			t.Errorf("%s: ElemKey tag %d, FromElem %v", e.Raw, tag, vouched)
			continue
		}
		if !vouched {
			continue
		}
		wa, wb, wtag := s.Key()
		if a != wa || b != wb || tag != wtag {
			t.Errorf("%s: ElemKey %x %x %d, Key %x %x %d", e.Raw, a, b, tag, wa, wb, wtag)
		}
		ya, ytag := ElemWord(e)
		if p, m, ok := s.Span(); ok != (ytag != 0) {
			t.Errorf("%s: ElemWord tag %d, Span's ok %v", e.Raw, ytag, ok)
		} else if xa, xtag := s.Word(p, m); ytag != 0 && (ytag != xtag || ya != xa) {
			t.Errorf("%s: ElemWord %x %d, Word %x %d", e.Raw, ya, ytag, xa, xtag)
		}
	}
}

// TestFromElemIntoAnyBuffer: converting any run of elements with FromElem
// and Elem, as canon.ParseArray and the engine do, gives Elem's Scalars.
func TestFromElemIntoAnyBuffer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		texts := rapid.SliceOfN(rapid.SampledFrom(elemTexts), 0, 40).Draw(t, "elements")
		es := parseElems(t, texts)
		dst := make([]Scalar, len(es))
		for i := range es {
			dst[i] = Scalar{kind: String, str: "stale"} // FromElem sets all of it
			if !FromElem(&es[i], &dst[i]) {
				continue
			}
			if want, err := Elem(&es[i]); err != nil || dst[i] != want {
				t.Fatalf("%s: %v, Elem %v %v", es[i].Raw, dst[i].AppendJSON(nil), want.AppendJSON(nil), err)
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
