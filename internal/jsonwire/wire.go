package jsonwire

// A Fault says how a literal first leaves the grammar. [ParseNumber]
// returns OK or one of the number faults, [ScanString] OK or one of the
// string faults; each names the offset it reports.
type Fault uint8

const (
	// OK: no fault; the literal is grammatical up to the returned offset.
	OK Fault = iota

	// Number faults, at the offset of the first byte that breaks the grammar.

	// NoInt: there is no integer part (nothing, or a byte other than a digit,
	// after the optional '-').
	NoInt
	// NoFracDigit: '.' is not followed by a digit.
	NoFracDigit
	// NoExpDigit: the exponent marker and its optional sign are not followed
	// by a digit.
	NoExpDigit

	// String faults.

	// Unterminated: the input ends before the closing quote (at the end of
	// the input).
	Unterminated
	// UnterminatedEscape: the input ends right after a backslash (at the
	// backslash).
	UnterminatedEscape
	// BadUnicodeEscape: "\u" is not followed by four hexadecimal digits (at
	// the backslash).
	BadUnicodeEscape
	// BadEscape: a backslash is followed by a byte that starts no escape
	// (at the backslash; the byte is the one after it).
	BadEscape
	// ControlChar: a byte U+0000–U+001F appears unescaped (at that byte).
	ControlChar
)

// LE64 returns the first eight bytes of s as a little-endian word: the
// compiler makes this one load. It is how the word-wise scans (digits,
// plain string bytes, and the engine's string hash) read eight bytes at a
// time. s must hold at least eight bytes.
func LE64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// LE32 returns the first four bytes of s as a little-endian word, in one
// load, as [LE64] does eight. s must hold at least four bytes.
func LE32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
