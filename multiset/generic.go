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
// []string, with [DefaultLimits], without boxing the elements. The error is
// an *[claimcheck.Error], as for CheckEquality.
func CheckEqualityOf[T Element](source, claim []T) (EqualityResult, error) {
	src, c := typedArray("/source", source), typedArray("/claim", claim)
	return DefaultLimits.equality(&src, &c)
}

// CheckDifferenceOf is [CheckDifference] for typed slices, with
// [DefaultLimits], without boxing the elements. The error is an *[claimcheck.Error], as
// for CheckDifference.
func CheckDifferenceOf[T Element](left, right, leftOnly, rightOnly []T) (DifferenceResult, error) {
	arrays := [4]bag.Array{
		typedArray("/left", left),
		typedArray("/right", right),
		typedArray("/claim/left_only", leftOnly),
		typedArray("/claim/right_only", rightOnly),
	}
	return DefaultLimits.difference(&arrays)
}
