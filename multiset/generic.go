package multiset

import "github.com/claimcheck/claimcheck/internal/bag"

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
	src, c := array("/source", source), array("/claim", claim)
	return DefaultLimits.equality(&src, &c)
}

// CheckDifferenceOf is [CheckDifference] for typed slices, with
// [DefaultLimits].
func CheckDifferenceOf[T Element](left, right, leftOnly, rightOnly []T) (DifferenceResult, error) {
	arrays := [4]bag.Array{
		array("/left", left),
		array("/right", right),
		array("/claim/left_only", leftOnly),
		array("/claim/right_only", rightOnly),
	}
	return DefaultLimits.difference(&arrays)
}
