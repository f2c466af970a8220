package multiset_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

func ExampleCheckEquality() {
	// Order does not matter, and 1, 1.0 and the JSON literal 1e0 are one value.
	res, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{
		Source: []any{1, nil, 1},
		Claim:  []any{nil, 1.0, json.Number("1e0")},
	}, multiset.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Valid)
	// Output:
	// true
}

func ExampleCheckEquality_mismatch() {
	// The claim lost one 1 and gained the string "1", which is another value.
	res, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{
		Source: []any{1, "b", 1},
		Claim:  []any{"b", 1, "1"},
	}, multiset.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res)
	fmt.Println(res.Discrepancy.Path, res.Discrepancy.Expected, res.Discrepancy.Actual)
	// Output:
	// claim has 1 occurrence of 1 where source has 2 (first at /source/0)
	// /source/0 2 1
}

// Typed slices are read without boxing each element.
func ExampleCheckEquality_typed() {
	want := []string{"apple", "apple", "pear", "fig"}
	got := []string{"pear", "apple", "fig", "apple"}
	res, err := multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: want, Claim: got}, multiset.Limits{})
	fmt.Println(res, err)

	res, _ = multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{3, 1, 2}, Claim: []int{1, 2, 3, 3}}, multiset.Limits{})
	fmt.Println(res)
	// Output:
	// valid <nil>
	// claim has 2 occurrences of 3 where source has 1 (first at /source/0)
}

// Go values are exact: an integer is compared as that integer at any size
// (two different IDs never compare equal), and a float32 is the number
// encoding/json writes for it.
func ExampleCheckEquality_exact() {
	ids := []uint64{18446744073709551615, 18446744073709551614}
	res, _ := multiset.CheckEquality(multiset.EqualityInput[uint64, uint64]{Source: ids[:1], Claim: ids[1:]}, multiset.Limits{})
	fmt.Println(res)

	res, _ = multiset.CheckEquality(multiset.EqualityInput[any, any]{
		Source: []any{float32(0.1)},
		Claim:  []any{0.1}, // as encoding/json decodes the JSON 0.1
	}, multiset.Limits{})
	fmt.Println(res)
	// Output:
	// claim has 0 occurrences of 18446744073709551615 where source has 1 (first at /source/0)
	// valid
}

// A json.Number is JSON text, read as the JSON tools read it: past 2^53 it
// rounds. Convert it to a canon.ExactNumber to compare integers as written
// (or read the document with canon.ParseArray and canon.ExactNumbers).
func ExampleCheckEquality_exactNumber() {
	ref := []int64{1, 1<<53 + 1}
	answer := []json.Number{"1", "9007199254740993"} // as json.Decoder.UseNumber decodes it
	res, _ := multiset.CheckEquality(multiset.EqualityInput[int64, json.Number]{Source: ref, Claim: answer}, multiset.Limits{})
	fmt.Println(res) // the claim's 9007199254740993 is the double 2^53

	exact := make([]canon.ExactNumber, len(answer))
	for i, n := range answer {
		exact[i] = canon.ExactNumber(n)
	}
	res, _ = multiset.CheckEquality(multiset.EqualityInput[int64, canon.ExactNumber]{Source: ref, Claim: exact}, multiset.Limits{})
	fmt.Println(res)
	// Output:
	// claim has 0 occurrences of 9007199254740993 where source has 1 (first at /source/1)
	// valid
}

// Discrepancies lists every value whose counts differ, not only the first.
func ExampleEqualityResult_Discrepancies() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{
		Source: []any{2, 2, "2", 3, 3, 5},
		Claim:  []any{2, 3, 3, 7},
	}, multiset.Limits{})
	for d := range res.Discrepancies() {
		fmt.Printf("%-4s source %d, claim %d, first at %s\n", d.Value, d.Expected, d.Actual, d.Path)
	}
	// Output:
	// 2    source 2, claim 1, first at /source/0
	// "2"  source 1, claim 0, first at /source/2
	// 5    source 1, claim 0, first at /source/5
	// 7    source 0, claim 1, first at /claim/3
}

