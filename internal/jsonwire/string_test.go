package jsonwire

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

func TestAppendString(t *testing.T) {
	type row struct{ in, want, reason string }
	testutil.Run(t, []row{
		{"plain", `"plain"`, "nothing to escape"},
		{"a\"b\\c", `"a\"b\\c"`, "quote and backslash escaped"},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`, "short escapes"},
		{"\x00\x1f", `"\u0000\u001f"`, "other controls as lower-case \\u00xx"},
		{"/\x7f\u2028é😀", "\"/\x7f\u2028é😀\"", "everything else literal"},
		{"a\xffb", "\"a\ufffdb\"", "an invalid byte in a message becomes U+FFFD"},
		{"\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\"", "a surrogate's three bytes are three invalid bytes"},
	}, func(t *testing.T, tc row) {
		if got := string(AppendString([]byte("x"), tc.in)); got != "x"+tc.want {
			t.Errorf("AppendString(%q) = %s, want %s", tc.in, got[1:], tc.want)
		}
	})
}

// slowAppendString is AppendString byte by byte, from its definition.
func slowAppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\':
			dst = append(dst, c)
		case c < utf8.RuneSelf:
			dst = appendEscape(dst, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			dst = utf8.AppendRune(dst, r) // U+FFFD for an invalid byte
			i += size
			continue
		}
		i++
	}
	return append(dst, '"')
}

// TestAppendStringByRuns: copying runs of plain bytes found a word at a
// time writes what writing byte by byte does, for random strings dense in
// the bytes that are not plain (quotes, controls, multi-byte and invalid
// UTF-8), at every length across a word's boundaries.
func TestAppendStringByRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", " ", "\"", "\\", "\x00", "\n", "\x1f", "\x7f", "é", "😀", "\u2028", "\xff", "\xc3", "\xed\xa0\x80"}
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(40); b.Len() < n; {
			if r.IntN(3) == 0 {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			} else {
				b.WriteByte('a' + byte(r.IntN(26)))
			}
		}
		s := b.String()
		if got, want := AppendString(nil, s), slowAppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestScanString pins down the string grammar: where a literal ends, its
// flags, and the fault and offset of every way to leave the grammar.
func TestScanString(t *testing.T) {
	type row struct {
		in     string
		end    int
		flags  uint8
		fault  Fault
		reason string
	}
	testutil.Run(t, []row{
		{`""`, 2, 0, OK, "the empty string"},
		{`"abc"x`, 5, 0, OK, "the literal ends at its closing quote; what follows is the caller's"},
		{`"a\nb"`, 6, Escaped, OK, "a short escape"},
		{`"\"\\\/\b\f\n\r\t"`, 18, Escaped, OK, "every short escape"},
		{`"\u00e9\uABCD"`, 14, Escaped, OK, "\\u escapes, either case: ASCII text"},
		{`"é"`, 4, NonASCII, OK, "raw UTF-8"},
		{"\"\xff\"", 3, NonASCII, OK, "invalid UTF-8 is not the grammar's business"},
		{"\"\x7f\"", 3, 0, OK, "DEL is not a control character for JSON"},
		{`"é\t"`, 6, Escaped | NonASCII, OK, "both flags"},
		{`"0123456789abcdef"`, 18, 0, OK, "a plain run longer than a word"},
		{`"abc`, 4, 0, Unterminated, "no closing quote: the fault is at the end"},
		{`"`, 1, 0, Unterminated, "a quote alone"},
		{`"ab\`, 3, 0, UnterminatedEscape, "a backslash at the end, at the backslash"},
		{`"a\u12"`, 2, 0, BadUnicodeEscape, "two hex digits"},
		{`"\u12G4"`, 1, 0, BadUnicodeEscape, "a non-hex digit"},
		{`"\u123`, 1, 0, BadUnicodeEscape, "truncated at the end of input"},
		{`"\x"`, 1, 0, BadEscape, "\\x is no escape"},
		{`"\U0041"`, 1, 0, BadEscape, "escapes are case-sensitive"},
		{`"\'"`, 1, 0, BadEscape, "\\' is no JSON escape"},
		{`"\0"`, 1, 0, BadEscape, "\\0 is no JSON escape"},
		{"\"\\\xc3\xa9\"", 1, 0, BadEscape, "a backslash before a non-ASCII byte"},
		{"\"a\x00b\"", 2, 0, ControlChar, "U+0000 unescaped, at the byte"},
		{"\"0123456789\x1f\"", 11, 0, ControlChar, "U+001F after a word of plain bytes"},
	}, func(t *testing.T, r row) {
		end, flags, fault := ScanString(r.in, 0)
		if end != r.end || flags != r.flags || fault != r.fault {
			t.Errorf("ScanString(%q) = %d, %d, %d; want %d, %d, %d", r.in, end, flags, fault, r.end, r.flags, r.fault)
		}
		// From an offset inside a larger text, the same, shifted.
		end, flags, fault = ScanString("[1,"+r.in, 3)
		if end != r.end+3 || flags != r.flags || fault != r.fault {
			t.Errorf("ScanString at 3: %d, %d, %d; want %d, %d, %d", end, flags, fault, r.end+3, r.flags, r.fault)
		}
	})
}

// refScanString is the oracle for ScanString: RFC 8259 section 7's string
// grammar, read byte by byte. It returns the offset after the closing
// quote of the literal at s[i], or false.
func refScanString(s string, i int) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	for i++; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			if i+1 >= len(s) {
				return 0, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) {
					return 0, false
				}
				for _, h := range s[i+2 : i+6] {
					if !strings.ContainsRune("0123456789abcdefABCDEF", h) {
						return 0, false
					}
				}
				i += 6
			default:
				return 0, false
			}
		default:
			i++
		}
	}
	return 0, false
}

