package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
)

// TestConformance runs every conformance case of every tool through Execute.
func TestConformance(t *testing.T) {
	for _, tool := range schema.Tools() {
		t.Run(tool.ID, func(t *testing.T) {
			conformance.Run(t, tool.ID, func(t *testing.T, c conformance.Case) {
				out, err := schema.Execute(tool.ID, tool.Version, c.Input)
				conformance.Check(t, c, out.Doc, err)
				checkVerdict(t, out)
			})
		})
	}
}

// checkVerdict: an Output's Valid and Reason are its document's members.
func checkVerdict(t *testing.T, out schema.Output) {
	t.Helper()
	if out.Doc == nil {
		return
	}
	var doc struct {
		Valid  bool
		Reason *string
	}
	if err := json.Unmarshal(out.Doc, &doc); err != nil {
		t.Fatal(err)
	}
	reason := ""
	if doc.Reason != nil {
		reason = *doc.Reason
	}
	if out.Valid != doc.Valid || out.Reason != reason {
		t.Errorf("Output says valid=%v reason=%q; its document %s", out.Valid, out.Reason, out.Doc)
	}
}
