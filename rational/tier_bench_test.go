package rational

import (
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tierSets are the combinations of tiers the tests and benchmarks try;
// the first is the package's.
var tierSets = []struct {
	name string
	set  tierSet
}{
	{"all", tier64 | tier128 | tierLazySum},
	{"no64", tier128 | tierLazySum},
	{"no128", tier64 | tierLazySum},
	{"noLazySum", tier64 | tier128},
	{"none", 0},
}

// withTiers runs f with the word tiers set to set.
func withTiers(set tierSet, f func()) {
	saved := tiers
	defer func() { tiers = saved }()
	tiers = set
	f()
}

// harmonic returns "1 + 1/2 + ... + 1/n", whose partial sums have
// denominators lcm(1..k): below 2^64 up to k = 43, below 2^128 up to k = 88.
func harmonic(n int) string {
	var b strings.Builder
	b.WriteString("1")
	for k := 2; k <= n; k++ {
		b.WriteString(" + 1/" + strconv.Itoa(k))
	}
	return b.String()
}

var tierCases = []struct{ name, expr string }{
	{"Seed", "1 + 1/2 + 1/3 + 1/4"},
	{"Small1024", small1024()},
	{"H10", harmonic(10)},
	{"H60", harmonic(60)},
	{"H100", harmonic(100)},
	{"BigSum", bigSum()},
	{"Digits500", digits500()},
}

// bigSum is 1/(1*F) + 1/(2*F) + ... + 1/(70*F) for a 41-digit F: a sum past
// 128 bits whose denominators share F, within the default limits.
func bigSum() string {
	f := new(big.Int).Exp(big.NewInt(7), big.NewInt(48), nil).String()
	var b strings.Builder
	b.WriteString("1/(1*" + f + ")")
	for k := 2; k <= 70; k++ {
		b.WriteString(" + 1/(" + strconv.Itoa(k) + "*" + f + ")")
	}
	return b.String()
}

// small1024 is 1,024 tokens of one-digit integers and all four operators:
// 511 operations on small values.
func small1024() string {
	var b strings.Builder
	b.WriteString("1")
	for i := 1; i < 512; i++ {
		b.WriteByte("+*-/"[i%4])
		b.WriteByte(byte('1' + i%9))
	}
	return b.String()
}

// digits500 is A/B*B/A + C/D*D/C of 500-digit literals.
func digits500() string {
	lit := func(d byte, last byte) string { return strings.Repeat(string(d), 499) + string(last) }
	a, b, c, d := lit('9', '7'), lit('8', '3'), lit('7', '9'), lit('6', '1')
	return a + "/" + b + "*" + b + "/" + a + "+" + c + "/" + d + "*" + d + "/" + c
}

// BenchmarkTiers runs CheckRational with each set of word tiers, to show
// what each tier earns: compare the lines of one case within one run. Next
// to ns/op it reports cpu-ns/op, the process's CPU time per check (where
// the system gives it), which other processes on a busy machine disturb
// less.
func BenchmarkTiers(b *testing.B) {
	// Warm up first, so that the first line is not the only one to pay for
	// a cold process.
	for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
		CheckRational(Input{Expression: tierCases[1].expr, ClaimedValue: "0"}, Limits{})
	}
	for _, c := range tierCases {
		res, err := CheckRational(Input{Expression: c.expr, ClaimedValue: "0"}, Limits{})
		if err != nil || res.Value == nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		in := Input{Expression: c.expr, ClaimedValue: res.Value.String(), RequireCanonical: true}
		for _, ts := range tierSets {
			b.Run(c.name+"/tiers="+ts.name, func(b *testing.B) {
				withTiers(ts.set, func() {
					b.ReportAllocs()
					cpu := cpuTime()
					for b.Loop() {
						if res, err := CheckRational(in, Limits{}); err != nil || !res.Valid {
							b.Fatal(c.name, err)
						}
					}
					if cpu := cpuTime() - cpu; cpu > 0 {
						b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
					}
				})
			})
		}
	}
}
