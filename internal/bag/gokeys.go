package bag

import (
	"math"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// GoSlice is an input array given as a Go slice of one of the commonest
// element types, which the engine keys itself, a batch at a time, without
// a canon.Scalar per element and without a closure per array (which would
// be an allocation per check): at most one field is set. Each element is
// keyed as [anyScalar] (for []any) or canon's constructor for its type
// converts it, and refused with the same error at the same path.
type GoSlice struct {
	Any     []any
	Strings []string
	Floats  []float64
	Ints    []int
	Int64s  []int64
}

// anyScalar converts an element of a []any: the commonest types first,
// with canon's constructors inlined; canon.Of reads the same types the
// same way. The engine's keys for a []any (anyKeys) and its conversions
// (GoSlice.fill) both follow it, so they agree.
func anyScalar(x any) (canon.Scalar, error) {
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

// fill converts the elements i, ..., i+len(dst)-1 of g into dst, as
// their keys are made, and reports whether g holds a slice; it returns the
// first element's error, at path.
func (g *GoSlice) fill(path string, i int, dst []canon.Scalar) (bool, error) {
	switch {
	case g.Any != nil:
		return true, convert(path, g.Any[i:i+len(dst)], i, dst, anyScalar)
	case g.Strings != nil:
		return true, convert(path, g.Strings[i:i+len(dst)], i, dst, canon.StringScalar)
	case g.Floats != nil:
		return true, convert(path, g.Floats[i:i+len(dst)], i, dst, canon.NumberScalar)
	case g.Ints != nil:
		return true, convert(path, g.Ints[i:i+len(dst)], i, dst, func(x int) (canon.Scalar, error) { return canon.IntScalar(int64(x)) })
	case g.Int64s != nil:
		return true, convert(path, g.Int64s[i:i+len(dst)], i, dst, canon.IntScalar)
	}
	return false, nil
}

func convert[E any](path string, xs []E, i int, dst []canon.Scalar, conv func(E) (canon.Scalar, error)) error {
	for k, x := range xs {
		s, err := conv(x)
		if err != nil {
			return at(err, path, i+k)
		}
		dst[k] = s
	}
	return nil
}

func at(err error, path string, i int) error {
	return errs.At(err, errs.Index(path, i))
}

func anyKeys(kb *Batch, path string, xs []any, i int) error {
	for k := 0; ; k++ {
		if k = anyKeysRun(kb, xs, k); k == len(xs) {
			return nil
		}
		x := xs[k]
		ok := true
		switch x := x.(type) {
		case string:
			ok = kb.SetString(k, x)
		case int:
			ok = setInt(kb, k, int64(x))
		default:
			ok = false
		}
		if !ok {
			s, err := anyScalar(x)
			if err != nil {
				return at(err, path, i+k)
			}
			kb.SetScalar(k, &s)
		}
	}
}

// anyKeysRun keys xs from k up to the first element that takes a call
// (not a finite float64, an ASCII string of 4 to 8 bytes, nil or a
// boolean), or the end, and returns where it stopped: SetNumber's,
// SetString's, SetNull's and SetBool's commonest paths, inline, in a loop
// without a call, which keeps its values in registers.
func anyKeysRun(kb *Batch, xs []any, k int) int {
	h := kb.h
	for ; k < len(xs); k++ {
		var a uint64
		var tag uint32
		switch x := xs[k].(type) {
		case float64:
			if x-x != 0 {
				return k
			}
			a, tag = math.Float64bits(x+0), tagNum
		case string:
			n := len(x)
			if uint(n-4) > 4 {
				return k
			}
			a = uint64(jsonwire.LE32(x)) | uint64(jsonwire.LE32(x[n-4:]))<<(8*(n-4)&63) // shortWord
			if a&ascii != 0 {
				return k
			}
			tag = tagStr + uint32(n)
		case nil:
			tag = tagNull
		case bool:
			if x {
				a = boolTrue
			}
			tag = tagBool
		default:
			return k
		}
		kb.k[uint(k)%batch] = key{a: a, tag: tag, h: h.hash(a, 0, tag)}
	}
	return k
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
