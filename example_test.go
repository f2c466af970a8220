package claimcheck_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
)

// A grader checks three claims, one per tool, with the typed Go API.
func Example() {
	eq, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{
		Source: []any{1, 2, 2, "x"},
		Claim:  []any{2, "x", 1.0, 2},
	}, multiset.Limits{})
	fmt.Println("same bag:", eq.Valid)

	diff, _ := multiset.CheckDifference(multiset.DifferenceInput[string, string]{
		Left:  []string{"a", "b", "a"},
		Right: []string{"a"},
		Claim: multiset.DifferenceClaim[string]{LeftOnly: []string{"a", "b"}},
	}, multiset.Limits{})
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
	fmt.Println("valid:", out.Valid, out.Reason)
	fmt.Println(string(out.Doc))

	_, err := schema.Execute("multiset-equality-check", "1.0.0", []byte(`{"Source":[1,1],"claim":[1]}`))
	fmt.Println(err)
	// Output:
	// valid: false claim_mismatch
	// {"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/source/0","expected":"2","actual":"1"},"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
	// invalid_input at /Source: unknown member "Source"
}

// Every package returns *claimcheck.Error: errors.As finds it and errors.Is
// branches on its code, whichever package returned it.
func ExampleError() {
	errs := []error{}
	_, err := multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: []float64{math.Inf(1)}}, multiset.Limits{})
	errs = append(errs, err)
	_, err = multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: make([]int, 3)}, multiset.Limits{MaxItems: 2})
	errs = append(errs, err)
	_, err = rational.CheckRational(rational.Input{Expression: "2 ^ 3", ClaimedValue: "8"}, rational.Limits{})
	errs = append(errs, err)
	_, err = schema.Execute("no-such-tool", "", nil)
	errs = append(errs, err)

	for _, err := range errs {
		var e *claimcheck.Error
		if errors.As(err, &e) {
			fmt.Printf("%-14s path=%q position=%d limit=%q\n", e.Code, e.Path, e.Position, e.Limit)
		}
		switch {
		case errors.Is(err, claimcheck.ErrInvalidInput):
			fmt.Println("  the input is malformed")
		case errors.Is(err, claimcheck.ErrLimitExceeded):
			fmt.Println("  the input is over a limit")
		case errors.Is(err, claimcheck.ErrUnknownTool):
			fmt.Println("  no such tool")
		}
	}
	// Output:
	// invalid_input  path="/source/0" position=-1 limit=""
	//   the input is malformed
	// limit_exceeded path="/source" position=-1 limit="max_items"
	//   the input is over a limit
	// invalid_input  path="/expression" position=2 limit=""
	//   the input is malformed
	// unknown_tool   path="" position=-1 limit=""
	//   no such tool
}

// The JSON form of an error is the error document the CLI and the HTTP
// handler write.
func ExampleError_MarshalJSON() {
	_, err := rational.CheckRational(rational.Input{Expression: "1 +", ClaimedValue: "1"}, rational.Limits{})
	var e *claimcheck.Error
	if errors.As(err, &e) {
		doc, _ := e.MarshalJSON()
		var pretty bytes.Buffer
		json.Indent(&pretty, doc, "", "  ")
		fmt.Println(pretty.String())
	}
	// Output:
	// {
	//   "error": {
	//     "code": "invalid_input",
	//     "path": "/expression",
	//     "position": 3,
	//     "message": "unexpected end of expression"
	//   }
	// }
}

// A Code is the wire value of an error's kind; each has a sentinel.
func ExampleCode() {
	_, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: make([]int, 3)}, multiset.Limits{MaxItems: 2})
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Code == claimcheck.LimitExceeded, errors.Is(err, claimcheck.ErrLimitExceeded))
	}
	// Output: limit_exceeded true true
}

// Error's text is the code, the path, the position or limit where set, and
// the message; an Error without a code says so.
func ExampleError_Error() {
	fmt.Println(&claimcheck.Error{Code: claimcheck.InvalidInput, Path: "/expression", Position: 2, Message: "unexpected character '^'"})
	fmt.Println(&claimcheck.Error{Code: claimcheck.LimitExceeded, Path: "/source", Position: claimcheck.NoPosition, Limit: "max_items", Message: "too many"})
	fmt.Println(&claimcheck.Error{})
	// Output:
	// invalid_input at /expression, position 2: unexpected character '^'
	// limit_exceeded at /source (max_items): too many
	// no error code
}

// ErrRejected is the one sentinel of a rejected claim, whichever package
// checked it; an input error is not one.
func ExampleErrRejected() {
	eq, _ := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1}, Claim: []int{2}}, multiset.Limits{})
	ra, _ := rational.CheckRational(rational.Input{Expression: "1/2", ClaimedValue: "1/3"}, rational.Limits{})
	_, err := rational.CheckRational(rational.Input{Expression: "1 +", ClaimedValue: "1"}, rational.Limits{})
	fmt.Println(errors.Is(eq.Err(), claimcheck.ErrRejected), errors.Is(ra.Err(), claimcheck.ErrRejected), errors.Is(err, claimcheck.ErrRejected))
	fmt.Println(errors.Is(ra.Err(), multiset.ErrRejected)) // one value under three names
	// Output:
	// true true false
	// true
}
