package multiset

import (
	"encoding/json"
	"reflect"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/bag"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// array returns the engine's view of one input array: its path, its length
// and its elements, in the form the engine keys and converts itself where
// it can (a document's elements, []canon.Scalar, the commonest slices), or
// a Fill that converts a run of elements when the engine visits them (each
// once, and again only to write a discrepancy's value).
// Every input form goes through here, so each element type has one reading:
//
//   - []any: canon.Of on each element (float64, string, nil and bool
//     inline, with the same constructors canon.Of calls);
//   - []canon.Scalar: as it is;
//   - []jsontape.Elem, the elements package schema reads from a document:
//     their JSON text, or the double the reader computed for a number;
//   - slices of bool, string, integer, float and json.Number types, named or
//     not, and of canon.ExactNumber: read through reflect without boxing
//     each element;
//   - anything else: every element is refused as not a scalar.
func array[T any](path string, xs []T) bag.Array {
	a := bag.Array{Path: path, N: len(xs)}
	// A document's elements and the commonest slice types are keyed and
	// converted by the engine, without a closure (an allocation per array
	// per check). The switch is on a pointer to xs, which does not escape:
	// a slice in an interface would be boxed, another allocation per array.
	switch p := any(&xs).(type) {
	case *[]jsontape.Elem:
		a.Elems = *p
		return a
	case *[]any:
		a.Go.Any = *p
		return a
	case *[]canon.Scalar:
		a.Scalars = *p // keyed in place
		return a
	case *[]string:
		a.Go.Strings = *p
		return a
	case *[]int:
		a.Go.Ints = *p
		return a
	case *[]int64:
		a.Go.Int64s = *p
		return a
	case *[]float64:
		a.Go.Floats = *p
		return a
	}
	switch xs := any(xs).(type) {
	case []json.Number:
		a.Fill = fill(path, xs, func(x json.Number) (canon.Scalar, error) { return canon.ParseNumber(string(x)) })
	case []canon.ExactNumber:
		a.Fill = fill(path, xs, func(x canon.ExactNumber) (canon.Scalar, error) { return canon.Of(x) })
	default:
		conv := reflectAt(xs)
		a.Fill = func(i int, dst []canon.Scalar) error {
			for k := range dst {
				s, err := conv(i + k)
				if err != nil {
					return at(err, path, i+k)
				}
				dst[k] = s
			}
			return nil
		}
	}
	return a
}

// fill returns a bag.Array's Fill for a slice whose elements conv converts.
func fill[E any](path string, xs []E, conv func(E) (canon.Scalar, error)) func(int, []canon.Scalar) error {
	return func(i int, dst []canon.Scalar) error {
		for k := range dst {
			s, err := conv(xs[i+k])
			if err != nil {
				return at(err, path, i+k)
			}
			dst[k] = s
		}
		return nil
	}
}

// residual returns the engine's view of a claimed residual of base (left
// or right): array, with a Same that compares elements as Go values, where
// that is cheap and exact. Two equal Go values of these types are the same
// JSON scalar: == on interfaces compares dynamic types first, and an
// element of base that converted is of a comparable type, so == cannot
// panic; NaN, the one value not == to itself, never converts.
//
// Same is set only where the claimed elements and base have the same Go type;
// otherwise every claimed element is converted and looked up.
func residual[T, C any](path string, xs []C, baseT []T) bag.Array {
	a := array(path, xs)
	if a.Elems != nil {
		return a // the engine compares document elements itself
	}
	base, ok := any(baseT).([]C)
	if !ok {
		return a
	}
	switch xs := any(xs).(type) {
	case []any:
		base := any(base).([]any)
		a.Same = func(i int, js []int32) int {
			for k, j := range js {
				// The commonest types compared inline, the rest by ==.
				switch x := xs[i+k].(type) {
				case float64:
					if y, ok := base[j].(float64); !ok || x != y {
						return k
					}
				case string:
					if y, ok := base[j].(string); !ok || x != y {
						return k
					}
				default:
					if x != base[j] {
						return k
					}
				}
			}
			return len(js)
		}
	case []jsontape.Elem:
		// Compared by the engine itself, by their text (bag.Array.Elems).
	case []canon.Scalar:
		a.Same = sameComparable(xs, any(base).([]canon.Scalar))
	case []string:
		a.Same = sameComparable(xs, any(base).([]string))
	case []int:
		a.Same = sameComparable(xs, any(base).([]int))
	case []int64:
		a.Same = sameComparable(xs, any(base).([]int64))
	case []float64:
		a.Same = sameComparable(xs, any(base).([]float64))
	case []json.Number:
		a.Same = sameComparable(xs, any(base).([]json.Number))
	}
	return a
}

func sameComparable[E comparable](xs, base []E) func(int, []int32) int {
	return func(i int, js []int32) int {
		for k, j := range js {
			if xs[i+k] != base[j] {
				return k
			}
		}
		return len(js)
	}
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
