package bag

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestKeyPathsAgree: the engine keys an element by a different loop for
// each form an array comes in ([]canon.Scalar in the fused loops or
// scalarKeysAt, []any in anyKeysRun or through scalar.AnyKey and
// canon.Of, a document's elements from the tape or converted, a Fill
// converter), and by other loops again once the table is large (past
// touchSlotsMin slots). A value must get the same key in all of them: a
// source in one form and its shuffle in another are equal, in every
// pairing below that table size and above it (there, in the normal run,
// each form with the next), and a claim with true in place of the number
// 1 (the same key word in a Scalar, another tag) is not. A value of a
// named boolean type is the boolean.
func TestKeyPathsAgree(t *testing.T) {
	// A named boolean is keyed through canon.Of and setScalar, not
	// scalar.AnyKey's case.
	type flag bool
	vals := []any{nil, true, false, flag(true), flag(false), 0.0, 1.0, -1.0, 0.5, 1e300, ""}
	for n := 1; n <= 20; n++ {
		vals = append(vals, strings.Repeat("é", n/2)+strings.Repeat("x", n%2), strings.Repeat("s", n), "tab\t"[:min(n, 4)])
	}
	type row struct {
		n      int
		reason string
	}
	testutil.Run(t, []row{
		{300, "a small table: the fused loops of each form"},
		{100000, "a table past touchSlotsMin: the keys made a batch ahead, then probed"},
	}, func(t *testing.T, r row) {
		rng := rand.New(rand.NewPCG(uint64(r.n), 5))
		src := make([]any, r.n)
		for i := range src {
			if i < len(vals) || rng.IntN(2) == 0 {
				src[i] = vals[i%len(vals)]
			} else if rng.IntN(2) == 0 {
				src[i] = float64(i)
			} else {
				src[i] = "s" + strconv.Itoa(i)
			}
		}
		claim := append([]any(nil), src...)
		rng.Shuffle(len(claim), func(i, j int) { claim[i], claim[j] = claim[j], claim[i] })
		bad := append([]any(nil), claim...)
		for i, x := range bad {
			if x == true { // the first true, not a flag(true)
				bad[i] = 1.0
				break
			}
		}
		lim := Limits{MaxItems: r.n, MaxDistinct: r.n}
		claims, bads := forms(t, claim), forms(t, bad)
		// Every pairing, but in the normal run a large table's only each
		// form with the next: each form's keys as source and as claim.
		all := r.n < touchSlotsMin || testutil.Long()
		for si, sf := range forms(t, src) {
			for ci, cf := range claims {
				if !all && ci != (si+1)%len(claims) {
					continue
				}
				tally, err := Equality(lim, sf.array("/source"), cf.array("/claim"))
				if err != nil || tally.Len() != 0 {
					t.Fatalf("%s source, %s claim: %v, %d mismatches (first %+v)", sf.name, cf.name, err, tally.Len(), tally.First())
				}
			}
			for ci, cf := range bads {
				if !all && ci != (si+1)%len(bads) {
					continue
				}
				tally, err := Equality(lim, sf.array("/source"), cf.array("/claim"))
				if err != nil || tally.Len() != 2 {
					t.Fatalf("%s source, %s claim with 1 for a true: %v, %d mismatches, want 2 (true and the number 1)", sf.name, cf.name, err, tally.Len())
				}
			}
		}
	})
}

// A form is one way of giving the engine an array.
type form struct {
	name  string
	array func(path string) *Array
}

func forms(t *testing.T, xs []any) []form {
	ss := make([]canon.Scalar, len(xs))
	for i, x := range xs {
		s, err := canon.Of(x)
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	text, err := json.Marshal(xs)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsontape.Parse(string(text), jsontape.Options{MaxDepth: 1, MaxChildren: len(xs) + 1, ArrayElems: true})
	if err != nil {
		t.Fatal(err)
	}
	elems := doc.ArrayElems(0)
	return []form{
		{"[]canon.Scalar", func(p string) *Array { return &Array{Path: p, N: len(ss), Scalars: ss} }},
		{"[]any", func(p string) *Array { return &Array{Path: p, N: len(xs), Go: GoSlice{Any: xs}} }},
		{"document", func(p string) *Array { return &Array{Path: p, N: len(elems), Elems: elems} }},
		{"Fill", func(p string) *Array {
			return &Array{Path: p, N: len(ss), Fill: func(i int, dst []canon.Scalar) error { copy(dst, ss[i:]); return nil }}
		}},
	}
}
