package jsontext

import (
	"math/rand/v2"
	"testing"
)

// slowSpecial is special byte by byte.
func slowSpecial(src string, i int) int {
	for i < len(src) && !strSpecial[src[i]] {
		i++
	}
	return i
}

// TestSpecial: the word-wise search finds the same first special byte as
// the byte-wise one: every byte value at every position of a word, then
// random strings with several special bytes, from every starting index.
func TestSpecial(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			w := []byte("abcdefghijklmnop")
			w[pos] = byte(b)
			if got, want := special(string(w), 0), slowSpecial(string(w), 0); got != want {
				t.Fatalf("special(%q) = %d, want %d", w, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', ' ', '!', '#', '"', '\\', 0x1f, 0x00, 0x7f, 0x80, 0xc3, 0xff, 0x21, 0x5b, 0x5d}
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		s := string(b)
		for i := 0; i <= len(s); i++ {
			if got, want := special(s, i), slowSpecial(s, i); got != want {
				t.Fatalf("special(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
}
