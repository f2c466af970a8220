package multiset

import (
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// array reads a typed input array ([]any or an [Element] slice): each
// element is converted with canon.Of when the engine visits it, once.
func array[T any](path string, xs []T) bag.Array {
	return bag.Array{Path: path, N: len(xs), At: func(i int) (canon.Scalar, error) {
		s, err := canon.Of(xs[i])
		if err != nil {
			return s, withPath(err, path, i)
		}
		return s, nil
	}}
}

// withPath returns a copy of canon's error placed at element i of path.
func withPath(err error, path string, i int) error {
	e := *err.(*errs.Error)
	e.Path = errs.Index(path, i)
	return &e
}

func (l Limits) bag() bag.Limits {
	return bag.Limits{MaxItems: l.maxItems(), MaxDistinct: l.maxDistinct()}
}

func equalityResult(m *bag.EqualityMismatch) EqualityResult {
	if m == nil {
		return EqualityResult{Valid: true, ReferenceVersion: ReferenceVersion}
	}
	d := &EqualityDiscrepancy{Path: m.Path, Value: m.Value, Expected: m.Expected, Actual: m.Actual}
	return EqualityResult{Reason: ClaimMismatch, Discrepancy: d, ReferenceVersion: ReferenceVersion}
}

func differenceResult(m *bag.DifferenceMismatch) DifferenceResult {
	if m == nil {
		return DifferenceResult{Valid: true, ReferenceVersion: ReferenceVersion}
	}
	d := &DifferenceDiscrepancy{Path: m.Path, Expected: m.Expected, Actual: m.Actual}
	return DifferenceResult{Reason: ClaimMismatch, Discrepancy: d, ReferenceVersion: ReferenceVersion}
}
