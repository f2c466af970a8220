package jsontape

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// benchDoc returns a multiset-equality document of two arrays of n seeded
// scalars each: integers, short decimals, long doubles, short strings,
// null and booleans, as the tool documents hold.
func benchDoc(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	item := func() string {
		switch k := r.IntN(10); {
		case k < 4:
			return strconv.Itoa(r.IntN(n))
		case k < 5:
			return strconv.FormatFloat(float64(r.IntN(1e6))/64, 'g', -1, 64)
		case k < 6:
			return strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64)
		case k < 9:
			return `"s` + strconv.Itoa(r.IntN(n)) + `"`
		}
		return [...]string{"null", "true", "false"}[r.IntN(3)]
	}
	var b strings.Builder
	for k, name := range []string{"source", "claim"} {
		if k == 0 {
			b.WriteString(`{"`)
		} else {
			b.WriteString(`,"`)
		}
		b.WriteString(name + `":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item())
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	doc := benchDoc(10000)
	opt := Options{MaxDepth: 3, MaxChildren: 1 << 20, ArrayElems: true}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}
