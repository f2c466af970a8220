package multiset

import (
	"errors"
	"strconv"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
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

// DifferenceResult is the verdict of [CheckDifference]. json.Marshal of it
// is exactly the tool's output document.
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
// The error, an *[Error], is for input the check refuses: for left, right,
// claim.left_only and claim.right_only in turn, the array over MaxItems
// (limit max_items), its first element that is not a scalar, the array over
// MaxDistinct (limit max_distinct). Time is linear in the number of
// elements, memory in the number of distinct values.
func (l Limits) CheckDifference(in DifferenceInput) (DifferenceResult, error) {
	arrays := [4]array{
		fromAny(in.Left, "/left", l),
		fromAny(in.Right, "/right", l),
		fromAny(in.Claim.LeftOnly, "/claim/left_only", l),
		fromAny(in.Claim.RightOnly, "/claim/right_only", l),
	}
	return l.difference(&arrays)
}

// CheckDifferenceScalars is [Limits.CheckDifference] over Scalars that are
// already canonical: no conversion, no element errors.
func (l Limits) CheckDifferenceScalars(left, right, leftOnly, rightOnly []canon.Scalar) (DifferenceResult, error) {
	arrays := [4]array{
		fromScalars(left, "/left"),
		fromScalars(right, "/right"),
		fromScalars(leftOnly, "/claim/left_only"),
		fromScalars(rightOnly, "/claim/right_only"),
	}
	return l.difference(&arrays)
}

func (l Limits) difference(arrays *[4]array) (DifferenceResult, error) {
	ix := newIndex(arrays[0].elems)
	var ids [4][]int32
	for k := range arrays {
		if err := arrays[k].check(l); err != nil {
			return DifferenceResult{}, err
		}
		var err error
		if ids[k], err = ix.add(&arrays[k], l); err != nil {
			return DifferenceResult{}, err
		}
	}
	n := len(ix.vals)
	// rem counts, per value, the occurrences of the other side still to be
	// matched; it is filled for one walk and emptied by it.
	rem := make([]int32, n)
	var d *DifferenceDiscrepancy
	for side := 0; side < 2 && d == nil; side++ {
		self, other, claimed := ids[side], ids[1-side], ids[2+side]
		clear(rem)
		for _, id := range other {
			rem[id]++
		}
		i := 0 // index into the expected residual
		for _, id := range self {
			if rem[id] > 0 {
				rem[id]--
				continue
			}
			if i >= len(claimed) || claimed[i] != id {
				d = ix.discrepancy(side, i, &id, claimed)
				break
			}
			i++
		}
		if d == nil && i < len(claimed) {
			d = ix.discrepancy(side, i, nil, claimed)
		}
	}
	if d != nil {
		return DifferenceResult{Reason: ClaimMismatch, Discrepancy: d, ReferenceVersion: ReferenceVersion}, nil
	}
	return DifferenceResult{Valid: true, ReferenceVersion: ReferenceVersion}, nil
}

// discrepancy builds the discrepancy at index i of a residual: expected is
// the expected element's id (nil past its end), claimed the claimed list.
func (ix *index) discrepancy(side, i int, expected *int32, claimed []int32) *DifferenceDiscrepancy {
	list := "/left_only/"
	if side == 1 {
		list = "/right_only/"
	}
	d := &DifferenceDiscrepancy{Path: list + strconv.Itoa(i)}
	if expected != nil {
		v := ix.vals[*expected]
		d.Expected = &v
	}
	if i < len(claimed) {
		v := ix.vals[claimed[i]]
		d.Actual = &v
	}
	return d
}

// Err returns nil for a valid claim, and otherwise an error whose message
// reads as a test failure, such as
//
//	claim.left_only[0] is missing; expected 1 (at /left_only/0)
func (r DifferenceResult) Err() error {
	if r.Valid || r.Discrepancy == nil {
		return nil
	}
	return errors.New(r.Discrepancy.String())
}

// String returns "valid", or the message of r.Err().
func (r DifferenceResult) String() string {
	if err := r.Err(); err != nil {
		return err.Error()
	}
	return "valid"
}

// String describes the mismatch in one line.
func (d *DifferenceDiscrepancy) String() string {
	list, idx := "claim", d.Path
	if i := lastSlash(d.Path); i > 0 {
		list, idx = "claim."+d.Path[1:i], d.Path[i+1:]
	}
	at := list + "[" + idx + "]"
	switch {
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

func (d *DifferenceDiscrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = errs.AppendString(dst, d.Path)
	dst = append(dst, `,"expected":`...)
	dst = appendScalarOrNull(dst, d.Expected)
	dst = append(dst, `,"actual":`...)
	dst = appendScalarOrNull(dst, d.Actual)
	return append(dst, '}')
}
