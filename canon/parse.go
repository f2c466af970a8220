package canon

import (
	"unsafe"

	"github.com/claimcheck/claimcheck/internal/canonhook"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

func init() {
	canonhook.ElemScalars = elemScalars
	canonhook.NumOffset = unsafe.Offsetof(Scalar{}.num)
}

// ParseArray reads data, one JSON document that is an array of scalars, into
// Scalars, with the strict reader of the JSON tools: what they refuse in an
// input array, ParseArray refuses the same way, where encoding/json would
// decode something else without a word.
//
// The error is an *[claimcheck.Error] with code invalid_input:
//
//   - a document that is not JSON (a grammar error, trailing data, a byte
//     order mark, NaN, 01, +1...): path "", the message giving the byte offset;
//   - a document that is not an array: path "";
//   - an element that is an array or object, a number out of the range of a
//     double (1e400, which json.Unmarshal reports while leaving a nil in the
//     slice), a string that is not valid UTF-8 or holds a lone-surrogate
//     escape (which encoding/json replaces with U+FFFD; the message names
//     the escape as written, "the escape \ud800 after "ab""), and, with
//     [ExactNumbers], a number that is not the number written: at the
//     element's JSON Pointer path, "/4" for the fifth element, the first
//     such element in index order.
//
// Numbers are read as [ParseNumber] reads a literal: the nearest double,
// rounded once; [ExactNumbers] refuses those whose rounding changes an
// integer. The result, a []Scalar, is accepted as it is by the multiset
// tools and the grading helpers of package claimchecktest.
func ParseArray(data []byte, opts ...Option) ([]Scalar, error) {
	src := string(data)
	// Every element costs at least one byte, so len(src)+1 records them all.
	doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 1, MaxChildren: len(src) + 1, ArrayElems: true})
	if err != nil {
		return nil, errs.Invalid("", err.Error())
	}
	if k := doc.Nodes[0].Kind; k != jsontape.Array {
		return nil, errs.Invalid("", "the document is "+k.Noun()+", not an array")
	}
	return readElems(doc.ArrayElems(0), "", newOptions(opts))
}

// elemScalars converts elements the reader recorded, from the first, for as
// long as the reader's flags vouch for each, and returns how many it
// converted (see canonhook.ElemScalars, through which package bag calls
// it). A number with HasNum is its literal's nearest double, so finite; a
// string without flags holds printable ASCII only (the reader saw no escape
// and no byte >= 0x80), so it is valid UTF-8 and its text is its value.
// Each Scalar it makes is the one elemScalar makes.
func elemScalars(es []jsontape.Elem, dst []Scalar) int {
	n := min(len(es), len(dst))
	es, dst = es[:n], dst[:n]
	for k := range es {
		e := &es[k]
		switch e.Kind {
		case jsontape.Number:
			if e.Flags&jsontape.HasNum == 0 {
				return k
			}
			dst[k] = Scalar{kind: Number, num: e.Num + 0} // -0 folded
		case jsontape.String:
			if e.Flags != 0 {
				return k
			}
			dst[k] = Scalar{kind: String, str: e.Raw[1 : len(e.Raw)-1]}
		case jsontape.Null:
			dst[k] = Scalar{}
		case jsontape.True:
			dst[k] = Scalar{kind: Bool, num: 1}
		case jsontape.False:
			dst[k] = Scalar{kind: Bool}
		default:
			return k
		}
	}
	return n
}

// elemScalar converts one element the reader recorded; the error has no
// path.
func elemScalar(e *jsontape.Elem) (Scalar, error) {
	switch e.Kind {
	case jsontape.Null:
		return Scalar{}, nil
	case jsontape.False:
		return BoolScalar(false), nil
	case jsontape.True:
		return BoolScalar(true), nil
	case jsontape.Number:
		if e.Flags&jsontape.HasNum != 0 {
			return NumberScalar(e.Num) // finite: a literal's nearest double
		}
		return ParseNumber(e.Raw)
	case jsontape.String:
		return StringScalar(e.Str())
	case jsontape.Array:
		return Scalar{}, errs.Invalid("", "element is an array, not a scalar")
	}
	return Scalar{}, errs.Invalid("", "element is an object, not a scalar")
}
