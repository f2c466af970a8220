package claimchecktest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

// T stands in for the *testing.T of a grading test, so that the examples'
// reports can be checked: it prints what the test would report.
type T struct{ testing.TB }

func (T) Helper() {}
func (T) Errorf(format string, args ...any) {
	fmt.Printf("FAIL: "+format+"\n", args...)
}

// FailNow would end the test; here it says so and returns.
func (T) FailNow() { fmt.Println("(the test stops here)") }

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
	//   left_only differs at 2 indexes:
	//     index  claim  expected
	//         0  "a"    "b"
	//         1  "b"    "a"
	//   right_only is right
	//   left_only   claim     3 elements:  ["a","b","c"]
	//               expected  3 elements:  ["b","a","c"]
	//   right_only  claim      1 element:  ["d"]
	//               expected   1 element:  ["d"]
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

// A student's answer read with canon.ParseArray: the strict reader names
// the element at fault, where json.Unmarshal would leave a nil that the
// report shows as a null the student never wrote.
func ExampleEquality_parseArray() {
	var t T
	reference := []int{2, 2, 3, 3, 5}
	answer, err := canon.ParseArray([]byte(`[3, 2, 5, 3, 2.0]`))
	if err != nil {
		t.Errorf("answer: %v", err)
	}
	fmt.Println(claimchecktest.Equality(t, reference, answer))

	_, err = canon.ParseArray([]byte(`[3, 2, 5, 3, 2e400]`))
	fmt.Println(err)
	// Output:
	// true
	// invalid_input at /4: number 2e400 is out of the range of a double
}

func ExampleMessage() {
	var t T
	for q, answer := range [][]int{{2, 3}, {2, 2}} {
		claimchecktest.Equality(t, []int{3, 2}, answer, claimchecktest.Message("Q%d factors", q+1))
	}
	// Output:
	// FAIL: Q2 factors: claimchecktest.Equality: claim is not the same bag as source: 2 values differ
	//   value  source  claim  first at
	//   3           1      0  /source/0
	//   2           1      2  /source/1
}

func ExampleFailNow() {
	var t T
	if !claimchecktest.Rational(t, "1/2 + 1/3", "2/5", claimchecktest.FailNow()) {
		return // with a real *testing.T, FailNow has already ended the test
	}
	fmt.Println("not reached")
	// Output:
	// FAIL: claimchecktest.Rational: the expression is not 2/5
	//   expression:  1/2 + 1/3
	//   value:       5/6
	//   claimed:     2/5
	//   difference:  13/30 (value − claim)
	// (the test stops here)
}

// HideReference writes the report a student may see: what is wrong with
// the claim, never the answer key.
func ExampleHideReference() {
	var t T
	hide := claimchecktest.HideReference()
	claimchecktest.Equality(t, []int{2, 2, 3, 5}, []int{2, 3, 3, 7}, hide)
	claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3}, []int{4}, hide)
	claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6", hide)
	// Output:
	// FAIL: claimchecktest.Equality: the claim is not the expected bag: 2 values occur too often or should not occur, and 2 occurrences are missing
	//   value  claim  fault             first at
	//   3          2  too often         /claim/1
	//   7          1  should not occur  /claim/3
	// FAIL: claimchecktest.Difference: the claim is not the expected difference
	//   left_only:   first wrong at index 1, where the claim has 3
	//   right_only:  right
	// FAIL: claimchecktest.Rational: 13/6 is not the value of the expression
	//   expression:  1 + 1/2 + 1/3 + 1/4
	//   claimed:     13/6
}

// The helpers have no size limit by default; Limits sets one, to hold a
// test to the JSON tools' limits.
func ExampleLimits() {
	var t T
	big := make([]int, 20000)
	fmt.Println(claimchecktest.Equality(t, big, big))
	fmt.Println(claimchecktest.Equality(t, big, big, claimchecktest.Limits(multiset.DefaultLimits())))
	// Output:
	// true
	// FAIL: claimchecktest.Equality: cannot check the claim: limit_exceeded at /source (max_items): source has more items than max_items (10000)
	// false
}

// The rational tool's limits (1024 tokens by default) can be raised for a
// longer expression.
func ExampleRationalLimits() {
	var t T
	expr := "1" + strings.Repeat(" + 1", 600) // 1201 tokens
	// Without the option: limit_exceeded at /expression (max_tokens).
	fmt.Println(claimchecktest.Rational(t, expr, "601", claimchecktest.RationalLimits(rational.Limits{MaxTokens: 2000})))
	// Output:
	// true
}

// Options combine, in any order, after the claim.
func ExampleOption() {
	var t T
	claimchecktest.RationalCanonical(t, "6/4", "3/2",
		claimchecktest.Message("Q3"), claimchecktest.HideReference(), claimchecktest.FailNow())
	claimchecktest.RationalCanonical(t, "6/4", "6/4",
		claimchecktest.Message("Q3"), claimchecktest.HideReference(), claimchecktest.FailNow())
	// Output:
	// FAIL: Q3: claimchecktest.RationalCanonical: 6/4 is the right value in the wrong form; write 3/2
	// (the test stops here)
}
