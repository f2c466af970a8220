package claimcheck_test

import (
	"errors"
	"fmt"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
)

// A grader checks three claims, one per tool, with the typed Go API.
func Example() {
	eq, _ := multiset.CheckEquality(multiset.EqualityInput{
		Source: []any{1, 2, 2, "x"},
		Claim:  []any{2, "x", 1.0, 2},
	})
	fmt.Println("same bag:", eq.Valid)

	diff, _ := multiset.CheckDifference(multiset.DifferenceInput{
		Left:  []any{"a", "b", "a"},
		Right: []any{"a"},
		Claim: multiset.DifferenceClaim{LeftOnly: []any{"a", "b"}},
	})
	fmt.Println("difference:", diff)

	r, _ := rational.CheckRational(rational.Input{
		Expression:       "1 + 1/2 + 1/3 + 1/4",
		ClaimedValue:     "25/12",
		RequireCanonical: true,
	}, rational.Limits{})
	fmt.Println("25/12:", r.Valid)
	// Output:
	// same bag: true
	// difference: claim.left_only[0] is "a"; expected "b" (at /left_only/0)
	// 25/12: true
}

// The same checks as JSON documents, as the CLI and the HTTP handler run them.
func Example_json() {
	out, _ := schema.Execute("multiset-equality-check", "1.0.0", []byte(`{"source":[1,1],"claim":[1]}`))
	fmt.Println(string(out))

	_, err := schema.Execute("multiset-equality-check", "1.0.0", []byte(`{"Source":[1,1],"claim":[1]}`))
	fmt.Println(err)
	// Output:
	// {"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/source/0","expected":"2","actual":"1"},"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
	// invalid_input at /Source: unknown member "Source"
}

// Every package returns the same error type; errors.As finds it whichever
// package's alias names it.
func Example_errors() {
	_, err := rational.CheckRational(rational.Input{Expression: "2 ^ 3", ClaimedValue: "8"}, rational.Limits{})
	var e *claimcheck.Error // the same type as *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Path, e.Position)
	}
	// Output:
	// invalid_input /expression 2
}
