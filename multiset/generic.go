package multiset

import "github.com/claimcheck/claimcheck/canon"

// Element is the constraint of the generic helpers: Go types whose values are
// JSON scalars.
type Element interface {
	~bool | ~string |
		~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// CheckEqualityOf is [CheckEquality] for typed slices such as []int or
// []string, with [DefaultLimits].
func CheckEqualityOf[T Element](source, claim []T) (EqualityResult, error) {
	l := DefaultLimits
	s, c := fromSlice(source, "/source", l), fromSlice(claim, "/claim", l)
	return l.equality(&s, &c)
}

// CheckDifferenceOf is [CheckDifference] for typed slices, with
// [DefaultLimits].
func CheckDifferenceOf[T Element](left, right, leftOnly, rightOnly []T) (DifferenceResult, error) {
	l := DefaultLimits
	arrays := [4]array{
		fromSlice(left, "/left", l),
		fromSlice(right, "/right", l),
		fromSlice(leftOnly, "/claim/left_only", l),
		fromSlice(rightOnly, "/claim/right_only", l),
	}
	return l.difference(&arrays)
}

func fromSlice[T Element](xs []T, path string, lim Limits) array {
	a := array{path: path, n: len(xs)}
	if len(xs) > lim.maxItems() {
		return a
	}
	a.elems = make([]canon.Scalar, len(xs))
	for i, x := range xs {
		s, err := canon.Of(x)
		if err != nil {
			a.err = withPath(err, path, i)
			return a
		}
		a.elems[i] = s
	}
	return a
}
