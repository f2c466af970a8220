//go:build race

package testutil

// RaceEnabled reports that the race detector is on. Under it sync.Pool
// drops a quarter of what it is given, at random, so that what a pool
// saves (a reused table, pooled temporaries) cannot be measured.
const RaceEnabled = true
