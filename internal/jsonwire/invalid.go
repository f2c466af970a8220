package jsonwire

import "unicode/utf8"

// FirstInvalid finds where the value of a string literal's contents (the
// text between its quotes, as [ScanString] accepted it) first fails to be
// Unicode: the escape of a lone surrogate (\ud800 not followed by the
// escape of a low surrogate, or a low one alone), size 6, or a byte that is
// not UTF-8, size 1. It returns that part's byte offset in s and size, and
// ok false when the value is valid. Everything before the offset is valid:
// [Unescape] of s[:at] is the value up to the fault. It is for messages
// that point a writer of JSON at what they wrote (an escape is text they
// typed, where a byte offset into the decoded value is not), so it may
// take its time: it runs only for a string already refused.
func FirstInvalid(s string) (at, size int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && s[i+1] == 'u':
			r := hex4(s[i+2:])
			switch {
			case r >= 0xD800 && r < 0xDC00:
				if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
						i += 12
						continue
					}
				}
				return i, 6, true
			case r >= 0xDC00 && r < 0xE000:
				return i, 6, true
			}
			i += 6
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return i, 1, true
			}
			i += n
		}
	}
	return 0, 0, false
}
