package canon

import (
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// A Submission is a student's answers, read from one JSON document by
// [ParseSubmission]: an object whose members are the answers, each an
// array of scalars or a scalar, by name.
//
//	{"q1": [2, 2, 3, 3, 5], "q2_a_not_b": ["cherry", "apple"], "q2_b_not_a": [], "q3": "25/12"}
//
// Each answer is read on its own: one that is refused (a repeated name, an
// element that is not a scalar, a number out of range) gives its error
// when it is asked for, and the others read as they are, so that a fault
// in one answer costs that answer only. A Submission is read once and never
// changed: its methods may be called from any number of goroutines.
type Submission struct {
	members map[string]*member // for lookup only: nothing iterates it
}

// member is one answer of a Submission.
type member struct {
	path  string   // its JSON Pointer, "/q1"
	err   error    // why the answer is refused, at its path; nil when it is read
	array bool     // the answer is an array
	elems []Scalar // of an array
	texts []string // of an array: each element's literal as written
	value Scalar   // of a scalar
}

// ParseSubmission reads data, one JSON document that is an object of
// answers, with the strictness [ParseArray] has for one array, at every
// level. Its error, an *[claimcheck.Error] with code invalid_input and
// path "", is for a document that cannot be read as answers at all:
//
//   - a document that is not JSON (a grammar error, trailing data, a byte
//     order mark...), the message giving the line, the column and the byte offset;
//   - a document that is not an object;
//   - a member name that is not valid Unicode (the name of no question).
//
// A fault inside an answer is that answer's: [Submission.Array],
// [Submission.String] and [Submission.Scalar] return it for that name, an
// *[claimcheck.Error] with code invalid_input at its JSON Pointer path in
// data, the first in document order:
//
//   - a name given twice (which encoding/json would read as the last
//     answer without a word): the member's path, "/q1", whatever either
//     answer holds;
//   - an answer that is an object: its path; an array's element that is
//     not a scalar: the element's path, "/q1/3";
//   - a string that is not valid UTF-8 or holds a lone-surrogate escape, a
//     number out of the range of a double, and, with [ExactNumbers], a
//     fraction that would read as an integer: at its path, "/q3" or
//     "/q1/3", as [ParseArray] reports them.
//
// Paths are JSON Pointers into data, so a report that quotes them points
// at the student's own document.
func ParseSubmission(data []byte, opts ...Option) (*Submission, error) {
	src := string(data)
	// Depth 0 the object, 1 its answers, 2 the elements of an array answer;
	// every value costs at least one byte, so len(src)+1 records them all.
	doc, err := jsontape.Parse(src, jsontape.Options{MaxDepth: 2, MaxChildren: len(src) + 1, ArrayElems: true})
	if err != nil {
		return nil, unreadable(src, err)
	}
	root := &doc.Nodes[0]
	if root.Kind != jsontape.Object {
		return nil, errs.Invalid("", "the document is "+root.Kind.Noun()+", not an object of answers")
	}
	o := newOptions(opts)
	s := &Submission{members: make(map[string]*member, root.Rec)}
	for c, k := 1, 0; k < root.Rec; k++ {
		i, n := c, &doc.Nodes[c]
		c = n.Skip
		name := doc.Name(n)
		if n.NameFlags != 0 && !utf8.ValidString(name) {
			return nil, unicodeFault("member name", src[n.NameStart+1:n.NameEnd-1], errs.Invalid("", "member name is not valid Unicode"))
		}
		path := string(jsonwire.AppendPointerToken(nil, name))
		if m := s.members[name]; m != nil {
			*m = member{path: path, err: errs.Invalid(path, "duplicate member "+string(jsonwire.AppendString(nil, name))+": the document answers it twice")}
			continue
		}
		s.members[name] = readAnswer(doc, i, path, o)
	}
	return s, nil
}

// readAnswer reads the answer of the member at node i, whose path is path.
func readAnswer(doc *jsontape.Doc, i int, path string, o options) *member {
	n := &doc.Nodes[i]
	m := &member{path: path}
	switch n.Kind {
	case jsontape.Object:
		m.err = errs.Invalid(path, path+" is an object: an answer is an array of scalars, a string, a number, a boolean or null")
		return m
	case jsontape.Array:
		elems := doc.ArrayElems(i)
		if m.elems, m.err = readElems(elems, path, o); m.err != nil {
			return m
		}
		m.array = true
		m.texts = make([]string, len(elems))
		for i := range elems {
			m.texts[i] = elems[i].Raw
		}
		return m
	}
	e := jsontape.Elem{Raw: doc.Src[n.Start:n.End], Kind: n.Kind, Flags: n.Flags}
	v, err := of(scalar.Elem(&e))
	if err == nil && o.exact && e.Kind == jsontape.Number {
		err = exactNumber(e.Raw, &v)
	}
	if err != nil {
		m.err = errs.At(stringFault(&e, err), path)
		return m
	}
	m.value = v
	return m
}

// answer returns the member name, or the error for a missing or refused
// one.
func (s *Submission) answer(name string) (*member, error) {
	m := s.members[name]
	switch {
	case m == nil:
		return nil, missing(name)
	case m.err != nil:
		return nil, m.err
	}
	return m, nil
}

func missing(name string) *claimcheck.Error {
	return errs.Invalid(string(jsonwire.AppendPointerToken(nil, name)), "missing member "+string(jsonwire.AppendString(nil, name)))
}

// Array returns the answer named name, an array, as Scalars: a new slice,
// the caller's to change. The error is an *[claimcheck.Error] with code
// invalid_input: the answer's fault (see [ParseSubmission]), or a missing
// member or an answer that is not an array, at the member's path.
func (s *Submission) Array(name string) ([]Scalar, error) {
	m, err := s.answer(name)
	if err != nil {
		return nil, err
	}
	if !m.array {
		return nil, errs.Invalid(m.path, m.path+" must be an array, not "+noun(m.value.Kind()))
	}
	return append([]Scalar(nil), m.elems...), nil
}

// String returns the answer named name, a string, as its value (escapes
// decoded). The error is as for [Submission.Array], for an answer that is
// not a string.
func (s *Submission) String(name string) (string, error) {
	v, err := s.Scalar(name)
	if err != nil {
		return "", err
	}
	if v.Kind() != String {
		return "", errs.Invalid(s.members[name].path, s.members[name].path+" must be a string, not "+noun(v.Kind()))
	}
	return v.Str(), nil
}

// Scalar returns the answer named name, a scalar (a string, number,
// boolean or null). The error is as for [Submission.Array], for an answer
// that is an array.
func (s *Submission) Scalar(name string) (Scalar, error) {
	m, err := s.answer(name)
	if err != nil {
		return Scalar{}, err
	}
	if m.array {
		return Scalar{}, errs.Invalid(m.path, m.path+" must be a scalar, not an array")
	}
	return m.value, nil
}

// Literal returns the text the student wrote for element i of the array
// answer name, as it is in the document: a number's literal (-0e0, 1.50,
// 9007199254740993), a string's with its quotes and escapes. It is ""
// when there is no such element (or the answer is refused). A report that
// quotes the student shows this, where the Scalar (0, 1.5, and
// 9007199254740992 unless read with [ExactNumbers]) is what was compared.
func (s *Submission) Literal(name string, i int) string {
	m := s.members[name]
	if m == nil || i < 0 || i >= len(m.texts) {
		return ""
	}
	return m.texts[i]
}

// noun names a scalar kind as an error message does: "a string", "null".
func noun(k Kind) string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	}
	return "a string"
}
