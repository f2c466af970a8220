package multiset

import (
	"slices"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// DifferenceInput is the input of the multiset-difference-check tool: two
// arrays and the claimed residuals of their bag difference. T is the element
// type of left and right, C that of the claimed lists, the same or not, as
// for [EqualityInput]. A nil slice is an empty array.
type DifferenceInput[T, C any] struct {
	Left  []T                `json:"left"`
	Right []T                `json:"right"`
	Claim DifferenceClaim[C] `json:"claim"`
}

// DifferenceClaim is the claimed pair of residuals.
type DifferenceClaim[C any] struct {
	LeftOnly  []C `json:"left_only"`
	RightOnly []C `json:"right_only"`
}

// DifferenceResult is the verdict of [CheckDifference].
type DifferenceResult struct {
	Valid bool
	// Reason is ClaimMismatch when the claim is not valid, else "".
	Reason Reason
	// Discrepancy is the first differing position, nil when valid.
	Discrepancy *DifferenceDiscrepancy
	// ReferenceVersion is [ReferenceVersion].
	ReferenceVersion string

	// tally is an invalid result's, over copies of left and right, which
	// Residuals reads; nil for a valid result, which keeps nothing.
	tally *bag.DifferenceTally
}

// DifferenceDiscrepancy is the first index at which a claimed residual
// differs from the expected one. In the output document it is {"path": Path,
// "expected": E, "actual": A}, each element in canonical form, and null
// where the list has no element at that index.
type DifferenceDiscrepancy struct {
	// Path is "/left_only/i" or "/right_only/i", relative to the claim.
	Path string
	// Expected is the expected residual's element i, nil if it has none.
	Expected *canon.Scalar
	// Actual is the claimed residual's element i, nil if it has none.
	Actual *canon.Scalar
}

// CheckDifference checks in.Claim against the residuals of the bag
// difference of in.Left and in.Right, computed one occurrence for one
// occurrence:
//
//   - left_only: walk left in order, counting the values of right; an element
//     whose value still has a positive count consumes one and is dropped, any
//     other is kept. The earliest occurrences are the ones removed: left
//     [a,b,a], right [a] gives [b,a].
//   - right_only: the same walk over right against the counts of left.
//
// The claim is valid when both claimed lists equal the expected ones element
// by element. Otherwise the result's Discrepancy is the first index where
// they differ, all of left_only before right_only; [DifferenceResult.Residuals]
// returns the expected lists.
//
// The error, an *[claimcheck.Error], is for input the check refuses: for
// left, right, claim.left_only and claim.right_only in turn, the array over
// lim's MaxItems (limit max_items), its first element that is not a scalar
// or not exact, the array over MaxDistinct (limit max_distinct). A zero
// field of lim means [DefaultLimits]'. Time is linear in the number of
// elements, memory in the number of elements and distinct values.
//
// The result owns what it reports: an invalid one keeps a copy of left and
// right (the elements themselves, not their conversions), which
// [DifferenceResult.Residuals] reads, so nothing the caller does to in's
// slices after the call changes it. A valid result keeps nothing: its
// residuals are the claim's own lists.
func CheckDifference[T, C any](in DifferenceInput[T, C], lim Limits) (DifferenceResult, error) {
	arrays := bag.DiffArrays{
		Left:      array("/left", in.Left),
		Right:     array("/right", in.Right),
		LeftOnly:  residual("/claim/left_only", in.Claim.LeftOnly, in.Left),
		RightOnly: residual("/claim/right_only", in.Claim.RightOnly, in.Right),
	}
	t, err := bag.Difference(lim.bag(), &arrays)
	if err != nil {
		return DifferenceResult{}, err
	}
	// Package schema's elements, the one caller of this type, live in a
	// document it never changes while the result is in use, and it never
	// asks for the residuals: no copy.
	_, internal := any(in.Left).([]jsontape.Elem)
	m := t.First()
	if m == nil {
		return DifferenceResult{Valid: true, ReferenceVersion: ReferenceVersion}, nil
	}
	if !internal {
		t.Rebase(array("/left", slices.Clone(in.Left)), array("/right", slices.Clone(in.Right)))
	}
	d := &DifferenceDiscrepancy{Path: m.Path, Expected: m.Expected, Actual: m.Actual}
	return DifferenceResult{Reason: ClaimMismatch, Discrepancy: d, ReferenceVersion: ReferenceVersion, tally: t}, nil
}

// Residuals returns the residuals an invalid claim should have had: the
// expected left_only and right_only lists, in canonical form, computed on
// each call from the result's own copies of left and right (see
// [CheckDifference]), in about two thirds of the check's time. Both are nil
// for a valid result, whose residuals are the claim's own lists, and for a
// zero result.
func (r DifferenceResult) Residuals() (leftOnly, rightOnly []canon.Scalar) {
	if r.Valid || r.tally == nil {
		return nil, nil
	}
	return r.tally.Residuals()
}

// Err returns nil for a valid claim, and otherwise an error whose message
// reads as a test failure and which wraps [ErrRejected]. The zero result
// (what a check returns with an error) is not valid: its Err is not nil
// either. A message reads
//
//	claim.left_only[0] is missing; expected 1 (at /left_only/0)
func (r DifferenceResult) Err() error { return resultErr(r.Valid, r.Discrepancy) }

// String returns "valid", or the message of r.Err().
func (r DifferenceResult) String() string { return resultString(r.Err()) }

// String describes the mismatch in one line.
func (d DifferenceDiscrepancy) String() string {
	list, idx := "claim", d.Path
	if i := lastSlash(d.Path); i > 0 {
		list, idx = "claim."+d.Path[1:i], d.Path[i+1:]
	}
	at := list + "[" + idx + "]"
	switch {
	case d.Actual == nil && d.Expected == nil:
		return at + " differs (at " + d.Path + ")"
	case d.Actual == nil:
		return at + " is missing; expected " + d.Expected.String() + " (at " + d.Path + ")"
	case d.Expected == nil:
		return at + " is " + d.Actual.String() + " but the residual has no element there (at " + d.Path + ")"
	}
	return at + " is " + d.Actual.String() + "; expected " + d.Expected.String() + " (at " + d.Path + ")"
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// MarshalJSON returns r.AppendJSON(nil).
func (r DifferenceResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON appends the tool's output document, written from r's fields in
// the output schema's order: valid, reason, discrepancy, reference_version.
// A result that is not a verdict — the zero value, or fields that contradict
// each other — is refused with an error and dst is returned unchanged.
func (r DifferenceResult) AppendJSON(dst []byte) ([]byte, error) {
	return appendResult(dst, r.Valid, r.Reason, r.Discrepancy, r.ReferenceVersion)
}

// MarshalJSON returns {"path":...,"expected":E,"actual":A}.
func (d DifferenceDiscrepancy) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d DifferenceDiscrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsonwire.AppendString(dst, d.Path)
	dst = append(dst, `,"expected":`...)
	dst = appendScalarOrNull(dst, d.Expected)
	dst = append(dst, `,"actual":`...)
	dst = appendScalarOrNull(dst, d.Actual)
	return append(dst, '}')
}
