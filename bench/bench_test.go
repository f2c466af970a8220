package bench

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/minio/simdjson-go"
	"github.com/stretchr/testify/assert"
)

// discardT is a testify TestingT that drops failures.
type discardT struct{}

func (discardT) Errorf(string, ...any) {}

var sizes = []int{100, 1000, 10000}

// lessAny orders mixed scalars for cmpopts.SortSlices: by type, then value.
func lessAny(a, b any) bool {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return ra < rb
	}
	switch a := a.(type) {
	case bool:
		return !a && b.(bool)
	case float64:
		return a < b.(float64)
	case string:
		return a < b.(string)
	}
	return false
}

func rank(x any) int {
	switch x.(type) {
	case nil:
		return 0
	case bool:
		return 1
	case float64:
		return 2
	}
	return 3
}

// BenchmarkEquality: is claim (a shuffled source) the same bag? Every
// sub-benchmark must answer true; the setup checks it once.
func BenchmarkEquality(b *testing.B) {
	for _, n := range sizes {
		source, claim := equalityInput(n)
		in := multiset.EqualityInput[any, any]{Source: source, Claim: claim}
		// The same values already in canonical form: the check without the
		// cost of reading []any, each value behind its own pointer.
		scalars := multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: toScalars(source), Claim: toScalars(claim)}
		name := strconv.Itoa(n)
		peers := []struct {
			name string
			run  func() bool
		}{
			{"claimcheck", func() bool {
				res, err := multiset.CheckEquality(in, multiset.Limits{})
				return err == nil && res.Valid
			}},
			{"claimcheck-scalar-input", func() bool {
				res, err := multiset.CheckEquality(scalars, multiset.Limits{})
				return err == nil && res.Valid
			}},
			{"map-any", func() bool { return countAny(source, claim) }},
			{"jcs-transform", func() bool { return countJCS(source, claim) }},
			{"go-cmp-sortslices", func() bool {
				return cmp.Equal(source, claim, cmpopts.SortSlices(lessAny))
			}},
			{"testify-elementsmatch", func() bool { return assert.ElementsMatch(discardT{}, source, claim) }},
		}
		for _, p := range peers {
			if !p.run() {
				b.Fatalf("%s/%s: not equal", name, p.name)
			}
			b.Run(name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/item")
			})
		}
	}
}

// BenchmarkDifference: left = source, right = a shuffled half of it with
// some values of its own; the claim is the true residuals.
func BenchmarkDifference(b *testing.B) {
	for _, n := range sizes {
		left := mixed(n, 1)
		right := append(shuffled(left, 2)[:n/2], mixed(n/2, 9)...)
		in := multiset.DifferenceInput[any, any]{Left: left, Right: right}
		// The expected residuals, by the naive model.
		in.Claim.LeftOnly, in.Claim.RightOnly = residuals(left, right), residuals(right, left)
		eq := multiset.EqualityInput[any, any]{Source: left, Claim: right}
		name := strconv.Itoa(n)
		peers := []struct {
			name string
			run  func() bool
		}{
			{"claimcheck", func() bool {
				res, err := multiset.CheckDifference(in, multiset.Limits{})
				return err == nil && res.Valid
			}},
			// CheckEquality on the same data, for the target of at most
			// 1.1x; it runs next to the difference check, before the
			// jcs-transform peer leaves its garbage to collect.
			{"claimcheck-equality-same-data", func() bool {
				res, err := multiset.CheckEquality(eq, multiset.Limits{})
				return err == nil && !res.Valid // right is not left reordered
			}},
			{"jcs-transform", func() bool {
				return differenceJCS(left, right, in.Claim.LeftOnly, in.Claim.RightOnly)
			}},
		}
		for _, p := range peers {
			if !p.run() {
				b.Fatalf("%s/%s: not the expected answer", name, p.name)
			}
			b.Run(name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.run()
				}
			})
		}
	}
}

// toScalars converts xs with canon.Of.
func toScalars(xs []any) []canon.Scalar {
	out := make([]canon.Scalar, len(xs))
	for i, x := range xs {
		s, err := canon.Of(x)
		if err != nil {
			panic(err)
		}
		out[i] = s
	}
	return out
}

// residuals is the naive model of one side of a bag difference.
func residuals(self, other []any) []any {
	rem := map[string]int{}
	for _, x := range other {
		rem[jcsKey(x)]++
	}
	out := []any{}
	for _, x := range self {
		if k := jcsKey(x); rem[k] > 0 {
			rem[k]--
			continue
		}
		out = append(out, x)
	}
	return out
}

// BenchmarkRational: claimcheck vs a big.Rat recursive-descent evaluator vs
// go/constant on the same expressions and true claims.
func BenchmarkRational(b *testing.B) {
	for _, c := range ratCases {
		claim := trueClaim(c.expr)
		in := rational.Input{Expression: c.expr, ClaimedValue: claim, RequireCanonical: true}
		peers := []struct {
			name string
			run  func() bool
		}{
			{"claimcheck", func() bool {
				res, err := rational.CheckRational(in, rational.Limits{})
				return err == nil && res.Valid
			}},
			{"big.Rat", func() bool {
				ok, err := ratCheck(c.expr, claim)
				return err == nil && ok
			}},
			{"go-constant", func() bool {
				ok, err := constantCheck(c.expr, claim)
				return err == nil && ok
			}},
		}
		for _, p := range peers {
			if !p.run() {
				b.Fatalf("%s/%s: not valid", c.name, p.name)
			}
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.run()
				}
			})
		}
	}
}

// BenchmarkExecute: the 10,000-item equality document, JSON in and JSON
// out, vs merely decoding the same bytes: leniently into any with
// encoding/json; into a struct of two []any with goccy/go-json and
// bytedance/sonic, alone and followed by the map[any]int count (what a
// hurried grader writes); and simdjson-go's parse alone (a tape, no Go
// values: the floor of reading the bytes at all).
func BenchmarkExecute(b *testing.B) {
	doc := equalityDoc(equalityInput(10000))
	run := func(name string, f func() error) {
		if err := f(); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run("10000/"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
			// The document's size, for the docs (ratios prints it).
			b.ReportMetric(float64(len(doc)), "doc-bytes")
		})
	}
	run("claimcheck-execute", func() error {
		_, err := schema.Execute(schema.MultisetEquality, "", doc)
		return err
	})
	run("encoding-json-unmarshal", func() error {
		var v any
		return json.Unmarshal(doc, &v)
	})
	for _, p := range decoders {
		run(p.name+"-decode", func() error {
			var v equalityDecoded
			return p.unmarshal(doc, &v)
		})
		run(p.name+"-decode-count", func() error {
			var v equalityDecoded
			if err := p.unmarshal(doc, &v); err != nil {
				return err
			}
			if !countAny(v.Source, v.Claim) {
				return errNotEqual
			}
			return nil
		})
	}
	if simdjson.SupportedCPU() {
		var pj *simdjson.ParsedJson
		run("simdjson-go-parse", func() error {
			var err error
			pj, err = simdjson.Parse(doc, pj)
			return err
		})
	}
}
