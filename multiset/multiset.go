package multiset

import (
	"errors"
	"math"
	"strconv"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// ReferenceVersion is the reference_version of both multiset tools' outputs.
const ReferenceVersion = "ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"

// Limits bounds the size of a check. A zero (or negative) field means the
// tool's bound, the field of [DefaultLimits] (10000); [NoLimit] means no
// bound but memory. That is what a zero field means wherever a Limits is
// taken, claimchecktest's Limits option included. MaxItems is held at
// 2^30 − 1 (1,073,741,823): the engine numbers the elements of both arrays
// of an equality check together, in 32 bits, so a longer array is over the
// limit max_items whatever MaxItems says. The JSON tools (package schema,
// the CLI, the HTTP handler) always use the descriptors' limits, whatever
// these are.
type Limits struct {
	// MaxItems is the largest length of each input array (limit max_items).
	MaxItems int
	// MaxDistinct is the largest number of distinct values in each input
	// array (limit max_distinct).
	MaxDistinct int
}

// NoLimit is the [Limits] field that bounds nothing: the check is bounded
// by memory alone (and MaxItems by its hold at 2^30 − 1).
//
//	multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: multiset.NoLimit}
const NoLimit = math.MaxInt

// DefaultLimits returns the descriptors' limits, which a zero field of a
// [Limits] stands for: 10000 items and 10000 distinct values per array. It
// is a function, so that no package of a program can change what every
// check in it enforces.
func DefaultLimits() Limits { return Limits{MaxItems: 10000, MaxDistinct: 10000} }

// maxItemsCap is the largest MaxItems honoured.
const maxItemsCap = 1<<30 - 1

func (l Limits) bag() bag.Limits {
	d := DefaultLimits()
	if l.MaxItems <= 0 {
		l.MaxItems = d.MaxItems
	}
	l.MaxItems = min(l.MaxItems, maxItemsCap)
	if l.MaxDistinct <= 0 {
		l.MaxDistinct = d.MaxDistinct
	}
	return bag.Limits{MaxItems: l.MaxItems, MaxDistinct: l.MaxDistinct}
}

// Reason says why a claim is not valid.
type Reason string

// ClaimMismatch is the one reason of both multiset tools.
const ClaimMismatch Reason = "claim_mismatch"

// ErrRejected is the error every non-nil Err of a result wraps:
// errors.Is(res.Err(), ErrRejected) reports that the claim does not hold.
// The zero result (what a check returns with an error) is not a pass: its
// Err wraps ErrRejected too. It is [claimcheck.ErrRejected], the one
// rejection sentinel of every package, under this package's name.
var ErrRejected = claimcheck.ErrRejected

// errNoVerdict is what AppendJSON and MarshalJSON return for a result that
// is not a verdict: the zero value, or fields that contradict each other.
var errNoVerdict = errors.New("multiset: no verdict: the result is a zero value, or its fields contradict each other")

// mismatch is a result's Err: its message reads as a test failure.
type mismatch struct{ msg string }

func (e *mismatch) Error() string { return e.msg }
func (e *mismatch) Unwrap() error { return ErrRejected }

// resultErr is a result's Err: nil when valid, the discrepancy's description
// otherwise, and "no verdict" for a zero result.
func resultErr[D interface{ String() string }](valid bool, d *D) error {
	switch {
	case valid:
		return nil
	case d == nil:
		return &mismatch{"no verdict: the result is a zero value (did the check return an error?)"}
	}
	return &mismatch{(*d).String()}
}

func resultString(err error) string {
	if err != nil {
		return err.Error()
	}
	return "valid"
}

func itoa(n int) string { return strconv.Itoa(n) }

// appendResult appends the output document of either result type: valid,
// reason, discrepancy, reference_version, in the output schema's order. A
// result whose fields are not a verdict — valid with no reason and no
// discrepancy, or invalid with both; and a reference version — is refused.
func appendResult[D interface{ appendJSON([]byte) []byte }](dst []byte, valid bool, reason Reason, d *D, refVersion string) ([]byte, error) {
	if refVersion == "" || valid != (reason == "") || valid != (d == nil) {
		return dst, errNoVerdict
	}
	if valid {
		dst = append(dst, `{"valid":true`...)
	} else {
		dst = append(dst, `{"valid":false,"reason":`...)
		dst = jsonwire.AppendString(dst, string(reason))
		dst = append(dst, `,"discrepancy":`...)
		dst = (*d).appendJSON(dst)
	}
	if refVersion == ReferenceVersion {
		return append(dst, refVersionTail...), nil
	}
	dst = append(dst, `,"reference_version":`...)
	dst = jsonwire.AppendString(dst, refVersion)
	return append(dst, '}'), nil
}

// refVersionTail ends every document of a Result that carries
// ReferenceVersion: written once, not escaped again for every answer.
var refVersionTail = string(append(jsonwire.AppendString([]byte(`,"reference_version":`), ReferenceVersion), '}'))

func appendScalarOrNull(dst []byte, s *canon.Scalar) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return (*scalar.Scalar)(s).AppendJSON(dst) // s.MarshalJSON's text, without its allocation
}

func appendInt(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }
