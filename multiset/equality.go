package multiset

import (
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/jsonw"
)

// EqualityInput is the input of multiset-equality-check. Elements are the
// Go values [canon.Of] accepts; a nil slice is an empty array.
type EqualityInput struct {
	Source []any `json:"source"`
	Claim  []any `json:"claim"`
}

// EqualityResult is the verdict of [CheckEquality]. AppendJSON writes the
// tool's output document, byte for byte; json.Marshal gives the same JSON
// value (encoding/json HTML-escapes <, > and & inside strings).
type EqualityResult struct {
	Valid bool `json:"valid"`
	// Reason is ClaimMismatch when the claim is not valid, else "".
	Reason Reason `json:"reason,omitempty"`
	// Discrepancy is the first mismatch, nil when the claim is valid.
	Discrepancy      *EqualityDiscrepancy `json:"discrepancy,omitempty"`
	ReferenceVersion string               `json:"reference_version"`
}

// EqualityDiscrepancy is the first value whose counts differ. In the output
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

// CheckEquality reports whether every scalar occurs as often in in.Claim as
// in in.Source, with [DefaultLimits]. See [Limits.CheckEquality].
func CheckEquality(in EqualityInput) (EqualityResult, error) {
	return DefaultLimits.CheckEquality(in)
}

// CheckEquality reports whether every canonical scalar occurs the same number
// of times in in.Source and in.Claim. When it does not, the discrepancy is
// the first mismatch in this order:
//
//  1. the distinct values of source in order of first occurrence: the first
//     whose counts differ, at path /source/I (I its first index in source);
//  2. the values of claim that never occur in source, in order of first
//     occurrence in claim, at path /claim/J.
//
// The error, an *[claimcheck.Error], is for input the check refuses, in this order:
// source over MaxItems (path /source, limit max_items), an element of source
// that is not a scalar (path /source/I), source over MaxDistinct (path
// /source, limit max_distinct); then the same for claim. Time is linear in
// the number of elements, memory in the number of distinct values.
func (l Limits) CheckEquality(in EqualityInput) (EqualityResult, error) {
	src, claim := array("/source", in.Source), array("/claim", in.Claim)
	return l.equality(&src, &claim)
}

// CheckEqualityScalars is [Limits.CheckEquality] over Scalars that are
// already canonical: no conversion, no element errors; the error, an
// *[claimcheck.Error], is for an array over the limits.
func (l Limits) CheckEqualityScalars(source, claim []canon.Scalar) (EqualityResult, error) {
	src, c := bag.Scalars("/source", source), bag.Scalars("/claim", claim)
	return l.equality(&src, &c)
}

func (l Limits) equality(src, claim *bag.Array) (EqualityResult, error) {
	m, err := bag.Equality(l.bag(), src, claim)
	if err != nil {
		return EqualityResult{}, err
	}
	return equalityResult(m), nil
}

// Err returns nil for a valid claim, and otherwise an error whose message
// reads as a test failure. The zero result (what a check returns with an
// error) is not valid: its Err is not nil either. A message reads
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
	return "claim has " + occurrences(d.Actual) + " of " + d.Value.Key() + " where source has " + src + " (first at " + d.Path + ")"
}

func occurrences(n int) string {
	if n == 1 {
		return "1 occurrence"
	}
	return itoa(n) + " occurrences"
}

// MarshalJSON returns r.AppendJSON(nil).
func (r EqualityResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the output document, members in the output schema's
// order: valid, reason, discrepancy, reference_version.
func (r EqualityResult) AppendJSON(dst []byte) []byte {
	dst = appendResultHead(dst, r.Valid)
	if d := r.Discrepancy; !r.Valid && d != nil {
		dst = append(dst, `,"discrepancy":`...)
		dst = d.appendJSON(dst)
	}
	return appendResultTail(dst)
}

// MarshalJSON returns {"path":...,"expected":"S","actual":"C"}.
func (d EqualityDiscrepancy) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d EqualityDiscrepancy) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsonw.AppendString(dst, d.Path)
	dst = append(dst, `,"expected":"`...)
	dst = appendInt(dst, d.Expected)
	dst = append(dst, `","actual":"`...)
	dst = appendInt(dst, d.Actual)
	return append(dst, `"}`...)
}
