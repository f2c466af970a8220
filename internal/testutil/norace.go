//go:build !race

package testutil

// RaceEnabled reports that the race detector is on (see race.go).
const RaceEnabled = false