func ExampleCheckDifference() {
	// The earliest occurrences are the ones removed: ["a","a","b"] minus
	// ["a","c"] leaves ["a","b"], not ["b","a"].
	in := multiset.DifferenceInput[any, any]{
		Left:  []any{"a", "a", "b"},
		Right: []any{"a", "c"},
		Claim: multiset.DifferenceClaim[any]{LeftOnly: []any{"b", "a"}, RightOnly: []any{"c"}},
	}
	res, err := multiset.CheckDifference(in, multiset.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res)

	in.Claim.LeftOnly = []any{"a", "b"}
	res, _ = multiset.CheckDifference(in, multiset.Limits{})
	fmt.Println(res)
	// Output:
	// claim.left_only[0] is "b"; expected "a" (at /left_only/0)
	// valid
}

// Residuals gives the lists a wrong claim should have had.
func ExampleDifferenceResult_Residuals() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[int, int]{
		Left:  []int{1, 2, 2, 3},
		Right: []int{2, 4},
		Claim: multiset.DifferenceClaim[int]{LeftOnly: []int{1, 3}},
	}, multiset.Limits{})
	leftOnly, rightOnly := res.Residuals()
	fmt.Println(res)
	fmt.Println(leftOnly, rightOnly)
	// Output:
	// claim.left_only[1] is 3; expected 2 (at /left_only/1)
	// [1 2 3] [4]
}

func ExampleLimits() {
	bag := make([]int, 20000)
	for i := range bag {
		bag[i] = i % 100
	}
	in := multiset.EqualityInput[int, int]{Source: bag, Claim: bag}

	// The descriptors' limits refuse a bag of 20000 items...
	_, err := multiset.CheckEquality(in, multiset.Limits{})
	fmt.Println(err)
	fmt.Println(errors.Is(err, claimcheck.ErrLimitExceeded))

	// ...grading code may raise them.
	res, err := multiset.CheckEquality(in, multiset.Limits{MaxItems: 50000})
	fmt.Println(res, err)
	// Output:
	// limit_exceeded at /source (max_items): source has more items than max_items (10000)
	// true
	// valid <nil>
}

// AppendJSON writes the tool's output document, and refuses a result that is
// not a verdict, such as the zero value a check returns beside an error.
func ExampleEqualityResult_AppendJSON() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1, 1}, Claim: []int{1}}, multiset.Limits{})
	out, _ := res.AppendJSON(nil)
	var pretty bytes.Buffer
	json.Indent(&pretty, out, "", "  ")
	fmt.Println(pretty.String())

	_, err := multiset.EqualityResult{}.AppendJSON(nil)
	fmt.Println(err != nil)
	// Output:
	// {
	//   "valid": false,
	//   "reason": "claim_mismatch",
	//   "discrepancy": {
	//     "path": "/source/0",
	//     "expected": "2",
	//     "actual": "1"
	//   },
	//   "reference_version": "ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"
	// }
	// true
}

func ExampleDifferenceResult_AppendJSON() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[any, any]{
		Left:  []any{1, "x"},
		Right: []any{"x"},
	}, multiset.Limits{})
	out, _ := res.AppendJSON(nil)
	var doc struct{ Discrepancy json.RawMessage }
	json.Unmarshal(out, &doc)
	fmt.Println(string(doc.Discrepancy))
	// Output:
	// {"path":"/left_only/0","expected":1,"actual":null}
}

// T stands in for *testing.T, so that the example's output can be checked.
type T struct{}

func (T) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }

// sameBag is a grading helper: does the student's answer hold the same
// elements as the reference, in any order?
func sameBag(t interface{ Errorf(string, ...any) }, got, want []int) {
	res, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: want, Claim: got}, multiset.Limits{})
	if err != nil {
		t.Errorf("cannot check: %v", err)
		return
	}
	if err := res.Err(); err != nil {
		t.Errorf("wrong answer: %v", err)
	}
}

func ExampleEqualityResult_Err() {
	var t T
	sameBag(t, []int{3, 1, 2}, []int{1, 2, 3})
	sameBag(t, []int{3, 1, 1}, []int{1, 2, 3})
	// Output:
	// FAIL: wrong answer: claim has 2 occurrences of 1 where source has 1 (first at /source/0)
}

func ExampleDifferenceResult_Err() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[string, string]{
		Left:  []string{"a", "b"},
		Right: []string{"b"},
	}, multiset.Limits{})
	err := res.Err()
	fmt.Println(err)
	fmt.Println(errors.Is(err, multiset.ErrRejected))
	// Output:
	// claim.left_only[0] is missing; expected "a" (at /left_only/0)
	// true
}

