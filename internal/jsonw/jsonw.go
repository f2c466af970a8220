// Package jsonw writes the JSON text claimcheck emits: the one RFC 8785 string
// writer (canonical keys, output documents and error documents all use it)
// and RFC 6901 pointer tokens.
package jsonw

import "unicode/utf8"

// AppendString appends s as a JSON string in RFC 8785 form: '"' and '\\'
// escaped, U+0000–U+001F as \b \t \n \f \r or \u00xx, everything else
// literal. Invalid UTF-8 bytes are written as U+FFFD: that only happens for
// messages and paths the library writes, never for data being checked
// (canon refuses invalid strings before they can reach a key).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
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

// AppendPointerToken appends one RFC 6901 reference token ("~" as "~0", "/"
// as "~1") preceded by "/".
func AppendPointerToken(dst []byte, name string) []byte {
	dst = append(dst, '/')
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, name[i])
		}
	}
	return dst
}
