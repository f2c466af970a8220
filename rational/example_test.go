package rational_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/rational"
)

func ExampleCheckRational() {
	res, err := rational.CheckRational(rational.Input{
		Expression:       "1 + 1/2 + 1/3 + 1/4",
		ClaimedValue:     "25/12",
		RequireCanonical: true,
	}, rational.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Valid, res.Value)
	// Output: true 25/12
}

func ExampleCheckRational_valueMismatch() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/3 - 1/2", ClaimedValue: "1/6"}, rational.Limits{})
	d := res.FirstDiscrepancy
	fmt.Println(res.Reason, res.Value, d.CanonicalClaim, d.Difference)
	// Output: value_mismatch -1/6 1/6 -1/3
}

func ExampleCheckRational_divisionByZero() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/(2-2) + 1", ClaimedValue: "1"}, rational.Limits{})
	d := res.FirstDiscrepancy
	fmt.Println(res.Reason, res.Value, d.Field, d.Position, d.DivisorText)
	// Output: division_by_zero <nil> expression 1 (2-2)
}

// Bad input is an error, not a verdict.
func ExampleCheckRational_error() {
	_, err := rational.CheckRational(rational.Input{Expression: "1 × 2 ÷ x", ClaimedValue: "1"}, rational.Limits{})
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Path, e.Position)
	}
	fmt.Println(err)
	// Output:
	// invalid_input /expression 8
	// invalid_input at /expression, position 8: unexpected character 'x'
}

// A field left zero is the default's.
func ExampleLimits() {
	strict := rational.Limits{MaxDepth: 2}
	_, err := rational.CheckRational(rational.Input{Expression: "((-1))", ClaimedValue: "-1"}, strict)
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Limit, e.Position)
	}
	// Output: limit_exceeded max_depth 2
}

// DefaultLimits is what a zero field of Limits stands for: the tool's
// limits. A check with other bounds passes its own.
func ExampleDefaultLimits() {
	fmt.Printf("%+v\n", rational.DefaultLimits())

	lim := rational.DefaultLimits()
	lim.MaxTokens = 3
	_, err := rational.CheckRational(rational.Input{Expression: "1 + 2 + 3", ClaimedValue: "6"}, lim)
	fmt.Println(err)
	// Output:
	// {MaxExpressionBytes:4096 MaxTokens:1024 MaxDepth:64 MaxValueDigits:500}
	// limit_exceeded at /expression, position 6 (max_tokens): more than 3 tokens
}

// T stands in for *testing.T, so that the example's output can be checked.
type T struct{}

func (T) Helper()                        {}
func (T) Errorf(format string, a ...any) { fmt.Printf(format+"\n", a...) }

// checkClaim is a test helper built on Result.Err.
func checkClaim(t interface {
	Helper()
	Errorf(string, ...any)
}, expr, claim string) {
	t.Helper()
	in := rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: true}
	res, err := rational.CheckRational(in, rational.Limits{})
	if err != nil {
		t.Errorf("bad input: %v", err)
		return
	}
	if err := res.Err(); err != nil {
		t.Errorf("%v (rejected: %v)", err, errors.Is(err, rational.ErrRejected))
	}
}

// In grading code, Err turns a verdict into a test failure.
func ExampleResult_Err() {
	var t T // in a test: the *testing.T
	checkClaim(t, "1 + 1/2", "3/2")
	checkClaim(t, "1 + 1/2", "1/2")
	checkClaim(t, "1/(2-2)", "1")
	checkClaim(t, "2/4", "2/4")
	// Output:
	// 1 + 1/2 = 3/2, not 1/2 claimed (difference 1) (rejected: true)
	// division by zero at position 1: divisor (2-2) is 0 (rejected: true)
	// 2/4 = 1/2, claimed as 2/4, which is not in canonical form (rejected: true)
}

// AppendJSON writes the tool's output document, as the JSON tools do; a
// Result that CheckRational did not make has none.
func ExampleResult_AppendJSON() {
	res, _ := rational.CheckRational(rational.Input{Expression: "6/4", ClaimedValue: "3/2"}, rational.Limits{})
	out, err := res.AppendJSON(nil)
	fmt.Println(err)
	var doc bytes.Buffer
	json.Indent(&doc, out, "", " ")
	fmt.Println(strings.Replace(doc.String(), rational.ReferenceVersion, "(rational.ReferenceVersion)", 1))

	_, err = rational.Result{}.AppendJSON(nil)
	fmt.Println(err != nil)
	// Output:
	// <nil>
	// {
	//  "valid": true,
	//  "reason": null,
	//  "value": "3/2",
	//  "first_discrepancy": null,
	//  "reference_version": "(rational.ReferenceVersion)"
	// }
	// true
}

