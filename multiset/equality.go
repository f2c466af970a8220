package multiset

import (
	"iter"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// EqualityInput is the input of the multiset-equality-check tool: two arrays
// of JSON scalars. S and C are the element types of source and claim, the
// same or not (a []int reference against a decoded []any answer); see the
// package documentation for the types whose elements are scalars ([]any,
// []int, []string, []canon.Scalar, ...). A nil slice is an empty array. The json tags name the tool's document members,
// for decoding with encoding/json (which, unlike the JSON tools, is lenient:
// see package schema for the strict reading).
type EqualityInput[S, C any] struct {
	Source []S `json:"source"`
	Claim  []C `json:"claim"`
}

// EqualityResult is the verdict of [CheckEquality].
type EqualityResult struct {
	Valid bool
	// Reason is ClaimMismatch when the claim is not valid, else "".
	Reason Reason
	// Discrepancy is the first mismatch, nil when the claim is valid.
	Discrepancy *EqualityDiscrepancy
	// ReferenceVersion is [ReferenceVersion].
	ReferenceVersion string

	tally *bag.EqualityTally // every mismatch, values converted; nil when valid
}

// EqualityDiscrepancy is a value whose counts differ. In the output
// document it is {"path": Path, "expected": "Expected", "actual": "Actual"},
// the counts written as decimal strings.
type EqualityDiscrepancy struct {
	// Path is "/source/I", I the index of the value's first occurrence in
	// source, or "/claim/J" for a value that never occurs in source.
	Path string
	// Value is the value whose counts differ.
	Value canon.Scalar
	// Expected and Actual are its counts in source and in claim.
	Expected, Actual int
}

// CheckEquality reports whether every canonical scalar occurs the same number
// of times in in.Source and in in.Claim. When it does not, the result's
// Discrepancy is the first mismatch in this order:
//
//  1. the distinct values of source in order of first occurrence: the first
//     whose counts differ, at path /source/I (I its first index in source);
//  2. the values of claim that never occur in source, in order of first
//     occurrence in claim, at path /claim/J.
//
// [EqualityResult.Discrepancies] lists every mismatch in the same order.
//
// The error, an *[claimcheck.Error], is for input the check refuses, in this
// order: source over lim's MaxItems (path /source, limit max_items), an
// element of source that is not a scalar or not exact (path /source/I),
// source over MaxDistinct (path /source, limit max_distinct); then the same
// for claim. A zero field of lim means [DefaultLimits]'. Time is linear in
// the number of elements, memory in the number of distinct values.
//
// The result owns what it reports: an invalid result keeps every mismatch
// with its value converted, so nothing the caller does to in's slices after
// the call changes it. A valid result keeps nothing.
func CheckEquality[S, C any](in EqualityInput[S, C], lim Limits) (EqualityResult, error) {
	src, claim := array("/source", in.Source), array("/claim", in.Claim)
	t, err := bag.Equality(lim.bag(), &src, &claim)
	if err != nil {
		return EqualityResult{}, err
	}
	m := t.First()
	if m == nil {
		return EqualityResult{Valid: true, ReferenceVersion: ReferenceVersion}, nil
	}
	return EqualityResult{Reason: ClaimMismatch, Discrepancy: equalityDiscrepancy(m), ReferenceVersion: ReferenceVersion, tally: t}, nil
}

func equalityDiscrepancy(m *bag.EqualityMismatch) *EqualityDiscrepancy {
	return &EqualityDiscrepancy{Path: m.Path, Value: m.Value, Expected: m.Expected, Actual: m.Actual}
}

// Discrepancies yields every value whose counts differ, in the order of
// [CheckEquality]: its first is r.Discrepancy. It yields nothing for a valid
// result or a zero one. The mismatches were gathered by the check: listing
// them reads none of its input.
func (r EqualityResult) Discrepancies() iter.Seq[EqualityDiscrepancy] {
	return func(yield func(EqualityDiscrepancy) bool) {
		if r.tally == nil || r.Valid {
			return
		}
		r.tally.Mismatches(func(m bag.EqualityMismatch) bool {
			return yield(*equalityDiscrepancy(&m))
		})
	}
}

// Err returns nil for a valid claim, and otherwise an error whose message
// reads as a test failure and which wraps [ErrRejected]. The zero result
// (what a check returns with an error) is not valid: its Err is not nil
// either. A message reads
//
//	claim has 1 occurrence of 1 where source has 2 (first at /source/0)
func (r EqualityResult) Err() error { return resultErr(r.Valid, r.Discrepancy) }

// String returns "valid", or the message of r.Err().
func (r EqualityResult) String() string { return resultString(r.Err()) }

// String describes the mismatch in one line.
func (d EqualityDiscrepancy) String() string {
	src := "none"
	if d.Expected > 0 {
		src = itoa(d.Expected)
	}
	return "claim has " + occurrences(d.Actual) + " of " + d.Value.String() + " where source has " + src + " (first at " + d.Path + ")"
}

func occurrences(n int) string {
	if n == 1 {
		return "1 occurrence"
	}
	return itoa(n) + " occurrences"
}

// MarshalJSON returns r.AppendJSON(nil).
func (r EqualityResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON appends the tool's output document, written from r's fields in
// the output schema's order: valid, reason, discrepancy, reference_version.
// A result that is not a verdict — the zero value, or fields that contradict
// each other (valid with a discrepancy, invalid without one, no reference
// version) — is refused with an error and dst is returned unchanged.
func (r EqualityResult) AppendJSON(dst []byte) ([]byte, error) {
	return appendResult(dst, r.Valid, r.Reason, r.Discrepancy, r.ReferenceVersion)
}

// MarshalJSON returns {"path":...,"expected":"S","actual":"C"}.
func (d EqualityDiscrepancy) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d EqualityDiscrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsonwire.AppendString(dst, d.Path)
	dst = append(dst, `,"expected":"`...)
	dst = appendInt(dst, d.Expected)
	dst = append(dst, `","actual":"`...)
	dst = appendInt(dst, d.Actual)
	return append(dst, `"}`...)
}
