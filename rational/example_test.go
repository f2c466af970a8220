package rational_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/rational"
)

func ExampleCheckRational() {
	res, err := rational.CheckRational(rational.Input{
		Expression:       "1 + 1/2 + 1/3 + 1/4",
		ClaimedValue:     "25/12",
		RequireCanonical: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Valid, res.Value)
	// Output: true 25/12
}

func ExampleCheckRational_valueMismatch() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/3 - 1/2", ClaimedValue: "1/6"})
	d := res.FirstDiscrepancy
	fmt.Println(res.Reason, res.Value, d.CanonicalClaim, d.Difference)
	// Output: value_mismatch -1/6 1/6 -1/3
}

func ExampleCheckRational_divisionByZero() {
	res, _ := rational.CheckRational(rational.Input{Expression: "1/(2-2) + 1", ClaimedValue: "1"})
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	// Output: {"valid":false,"reason":"division_by_zero","value":null,"first_discrepancy":{"field":"expression","claimed_value":"1","canonical_claim":"1","actual_value":null,"difference":null,"position":1,"divisor_text":"(2-2)"},"reference_version":"ISO/IEC 10967-2:2001 (LIA-2) exact-result terminology; exact arithmetic over the rationals with canonical reduced form; RFC 8259 sec. 6 integer grammar and sec. 7 strings"}
}

func ExampleCheckRational_error() {
	_, err := rational.CheckRational(rational.Input{Expression: "1 × 2 ÷ x", ClaimedValue: "1"})
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Path, e.Position)
	}
	fmt.Println(err)
	// Output:
	// invalid_input /expression 8
	// invalid_input at /expression, position 8: unexpected character 'x'
}

func ExampleParse() {
	e, err := rational.Parse("2 × −(1/4 − 1)")
	if err != nil {
		fmt.Println(err)
		return
	}
	v, zeroDivision, err := e.Eval()
	fmt.Println(e, "=", v, zeroDivision, err)
	// Output: (2 * (-((1 / 4) - 1))) = 3/2 <nil> <nil>
}

func ExampleExpr_Eval_divisionByZero() {
	e, _ := rational.Parse("7 / (1/3 - 2/6)")
	_, zd, _ := e.Eval()
	fmt.Printf("position %d, divisor %q\n", zd.Position, zd.DivisorText)
	// Output: position 2, divisor "(1/3 - 2/6)"
}

func ExampleParseClaim() {
	for _, s := range []string{"6/4", "-0/3", "3/1", "1.5"} {
		v, err := rational.ParseClaim(s)
		fmt.Println(v, err)
	}
	// Output:
	// 3/2 <nil>
	// 0 <nil>
	// 3 <nil>
	// 0 invalid_input at /claimed_value: claimed value is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?
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
	res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: true})
	if err != nil {
		t.Errorf("bad input: %v", err)
		return
	}
	if err := res.Err(); err != nil {
		t.Errorf("%v", err)
	}
}

func ExampleResult_Err() {
	var t T // in a test: the *testing.T
	checkClaim(t, "1 + 1/2", "3/2")
	checkClaim(t, "1 + 1/2", "1/2")
	checkClaim(t, "1/(2-2)", "1")
	checkClaim(t, "2/4", "2/4")
	// Output:
	// 1 + 1/2 = 3/2, not 1/2 claimed (difference 1)
	// division by zero at position 1: divisor (2-2) is 0
	// 2/4 = 1/2, claimed as 2/4, which is not in canonical form
}

func ExampleLimits() {
	strict := rational.Limits{MaxDepth: 2} // other fields: the defaults
	_, err := strict.CheckRational(rational.Input{Expression: "((-1))", ClaimedValue: "-1"})
	fmt.Println(err)
	// Output: limit_exceeded at /expression, position 2 (max_depth): nesting deeper than 2 (parentheses plus pending unary minus)
}
