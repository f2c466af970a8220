package jsonwire

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// String flags: what [ScanString] saw inside a string literal.
const (
	// Escaped: the string contains a backslash escape (its text is not its
	// value; [Unescape] gives the value).
	Escaped = 1 << iota
	// NonASCII: the string contains a byte >= 0x80, which may be invalid
	// UTF-8 (the grammar leaves that to whoever reads the value).
	NonASCII
)

// ScanString reads the string literal whose opening quote is at s[i], up
// to its closing quote, checking the string grammar of RFC 8259 section 7:
// an escape is one of \" \\ \/ \b \f \n \r \t or \u and four hexadecimal
// digits (either case), and no byte U+0000–U+001F appears unescaped. Bytes
// >= 0x80 are not checked as UTF-8; they set NonASCII. It returns the
// offset after the closing quote, the string's flags and OK; or, with the
// fault, the offset the fault names (see [Fault]).
func ScanString(s string, i int) (end int, flags uint8, fault Fault) {
	i++
	for {
		i = PlainEnd(s, i)
		if i >= len(s) {
			return i, 0, Unterminated
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, flags, OK
		case c == '\\':
			flags |= Escaped
			if i+1 >= len(s) {
				return i, 0, UnterminatedEscape
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return i, 0, BadUnicodeEscape
				}
				i += 6
			default:
				return i, 0, BadEscape
			}
		case c < 0x20:
			return i, 0, ControlChar
		default: // >= 0x80
			flags |= NonASCII
			i++
		}
	}
}

// plain marks the bytes a string holds as they are without a second look:
// printable ASCII other than '"' and '\\'.
var plain = func() (t [256]bool) {
	for i := 0x20; i < 0x80; i++ {
		t[i] = i != '"' && i != '\\'
	}
	return t
}()

// PlainEnd returns the index of the first byte at or after i that is not
// plain (a control byte, '"', '\\', or a byte >= 0x80), or len(s), testing
// eight bytes at a time while eight remain. A string literal without
// escapes or non-ASCII bytes is its opening quote, a run of plain bytes and
// its closing quote.
func PlainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := NonPlain(LE64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// NonPlain returns a mask of the bytes of x (little-endian) that may not be
// plain, the high bit of each: its lowest set bit is exactly that of the
// first byte that is not plain, and it is 0 exactly when all eight are. (A
// byte after the first non-plain one may be flagged wrongly: borrows move
// up.) Small enough to be inlined, it lets a reader test the first word
// of a string without a call ([PlainEnd] is the loop of it).
func NonPlain(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	q := x ^ ('"' * ones)
	b := x ^ ('\\' * ones)
	return ((x-0x20*ones)&^x | (q-ones)&^q | (b-ones)&^b | x) & high
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Unescape returns the value of a grammatical string literal's contents
// (the text between its quotes, as [ScanString] accepted it): s itself when
// it has no escape, else a new string. Escaped surrogate pairs become one
// code point; a lone surrogate escape becomes its three-byte generalized
// UTF-8 form (ED A0 80 for \ud800), which is invalid UTF-8, so that it is
// refused, and counted as three bytes, wherever the value is checked. Raw
// bytes are kept as they are.
func Unescape(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(s[i+2:])
			i += 6
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if r2 := hex4(s[i+2:]); r2 >= 0xDC00 && r2 < 0xE000 {
					b = utf8.AppendRune(b, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += 6
					continue
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			} else {
				b = utf8.AppendRune(b, r)
			}
			continue
		default: // '"', '\\', '/'
			b = append(b, s[i+1])
		}
		i += 2
	}
	return string(b)
}

// hex4 returns the value of the four hexadecimal digits at the start of s.
func hex4(s string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// AppendString appends s as a JSON string in RFC 8785 form: '"' and '\\'
// escaped, U+0000–U+001F as \b \t \n \f \r or \u00xx, everything else
// literal. Invalid UTF-8 bytes are written as U+FFFD: that only happens for
// messages and paths the library writes, never for data being checked
// (canon refuses invalid strings before they can reach a key).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	// Runs of plain bytes are found a word at a time (as PlainEnd finds
	// them, without its call) and copied whole: on a JSON text written as a
	// string, an MCP answer's text, with a quote every eight bytes, that is
	// a fifth fewer instructions than byte by byte.
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			m := NonPlain(LE64(s[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else if plain[s[i]] {
			i++
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			dst = appendEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(append(dst, s[start:i]...), "\ufffd"...)
			start = i + 1
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
