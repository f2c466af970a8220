package scalar

import (
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// What the reader's tape vouches for: a number whose double the reader
// computed (HasNum) is that literal's nearest double, so finite; a string
// without flags holds printable ASCII only (the reader saw no escape and
// no byte >= 0x80), so it is valid UTF-8 and its text is its value. Such
// elements are converted and keyed without a further check; every other
// element goes through [Elem].

// vouchedNum returns the double of a number element the reader vouches
// for.
func vouchedNum(e *jsontape.Elem) (float64, bool) {
	return e.Num, e.Kind == jsontape.Number && e.Flags&jsontape.HasNum != 0
}

// plain returns the value of a string element the reader vouches for.
func plain(e *jsontape.Elem) (string, bool) {
	if e.Kind != jsontape.String || e.Flags != 0 {
		return "", false
	}
	return e.Raw[1 : len(e.Raw)-1], true
}

// FromElem sets *dst to the Scalar of a document element the reader
// vouches for, or any null, true or false, and reports whether it did;
// [Elem] converts every other element, with its errors. The Scalar is
// the one Elem gives.
func FromElem(e *jsontape.Elem, dst *Scalar) bool {
	switch e.Kind {
	case jsontape.Number:
		f, ok := vouchedNum(e)
		*dst = Scalar{kind: Number, num: fold(f)}
		return ok
	case jsontape.String:
		s, ok := plain(e)
		*dst = Scalar{kind: String, str: s}
		return ok
	case jsontape.Null:
		*dst = Scalar{}
	case jsontape.True:
		*dst = BoolOf(true)
	case jsontape.False:
		*dst = BoolOf(false)
	default:
		return false
	}
	return true
}

// Elem returns the Scalar of a document element with every check; the
// error has no path. An array or object is refused whatever it holds.
func Elem(e *jsontape.Elem) (Scalar, error) {
	var s Scalar
	if FromElem(e, &s) {
		return s, nil
	}
	switch e.Kind {
	case jsontape.Number:
		if f, ok := vouchedNum(e); ok {
			return NumberOf(f)
		}
		return ParseNumber(e.Raw)
	case jsontape.String:
		return StringOf(e.Str())
	case jsontape.Array:
		return Scalar{}, errs.Invalid("", "element is an array, not a scalar")
	}
	return Scalar{}, errs.Invalid("", "element is an object, not a scalar")
}

// ElemKey returns the key of a document element that [FromElem] converts,
// as [Scalar.Key] keys its Scalar, without the Scalar: tag 0 for any other
// element.
func ElemKey(e *jsontape.Elem) (a, b uint64, tag uint32) {
	if a, tag := ElemWord(e); tag != 0 {
		return a, 0, tag
	}
	if s, ok := plain(e); ok {
		return StrKey(s)
	}
	return 0, 0, 0
}

// ElemWord is [ElemKey] for the elements whose key is one word, as
// [Scalar.Word]: tag 0 for any other element, and for a string of fewer
// than 4 or more than 8 bytes.
func ElemWord(e *jsontape.Elem) (a uint64, tag uint32) {
	switch e.Kind {
	case jsontape.Number:
		if f, ok := vouchedNum(e); ok {
			w, _ := NumWord(f) // finite: a literal's nearest double
			return w, TagNum
		}
	case jsontape.String:
		if s, ok := plain(e); ok && uint(len(s)-4) <= 4 {
			return shortWord(s), TagStr + uint32(len(s))
		}
	case jsontape.Null:
		return 0, TagNull
	case jsontape.True:
		return TrueWord, TagBool
	case jsontape.False:
		return 0, TagBool
	}
	return 0, 0
}
