//go:build race

package multiset_test

// raceEnabled: the race detector is on. Under it sync.Pool drops a
// quarter of what it is given, at random, so a pooled table's reuse
// cannot be measured.
const raceEnabled = true
