//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

// fdIsTerminal is false where the command does not know how to ask: batch
// then shows no progress line.
func fdIsTerminal(uintptr) bool { return false }
