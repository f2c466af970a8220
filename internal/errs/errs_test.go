package errs

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestAppendString(t *testing.T) {
	for _, tc := range []struct {
		in, want, reason string
	}{
		{"plain", `"plain"`, "nothing to escape"},
		{"a\"b\\c", `"a\"b\\c"`, "quote and backslash escaped"},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`, "short escapes"},
		{"\x00\x1f", `"\u0000\u001f"`, "other controls as lower-case \\u00xx"},
		{"/\x7f\u2028é😀", "\"/\x7f\u2028é😀\"", "everything else literal"},
		{"a\xffb", "\"a\ufffdb\"", "an invalid byte in a message becomes U+FFFD"},
		{"\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\"", "a surrogate's three bytes are three invalid bytes"},
	} {
		if tc.reason == "" {
			t.Fatal("row without a reason")
		}
		if got := string(AppendString([]byte("x"), tc.in)); got != "x"+tc.want {
			t.Errorf("%s: AppendString(%q) = %s, want %s", tc.reason, tc.in, got[1:], tc.want)
		}
	}
}

func TestAppendPointerToken(t *testing.T) {
	if got := string(AppendPointerToken([]byte("/claim"), "a/b~c")); got != "/claim/a~1b~0c" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendPointerToken(nil, "")); got != "/" {
		t.Errorf("empty name: got %q, want %q", got, "/")
	}
}

func TestErrorForms(t *testing.T) {
	for _, tc := range []struct {
		err       *Error
		doc, text string
		is        error
		reason    string
	}{
		{Invalid("", "bad"), `{"error":{"code":"invalid_input","path":"","message":"bad"}}`,
			"invalid_input at the document root: bad", ErrInvalidInput, "no position, no limit"},
		{InvalidAt("/expression", 4, "unexpected character 'a'"),
			`{"error":{"code":"invalid_input","path":"/expression","position":4,"message":"unexpected character 'a'"}}`,
			"invalid_input at /expression, position 4: unexpected character 'a'", ErrInvalidInput, "the contract's example"},
		{Limit("/source", "max_items", "too many"), `{"error":{"code":"limit_exceeded","path":"/source","limit":"max_items","message":"too many"}}`,
			"limit_exceeded at /source (max_items): too many", ErrLimitExceeded, "limit, no position"},
		{LimitAt("/expression", 0, "max_tokens", "x"), `{"error":{"code":"limit_exceeded","path":"/expression","position":0,"limit":"max_tokens","message":"x"}}`,
			"limit_exceeded at /expression, position 0 (max_tokens): x", ErrLimitExceeded, "position 0 is a position"},
		{&Error{Code: UnknownTool, Position: NoPosition, Message: "no tool x"}, `{"error":{"code":"unknown_tool","path":"","message":"no tool x"}}`,
			"unknown_tool at the document root: no tool x", ErrUnknownTool, "unknown tool"},
	} {
		if tc.reason == "" {
			t.Fatal("row without a reason")
		}
		b, err := json.Marshal(tc.err)
		if err != nil || string(b) != tc.doc {
			t.Errorf("%s: json.Marshal = %s, %v; want %s", tc.reason, b, err, tc.doc)
		}
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("%s: Error() = %q, want %q", tc.reason, got, tc.text)
		}
		var wrapped error = tc.err
		if !errors.Is(wrapped, tc.is) {
			t.Errorf("%s: errors.Is(err, %v) = false", tc.reason, tc.is)
		}
		for _, other := range []error{ErrInvalidInput, ErrLimitExceeded, ErrUnknownTool} {
			if other != tc.is && errors.Is(wrapped, other) {
				t.Errorf("%s: errors.Is(err, %v) = true", tc.reason, other)
			}
		}
	}
}
