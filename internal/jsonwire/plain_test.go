package jsonwire

import (
	"math/rand/v2"
	"testing"
)

// slowPlainEnd is PlainEnd byte by byte, from the definition.
func slowPlainEnd(src string, i int) int {
	for i < len(src) && src[i] >= 0x20 && src[i] < 0x80 && src[i] != '"' && src[i] != '\\' {
		i++
	}
	return i
}

// TestPlainEnd: the word-wise search finds the same first byte that is not
// plain as the byte-wise one: every byte value at every position of a
// word, then random strings with several such bytes, from every starting
// index.
func TestPlainEnd(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			w := []byte("abcdefghijklmnop")
			w[pos] = byte(b)
			if got, want := PlainEnd(string(w), 0), slowPlainEnd(string(w), 0); got != want {
				t.Fatalf("PlainEnd(%q) = %d, want %d", w, got, want)
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
			if got, want := PlainEnd(s, i), slowPlainEnd(s, i); got != want {
				t.Fatalf("PlainEnd(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
}
