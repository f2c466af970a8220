package multiset

import (
	"encoding/json"
	"reflect"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// array reads a typed input array: each element is converted with canon.Of
// when the engine visits it, once.
func array(path string, xs []any) bag.Array {
	return bag.Array{Path: path, N: len(xs), At: func(i int) (canon.Scalar, error) {
		s, err := canon.Of(xs[i])
		if err != nil {
			return s, withPath(err, path, i)
		}
		return s, nil
	}}
}

// typedArray reads an [Element] slice without boxing each element into an
// interface (which would allocate per element): the element kind is looked
// up once and each element read through reflect. The conversions are
// canon.Of's: json.Number, though a string kind, is a number literal.
func typedArray[T Element](path string, xs []T) bag.Array {
	v := reflect.ValueOf(xs)
	typ := v.Type().Elem()
	kind := typ.Kind()
	if typ == reflect.TypeFor[json.Number]() {
		kind = reflect.Invalid // read as a number literal below
	}
	return bag.Array{Path: path, N: len(xs), At: func(i int) (canon.Scalar, error) {
		e := v.Index(i)
		var s canon.Scalar
		var err error
		switch kind {
		case reflect.Bool:
			return canon.BoolScalar(e.Bool()), nil
		case reflect.String:
			s, err = canon.StringScalar(e.String())
		case reflect.Invalid:
			s, err = canon.ParseNumber(e.String())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s, err = canon.NumberScalar(float64(e.Int()))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			s, err = canon.NumberScalar(float64(e.Uint()))
		default: // float32, float64
			s, err = canon.NumberScalar(e.Float())
		}
		if err != nil {
			return s, withPath(err, path, i)
		}
		return s, nil
	}}
}

// withPath returns a copy of canon's error placed at element i of path.
func withPath(err error, path string, i int) error {
	e := *err.(*claimcheck.Error)
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
