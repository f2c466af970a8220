// Command ratios reads `go test -bench` output on stdin and prints, for each
// benchmark group, the median ns/op, B/op and allocs/op of every peer and its
// time as a multiple of claimcheck's, measured in the same run.
//
// A group is a benchmark name without its last element
// (BenchmarkEquality/10000); its claimcheck line is the peer whose name is
// "claimcheck" or starts with "claimcheck-" (the first such).
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

type stats struct{ ns, bytes, allocs []float64 }

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
		if _, ok := base[g]; !ok && (peer == "claimcheck" || strings.HasPrefix(peer, "claimcheck-")) {
			base[g] = median(all[name].ns)
		}
	}
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
