package canon

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// ParseArray reads data, one JSON document that is an array of scalars, into
// Scalars, with the strict reader of the JSON tools: what they refuse in an
// input array, ParseArray refuses the same way, where encoding/json would
// decode something else without a word.
//
// The error is an *[github.com/claimcheck/claimcheck.Error] with code invalid_input:
//
//   - a document that is not JSON (a grammar error, trailing data, a byte
//     order mark, NaN, 01, +1...): path "", the message giving the line, the column and the byte offset;
//   - a document that is not an array: path "";
//   - an element that is an array or object, a number out of the range of a
//     double (1e400, which json.Unmarshal reports while leaving a nil in the
//     slice), a string that is not valid UTF-8 or holds a lone-surrogate
//     escape (which encoding/json replaces with U+FFFD; the message names
//     the escape as written, "the escape \ud800 after "ab""), and, with
//     [ExactNumbers], a fraction that would read as an integer: at the
//     element's JSON Pointer path, "/4" for the fifth element, the first
//     such element in index order.
//
// Numbers are read as [ParseNumber] reads a literal: the nearest double,
// rounded once; with [ExactNumbers] an integer is exact, and a fraction
// whose rounding makes it an integer is refused. The result, a []Scalar, is accepted as it is by the multiset
// tools and the grading helpers of package claimchecktest.
func ParseArray(data []byte, opts ...Option) ([]Scalar, error) {
	src := string(data)
	// Every element costs at least one byte, so len(src)+1 records them all.
	doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 1, MaxChildren: len(src) + 1, ArrayElems: true})
	if err != nil {
		return nil, unreadable(src, err)
	}
	if k := doc.Nodes[0].Kind; k != jsontape.Array {
		return nil, errs.Invalid("", "the document is "+k.Noun()+", not an array")
	}
	return readElems(doc.ArrayElems(0), "", newOptions(opts))
}

// unreadable is the error of a document the grammar refuses: a
// *jsontape.SyntaxError is named by line and column as well as its byte
// offset, "invalid JSON at line 2, column 5 (byte offset 12): ...", so
// that a student finds the fault in an editor. Lines are counted from 1
// after each line feed; the column is the character (code point) of the
// line, from 1, an invalid byte counting as one. The JSON tools' messages,
// read by other code, keep the byte offset alone.
func unreadable(src string, err error) error {
	var se *jsontape.SyntaxError
	if !errors.As(err, &se) {
		return errs.Invalid("", err.Error())
	}
	off := min(max(se.Offset, 0), len(src))
	line, start := 1+strings.Count(src[:off], "\n"), strings.LastIndexByte(src[:off], '\n')+1
	col := 1 + utf8.RuneCountInString(src[start:off])
	return errs.Invalid("", fmt.Sprintf("invalid JSON at line %d, column %d (byte offset %d): %s", line, col, se.Offset, se.Msg))
}
