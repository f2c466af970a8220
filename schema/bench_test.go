package schema_test

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// benchItems returns n seeded scalars as JSON text: mostly integers, doubles
// and short strings, a few nulls and booleans, with repeats.
func benchItems(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]string, n)
	for i := range out {
		switch k := r.IntN(100); {
		case k < 40:
			out[i] = strconv.Itoa(r.IntN(1_000_000) - 500_000)
		case k < 70:
			out[i] = strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64)
		case k < 95:
			out[i] = `"s` + strconv.Itoa(r.IntN(5000)) + `"`
		case k < 97:
			out[i] = "null"
		default:
			out[i] = strconv.FormatBool(r.IntN(2) == 0)
		}
	}
	return out
}

func jsonArray(items []string) string {
	b := []byte{'['}
	for i, s := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s...)
	}
	return string(append(b, ']'))
}

func shuffled(items []string, seed uint64) []string {
	out := append([]string(nil), items...)
	rand.New(rand.NewPCG(seed, 2)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// benchExecute runs Execute on doc, and json.Unmarshal of the same bytes
// into any as the floor (decoding alone, leniently), as sub-benchmarks.
func benchExecute(b *testing.B, tool string, doc []byte) {
	if _, err := schema.Execute(tool, "", doc); err != nil {
		b.Fatal(err)
	}
	b.Run("Execute", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Execute(tool, "", doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(doc, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkExecuteEquality10k: a 10,000-item source and its shuffle.
func BenchmarkExecuteEquality10k(b *testing.B) {
	src := benchItems(10_000, 1)
	doc := `{"source":` + jsonArray(src) + `,"claim":` + jsonArray(shuffled(src, 1)) + `}`
	benchExecute(b, schema.MultisetEquality, []byte(doc))
}

// BenchmarkExecuteDifference10k: 10,000 items left and right with their
// true residuals claimed.
func BenchmarkExecuteDifference10k(b *testing.B) {
	left, right := benchItems(10_000, 2), benchItems(10_000, 3)
	residual := func(a, other []string) []string {
		count := map[string]int{}
		for _, s := range other {
			count[s]++
		}
		var out []string
		for _, s := range a {
			if count[s] > 0 {
				count[s]--
				continue
			}
			out = append(out, s)
		}
		return out
	}
	// The items are distinct JSON spellings of distinct values except for
	// repeats of the same text, so text identity is value identity here.
	doc := `{"left":` + jsonArray(left) + `,"right":` + jsonArray(right) +
		`,"claim":{"left_only":` + jsonArray(residual(left, right)) + `,"right_only":` + jsonArray(residual(right, left)) + `}}`
	out, err := schema.Execute(schema.MultisetDifference, "", []byte(doc))
	if err != nil || string(out[:13]) != `{"valid":true` {
		b.Fatalf("%s %v", out, err)
	}
	benchExecute(b, schema.MultisetDifference, []byte(doc))
}

// BenchmarkExecuteRationalSeed: the rational tool's first seed example.
func BenchmarkExecuteRationalSeed(b *testing.B) {
	tool, _ := schema.Lookup(schema.RationalExpression, "")
	benchExecute(b, schema.RationalExpression, tool.Examples[0].Input)
}
