package claimchecktest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
)

// T stands in for the *testing.T of a grading test, so that the examples'
// reports can be checked: it prints what the test would report. Any type
// with these methods is a claimchecktest.TB.
type T struct{}

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
	// FAIL: claimchecktest.Difference: left_only[0] is "a"; expected "b" (at /claim/left_only/0)
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
	// FAIL: claimchecktest.Rational: the reference is refused (a fault in the grading code, not in the answer): the expression divides by zero: the divisor (3 - 3) is 0
	//   1/(3 - 3)
	//    ^~~~~~~~
	// false
}

func ExampleRationalCanonical() {
	var t T
	fmt.Println(claimchecktest.Rational(t, "6/4", "3/2"))
	fmt.Println(claimchecktest.RationalCanonical(t, "6/4", "6/4"))
	fmt.Println(claimchecktest.RationalCanonical(t, "6/4", "3 / 2"))
	// Output:
	// true
	// FAIL: claimchecktest.RationalCanonical: 6/4 is the right value in the wrong form; write 3/2
	// false
	// FAIL: claimchecktest.RationalCanonical: cannot check the claim: invalid_input at /claimed_value: claimed value "3 / 2" is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?: there is white space around the fraction bar '/'; remove it (write "3/2")
	// false
}

// A student's answer read with canon.ParseArray: the strict reader names
// the element at fault, where json.Unmarshal would leave a nil that the
// report shows as a null the student never wrote; with ExactNumbers it
// keeps an integer no double holds as written, and refuses a fraction
// that would round to an integer.
func ExampleEquality_parseArray() {
	var t T
	reference := []int{2, 2, 3, 3, 5}
	answer, err := canon.ParseArray([]byte(`[3, 2, 5, 3, 2.0]`), canon.ExactNumbers())
	if err != nil {
		t.Errorf("answer: %v", err)
	}
	fmt.Println(claimchecktest.Equality(t, reference, answer))

	_, err = canon.ParseArray([]byte(`[3, 2, 5, 3, 2e400]`))
	fmt.Println(err)
	_, err = canon.ParseArray([]byte(`[3, 2, 5, 3, 2.0000000000000001]`), canon.ExactNumbers())
	fmt.Println(err)
	ids, _ := canon.ParseArray([]byte(`[1, 9007199254740993]`), canon.ExactNumbers())
	fmt.Println(claimchecktest.Equality(t, []int64{1, 1<<53 + 1}, ids))
	// Output:
	// true
	// invalid_input at /4: number 2e400 is out of the range of a double
	// invalid_input at /4: number 2.0000000000000001 is not exact as a double: it would become 2
	// true
}

func ExampleMessage() {
	var t T
	claimchecktest.Equality(t, []int{3, 2}, []int{3}, claimchecktest.Message("Q1: 100% of the factors"))
	// Output:
	// FAIL: Q1: 100% of the factors: claimchecktest.Equality: claim is not the same bag as source: 1 value differs
	//   value  source  claim  first at
	//   2           1      0  /source/1
}

func ExampleMessagef() {
	var t T
	for q, answer := range [][]int{{2, 3}, {2, 2}} {
		claimchecktest.Equality(t, []int{3, 2}, answer, claimchecktest.Messagef("Q%d factors", q+1))
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
// the claim, never the answer key, and no Go name.
func ExampleHideReference() {
	var t T
	hide := claimchecktest.HideReference()
	claimchecktest.Equality(t, []int{2, 2, 3, 5}, []int{2, 3, 3, 7}, hide)
	claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3}, []int{4}, hide)
	claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", "13/6", hide)
	// Output:
	// FAIL: the claim is not the expected bag: 2 values occur too often or should not occur, and 2 occurrences are missing
	//   value  claim  fault             first at
	//   3          2  too often         answer[1]
	//   7          1  should not occur  answer[3]
	// FAIL: the claim is not the expected difference
	//   answer1:  first wrong at answer1[1], where the claim has 3
	//   answer2:  right
	// FAIL: 13/6 is not the value of the expression
	//   expression:  1 + 1/2 + 1/3 + 1/4
	//   claimed:     13/6
}

