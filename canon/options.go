package canon

import (
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// An Option changes how [ParseArray] and [ParseSubmission] read a
// document. The zero Option changes nothing.
type Option struct {
	exact bool
}

// ExactNumbers makes a reader take every number as the number written, for
// a grader who must not compare a number the student did not write. By
// default a number is the double nearest its literal, as the JSON tools
// compare it (RFC 8785), so 9007199254740993 reads as, and equals,
// 9007199254740992, and 1e-400 equals 0. With ExactNumbers:
//
//   - a literal whose value is an integer that no double holds is that
//     exact integer (see the package documentation, "Integers"):
//     9007199254740993, and the same integer written 9007199254740993.0 or
//     9.007199254740993e15 (the value decides, not the notation: a
//     student who wrote ".0" wrote that integer too), or 1e23 (no double
//     is 10^23); it equals the Go integer, *big.Int or other literal of
//     the same value, and no other number;
//   - a literal whose double is an integer, 0 included, that its value is
//     not is refused (invalid_input at its path, with a message saying
//     what it would have become): 1e-400 (which would be 0),
//     9007199254740992.5 (which would be 9007199254740992).
//
// Any other literal reads as by default: one whose value and double are
// both fractions (0.1, 1e-7) is rounded, as every decimal fraction is; one
// a double holds (2^60, 1e22, 0.5) is that double, whatever its notation;
// one beyond a double's range (1e400) is refused as ever, so that no
// literal of a few bytes names an integer of a million digits.
func ExactNumbers() Option { return Option{exact: true} }

// options is what the Options of one call say.
type options struct {
	exact bool
}

func newOptions(opts []Option) options {
	var o options
	for _, x := range opts {
		o.exact = o.exact || x.exact
	}
	return o
}

// readElems converts the elements of an array the reader recorded, at
// path in its document ("" for a document that is the array): the one
// conversion of ParseArray and ParseSubmission. The error is the first
// fault in index order, at its element's path.
func readElems(elems []jsontape.Elem, path string, o options) ([]Scalar, error) {
	out := make([]Scalar, len(elems))
	for i := range elems {
		if scalar.FromElem(&elems[i], out[i].v()) {
			continue
		}
		s, err := scalar.Elem(&elems[i])
		if err != nil {
			if err := o.exactElems(elems[:i], out, path); err != nil {
				return nil, err
			}
			return nil, errs.At(stringFault(&elems[i], err), errs.Index(path, i))
		}
		out[i] = Scalar(s)
	}
	if err := o.exactElems(elems, out, path); err != nil {
		return nil, err
	}
	return out, nil
}

// exactElems reads, under ExactNumbers, each number of elems as that
// option says (exactNumber), its Scalar in out read by default: the error
// is the first refusal, at its path under path. It does nothing when the
// option is off.
func (o options) exactElems(elems []jsontape.Elem, out []Scalar, path string) error {
	if !o.exact {
		return nil
	}
	for i := range elems {
		if elems[i].Kind == jsontape.Number {
			if err := exactNumber(elems[i].Raw, &out[i]); err != nil {
				return errs.At(err, errs.Index(path, i))
			}
		}
	}
	return nil
}

// exactNumber is ExactNumbers' reading of one literal, lit, which *s holds
// as read by default (the double nearest it): where that rounding changes
// an integer, an integer no double holds becomes that exact integer, and a
// fraction that would read as an integer is an error, without a path.
func exactNumber(lit string, s *Scalar) error {
	if !jsonwire.ChangesInteger(lit, s.Float()) {
		return nil
	}
	if text, ok := jsonwire.IntegerText(lit); ok {
		*s = Scalar(scalar.ExactInt(text, s.Float()))
		return nil
	}
	return errs.Invalid("", "number "+scalar.Abbrev(lit)+" is not exact as a double: it would become "+s.Key())
}

// stringFault returns err, the error for element e, with the message of
// unicodeFault when e is a string that is not valid Unicode; any other
// error as it is.
func stringFault(e *jsontape.Elem, err error) error {
	if e.Kind != jsontape.String {
		return err
	}
	return unicodeFault("string", e.Raw[1:len(e.Raw)-1], err)
}

// unicodeFault returns err, the error for the string literal whose
// contents are lit, with a message that points at what the writer typed:
// the escape of a lone surrogate as written ("the escape \ud800 after
// "ab""), or the byte that is not UTF-8, after the part of the value
// before it, rather than a byte offset into the decoded value. what names
// the string ("string", "member name"). When lit's value is valid, err is
// returned as it is.
func unicodeFault(what, lit string, err error) error {
	at, size, ok := jsonwire.FirstInvalid(lit)
	if !ok {
		return err
	}
	where := "at its start"
	if at > 0 {
		where = "after " + quotedTail(jsonwire.Unescape(lit[:at]))
	}
	if size == 1 {
		return errs.Invalid("", what+" has the byte "+hexByte(lit[at])+" "+where+", which is not UTF-8")
	}
	return errs.Invalid("", what+" has the escape "+lit[at:at+size]+" "+where+": a lone surrogate, which is no character")
}

// quotedTail is s as a JSON string, its last 20 code points after "…"
// when it is longer: enough of what precedes a fault to find it.
func quotedTail(s string) string {
	const keep = 20
	if n := utf8.RuneCountInString(s); n > keep {
		i := len(s)
		for range keep {
			_, size := utf8.DecodeLastRuneInString(s[:i])
			i -= size
		}
		return `"…` + strings.TrimPrefix(string(jsonwire.AppendString(nil, s[i:])), `"`)
	}
	return string(jsonwire.AppendString(nil, s))
}

func hexByte(c byte) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[c>>4], digits[c&0xf]})
}
