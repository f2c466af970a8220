package multiset

import (
	"encoding/json"
	"reflect"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontext"
)

// array returns the engine's view of one input array: its path, its length
// and an accessor that converts element i when the engine visits it (once).
// Every input form goes through here, so each element type has one reading:
//
//   - []any: canon.Of on each element;
//   - []canon.Scalar: as it is;
//   - []jsontext.Elem, the elements package schema reads from a document:
//     their JSON text;
//   - slices of bool, string, integer, float and json.Number types, named or
//     not: read through reflect without boxing each element;
//   - anything else: every element is refused as not a scalar.
func array[T any](path string, xs []T) bag.Array {
	a := bag.Array{Path: path, N: len(xs)}
	switch xs := any(xs).(type) {
	case []any:
		a.At = func(i int) (canon.Scalar, error) { s, err := canon.Of(xs[i]); return s, at(err, path, i) }
	case []canon.Scalar:
		a.At = func(i int) (canon.Scalar, error) { return xs[i], nil }
	case []jsontext.Elem:
		a.At = func(i int) (canon.Scalar, error) { return elemScalar(path, i, &xs[i]) }
	case []string:
		a.At = func(i int) (canon.Scalar, error) { s, err := canon.StringScalar(xs[i]); return s, at(err, path, i) }
	case []int:
		a.At = func(i int) (canon.Scalar, error) { s, err := canon.IntScalar(int64(xs[i])); return s, at(err, path, i) }
	case []int64:
		a.At = func(i int) (canon.Scalar, error) { s, err := canon.IntScalar(xs[i]); return s, at(err, path, i) }
	case []float64:
		a.At = func(i int) (canon.Scalar, error) { s, err := canon.NumberScalar(xs[i]); return s, at(err, path, i) }
	case []json.Number:
		a.At = func(i int) (canon.Scalar, error) {
			s, err := canon.ParseNumber(string(xs[i]))
			return s, at(err, path, i)
		}
	default:
		conv := reflectAt(xs)
		a.At = func(i int) (canon.Scalar, error) { s, err := conv(i); return s, at(err, path, i) }
	}
	return a
}

// at places canon's error (which has no path) at element i of path; nil
// stays nil.
func at(err error, path string, i int) error {
	if err == nil {
		return nil
	}
	return errs.At(err, errs.Index(path, i))
}

// reflectAt reads the elements of a slice of any other type: the element
// kind is looked up once and each element read through reflect, with the
// conversions of canon.Of.
func reflectAt(xs any) func(i int) (canon.Scalar, error) {
	v := reflect.ValueOf(xs)
	typ := v.Type().Elem()
	switch typ.Kind() {
	case reflect.Bool:
		return func(i int) (canon.Scalar, error) { return canon.BoolScalar(v.Index(i).Bool()), nil }
	case reflect.String: // a named string type; []json.Number is read above
		return func(i int) (canon.Scalar, error) { return canon.StringScalar(v.Index(i).String()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(i int) (canon.Scalar, error) { return canon.IntScalar(v.Index(i).Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(i int) (canon.Scalar, error) { return canon.UintScalar(v.Index(i).Uint()) }
	case reflect.Float32:
		return func(i int) (canon.Scalar, error) { return canon.Float32Scalar(float32(v.Index(i).Float())) }
	case reflect.Float64:
		return func(i int) (canon.Scalar, error) { return canon.NumberScalar(v.Index(i).Float()) }
	}
	// Interfaces other than any, pointers, maps, structs...: canon.Of says
	// why each element is refused.
	return func(i int) (canon.Scalar, error) { return canon.Of(v.Index(i).Interface()) }
}

// elemScalar converts one array element of a JSON document; an element that
// is an array or object, whatever it holds, is refused at its own path.
func elemScalar(path string, i int, e *jsontext.Elem) (canon.Scalar, error) {
	var s canon.Scalar
	var err error
	switch e.Kind {
	case jsontext.Null:
		return s, nil
	case jsontext.False:
		return canon.BoolScalar(false), nil
	case jsontext.True:
		return canon.BoolScalar(true), nil
	case jsontext.Number:
		s, err = canon.ParseNumber(e.Raw)
	case jsontext.String:
		s, err = canon.StringScalar(e.Str())
	case jsontext.Array:
		return s, errs.Invalid(errs.Index(path, i), "element is an array, not a scalar")
	default:
		return s, errs.Invalid(errs.Index(path, i), "element is an object, not a scalar")
	}
	if err != nil {
		return s, errs.At(err, errs.Index(path, i))
	}
	return s, nil
}