// "Items in A but not in B, and in B but not in A" rarely asks for the
// tool's order: AnyOrder compares each list as a bag.
func ExampleAnyOrder() {
	var t T
	a := []string{"apple", "banana", "cherry", "date"}
	b := []string{"banana", "egg", "fig"}
	fmt.Println(claimchecktest.Difference(t, a, b, []string{"cherry", "date", "apple"}, []string{"fig", "egg"}, claimchecktest.AnyOrder()))
	fmt.Println(claimchecktest.Difference(t, a, b, []string{"cherry", "kiwi"}, []string{"fig", "egg"}, claimchecktest.AnyOrder()))
	// Output:
	// true
	// FAIL: claimchecktest.Difference: the claim is not the bag difference, in any order: left_only has 3 values wrong
	//   left_only, in any order:
	//     value    expected  claim  fault             first at
	//     "apple"         1      0  missing           expected[0]
	//     "date"          1      0  missing           expected[2]
	//     "kiwi"          0      1  should not occur  /claim/left_only/1
	//   right_only is right
	//   left_only   claim     2 elements:  ["cherry","kiwi"]
	//               expected  3 elements:  ["apple","cherry","date"]
	//   right_only  claim     2 elements:  ["fig","egg"]
	//               expected  2 elements:  ["egg","fig"]
	// false
}

// In names the claim by its place in the student's document: the report's
// paths are the student's own, and the student's report shows each number
// as it was written.
func ExampleIn() {
	var t T
	sub, err := canon.ParseSubmission([]byte(`{"q1": [2, 2.0, 3.00, -0e0]}`))
	if err != nil {
		t.Errorf("%v", err)
	}
	q1, _ := sub.Array("q1")
	claimchecktest.Equality(t, []int{2, 2, 3, 5}, q1, claimchecktest.In(sub, "q1"), claimchecktest.HideReference())
	// Output:
	// FAIL: the claim is not the expected bag: 1 value occurs too often or should not occur, and 1 occurrence is missing
	//   value  claim  fault             first at
	//   -0e0       1  should not occur  /q1/3
}

// An answer the submission refuses is the helper's to report, at its path.
func ExampleIn_refused() {
	var t T
	sub, _ := canon.ParseSubmission([]byte(`{"q1": [2, 2, 3, 3, 5], "q1": [1], "q2": [9007199254740992.5]}`), canon.ExactNumbers())
	q1, _ := sub.Array("q1")
	q2, _ := sub.Array("q2")
	hide := claimchecktest.HideReference()
	claimchecktest.Equality(t, []int{2, 2, 3, 3, 5}, q1, claimchecktest.In(sub, "q1"), hide)
	claimchecktest.Equality(t, []int64{1 << 53}, q2, claimchecktest.In(sub, "q2"), hide)
	// Output:
	// FAIL: cannot check the claim at /q1: duplicate member "q1": the document answers it twice
	// FAIL: cannot check the claim at /q2/0: number 9007199254740992.5 is not exact as a double: it would become 9007199254740992
}

// The helpers have no size limit by default; Limits sets one, to hold a
// test to the JSON tools' limits. Its fields mean what they mean in
// package multiset: a zero field is the tool's bound.
func ExampleLimits() {
	var t T
	big := make([]int, 20000)
	fmt.Println(claimchecktest.Equality(t, big, big))
	fmt.Println(claimchecktest.Equality(t, big, big, claimchecktest.Limits(multiset.Limits{MaxDistinct: multiset.NoLimit})))
	// Output:
	// true
	// FAIL: claimchecktest.Equality: the reference is refused (a fault in the grading code, not in the answer): limit_exceeded at /source (max_items): source has more items than max_items (10000)
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
	// FAIL: Q3: 6/4 is the right value in the wrong form; write 3/2
	// (the test stops here)
}

// A harness of its own is a TB: two methods, as testify's TestingT.
type feedback struct{ lines []string }

func (*feedback) Helper() {}
func (f *feedback) Errorf(format string, args ...any) {
	f.lines = append(f.lines, fmt.Sprintf(format, args...))
}

func ExampleTB() {
	var f feedback
	claimchecktest.Rational(&f, "1/2 + 1/3", "5/6")
	claimchecktest.Rational(&f, "1/2 + 1/3", "2/5", claimchecktest.HideReference())
	fmt.Println(len(f.lines), f.lines[0])
	// Output:
	// 1 2/5 is not the value of the expression
	//   expression:  1/2 + 1/3
	//   claimed:     2/5
}

