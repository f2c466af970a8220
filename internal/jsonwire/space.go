package jsonwire

// IsSpace reports whether c is white space, the only bytes RFC 8259
// (section 2) allows between tokens: space, horizontal tab, line feed and
// carriage return.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not
// white space ([IsSpace]), or len(s). Small enough to be inlined.
func SkipSpace(s string, i int) int {
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}
