package bag

import (
	"math"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// GoSlice is an input array given as a Go slice of one of the commonest
// element types, which the engine keys itself, a batch at a time, without
// a canon.Scalar per element and without a closure per array (which would
// be an allocation per check): at most one field is set. Each element is
// keyed as [AnyScalar] (for []any) or canon's constructor for its type
// converts it, and refused with the same error at the same path.
type GoSlice struct {
	Any     []any
	Strings []string
	Floats  []float64
	Ints    []int
	Int64s  []int64
}

// AnyScalar converts an element of a []any: the commonest types first,
// with canon's constructors inlined; canon.Of reads the same types the
// same way. The engine's keys for a []any and the caller's Fill both
// convert with it, so they agree.
func AnyScalar(x any) (canon.Scalar, error) {
	switch x := x.(type) {
	case float64:
		return canon.NumberScalar(x)
	case string:
		return canon.StringScalar(x)
	case nil:
		return canon.NullScalar(), nil
	case bool:
		return canon.BoolScalar(x), nil
	}
	return canon.Of(x)
}

// keys sets the first n keys of kb to the keys of the elements i, ...,
// i+n-1 of g, and reports whether g holds a slice; it returns the first
// element's error, at path.
func (g *GoSlice) keys(kb *Batch, path string, i, n int) (bool, error) {
	switch {
	case g.Any != nil:
		return true, anyKeys(kb, path, g.Any[i:i+n], i)
	case g.Strings != nil:
		return true, stringKeys(kb, path, g.Strings[i:i+n], i)
	case g.Floats != nil:
		return true, floatKeys(kb, path, g.Floats[i:i+n], i)
	case g.Ints != nil:
		return true, intKeys(kb, path, g.Ints[i:i+n], i)
	case g.Int64s != nil:
		return true, int64Keys(kb, path, g.Int64s[i:i+n], i)
	}
	return false, nil
}

func at(err error, path string, i int) error {
	return errs.At(err, errs.Index(path, i))
}

func anyKeys(kb *Batch, path string, xs []any, i int) error {
	for k, x := range xs {
		ok := true
		switch x := x.(type) {
		case float64:
			// SetNumber and SetString's commonest paths, inline: a call
			// per element is a tenth of its keying.
			if x-x == 0 {
				a := math.Float64bits(x + 0)
				kb.k[uint(k)%batch] = key{a: a, tag: tagNum, h: kb.h.hash(a, 0, tagNum)}
			} else {
				ok = false
			}
		case string:
			if n := len(x); uint(n-4) <= 4 {
				a := uint64(le32(x)) | uint64(le32(x[n-4:]))<<(8*(n-4)&63) // shortWord
				if a&ascii == 0 {
					tag := tagStr + uint32(n)
					kb.k[uint(k)%batch] = key{a: a, tag: tag, h: kb.h.hash(a, 0, tag)}
					break
				}
			}
			ok = kb.SetString(k, x)
		case nil:
			kb.SetNull(k)
		case bool:
			kb.SetBool(k, x)
		case int:
			ok = setInt(kb, k, int64(x))
		default:
			ok = false
		}
		if !ok {
			s, err := AnyScalar(x)
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
	return nil
}

func stringKeys(kb *Batch, path string, xs []string, i int) error {
	for k, x := range xs {
		if !kb.SetString(k, x) {
			s, err := canon.StringScalar(x)
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
	return nil
}

func floatKeys(kb *Batch, path string, xs []float64, i int) error {
	for k, x := range xs {
		if !kb.SetNumber(k, x) {
			s, err := canon.NumberScalar(x)
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
	return nil
}

// setInt sets key k to the key of the integer x when a double holds it
// exactly (converted back, it is the integer again), and reports whether
// it did; canon.IntScalar decides the others, refusing those it does not
// hold.
func setInt(kb *Batch, k int, x int64) bool {
	f := float64(x)
	return f < 1<<63 && int64(f) == x && kb.SetNumber(k, f)
}

func intKeys(kb *Batch, path string, xs []int, i int) error {
	for k, x := range xs {
		if !setInt(kb, k, int64(x)) {
			s, err := canon.IntScalar(int64(x))
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
	return nil
}

func int64Keys(kb *Batch, path string, xs []int64, i int) error {
	for k, x := range xs {
		if !setInt(kb, k, x) {
			s, err := canon.IntScalar(x)
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
	return nil
}
