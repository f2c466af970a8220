package claimchecktest_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/claimcheck/claimcheck/claimchecktest"
)

// T stands in for the *testing.T of a grading test, so that the examples'
// reports can be checked: it prints what the test would report.
type T struct{ testing.TB }

func (T) Helper() {}
func (T) Errorf(format string, args ...any) {
	fmt.Printf("FAIL: "+format+"\n", args...)
}

// A grading test compares a typed reference with a student's JSON answer.
func ExampleEquality() {
	var t T // in a test: func TestSubmission(t *testing.T)
	reference := []int{2, 2, 3, 3, 5}

	var answer []any
	json.Unmarshal([]byte(`[3, 2, 5, 3, 2.0]`), &answer)
	fmt.Println(claimchecktest.Equality(t, reference, answer))

	json.Unmarshal([]byte(`[2, "2", 3, 3, 7]`), &answer)
	fmt.Println(claimchecktest.Equality(t, reference, answer))
	// Output:
	// true
	// FAIL: claimchecktest.Equality: claim is not the same bag as source: 4 values differ
	//   value  source  claim  first at
	//   2           2      1  /source/0
	//   5           1      0  /source/4
	//   "2"         0      1  /claim/1
	//   7           0      1  /claim/4
	// false
}

func ExampleDifference() {
	var t T
	left, right := []string{"a", "b", "a", "c"}, []string{"a", "d"}
	fmt.Println(claimchecktest.Difference(t, left, right, []string{"b", "a", "c"}, []string{"d"}))
	fmt.Println(claimchecktest.Difference(t, left, right, []string{"a", "b", "c"}, []string{"d"}))
	// Output:
	// true
	// FAIL: claimchecktest.Difference: claim.left_only[0] is "a"; expected "b" (at /left_only/0)
	//   expected left_only  (3 elements): ["b","a","c"]
	//   expected right_only (1 element): ["d"]
	// false
}

func ExampleRational() {
	var t T
	fmt.Println(claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "25/12"))
	fmt.Println(claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6"))
	fmt.Println(claimchecktest.Rational(t, "1/(3 - 3)", "0"))
	// Output:
	// true
	// FAIL: claimchecktest.Rational: the expression is not 13/6
	//   expression:  1 + 1/2 + 1/3 + 1/4
	//   value:       25/12
	//   claimed:     13/6
	//   difference:  -1/12 (value − claim)
	// false
	// FAIL: claimchecktest.Rational: the expression divides by zero: the divisor (3 - 3) is 0
	//   1/(3 - 3)
	//    ^~~~~~~~
	// false
}

func ExampleRationalCanonical() {
	var t T
	fmt.Println(claimchecktest.Rational(t, "6/4", "3/2"))
	fmt.Println(claimchecktest.RationalCanonical(t, "6/4", "6/4"))
	// Output:
	// true
	// FAIL: claimchecktest.RationalCanonical: 6/4 is the right value in the wrong form; write 3/2
	// false
}
