package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// BenchmarkScaling: CheckEquality over the same mixed scalars as
// BenchmarkEquality at 10^4, 10^5 and 10^6 items, with the limits raised to
// the length: given as []any (claimcheck) and as []canon.Scalar
// (claimcheck-scalar-input). ns/item is per element of both arrays; the
// allocations at 10^5 are those of a check in steady state (b.Loop's first
// calls warm the pools up).
func BenchmarkScaling(b *testing.B) {
	for _, n := range scalingSizes {
		source, claim := equalityInput(n)
		lim := multiset.Limits{MaxItems: n, MaxDistinct: n}
		in := multiset.EqualityInput[any, any]{Source: source, Claim: claim}
		scalars := multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: toScalars(source), Claim: toScalars(claim)}
		peers := []struct {
			name string
			run  func() bool
		}{
			{"claimcheck", func() bool {
				res, err := multiset.CheckEquality(in, lim)
				return err == nil && res.Valid
			}},
			{"claimcheck-scalar-input", func() bool {
				res, err := multiset.CheckEquality(scalars, lim)
				return err == nil && res.Valid
			}},
		}
		for _, p := range peers {
			if !p.run() {
				b.Fatalf("%d/%s: not equal", n, p.name)
			}
			b.Run(strconv.Itoa(n)+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/item")
			})
		}
	}
}

// distinctInts returns n distinct ints in a seeded order and a seeded
// shuffle of them.
func distinctInts(n int) (source, claim []int) {
	r := rand.New(rand.NewPCG(21, 1))
	source = make([]int, n)
	for i := range source {
		source[i] = i*7919 + 13
	}
	r.Shuffle(n, func(i, j int) { source[i], source[j] = source[j], source[i] })
	claim = append([]int(nil), source...)
	r.Shuffle(n, func(i, j int) { claim[i], claim[j] = claim[j], claim[i] })
	return source, claim
}

// countInts is what a Go programmer writes: a map[int]int count.
func countInts(source, claim []int) bool {
	counts := map[int]int{}
	for _, x := range source {
		counts[x]++
	}
	for _, x := range claim {
		counts[x]--
	}
	for _, c := range counts {
		if c != 0 {
			return false
		}
	}
	return true
}

// BenchmarkMemory: 10^6 distinct ints and their shuffle, CheckEquality over
// []int against a map[int]int count: B/op is the memory a check allocates.
func BenchmarkMemory(b *testing.B) {
	const n = 1000000
	source, claim := distinctInts(n)
	in := multiset.EqualityInput[int, int]{Source: source, Claim: claim}
	lim := multiset.Limits{MaxItems: n, MaxDistinct: n}
	peers := []struct {
		name string
		run  func() bool
	}{
		{"claimcheck-int", func() bool {
			res, err := multiset.CheckEquality(in, lim)
			return err == nil && res.Valid
		}},
		{"map-int", func() bool { return countInts(source, claim) }},
	}
	for _, p := range peers {
		if !p.run() {
			b.Fatalf("%s: not equal", p.name)
		}
		b.Run(strconv.Itoa(n)+"/"+p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.run()
			}
		})
	}
}

// peakRSSEnv selects TestPeakRSS's measurement: "Scaling/N/PEER" or
// "Memory/1000000/PEER", a row of the benchmarks above, or the same with
// PEER "input-only" (the input built, nothing checked: the baseline).
const peakRSSEnv = "CLAIMCHECK_PEAK_RSS"

// TestPeakRSS measures one row's peak resident memory in a process of its
// own (bench/run.sh starts one per row): it builds the row's input, returns
// what making it left to the system, resets the peak, runs its check three
// times and prints
//
//	BenchmarkROW peak-RSS-kB N
//
// N being the process's VmHWM from /proc/self/status: the peak while
// checking, the resident input included.
func TestPeakRSS(t *testing.T) {
	row := os.Getenv(peakRSSEnv)
	if row == "" {
		t.Skip(peakRSSEnv + " not set")
	}
	parts := strings.Split(row, "/")
	if len(parts) != 3 {
		t.Fatalf("%s=%q: want GROUP/N/PEER", peakRSSEnv, row)
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	lim := multiset.Limits{MaxItems: n, MaxDistinct: n}
	var run func() bool
	switch group, peer := parts[0], parts[2]; {
	case group == "Memory":
		source, claim := distinctInts(n)
		in := multiset.EqualityInput[int, int]{Source: source, Claim: claim}
		run = map[string]func() bool{
			"claimcheck-int": func() bool { res, err := multiset.CheckEquality(in, lim); return err == nil && res.Valid },
			"map-int":        func() bool { return countInts(source, claim) },
			"input-only":     func() bool { return len(source) == len(claim) },
		}[peer]
	case group == "Scaling" && peer == "claimcheck-scalar-input":
		source, claim := equalityInput(n)
		in := multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: toScalars(source), Claim: toScalars(claim)}
		run = func() bool { res, err := multiset.CheckEquality(in, lim); return err == nil && res.Valid }
	case group == "Scaling":
		source, claim := equalityInput(n)
		in := multiset.EqualityInput[any, any]{Source: source, Claim: claim}
		run = map[string]func() bool{
			"claimcheck": func() bool { res, err := multiset.CheckEquality(in, lim); return err == nil && res.Valid },
			"input-only": func() bool { return len(in.Source) == len(in.Claim) },
		}[peer]
	}
	if run == nil {
		t.Fatalf("%s=%q: no such row", peakRSSEnv, row)
	}
	// The peak from here on: the input resident, the rest of its making
	// returned to the system (Linux: "5" into clear_refs resets VmHWM).
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("the peak includes making the input: %v", err)
	}
	for range 3 {
		if !run() {
			t.Fatalf("%s: not equal", row)
		}
	}
	kb, err := vmHWM()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("Benchmark%s peak-RSS-kB %d\n", row, kb)
}

// vmHWM reads the process's peak resident set size, in kB.
func vmHWM() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}
