package bench

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
)

// mixed returns n seeded scalars as encoding/json would decode them: about
// 40% integers, 20% doubles, 30% short strings, 10% null and booleans, with
// repeats, as graded answers have.
func mixed(n int, seed uint64) []any {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]any, n)
	for i := range out {
		switch k := r.IntN(10); {
		case k < 4:
			out[i] = float64(r.IntN(n))
		case k < 6:
			out[i] = float64(r.IntN(1e6)) / 64
		case k < 9:
			out[i] = "s" + strconv.Itoa(r.IntN(n))
		default:
			out[i] = [...]any{nil, true, false}[r.IntN(3)]
		}
	}
	return out
}

// equalityInput is the equality input of n items every benchmark and anchor
// times: n mixed scalars and a shuffle of them.
func equalityInput(n int) (source, claim []any) {
	source = mixed(n, 1)
	return source, shuffled(source, 2)
}

// shuffled returns a shuffled copy.
func shuffled(xs []any, seed uint64) []any {
	r := rand.New(rand.NewPCG(seed, 11))
	out := append([]any(nil), xs...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// equalityDoc is the JSON input document of multiset-equality-check.
func equalityDoc(source, claim []any) []byte {
	b, err := json.Marshal(map[string]any{"source": source, "claim": claim})
	if err != nil {
		panic(err)
	}
	return b
}

// harmonic returns "1 + 1/2 + ... + 1/n".
func harmonic(n int) string {
	var b strings.Builder
	b.WriteString("1")
	for i := 2; i <= n; i++ {
		b.WriteString(" + 1/")
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// bigLiterals returns an expression of 500-digit literals: the worst case
// of the digit limit, whose intermediates stay under it.
func bigLiterals() string {
	r := rand.New(rand.NewPCG(3, 5))
	lit := func() string {
		var b strings.Builder
		b.WriteByte(byte('1' + r.IntN(4))) // sums of two stay within 500 digits
		for i := 1; i < 500; i++ {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	// (a - b + c - d) / (e - f + g): sums of 500-digit numbers and one
	// quotient, reduced by a 500-digit GCD; no intermediate exceeds the limit.
	return "(" + lit() + " - " + lit() + " + " + lit() + " - " + lit() + ") / (" + lit() + " - " + lit() + " + " + lit() + ")"
}
