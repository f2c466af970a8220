package schema_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
)

// TestConformance runs every conformance case of every tool through Execute.
func TestConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			conformance.Run(t, tool.ID, func(t *testing.T, c conformance.Case) {
				out, err := docOf(schema.Execute(tool.ID, tool.Version, c.Input))
				conformance.Check(t, c, out, err)
			})
		})
	}
}
