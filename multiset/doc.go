// Package multiset checks claimed results about bags (multisets) of JSON
// scalars exactly: [CheckEquality] decides whether a claimed array is the same
// bag as a source array, and [CheckDifference] whether claimed left-only and
// right-only residuals are the bag difference of two arrays.
//
//	res, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: want, Claim: got}, multiset.Limits{})
//
// # Elements
//
// Both checks are generic in the element types, one for the reference
// arrays and one for the claim (the same or not: a []int reference against a
// decoded []any answer), and every input form takes the same path to a
// verdict. An element is a JSON scalar — null, a boolean, a string or a
// finite number — given as:
//
//   - []any holding nil, bool, string, float64, float32, any integer type,
//     *big.Int or big.Int, json.Number, [canon.ExactNumber] or a
//     [canon.Scalar] (what encoding/json decodes into, with or without
//     UseNumber);
//   - a slice of one of those types, or of a named type whose underlying
//     type is one ([]int, []uint64, []string, []float64, []json.Number,
//     []canon.ExactNumber, []*big.Int, []canon.Scalar, []Grade): read
//     without boxing each element.
//
// Any other element (a map, slice, struct or pointer) is refused at its path.
// Go values are exact and never round silently: an integer of any type is
// that integer at any size (2^53+1 and math.MaxUint64 are themselves, not
// the doubles nearest them), a float32 is the number encoding/json writes
// for it (float32(0.1) equals the JSON 0.1), and a json.Number is JSON
// text, rounded as the same literal in a document is. See [canon.Of].
//
// Which to use for integers past 2^53 written in JSON: a student's
// document read with [canon.ParseArray] or [canon.ParseSubmission] and
// [canon.ExactNumbers], whose []canon.Scalar keeps each integer as
// written; or, for an answer already decoded with json.Decoder.UseNumber,
// its json.Number values converted to [canon.ExactNumber]. A json.Number
// left as it is compares as the JSON tools compare its literal: as the
// double nearest it.
//
// # Equality
//
// Elements are equal exactly when their canonical keys, their RFC 8785
// serializations, are (see package canon): -0 equals 0, 1.0 equals 1, "1"
// does not equal 1, and an integer no double holds equals only itself. Two arrays
// are the same bag when every value occurs equally often in both. The first
// mismatch is the first distinct value of source, in order of first
// occurrence, whose counts differ, and otherwise the first value of claim
// that source lacks; [EqualityResult.Discrepancies] lists all of them in
// that order.
//
// # Difference
//
// The residuals are computed one occurrence for one occurrence, the earliest
// occurrences removed; the discrepancy is the first index at which a claimed
// list differs, left_only before right_only. [DifferenceResult.Residuals]
// returns the lists the claim should have had.
//
// # Verdicts and errors
//
// A check returns a verdict value ([EqualityResult], [DifferenceResult]):
// Valid, Reason and the first Discrepancy, never a repaired claim. A result
// owns what it reports: nothing the caller does to the input slices after
// the check returns changes it (see [CheckEquality], [CheckDifference]). Its
// AppendJSON method writes the tool's output document from its fields (and
// refuses a result that is no verdict, such as the zero value), and its Err
// method is nil when valid and otherwise an error that reads as a test
// failure (the zero result, what a check returns with an error, says "no
// verdict"):
//
//	if err := res.Err(); err != nil {
//		t.Error(err) // claim has 1 occurrence of 1 where source has 2 (first at /source/0)
//	}
//
// A non-nil error is a *[claimcheck.Error]: an element that is not a scalar
// or not exact (code invalid_input, with the element's JSON Pointer path,
// such as /source/3), or an array over a [Limits] value (code
// limit_exceeded, with the array's path and the limit's name), in the order
// of [CheckEquality] and [CheckDifference].
//
// # Limits
//
// Each input array may hold at most MaxItems elements and MaxDistinct
// distinct values. A zero (or negative) [Limits] field means the tool's
// bound, that of [DefaultLimits] (the descriptors' 10000 and 10000), here
// and wherever a Limits is taken; [NoLimit] means no bound but memory;
// MaxItems is held at 2^30 − 1. Grading code with larger bags raises them:
//
//	res, err := multiset.CheckEquality(in, multiset.Limits{MaxItems: 1 << 20, MaxDistinct: multiset.NoLimit})
//
// # Guarantees
//
// Exact: equality is canon's, decided on the double, exact integer and
// string values without formatting. Deterministic: the same input gives the same verdict
// and bytes; no map iteration order reaches a result. Linear: time O(n) in
// the number of elements, memory O(distinct values) for a valid equality
// claim (an invalid one adds two bits per element, to put its mismatches
// in order; a difference keeps one small id per element of left and
// right); each
// element of source, claim, left and right is converted and hashed once; a
// claimed residual is compared with the expected one element by element as
// that is produced, and read again in full (at most once more) only when it
// differs; nothing is sorted and nothing compared pairwise. Safe for
// concurrent use.
//
// Memory between checks: a finished check's working table is kept for the
// next one, so a steady stream of checks allocates next to nothing. What
// is kept is bounded by a constant per check that runs at once, whatever
// the sizes checked, and the garbage collector frees it once checks stop
// using it; the tables of the largest checks are not kept.
//
// The precedence of errors and the paths they carry are stated above, at
// [CheckEquality] and [CheckDifference]; see also the contract,
// [docs/contract.md], which writes out every case.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package multiset