// stringFlags computes Escaped and NonASCII from a string's contents.
func stringFlags(s string) uint8 {
	var f uint8
	if strings.IndexByte(s, '\\') >= 0 {
		f |= Escaped
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			f |= NonASCII
			break
		}
	}
	return f
}

// FuzzScanString holds ScanString to the byte-wise oracle and to
// encoding/json on any text after a quote: it accepts exactly the
// literals the grammar accepts, ending where they end, with the flags of
// their contents; it faults at an offset inside the text; and Unescape
// gives what encoding/json decodes wherever encoding/json can say (a
// value that is valid UTF-8, so no lone surrogate escape and no invalid
// byte).
func FuzzScanString(f *testing.F) {
	for _, seed := range []string{`"`, `abc"`, `a\nb"`, `\u00e9"`, `\ud83d\ude00"`, `\ud800"`, "\xff\"", `\x"`, `\u12"`, "\x01\"", `\`, `0123456789abcdef\"x"`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := `"` + text
		end, flags, fault := ScanString(s, 0)
		wantEnd, ok := refScanString(s, 0)
		switch {
		case ok != (fault == OK):
			t.Fatalf("ScanString(%q) = %d, %d; the oracle says %v", s, end, fault, ok)
		case ok && end != wantEnd:
			t.Fatalf("ScanString(%q) ends at %d; the oracle at %d", s, end, wantEnd)
		case !ok && (end < 1 || end > len(s)):
			t.Fatalf("ScanString(%q) faults %d at %d, outside the text", s, fault, end)
		case !ok:
			return
		}
		lit := s[:end]
		if !json.Valid([]byte(lit)) {
			t.Fatalf("ScanString accepts %q; encoding/json.Valid refuses it", lit)
		}
		if want := stringFlags(lit[1 : end-1]); flags != want {
			t.Fatalf("ScanString(%q) flags %d, want %d", lit, flags, want)
		}
		checkUnescape(t, lit[1:end-1])
	})
}

