package scalar

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// scalars returns null, false, true, numbers of every magnitude (-0
// among them) and strings of every length from 0 to 20 bytes, ASCII and
// not, with a NUL at the end.
func scalars(t *testing.T) []Scalar {
	ss := []Scalar{NullOf(), BoolOf(false), BoolOf(true)}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 1 << 53} {
		s, err := NumberOf(f)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	for n := 0; n <= 20; n++ {
		for _, text := range []string{strings.Repeat("a", n), strings.Repeat("é", n/2) + strings.Repeat("b", n%2), strings.Repeat("c", max(n-1, 0)) + "\x00"[:min(n, 1)]} {
			s, err := StringOf(text)
			if err != nil {
				t.Fatal(err)
			}
			ss = append(ss, s)
		}
	}
	return ss
}

// TestKeyIsEquality: two scalars have the same key (a long string's text
// standing for its words) exactly when they are ==, exactly when their RFC
// 8785 serializations are equal.
func TestKeyIsEquality(t *testing.T) {
	ss := scalars(t)
	type full struct {
		a, b uint64
		tag  uint32
		long string
	}
	keyOf := func(s *Scalar) full {
		a, b, tag := s.Key()
		k := full{a: a, b: b, tag: tag}
		if tag == TagLong {
			k.long = s.Str()
		}
		return k
	}
	for i := range ss {
		for j := range ss {
			x, y := &ss[i], &ss[j]
			sameKey := keyOf(x) == keyOf(y)
			sameJSON := string(x.AppendJSON(nil)) == string(y.AppendJSON(nil))
			if sameKey != (*x == *y) || sameKey != sameJSON {
				t.Errorf("%s and %s: same key %v, == %v, same serialization %v", x.AppendJSON(nil), y.AppendJSON(nil), sameKey, *x == *y, sameJSON)
			}
		}
	}
}

// TestWordIsKey: Span takes exactly null, the booleans, numbers and
// strings of 4 to 8 bytes, and Word gives them the key Key gives, whose
// second word is 0; a short string's bytes past the eighth are in b.
func TestWordIsKey(t *testing.T) {
	for _, s := range scalars(t) {
		a, b, tag := s.Key()
		p, m, ok := s.Span()
		if want := s.kind != String || len(s.str) >= 4 && len(s.str) <= 8; ok != want {
			t.Errorf("%s: Span's ok %v, want %v", s.AppendJSON(nil), ok, want)
		}
		if !ok {
			continue
		}
		if wa, wtag := s.Word(p, m); wa != a || b != 0 || wtag != tag {
			t.Errorf("%s: Word %x %d, Key %x %x %d", s.AppendJSON(nil), wa, wtag, a, b, tag)
		}
		if n := len(s.str); s.kind == String && n > 8 && n <= MaxShort {
			if want := s.str[8:] != strings.Repeat("\x00", n-8); (b != 0) != want {
				t.Errorf("%s: bytes past 8 not in b (%x)", s.AppendJSON(nil), b)
			}
		}
	}
}

