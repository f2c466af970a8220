// Command ratios reads `go test -bench` output on stdin and prints, for each
// benchmark group, the median ns/op, B/op and allocs/op of every peer and its
// time as a multiple of claimcheck's, measured in the same run.
//
// A group is a benchmark name without its last element
// (BenchmarkEquality/10000); its claimcheck line is the peer whose name is
// "claimcheck" or starts with "claimcheck-" (the first such), or, for
// rational's BenchmarkTiers, "tiers=all" (the package's own tiers).
//
// It then prints the performance targets as ratios of medians from the same
// input: claimcheck's time over the faster of the named peers, beside the
// target. A target whose rows are missing (a -bench filter, a CPU that
// simdjson-go does not support) is skipped.
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)

type stats struct{ ns, bytes, allocs, docBytes []float64 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	var order []string
	all := map[string]*stats{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		st := all[m[1]]
		if st == nil {
			st = &stats{}
			all[m[1]] = st
			order = append(order, m[1])
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		st.ns = append(st.ns, ns)
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "B/op":
				st.bytes = append(st.bytes, v)
			case "allocs/op":
				st.allocs = append(st.allocs, v)
			case "doc-bytes":
				st.docBytes = append(st.docBytes, v)
			}
		}
	}
	base := map[string]float64{}
	group := func(name string) (string, string) {
		i := strings.LastIndexByte(name, '/')
		return name[:i], name[i+1:]
	}
	for _, name := range order {
		g, peer := group(name)
		if _, ok := base[g]; !ok && (peer == "claimcheck" || strings.HasPrefix(peer, "claimcheck-") || peer == "tiers=all") {
			base[g] = median(all[name].ns)
		}
	}
	printTable(order, all, base, group)
	printTargets(all)
	printSizes(order, all)
}

// printSizes prints the size of every input document a benchmark group
// reported (its doc-bytes metric), so that the docs quote measured sizes.
func printSizes(order []string, all map[string]*stats) {
	seen := map[string]bool{}
	for _, name := range order {
		st := all[name]
		g := name[:strings.LastIndexByte(name, '/')]
		if len(st.docBytes) == 0 || seen[g] {
			continue
		}
		if len(seen) == 0 {
			fmt.Println()
		}
		seen[g] = true
		fmt.Printf("%s's document: %s bytes.\n", strings.TrimPrefix(g, "Benchmark"), thousands(int64(median(st.docBytes))))
	}
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A target is claimcheck's row over the fastest of some peer rows.
type target struct {
	what  string
	num   string   // the claimcheck row
	peers []string // the faster of these is the denominator
	max   float64  // the ratio to stay at or under
}

var targets = []target{
	{"Execute ÷ faster decode (goccy, sonic)", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/goccy-decode", "BenchmarkExecute/10000/sonic-decode"}, 1.0},
	{"Execute ÷ faster decode + count", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/goccy-decode-count", "BenchmarkExecute/10000/sonic-decode-count"}, 0.5},
	{"Execute ÷ simdjson-go parse (moonshot)", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/simdjson-go-parse"}, 1.0},
	{"CheckEquality ÷ map[any]int count, 10,000", "BenchmarkEquality/10000/claimcheck",
		[]string{"BenchmarkEquality/10000/map-any"}, 0.5},
	{"CheckEquality ÷ map[any]int count, 100", "BenchmarkEquality/100/claimcheck",
		[]string{"BenchmarkEquality/100/map-any"}, 1.0},
	{"CheckDifference ÷ CheckEquality same data, 10,000", "BenchmarkDifference/10000/claimcheck",
		[]string{"BenchmarkDifference/10000/claimcheck-equality-same-data"}, 1.1},
	{"CheckDifference ÷ CheckEquality same data, 1,000", "BenchmarkDifference/1000/claimcheck",
		[]string{"BenchmarkDifference/1000/claimcheck-equality-same-data"}, 1.1},
}

func printTargets(all map[string]*stats) {
	header := false
	for _, t := range targets {
		n, ok := all[t.num]
		if !ok {
			continue
		}
		den, from := 0.0, ""
		for _, p := range t.peers {
			if st, ok := all[p]; ok && (from == "" || median(st.ns) < den) {
				den, from = median(st.ns), p[strings.LastIndexByte(p, '/')+1:]
			}
		}
		if from == "" || den == 0 {
			continue
		}
		if !header {
			fmt.Printf("\n| target | ratio | over | at most | met |\n|---|---:|---|---:|---|\n")
			header = true
		}
		r := median(n.ns) / den
		met := "yes"
		if r > t.max {
			met = "no"
		}
		fmt.Printf("| %s | %.2f | %s | %.2f | %s |\n", t.what, r, from, t.max, met)
	}
}

func printTable(order []string, all map[string]*stats, base map[string]float64, group func(string) (string, string)) {
	fmt.Printf("| benchmark | peer | ns/op | B/op | allocs/op | time vs claimcheck |\n|---|---|---:|---:|---:|---:|\n")
	for _, name := range order {
		g, peer := group(name)
		st := all[name]
		ratio := "—"
		if b := base[g]; b > 0 {
			ratio = fmt.Sprintf("%.2fx", median(st.ns)/b)
		}
		fmt.Printf("| %s | %s | %.0f | %.0f | %.0f | %s |\n", strings.TrimPrefix(g, "Benchmark"), peer,
			median(st.ns), median(st.bytes), median(st.allocs), ratio)
	}
}