// checkUnescape: Unescape of a grammatical literal's contents is the text
// itself without an escape, and what encoding/json decodes when the value
// is valid UTF-8 (encoding/json writes U+FFFD for lone surrogates and
// invalid bytes, which Unescape never does).
func checkUnescape(t testutil.TB, contents string) {
	t.Helper()
	got := Unescape(contents)
	if !strings.Contains(contents, `\`) && got != contents {
		t.Fatalf("Unescape(%q) = %q: no escape, not the text", contents, got)
	}
	if utf8.ValidString(got) {
		var s string
		if err := json.Unmarshal([]byte(`"`+contents+`"`), &s); err != nil || s != got {
			t.Fatalf("Unescape(%q) = %q; encoding/json decodes %q (%v)", contents, got, s, err)
		}
	}
}

// TestUnescape: escapes, surrogate pairs, and lone surrogates as
// generalized UTF-8.
func TestUnescape(t *testing.T) {
	type row struct{ in, want, reason string }
	rows := []row{
		{`abc`, "abc", "no escape: the text itself"},
		{`\"\\\/\b\f\n\r\t`, "\"\\/\b\f\n\r\t", "every short escape"},
		{`\u0041\u00e9\u20AC`, "Aé€", "\\u escapes of one, two and three UTF-8 bytes, either case"},
		{`\u0000`, "\x00", "U+0000"},
		{`a\u0000b`, "a\x00b", "U+0000 inside text"},
		{`\ud83d\ude00`, "\U0001F600", "a surrogate pair is one code point"},
		{`\uD83D\uDE00`, "\U0001F600", "a surrogate pair in upper case"},
		{`\udbff\udfff`, "\U0010FFFF", "the last code point"},
		{`\ud800\udc00`, "\U00010000", "the first supplementary code point"},
		{`\ud800`, "\xed\xa0\x80", "a lone high surrogate: three WTF-8 bytes"},
		{`\udbff`, "\xed\xaf\xbf", "the last high surrogate"},
		{`\udc00`, "\xed\xb0\x80", "a lone low surrogate"},
		{`\udfff`, "\xed\xbf\xbf", "the last low surrogate"},
		{`\udc00\ud800`, "\xed\xb0\x80\xed\xa0\x80", "low then high is not a pair"},
		{`\ud800\u0041`, "\xed\xa0\x80A", "high followed by a non-surrogate escape"},
		{`\ud800\ud800`, "\xed\xa0\x80\xed\xa0\x80", "high followed by high"},
		{`\ud800\ud800\udc00`, "\xed\xa0\x80\U00010000", "a lone high, then a pair"},
		{`\ud800x`, "\xed\xa0\x80x", "high followed by text"},
		{`\ud800\n`, "\xed\xa0\x80\n", "high followed by a short escape"},
		{`\ud800\\udc00`, "\xed\xa0\x80\\udc00", "an escaped backslash is not the start of \\u"},
		{`x\ud800`, "x\xed\xa0\x80", "high at the end"},
		{"é\\n", "é\n", "raw UTF-8 kept"},
		{"\xff\\n", "\xff\n", "raw invalid bytes kept as they are"},
		{`\ufffd`, "\ufffd", "U+FFFD is an ordinary code point"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		if end, _, fault := ScanString(`"`+r.in+`"`, 0); fault != OK || end != len(r.in)+2 {
			t.Fatalf("ScanString refuses %q: bad row", r.in)
		}
		if got := Unescape(r.in); got != r.want {
			t.Errorf("Unescape(%q) = %q, want %q", r.in, got, r.want)
		}
		checkUnescape(t, r.in)
	})
}

// TestFirstInvalid: the first lone surrogate escape or invalid byte, and
// none in a valid value; Unescape of what precedes it is valid.
func TestFirstInvalid(t *testing.T) {
	type row struct {
		s        string
		at, size int
		ok       bool
		reason   string
	}
	testutil.Run(t, []row{
		{`abc`, 0, 0, false, "plain"},
		{`a\ud83d\ude00b`, 0, 0, false, "a surrogate pair"},
		{`\ud800`, 0, 6, true, "a lone high surrogate"},
		{`ab\uDC00`, 2, 6, true, "a lone low surrogate, upper-case hex"},
		{`\ud800\u0041`, 0, 6, true, "a high surrogate followed by another escape"},
		{`\ud800\ud800\udc00`, 0, 6, true, "the first of two highs is lone"},
		{`\\ud800`, 0, 0, false, "an escaped backslash, then text"},
		{"é\xff", 2, 1, true, "an invalid byte after a two-byte character"},
		{"\xed\xa0\x80", 0, 1, true, "an encoded surrogate is invalid UTF-8"},
		{`\n\u00e9` + "\xc3", 8, 1, true, "a truncated sequence at the end"},
	}, func(t *testing.T, r row) {
		at, size, ok := FirstInvalid(r.s)
		if at != r.at || size != r.size || ok != r.ok {
			t.Errorf("FirstInvalid(%q) = %d, %d, %v; want %d, %d, %v", r.s, at, size, ok, r.at, r.size, r.ok)
		}
		if v := Unescape(r.s[:at]); !utf8.ValidString(v) {
			t.Errorf("the value before the fault, %q, is not valid", v)
		}
		if ok == utf8.ValidString(Unescape(r.s)) {
			t.Errorf("ok %v, but the value's validity is %v", ok, !ok)
		}
	})
}

// BenchmarkAppendString writes an output document as a string, as an MCP
// tools/call answer's text is written: a quote every few bytes.
func BenchmarkAppendString(b *testing.B) {
	doc := `{"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/source/0","expected":"2","actual":"1"},` +
		`"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}`
	buf := make([]byte, 0, 2*len(doc))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		buf = AppendString(buf[:0], doc)
	}
}