// TestWordsAreTheBytes: words and shortWord hold a string's bytes
// little-endian, zero-padded, for every length up to 16.
func TestWordsAreTheBytes(t *testing.T) {
	const text = "\x01\x82\x03\xf4\x05\x06\x07\x88\x09\x0a\x0b\x0c\x0d\x0e\x0f\xa0"
	for n := 0; n <= MaxShort; n++ {
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

// goValues are Go values of every kind Of reads and refuses.
var goValues = []any{
	0.0, math.Copysign(0, -1), 7.0, -12.5, 1e300, math.NaN(), math.Inf(1), math.Inf(-1),
	nil, true, false, 3, int64(1 << 53), int64(1<<53 + 1), int64(math.MinInt64), int64(math.MaxInt64),
	uint64(1 << 63), uint64(math.MaxUint64), float32(0.1), int8(-3),
	"", "a", "abc", "abcd", "s7082", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef",
	"0123456789abcdefg", "a string longer than sixteen bytes", "éabc", "abcé", "ab\xffd", "abcdefg\xff", "\xff",
	[]any{}, map[string]any{},
}

// TestGoWordsAreKeys: the keys made from Go values without a Scalar
// (AnyKey, NumWord, IntWord, UintWord, StringKey, StrWord, BoolWord) are the
// keys of the Scalars Of makes, and each refuses exactly what Of refuses
// and the exact integers, whose keys are not one word.
func TestGoWordsAreKeys(t *testing.T) {
	for _, x := range goValues {
		s, err := Of(x)
		a, b, tag := s.Key()
		if x, ok := x.(string); ok {
			if wa, wtag := StrWord(x); wtag != 0 && (err != nil || wa != a || b != 0 || wtag != tag) {
				t.Errorf("%q: StrWord %x %d; Of %v, key %x %x %d", x, wa, wtag, err, a, b, tag)
			}
			if wa, wtag := TinyWord(x); wtag != 0 && (err != nil || wa != a || b != 0 || wtag != tag) {
				t.Errorf("%q: TinyWord %x %d; Of %v, key %x %x %d", x, wa, wtag, err, a, b, tag)
			}
		}
		if ka, kb, ktag, ok := AnyKey(x); ok && (err != nil || ka != a || kb != b || ktag != tag) {
			t.Errorf("%#v: AnyKey %x %x %d; Of %v, key %x %x %d", x, ka, kb, ktag, err, a, b, tag)
		} else if _, isInt := x.(int); !ok && err == nil && !s.IsExactInt() && (x == nil || isInt || isKind[bool](x) || isKind[string](x) || isKind[float64](x)) {
			t.Errorf("%#v: AnyKey declines a value of a kind it keys, which Of takes", x)
		}
		// A word declines an integer no double holds, which Of takes as
		// an exact integer, keyed by its text (TagBig).
		check := func(name string, w uint64, ok bool) {
			if ok != (err == nil && tag != TagBig) || ok && (w != a || b != 0 || tag != TagNum) {
				t.Errorf("%#v: %s %x %v; Of %v, key %x %x %d", x, name, w, ok, err, a, b, tag)
			}
		}
		switch x := x.(type) {
		case float64:
			w, ok := NumWord(x)
			check("NumWord", w, ok)
		case int:
			w, ok := IntWord(int64(x))
			check("IntWord", w, ok)
		case int64:
			w, ok := IntWord(x)
			check("IntWord", w, ok)
		case uint64:
			w, ok := UintWord(x)
			check("UintWord", w, ok)
		case bool:
			if w := BoolWord(x); w != a || tag != TagBool {
				t.Errorf("%v: BoolWord %x, key %x %d", x, w, a, tag)
			}
		case string:
			ka, kb, ktag, ok := StringKey(x)
			if ok != (err == nil) || ok && (ka != a || kb != b || ktag != tag) {
				t.Errorf("%q: StringKey %x %x %d %v; Of %v, key %x %x %d", x, ka, kb, ktag, ok, err, a, b, tag)
			}
		}
	}
}

// TestStrWordTakesShortASCII: StrWord takes every ASCII string of 4 to 8
// bytes and TinyWord every one of at most 3 (what the engine's []any loop
// keys without a call), and no other string.
func TestStrWordTakesShortASCII(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s string
		if rapid.Bool().Draw(t, "bytes") {
			s = string(rapid.SliceOfN(rapid.Byte(), 0, 10).Draw(t, "b")) // any bytes, UTF-8 or not
		} else {
			s = rapid.StringOfN(rapid.RuneFrom([]rune{'a', 'z', 0, 0x7f, 'é', '\u2028'}), 0, 10, -1).Draw(t, "s")
		}
		ascii := strings.IndexFunc(s, func(r rune) bool { return r >= 0x80 }) < 0
		want := len(s) >= 4 && len(s) <= 8 && ascii
		if _, tag := StrWord(s); (tag != 0) != want {
			t.Fatalf("%q: StrWord tag %d, want taken %v", s, tag, want)
		}
		if _, tag := TinyWord(s); (tag != 0) != (len(s) < 4 && ascii) {
			t.Fatalf("%q: TinyWord tag %d, want taken %v", s, tag, len(s) < 4 && ascii)
		}
	})
}

func isKind[T any](x any) bool { _, ok := x.(T); return ok }
