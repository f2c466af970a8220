// Package multiset checks claimed results about bags (multisets) of JSON
// scalars exactly: [CheckEquality] decides whether a claimed array is the same
// bag as a source array, and [CheckDifference] whether claimed left-only and
// right-only residuals are the bag difference of two arrays.
//
// # Verdicts and errors
//
// A check returns a verdict value ([EqualityResult], [DifferenceResult]):
// Valid, Reason and the first Discrepancy, never a repaired claim.
// A verdict's AppendJSON method writes exactly the tool's output document
// (json.Marshal gives the same JSON value), and its Err method is nil when valid and otherwise an
// error that reads as a test failure:
//
//	if err := res.Err(); err != nil {
//		t.Error(err) // claim has 1 occurrence of 1 where source has 2 (first at /source/0)
//	}
//
// A non-nil error is an *[claimcheck.Error]: the input was malformed (an element that
// is not a scalar, NaN, invalid UTF-8: code invalid_input, with the
// element's JSON Pointer path) or over a [Limits] value (code
// limit_exceeded, with the array's path and the limit's name).
//
// # Equality
//
// Elements are equal exactly when their RFC 8785 serializations are (see
// package canon): -0 equals 0, 1.0 equals 1, "1" does not equal 1. Two arrays
// are the same bag when every value occurs equally often in both. The first
// mismatch is the first distinct value of source, in order of first
// occurrence, whose counts differ, and otherwise the first value of claim
// that source lacks.
//
// # Limits
//
// Each input array may hold at most MaxItems elements and MaxDistinct
// distinct values; [DefaultLimits] are the descriptors' 10000 and 10000.
// Grading code with larger bags raises them:
//
//	res, err := multiset.Limits{MaxItems: 1 << 20, MaxDistinct: 1 << 20}.CheckEquality(in)
//
// # Guarantees
//
// Exact: equality is canon's, decided on the double and string values
// without formatting. Deterministic: the same input gives the same verdict
// and bytes; no map iteration order reaches a result. Linear: time O(n) in
// the number of elements, memory O(distinct values); each element is hashed
// once; nothing is sorted and nothing compared pairwise. Safe for concurrent
// use.
package multiset
