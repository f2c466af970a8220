// Package canonhook hands this module's internal packages what package
// canon's API keeps from everyone else: a conversion of the JSON reader's
// elements that trusts what the reader saw, so that a string the reader
// found to be plain ASCII is not checked as UTF-8 a second time, and where
// in a Scalar its number is held (NumOffset), for the engine's keys.
//
// A canon.Scalar is valid whoever made it (a finite number, a valid UTF-8
// string); that is canon's guarantee, and a constructor that skipped the
// check could not be exported without breaking it. The trust lives here
// instead: an internal package, which no program outside the module can
// import, and whose elements (internal/jsontape's) no program outside the
// module can make either. Package canon sets the variables when it is
// initialized, so every package that imports canon finds them set.
package canonhook

// ElemScalars is package canon's
//
//	func(es []jsontape.Elem, dst []canon.Scalar) int
//
// (typed any here: this package cannot import canon, which imports it). It
// converts es[0], es[1], ... into dst, in order, for as long as each is an
// element whose Scalar the reader's flags vouch for without a further
// check, and returns how many it converted: at most min(len(es), len(dst)).
// It stops at the first other element (a number without jsontape.HasNum, a
// string with an escape or a non-ASCII byte, an array, an object), which
// the caller converts by the general path, with its errors.
var ElemScalars any

// NumOffset is the offset, in a canon.Scalar, of the float64 that holds a
// Number's value and a Bool's 1 or 0, and is 0 in null and in a string;
// package canon sets it. Package bag reads that word's bits straight from
// a Scalar, to key a null, a boolean or a number without a branch on
// which, and checks when it is initialized that its own copy of the
// layout has the word where canon says.
var NumOffset uintptr
