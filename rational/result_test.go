package rational_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/claimcheck/claimcheck/rational"
)

// TestDiscrepancyMarshalsToWireForm: json.Marshal of a Discrepancy is the
// first_discrepancy member of the output document.
func TestDiscrepancyMarshalsToWireForm(t *testing.T) {
	for _, in := range []rational.Input{
		{Expression: "1/3 - 1/2", ClaimedValue: "1/6"},
		{Expression: "1/(2-2) + 1", ClaimedValue: "1"},
		{Expression: "1/2", ClaimedValue: "2/4", RequireCanonical: true},
	} {
		res, err := rational.CheckRational(in, rational.Limits{})
		if err != nil || res.FirstDiscrepancy == nil {
			t.Fatalf("%+v: %v, %v", in, res, err)
		}
		var doc struct {
			FirstDiscrepancy json.RawMessage `json:"first_discrepancy"`
		}
		out, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(res.FirstDiscrepancy)
		if err != nil || string(got) != string(doc.FirstDiscrepancy) {
			t.Errorf("%+v: json.Marshal(discrepancy) = %s, want %s", in, got, doc.FirstDiscrepancy)
		}
	}
}

// TestResultString: "valid" for a valid result, else the Err message.
func TestResultString(t *testing.T) {
	ok, _ := rational.CheckRational(rational.Input{Expression: "1/2 + 1/2", ClaimedValue: "1"}, rational.Limits{})
	bad, _ := rational.CheckRational(rational.Input{Expression: "1/2 + 1/2", ClaimedValue: "2"}, rational.Limits{})
	if ok.String() != "valid" {
		t.Errorf("valid result: String() = %q", ok.String())
	}
	if bad.String() != bad.Err().Error() || !errors.Is(bad.Err(), rational.ErrRejected) {
		t.Errorf("mismatch: String() = %q, Err() = %v", bad.String(), bad.Err())
	}
}
