package testutil

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// Main runs the tests of m and exits with their status, as a TestMain of
// os.Exit(m.Run()) does, but without the race detector's idle second at
// exit when it has nothing left to find. Every test package of the module
// has a TestMain that calls it.
//
// A binary built with -race sleeps a second before it exits (GORACE's
// atexit_sleep_ms, 1000 by default), so that goroutines still running can
// report a race; the tests' own races have been reported by then, and
// m.Run has failed for them. With one test binary per package, that
// second made `go test -race ./...` take 36 s on a 2-core machine, 26 s
// without it. Main skips it only where it cannot find anything: the tests
// passed, coverage is not being written, and no goroutine but the main one
// is left once those that are ending have ended (it waits up to 200 ms).
// Any other exit goes through os.Exit, the sleep included.
func Main(m *testing.M) {
	code := m.Run()
	if RaceEnabled && code == 0 && testing.CoverMode() == "" && settles(1, 200*time.Millisecond) {
		syscall.Exit(0)
	}
	os.Exit(code)
}

// settles reports whether at most n goroutines are left within d.
func settles(n int, d time.Duration) bool {
	for end := time.Now().Add(d); runtime.NumGoroutine() > n; {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}