// json.Marshal of a Discrepancy writes the first_discrepancy member of the
// output document.
func ExampleDiscrepancy_MarshalJSON() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/(2-2)", ClaimedValue: "2/4"}, rational.Limits{})
	out, _ := json.Marshal(res.FirstDiscrepancy)
	var doc bytes.Buffer
	json.Indent(&doc, out, "", " ")
	fmt.Println(doc.String())
	// Output:
	// {
	//  "field": "expression",
	//  "claimed_value": "2/4",
	//  "canonical_claim": "1/2",
	//  "actual_value": null,
	//  "difference": null,
	//  "position": 1,
	//  "divisor_text": "(2-2)"
	// }
}

// A Rat prints, and marshals as text, in canonical form; BigRat hands it to
// math/big for further work.
func ExampleRat() {
	res, _ := rational.CheckRational(rational.Input{Expression: "-10/4", ClaimedValue: "-2"}, rational.Limits{})
	v := res.Value
	fmt.Println(v, v.Sign(), res.FirstDiscrepancy.Difference.Sign())

	row, _ := json.Marshal(struct{ Value *rational.Rat }{v})
	fmt.Println(string(row))

	b := v.BigRat()
	fmt.Println(b.Num(), b.Denom(), b.FloatString(3))
	// Output:
	// -5/2 -1 -1
	// {"Value":"-5/2"}
	// -5 2 -2.500
}

// BigRat is a new math/big.Rat of the value, the caller's to change.
func ExampleRat_BigRat() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/3 + 1/6", ClaimedValue: "1/2"}, rational.Limits{})
	b := res.Value.BigRat()
	b.Mul(b, big.NewRat(4, 1))
	fmt.Println(b, res.Value)
	// Output: 2/1 1/2
}

// Input is the tool's input document; its json tags name the members.
func ExampleInput() {
	var in rational.Input
	_ = json.Unmarshal([]byte(`{"expression": "2 × 3", "claimed_value": "6", "require_canonical": true}`), &in)
	res, _ := rational.CheckRational(in, rational.Limits{})
	fmt.Println(in.Expression, res.Valid)
	// Output: 2 × 3 true
}

// A Result is a verdict: Valid, Reason, the value and the first
// discrepancy.
func ExampleResult() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/2 + 1/3", ClaimedValue: "2/5"}, rational.Limits{})
	fmt.Println(res.Valid, res.Reason, res.Value, res.FirstDiscrepancy.Difference)
	// Output: false value_mismatch 5/6 13/30
}

// MarshalJSON of a Result is the tool's output document, members in the
// output schema's order; a zero Result, no verdict, has none.
func ExampleResult_MarshalJSON() {
	res, _ := rational.CheckRational(rational.Input{Expression: "6/4", ClaimedValue: "3/2"}, rational.Limits{})
	doc, err := json.Marshal(res)
	fmt.Println(string(doc), err)
	_, err = json.Marshal(rational.Result{})
	fmt.Println(err != nil)
	// Output:
	// {"valid":true,"reason":null,"value":"3/2","first_discrepancy":null,"reference_version":"ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings"} <nil>
	// true
}

// A Discrepancy locates why a claim is rejected: the claim, its value, the
// true value and the difference; a division by zero's position and
// divisor.
func ExampleDiscrepancy() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1 + 1/(2 - 2)", ClaimedValue: "1"}, rational.Limits{})
	d := res.FirstDiscrepancy
	fmt.Println(d.Field, d.Position, d.DivisorText, d.ActualValue == nil)
	// Output: expression 5 (2 - 2) true
}

// A Field names the input member a discrepancy is about.
func ExampleField() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1", ClaimedValue: "2"}, rational.Limits{})
	fmt.Println(res.FirstDiscrepancy.Field == rational.FieldClaimedValue, res.FirstDiscrepancy.Field)
	// Output: true claimed_value
}

// The Reasons, in the order they are checked.
func ExampleReason() {
	for _, claim := range []rational.Input{
		{Expression: "1/0", ClaimedValue: "1"},
		{Expression: "1/2", ClaimedValue: "1/3"},
		{Expression: "1/2", ClaimedValue: "2/4", RequireCanonical: true},
	} {
		res, _ := rational.CheckRational(claim, rational.Limits{})
		fmt.Println(res.Reason)
	}
	// Output:
	// division_by_zero
	// value_mismatch
	// not_canonical
}
