package multiset

import (
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/jsonw"
)

// DifferenceInput is the input of multiset-difference-check. Elements are
// the Go values [canon.Of] accepts; a nil slice is an empty array.
type DifferenceInput struct {
	Left  []any           `json:"left"`
	Right []any           `json:"right"`
	Claim DifferenceClaim `json:"claim"`
}

// DifferenceClaim is the claimed pair of residuals.
type DifferenceClaim struct {
	LeftOnly  []any `json:"left_only"`
	RightOnly []any `json:"right_only"`
}

// DifferenceResult is the verdict of [CheckDifference]. AppendJSON writes
// the tool's output document, byte for byte; json.Marshal gives the same JSON
// value (encoding/json HTML-escapes <, > and & inside strings).
type DifferenceResult struct {
	Valid bool `json:"valid"`
	// Reason is ClaimMismatch when the claim is not valid, else "".
	Reason Reason `json:"reason,omitempty"`
	// Discrepancy is the first differing position, nil when valid.
	Discrepancy      *DifferenceDiscrepancy `json:"discrepancy,omitempty"`
	ReferenceVersion string                 `json:"reference_version"`
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

// CheckDifference checks a claimed bag difference with [DefaultLimits]. See
// [Limits.CheckDifference].
func CheckDifference(in DifferenceInput) (DifferenceResult, error) {
	return DefaultLimits.CheckDifference(in)
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
// by element. Otherwise the discrepancy is the first index where they differ,
// all of left_only before right_only.
//
// The error, an *[claimcheck.Error], is for input the check refuses: for left, right,
// claim.left_only and claim.right_only in turn, the array over MaxItems
// (limit max_items), its first element that is not a scalar, the array over
// MaxDistinct (limit max_distinct). Time is linear in the number of
// elements, memory in the number of distinct values.
func (l Limits) CheckDifference(in DifferenceInput) (DifferenceResult, error) {
	arrays := [4]bag.Array{
		array("/left", in.Left),
		array("/right", in.Right),
		array("/claim/left_only", in.Claim.LeftOnly),
		array("/claim/right_only", in.Claim.RightOnly),
	}
	return l.difference(&arrays)
}

// CheckDifferenceScalars is [Limits.CheckDifference] over Scalars that are
// already canonical: no conversion, no element errors; the error, an
// *[claimcheck.Error], is for an array over the limits.
func (l Limits) CheckDifferenceScalars(left, right, leftOnly, rightOnly []canon.Scalar) (DifferenceResult, error) {
	arrays := [4]bag.Array{
		bag.Scalars("/left", left),
		bag.Scalars("/right", right),
		bag.Scalars("/claim/left_only", leftOnly),
		bag.Scalars("/claim/right_only", rightOnly),
	}
	return l.difference(&arrays)
}

func (l Limits) difference(arrays *[4]bag.Array) (DifferenceResult, error) {
	m, err := bag.Difference(l.bag(), arrays)
	if err != nil {
		return DifferenceResult{}, err
	}
	return differenceResult(m), nil
}

// Err returns nil for a valid claim, and otherwise an error whose message
// reads as a test failure. The zero result (what a check returns with an
// error) is not valid: its Err is not nil either. A message reads
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
		return at + " is missing; expected " + d.Expected.Key() + " (at " + d.Path + ")"
	case d.Expected == nil:
		return at + " is " + d.Actual.Key() + " but the residual has no element there (at " + d.Path + ")"
	}
	return at + " is " + d.Actual.Key() + "; expected " + d.Expected.Key() + " (at " + d.Path + ")"
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
func (r DifferenceResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the output document, members in the output schema's
// order: valid, reason, discrepancy, reference_version.
func (r DifferenceResult) AppendJSON(dst []byte) []byte {
	dst = appendResultHead(dst, r.Valid)
	if d := r.Discrepancy; !r.Valid && d != nil {
		dst = append(dst, `,"discrepancy":`...)
		dst = d.appendJSON(dst)
	}
	return appendResultTail(dst)
}

// MarshalJSON returns {"path":...,"expected":E,"actual":A}.
func (d DifferenceDiscrepancy) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d DifferenceDiscrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsonw.AppendString(dst, d.Path)
	dst = append(dst, `,"expected":`...)
	dst = appendScalarOrNull(dst, d.Expected)
	dst = append(dst, `,"actual":`...)
	dst = appendScalarOrNull(dst, d.Actual)
	return append(dst, '}')
}
