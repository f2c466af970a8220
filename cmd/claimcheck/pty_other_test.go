//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "testing"

// testProgressTerminal needs a pseudo-terminal (pty_test.go), which this
// platform's tests do not open.
func testProgressTerminal(t *testing.T, _ string) {
	t.Skip("no pseudo-terminal on this platform")
}
