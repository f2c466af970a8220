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

var (
	line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)
	// A peak RSS measured in a process of its own (TestPeakRSS).
	peakLine = regexp.MustCompile(`^(Benchmark\S+) peak-RSS-kB (\d+)$`)
)

type stats struct{ ns, bytes, allocs, docBytes, nsItem, peakKB []float64 }

// native reports whether a row is a native anchor's (bench/native): its
// peer is named native-MODE.
func native(name string) bool {
	return strings.HasPrefix(name[strings.LastIndexByte(name, '/')+1:], "native-")
}

// ownTable reports whether a row belongs to the scaling and memory table
// rather than the main one.
func ownTable(name string) bool {
	return strings.HasPrefix(name, "BenchmarkScaling/") || strings.HasPrefix(name, "BenchmarkMemory/")
}

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
	get := func(name string) *stats {
		st := all[name]
		if st == nil {
			st = &stats{}
			all[name] = st
			order = append(order, name)
		}
		return st
	}
	for sc.Scan() {
		if m := peakLine.FindStringSubmatch(sc.Text()); m != nil {
			kb, _ := strconv.ParseFloat(m[2], 64)
			get(m[1]).peakKB = append(get(m[1]).peakKB, kb)
			continue
		}
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		st := get(m[1])
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
			case "ns/item":
				st.nsItem = append(st.nsItem, v)
			case "peak-RSS-kB":
				st.peakKB = append(st.peakKB, v)
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
		if _, ok := base[g]; !ok && len(all[name].ns) > 0 && (peer == "claimcheck" || strings.HasPrefix(peer, "claimcheck-") || peer == "tiers=all") {
			base[g] = median(all[name].ns)
		}
	}
	printTable(order, all, base, group)
	printScaling(order, all, base, group)
	printNative(order, all, base, group)
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

// A target is claimcheck's row over the fastest of some peer rows, or, with
// no peers, the row's own value; by ns/op unless metric names another.
type target struct {
	what   string
	num    string   // the claimcheck row
	peers  []string // the faster of these is the denominator
	max    float64  // the ratio (or value) to stay at or under
	metric string   // "" (ns/op), "ns/item", "B/op" or "allocs/op"
}

// value is a row's median of t's metric, and whether it has one.
func (t target) value(st *stats) (float64, bool) {
	xs := map[string][]float64{"": st.ns, "ns/item": st.nsItem, "B/op": st.bytes, "allocs/op": st.allocs}[t.metric]
	return median(xs), len(xs) > 0
}

