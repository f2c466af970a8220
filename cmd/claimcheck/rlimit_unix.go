//go:build unix

package main

import (
	"syscall"

	"github.com/claimcheck/claimcheck/internal/connlimit"
)

// defaultMaxConnections is the most connections the file-descriptor limit
// (which the Go runtime raises to the hard limit at start) leaves room
// for: the limit less connlimit's spares and what the process needs
// besides connections (the listener, stdio, the runtime's own), so that
// the server never fails to accept for want of a descriptor and /healthz
// and /readyz are always answered. -max-connections' default is at most
// this.
func defaultMaxConnections() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur == 0 {
		return 1024
	}
	n := r.Cur
	if n > 1<<20 {
		n = 1 << 20 // "unlimited"
	}
	if n <= 128 {
		return max(int(n)/2, 1)
	}
	return int(n) - 64 - connlimit.Spare
}
