package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

// jsonArray returns the JSON text of xs.
func jsonArray(tb testing.TB, xs []any) string {
	b, err := json.Marshal(xs)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// benchExecute runs Execute on doc, and json.Unmarshal of the same bytes
// into any as the floor (decoding alone, leniently), as sub-benchmarks.
func benchExecute(b *testing.B, tool string, doc []byte) {
	if _, err := docOf(schema.Execute(tool, "", doc)); err != nil {
		b.Fatal(err)
	}
	b.Run("Execute", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := docOf(schema.Execute(tool, "", doc)); err != nil {
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
	src := testutil.Scalars(10_000, 1)
	doc := `{"source":` + jsonArray(b, src) + `,"claim":` + jsonArray(b, testutil.Shuffled(src, 1)) + `}`
	benchExecute(b, schema.MultisetEquality, []byte(doc))
}

// BenchmarkExecuteDifference10k: 10,000 items left and right with their
// true residuals claimed.
func BenchmarkExecuteDifference10k(b *testing.B) {
	left, right := testutil.Scalars(10_000, 2), testutil.Scalars(10_000, 3)
	key := func(x any) string {
		k, err := canon.Key(x)
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	residual := func(a, other []any) []any {
		count := map[string]int{}
		for _, x := range other {
			count[key(x)]++
		}
		out := []any{}
		for _, x := range a {
			if k := key(x); count[k] > 0 {
				count[k]--
				continue
			}
			out = append(out, x)
		}
		return out
	}
	doc := `{"left":` + jsonArray(b, left) + `,"right":` + jsonArray(b, right) +
		`,"claim":{"left_only":` + jsonArray(b, residual(left, right)) + `,"right_only":` + jsonArray(b, residual(right, left)) + `}}`
	out, err := docOf(schema.Execute(schema.MultisetDifference, "", []byte(doc)))
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