var targets = []target{
	{"Execute ÷ faster decode (goccy, sonic)", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/goccy-decode", "BenchmarkExecute/10000/sonic-decode"}, 1.0, ""},
	{"Execute ÷ faster decode + count", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/goccy-decode-count", "BenchmarkExecute/10000/sonic-decode-count"}, 0.5, ""},
	{"Execute ÷ simdjson-go parse (moonshot)", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/simdjson-go-parse"}, 1.0, ""},
	{"CheckEquality ÷ map[any]int count, 10,000", "BenchmarkEquality/10000/claimcheck",
		[]string{"BenchmarkEquality/10000/map-any"}, 0.5, ""},
	{"CheckEquality ÷ map[any]int count, 100", "BenchmarkEquality/100/claimcheck",
		[]string{"BenchmarkEquality/100/map-any"}, 1.0, ""},
	{"CheckDifference ÷ CheckEquality same data, 10,000", "BenchmarkDifference/10000/claimcheck",
		[]string{"BenchmarkDifference/10000/claimcheck-equality-same-data"}, 1.1, ""},
	{"CheckDifference ÷ CheckEquality same data, 1,000", "BenchmarkDifference/1000/claimcheck",
		[]string{"BenchmarkDifference/1000/claimcheck-equality-same-data"}, 1.1, ""},
}

// The targets against the native anchors (bench/native) and at scale.
var nativeTargets = []target{
	{"Execute ÷ C++ On-Demand + absl::flat_hash_map", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/native-od-absl"}, 1.0, ""},
	{"Execute ÷ the fastest C++ Execute anchor", "BenchmarkExecute/10000/claimcheck-execute",
		[]string{"BenchmarkExecute/10000/native-od-absl", "BenchmarkExecute/10000/native-od-oa", "BenchmarkExecute/10000/native-od-oa-batch"}, 1.5, ""},
	{"CheckEquality []canon.Scalar ÷ C++ open addressing, 10^4", "BenchmarkScaling/10000/claimcheck-scalar-input",
		[]string{"BenchmarkScaling/10000/native-count-oa"}, 1.25, ""},
	{"CheckEquality []any ÷ C++ open addressing, 10^4", "BenchmarkScaling/10000/claimcheck",
		[]string{"BenchmarkScaling/10000/native-count-oa"}, 1.6, ""},
	{"ns/item []canon.Scalar, 10^6 ÷ 10^4", "BenchmarkScaling/1000000/claimcheck-scalar-input",
		[]string{"BenchmarkScaling/10000/claimcheck-scalar-input"}, 2, "ns/item"},
	{"ns/item []any, 10^6 ÷ 10^4", "BenchmarkScaling/1000000/claimcheck",
		[]string{"BenchmarkScaling/10000/claimcheck"}, 2, "ns/item"},
	{"CheckEquality []canon.Scalar ÷ C++ OA + prefetch, 10^6", "BenchmarkScaling/1000000/claimcheck-scalar-input",
		[]string{"BenchmarkScaling/1000000/native-count-oa-batch"}, 2, ""},
	{"memory, 10^6 distinct ints ÷ map[int]int count (B/op)", "BenchmarkMemory/1000000/claimcheck-int",
		[]string{"BenchmarkMemory/1000000/map-int"}, 1.2, "B/op"},
	{"allocations per check, []canon.Scalar, 10^5", "BenchmarkScaling/100000/claimcheck-scalar-input", nil, 0, "allocs/op"},
	{"allocations per check, []any, 10^5", "BenchmarkScaling/100000/claimcheck", nil, 0, "allocs/op"},
	{"CheckRational seed ÷ C int64 tier + GMP", "BenchmarkRational/seed/claimcheck",
		[]string{"BenchmarkRational/seed/native-tier"}, 2, ""},
	{"CheckRational H(10) ÷ C int64 tier + GMP", "BenchmarkRational/H10/claimcheck",
		[]string{"BenchmarkRational/H10/native-tier"}, 2, ""},
	{"CheckRational H(100) ÷ C int64 tier + GMP", "BenchmarkRational/H100/claimcheck",
		[]string{"BenchmarkRational/H100/native-tier"}, 2, ""},
	{"CheckRational 500 digits ÷ C GMP (faster of mpq, lazy reduction)", "BenchmarkRational/500-digit/claimcheck",
		[]string{"BenchmarkRational/500-digit/native-mpq", "BenchmarkRational/500-digit/native-lazy"}, 2, ""},
}

func printTargets(all map[string]*stats) {
	printTargetTable(all, targets, "")
	printTargetTable(all, nativeTargets, "Targets against the native anchors and at scale:")
}

// printTargetTable prints the targets whose rows were measured.
func printTargetTable(all map[string]*stats, ts []target, title string) {
	header := false
	for _, t := range ts {
		n, ok := all[t.num]
		if !ok {
			continue
		}
		v, ok := t.value(n)
		if !ok {
			continue
		}
		den, from := 1.0, "—"
		if len(t.peers) > 0 {
			den, from = 0, ""
			for _, p := range t.peers {
				st, ok := all[p]
				if !ok {
					continue
				}
				if x, ok := t.value(st); ok && (from == "" || x < den) {
					den, from = x, strings.TrimPrefix(p, "Benchmark")
				}
			}
			if from == "" || den == 0 {
				continue
			}
			// A peer of the same group is named by its peer name alone.
			if g := from[:strings.LastIndexByte(from, '/')+1]; strings.HasPrefix(t.num, "Benchmark"+g) {
				from = from[len(g):]
			}
		}
		if !header {
			if title != "" {
				fmt.Printf("\n%s\n", title)
			}
			fmt.Printf("\n| target | ratio | over | at most | met |\n|---|---:|---|---:|---|\n")
			header = true
		}
		r := v / den
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
		if native(name) || ownTable(name) || len(st.ns) == 0 {
			continue
		}
		ratio := "—"
		if b := base[g]; b > 0 {
			ratio = fmt.Sprintf("%.2fx", median(st.ns)/b)
		}
		fmt.Printf("| %s | %s | %.0f | %.0f | %.0f | %s |\n", strings.TrimPrefix(g, "Benchmark"), peer,
			median(st.ns), median(st.bytes), median(st.allocs), ratio)
	}
}

// printScaling prints the Scaling and Memory rows, the Go ones and the count
// anchors': time per element of both arrays, allocations, and the peak RSS
// of a process that runs the row alone (input included).
func printScaling(order []string, all map[string]*stats, base map[string]float64, group func(string) (string, string)) {
	// The rows of a group together, groups in order of first appearance.
	var rows []string
	groups := map[string][]string{}
	for _, name := range order {
		if g, _ := group(name); ownTable(name) {
			if groups[g] == nil {
				rows = append(rows, g)
			}
			groups[g] = append(groups[g], name)
		}
	}
	var sorted []string
	for _, g := range rows {
		sorted = append(sorted, groups[g]...)
	}
	header := false
	for _, name := range sorted {
		if !header {
			fmt.Printf("\nScaling (CheckEquality, limits raised) and memory (10^6 distinct ints); peak RSS: a process running the row alone, input included; `input-only`: the input alone.\n\n")
			fmt.Printf("| benchmark | peer | ns/op | ns/item | B/op | allocs/op | peak RSS | time vs claimcheck |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
			header = true
		}
		g, peer := group(name)
		st := all[name]
		cell := func(xs []float64, f string) string {
			if len(xs) == 0 {
				return "—"
			}
			return fmt.Sprintf(f, median(xs))
		}
		ratio := "—"
		if b := base[g]; b > 0 && len(st.ns) > 0 {
			ratio = fmt.Sprintf("%.2fx", median(st.ns)/b)
		}
		peak := "—"
		if len(st.peakKB) > 0 {
			peak = fmt.Sprintf("%.1f MiB", median(st.peakKB)/1024)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", strings.TrimPrefix(g, "Benchmark"), peer,
			cell(st.ns, "%.0f"), cell(st.nsItem, "%.1f"), cell(st.bytes, "%.0f"), cell(st.allocs, "%.0f"), peak, ratio)
	}
}

// printNative prints the native anchors' rows outside the scaling table
// beside their group's claimcheck row.
func printNative(order []string, all map[string]*stats, base map[string]float64, group func(string) (string, string)) {
	header := false
	for _, name := range order {
		if !native(name) || ownTable(name) {
			continue
		}
		if !header {
			fmt.Printf("\nNative anchors (bench/native, g++/gcc -O3 -march=native), in the same rounds:\n\n")
			fmt.Printf("| benchmark | anchor | ns/op | claimcheck ns/op | claimcheck ÷ anchor |\n|---|---|---:|---:|---:|\n")
			header = true
		}
		g, peer := group(name)
		ns := median(all[name].ns)
		b, ratio := "—", "—"
		if base[g] > 0 {
			b, ratio = fmt.Sprintf("%.0f", base[g]), fmt.Sprintf("%.2f", base[g]/ns)
		}
		fmt.Printf("| %s | %s | %.0f | %s | %s |\n", strings.TrimPrefix(g, "Benchmark"), strings.TrimPrefix(peer, "native-"), ns, b, ratio)
	}
}
