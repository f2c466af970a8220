package jsonw

import (
	"testing"

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

func TestAppendPointerToken(t *testing.T) {
	if got := string(AppendPointerToken([]byte("/claim"), "a/b~c")); got != "/claim/a~1b~0c" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendPointerToken(nil, "")); got != "/" {
		t.Errorf("empty name: got %q, want %q", got, "/")
	}
}
