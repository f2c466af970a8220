package schema_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
)

// TestLimitsAreTheDescriptors: Execute uses each descriptor's limits, not
// the Go API's DefaultLimits variables, which a caller may change.
func TestLimitsAreTheDescriptors(t *testing.T) {
	savedR, savedM := rational.DefaultLimits, multiset.DefaultLimits
	t.Cleanup(func() { rational.DefaultLimits, multiset.DefaultLimits = savedR, savedM })
	rational.DefaultLimits = rational.Limits{MaxTokens: 2}
	multiset.DefaultLimits = multiset.Limits{MaxItems: 1, MaxDistinct: 1}
	type row struct{ tool, doc, reason string }
	testutil.Run(t, []row{
		{schema.RationalExpression, `{"expression":"1 + 2 + 3","claimed_value":"6","require_canonical":true}`, "5 tokens under max_tokens 1024"},
		{schema.MultisetEquality, `{"source":[1,2,3],"claim":[3,2,1]}`, "3 items under max_items 10000"},
		{schema.MultisetDifference, `{"left":[1,2],"right":[2],"claim":{"left_only":[1],"right_only":[]}}`, "2 items under max_items 10000"},
	}, func(t *testing.T, tc row) {
		if _, err := schema.Execute(tc.tool, "", []byte(tc.doc)); err != nil {
			t.Errorf("%s: %v", tc.tool, err)
		}
	})
}
