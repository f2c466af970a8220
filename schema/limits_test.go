package schema_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
)

// TestLimitsAreTheDescriptors: what a zero Limits field stands for in the
// Go API (DefaultLimits) is each descriptor's limits, which Execute uses.
func TestLimitsAreTheDescriptors(t *testing.T) {
	limit := func(id, name string) int {
		tool, err := schema.Lookup(id, "")
		if err != nil {
			t.Fatal(err)
		}
		return tool.Limit(name)
	}
	for _, id := range []string{schema.MultisetEquality, schema.MultisetDifference} {
		want := multiset.Limits{MaxItems: limit(id, "max_items"), MaxDistinct: limit(id, "max_distinct")}
		if got := multiset.DefaultLimits(); got != want {
			t.Errorf("multiset.DefaultLimits() = %+v; %s's limits are %+v", got, id, want)
		}
	}
	id := schema.RationalExpression
	want := rational.Limits{
		MaxExpressionBytes: limit(id, "max_expression_bytes"),
		MaxTokens:          limit(id, "max_tokens"),
		MaxDepth:           limit(id, "max_depth"),
		MaxValueDigits:     limit(id, "max_value_digits"),
	}
	if got := rational.DefaultLimits(); got != want {
		t.Errorf("rational.DefaultLimits() = %+v; %s's limits are %+v", got, id, want)
	}
}