// DefaultLimits is what a zero Limits field stands for: the descriptors'
// bounds. A check with other bounds passes its own.
func ExampleDefaultLimits() {
	fmt.Printf("%+v\n", multiset.DefaultLimits())
	lim := multiset.DefaultLimits()
	lim.MaxItems = 2
	_, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1, 2, 3}}, lim)
	fmt.Println(err)
	// Output:
	// {MaxItems:10000 MaxDistinct:10000}
	// limit_exceeded at /source (max_items): source has more items than max_items (2)
}

// An EqualityInput holds the two arrays, each of its own element type;
// its json tags name the tool's members.
func ExampleEqualityInput() {
	var in multiset.EqualityInput[any, any]
	_ = json.Unmarshal([]byte(`{"source": [1, "a"], "claim": ["a", 1.0]}`), &in)
	res, _ := multiset.CheckEquality(in, multiset.Limits{})
	fmt.Println(res.Valid)
	// Output: true
}

// An EqualityResult is a verdict: Valid, Reason and the first discrepancy.
func ExampleEqualityResult() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1, 1, 2}, Claim: []int{1, 2}}, multiset.Limits{})
	fmt.Println(res.Valid, res.Reason, res.Discrepancy.Path)
	fmt.Println(res)
	// Output:
	// false claim_mismatch /source/0
	// claim has 1 occurrence of 1 where source has 2 (first at /source/0)
}

// An EqualityDiscrepancy names a value and its two counts; its JSON form
// is the tool's, the counts as strings.
func ExampleEqualityDiscrepancy() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: []string{"a"}, Claim: []string{"a", "b"}}, multiset.Limits{})
	d := res.Discrepancy
	doc, _ := json.Marshal(d)
	fmt.Println(d.Value, d.Expected, d.Actual, string(doc))
	// Output: "b" 0 1 {"path":"/claim/1","expected":"0","actual":"1"}
}

// MarshalJSON of a result is the tool's output document; a zero result,
// no verdict, has none.
func ExampleEqualityResult_MarshalJSON() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1}, Claim: []int{1}}, multiset.Limits{})
	doc, err := json.Marshal(res)
	fmt.Println(string(doc), err)
	_, err = json.Marshal(multiset.EqualityResult{})
	fmt.Println(err != nil)
	// Output:
	// {"valid":true,"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"} <nil>
	// true
}

// A DifferenceInput holds left, right and the claimed residuals.
func ExampleDifferenceInput() {
	in := multiset.DifferenceInput[string, any]{
		Left:  []string{"a", "b"},
		Right: []string{"b"},
		Claim: multiset.DifferenceClaim[any]{LeftOnly: []any{"a"}},
	}
	res, _ := multiset.CheckDifference(in, multiset.Limits{})
	fmt.Println(res.Valid)
	// Output: true
}

// A DifferenceClaim is the claimed left_only and right_only; a nil list is
// an empty one.
func ExampleDifferenceClaim() {
	claim := multiset.DifferenceClaim[int]{RightOnly: []int{4}}
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: []int{1}, Right: []int{1, 4}, Claim: claim}, multiset.Limits{})
	fmt.Println(res.Valid)
	// Output: true
}

// A DifferenceResult is a verdict with the first index at which a claimed
// list differs.
func ExampleDifferenceResult() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[int, int]{
		Left: []int{1, 2}, Right: []int{2},
		Claim: multiset.DifferenceClaim[int]{LeftOnly: []int{2}},
	}, multiset.Limits{})
	fmt.Println(res.Valid, res.Reason, res.Discrepancy.Path)
	// Output: false claim_mismatch /left_only/0
}

// A DifferenceDiscrepancy holds the expected and the claimed element at
// its index, each nil where that list has none.
func ExampleDifferenceDiscrepancy() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: []int{1}, Right: []int{}}, multiset.Limits{})
	d := res.Discrepancy
	doc, _ := json.Marshal(d)
	fmt.Println(d.Expected, d.Actual == nil, string(doc))
	// Output: 1 true {"path":"/left_only/0","expected":1,"actual":null}
}

// MarshalJSON of a difference result is the tool's output document.
func ExampleDifferenceResult_MarshalJSON() {
	res, _ := multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: []int{1}}, multiset.Limits{})
	doc, _ := json.Marshal(res)
	fmt.Println(string(doc))
	// Output: {"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/left_only/0","expected":1,"actual":null},"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
}

// A Reason says why a claim fails; the multiset tools have one.
func ExampleReason() {
	res, _ := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1}}, multiset.Limits{})
	fmt.Println(res.Reason == multiset.ClaimMismatch, res.Reason)
	// Output: true claim_mismatch
}