// A check without a test: the verdict, the partial credit and the report.
func ExampleCheckEquality() {
	r, _ := claimchecktest.CheckEquality([]int{2, 2, 3, 3, 5}, []int{2, 3, 3, 7}, claimchecktest.HideReference())
	fmt.Println(r.Valid, r.Score)
	fmt.Println(r.Text)
	// Output:
	// false 0.6
	// the claim is not the expected bag: 1 value occurs too often or should not occur, and 2 occurrences are missing
	//   value  claim  fault             first at
	//   7          1  should not occur  answer[3]
}

func ExampleCheckDifference() {
	a := []string{"apple", "banana", "cherry", "date"}
	b := []any{"banana", "egg", "fig"} // another element type than a's
	inOrder, _ := claimchecktest.CheckDifference(a, b, []string{"cherry", "date", "apple"}, []string{"egg", "fig"})
	anyOrder, _ := claimchecktest.CheckDifference(a, b, []string{"cherry", "date", "apple"}, []string{"egg", "fig"}, claimchecktest.AnyOrder())
	fmt.Println(inOrder.Valid, inOrder.Score)
	fmt.Println(anyOrder.Valid, anyOrder.Score)
	// Output:
	// false 0.4
	// true 1
}

func ExampleCheckRational() {
	r, _ := claimchecktest.CheckRational("1 + 1/2 + 1/3 + 1/4", "25/12")
	fmt.Println(r.Valid, r.Score, r.Text == "")
	r, _ = claimchecktest.CheckRational("1 + 1/2 + 1/3 + 1/4", "２５/12", claimchecktest.HideReference())
	fmt.Println(r.Valid, r.Score)
	fmt.Println(r.Text)
	// Output:
	// true 1 true
	// false 0
	// cannot check the claim at answer: claimed value "２５/12" is not an integer or fraction such as 3, -3 or 3/4: the digits must be ASCII 0-9, not U+FF12 '２' (write "25/12")
}

func ExampleCheckRationalCanonical() {
	r, _ := claimchecktest.CheckRationalCanonical("6/4", "6/4", claimchecktest.Message("Q3"))
	fmt.Println(r.Score, r.Text)
	// Output:
	// 0 Q3: claimchecktest.RationalCanonical: 6/4 is the right value in the wrong form; write 3/2
}

// A Report's Err is the refusal, an error at its path, for a grader who
// branches on it.
func ExampleReport() {
	r, _ := claimchecktest.CheckEquality([]int{1, 2}, []any{1, map[string]any{}})
	fmt.Println(r.Valid, r.Score)
	fmt.Println(r.Err)
	// Output:
	// false 0
	// invalid_input at /claim/1: element is an object, not a scalar
}

// Half credit for the right value in the wrong form.
func ExamplePartialCanonical() {
	half := claimchecktest.PartialCanonical(0.5)
	for _, answer := range []string{"13/6", "26/12", "25/12"} {
		r, _ := claimchecktest.CheckRationalCanonical("1 + 1/2 + 2/3", answer, half)
		fmt.Println(answer, r.Valid, r.Score)
	}
	// Output:
	// 13/6 true 1
	// 26/12 false 0.5
	// 25/12 false 0
}

// Named names a Go answer in its report, as the student knows it, rather
// than by the tool's paths (/claim/left_only/0).
func ExampleNamed() {
	t := &T{}
	claimchecktest.Difference(t, []int{1, 2, 2, 3}, []int{2, 4}, []int{1, 3, 2}, []int{5},
		claimchecktest.Named("leftOnly", "rightOnly"), claimchecktest.HideReference())
	// Output:
	// FAIL: the claim is not the expected difference
	//   leftOnly:   first wrong at leftOnly[1], where the claim has 3
	//   rightOnly:  first wrong at rightOnly[0], where the claim has 5
}

// A reference the check cannot use is the grading code's fault: a Check
// function returns it as a *ReferenceError, never as the student's Report.
func ExampleReferenceError() {
	_, err := claimchecktest.CheckRational("1/(2-2)", "1", claimchecktest.HideReference())
	var re *claimchecktest.ReferenceError
	fmt.Println(errors.As(err, &re))
	fmt.Println(err)
	// Output:
	// true
	// claimchecktest.Rational: the reference is refused (a fault in the grading code, not in the answer): the expression divides by zero: the divisor (2-2) is 0
	//   1/(2-2)
	//    ^~~~~~
}
