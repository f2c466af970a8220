//go:build !unix

package main

import "testing"

// fileLimit is 0 where there is no file-descriptor limit to raise: the
// tests that need thousands of connections skip.
func fileLimit(*testing.T) uint64 { return 0 }
