package jsonwire

import "testing"

func TestAppendPointerToken(t *testing.T) {
	if got := string(AppendPointerToken([]byte("/claim"), "a/b~c")); got != "/claim/a~1b~0c" {
		t.Errorf("got %s", got)
	}
	if got := string(AppendPointerToken(nil, "")); got != "/" {
		t.Errorf("empty name: got %q, want %q", got, "/")
	}
}
