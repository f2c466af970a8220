package multiset

import (
	"errors"
	"strconv"

	"github.com/claimcheck/claimcheck/canon"
)

// ReferenceVersion is the reference_version of both multiset tools' outputs.
const ReferenceVersion = "ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"

// Limits bounds the size of a check. A zero field means the descriptor's
// value, 10000. Raise them for large bags in grading code; the JSON tools
// (package schema, the CLI, the HTTP handler) always use the descriptors'.
type Limits struct {
	// MaxItems is the largest length of each input array (limit max_items).
	MaxItems int
	// MaxDistinct is the largest number of distinct values in each input
	// array (limit max_distinct).
	MaxDistinct int
}

// DefaultLimits are the descriptors' limits.
var DefaultLimits = Limits{MaxItems: 10000, MaxDistinct: 10000}

func (l Limits) maxItems() int {
	if l.MaxItems <= 0 {
		return DefaultLimits.MaxItems
	}
	return l.MaxItems
}

func (l Limits) maxDistinct() int {
	if l.MaxDistinct <= 0 {
		return DefaultLimits.MaxDistinct
	}
	return l.MaxDistinct
}

// Reason says why a claim is not valid.
type Reason string

// ClaimMismatch is the one reason of both multiset tools.
const ClaimMismatch Reason = "claim_mismatch"

// ErrRejected is the error every non-nil Err of a result wraps:
// errors.Is(res.Err(), ErrRejected) reports that the claim does not hold.
// The zero result (what a check returns with an error) is not a pass: its
// Err wraps ErrRejected too.
var ErrRejected = errors.New("multiset: claim rejected")

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
		return &mismatch{"no verdict: the check returned an error"}
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

// appendResultHead appends {"valid":...,"reason":... for a result.
func appendResultHead(dst []byte, valid bool) []byte {
	if valid {
		return append(dst, `{"valid":true`...)
	}
	return append(dst, `{"valid":false,"reason":"claim_mismatch"`...)
}

func appendResultTail(dst []byte) []byte {
	return append(dst, `,"reference_version":"`+ReferenceVersion+`"}`...)
}

func appendScalarOrNull(dst []byte, s *canon.Scalar) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return s.AppendKey(dst)
}

func appendInt(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }
