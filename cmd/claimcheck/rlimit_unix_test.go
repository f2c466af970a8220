//go:build unix

package main

import (
	"syscall"
	"testing"
)

// fileLimit raises the test process's file-descriptor limit to its hard
// limit (as the Go runtime does at start; said here, since a test that
// opens thousands of connections depends on it) and returns it.
func fileLimit(t *testing.T) uint64 {
	t.Helper()
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		t.Fatal(err)
	}
	r.Cur = r.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		t.Fatal(err)
	}
	return r.Cur
}
