package multiset_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/multiset"
)

func ExampleCheckEquality() {
	// Order does not matter, and 1, 1.0 and the JSON literal 1e0 are one value.
	res, err := multiset.CheckEquality(multiset.EqualityInput{
		Source: []any{1, nil, 1},
		Claim:  []any{nil, 1.0, json.Number("1e0")},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Valid)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	// Output:
	// true
	// {"valid":true,"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
}

func ExampleCheckEquality_mismatch() {
	// The claim lost one 1 and gained the string "1", which is another value.
	res, err := multiset.CheckEquality(multiset.EqualityInput{
		Source: []any{1, "b", 1},
		Claim:  []any{"b", 1, "1"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	// Output:
	// claim has 1 occurrence of 1 where source has 2 (first at /source/0)
	// {"valid":false,"reason":"claim_mismatch","discrepancy":{"path":"/source/0","expected":"2","actual":"1"},"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}
}

func ExampleCheckDifference() {
	// The earliest occurrences are the ones removed: ["a","a","b"] minus
	// ["a","c"] leaves ["a","b"], not ["b","a"].
	in := multiset.DifferenceInput{
		Left:  []any{"a", "a", "b"},
		Right: []any{"a", "c"},
		Claim: multiset.DifferenceClaim{LeftOnly: []any{"b", "a"}, RightOnly: []any{"c"}},
	}
	res, err := multiset.CheckDifference(in)
	if err != nil {
		panic(err)
	}
	fmt.Println(res)
	out, _ := json.Marshal(res.Discrepancy)
	fmt.Println(string(out))

	in.Claim.LeftOnly = []any{"a", "b"}
	res, _ = multiset.CheckDifference(in)
	fmt.Println(res)
	// Output:
	// claim.left_only[0] is "b"; expected "a" (at /left_only/0)
	// {"path":"/left_only/0","expected":"a","actual":"b"}
	// valid
}

func ExampleLimits() {
	bag := make([]any, 20000)
	for i := range bag {
		bag[i] = i % 100
	}
	in := multiset.EqualityInput{Source: bag, Claim: bag}

	// The descriptors' limits refuse a bag of 20000 items...
	_, err := multiset.CheckEquality(in)
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Path, e.Limit)
	}
	fmt.Println(err)

	// ...grading code may raise them.
	res, err := multiset.Limits{MaxItems: 50000}.CheckEquality(in)
	fmt.Println(res, err)
	// Output:
	// limit_exceeded /source max_items
	// limit_exceeded at /source (max_items): source has 20000 items, more than max_items 10000
	// valid <nil>
}

func ExampleCheckEqualityOf() {
	got := []string{"pear", "apple", "fig", "apple"}
	want := []string{"apple", "apple", "pear", "fig"}
	res, err := multiset.CheckEqualityOf(want, got)
	fmt.Println(res, err)

	res, _ = multiset.CheckEqualityOf([]int{3, 1, 2}, []int{1, 2, 3, 3})
	fmt.Println(res)
	// Output:
	// valid <nil>
	// claim has 2 occurrences of 3 where source has 1 (first at /source/0)
}

// T stands in for *testing.T, so that the example's output can be checked.
type T struct{}

func (T) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }

// sameBag is a grading helper: does the student's answer hold the same
// elements as the reference, in any order?
func sameBag(t interface{ Errorf(string, ...any) }, got, want []int) {
	res, err := multiset.CheckEqualityOf(want, got)
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
