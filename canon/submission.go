package canon

import (
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// A Submission is a student's answers, read from one JSON document by
// [ParseSubmission]: an object whose members are the answers, each an
// array of scalars or a scalar, by name.
//
//	{"q1": [2, 2, 3, 3, 5], "q2_a_not_b": ["cherry", "apple"], "q2_b_not_a": [], "q3": "25/12"}
//
// A Submission is read once and never changed: its methods may be called
// from any number of goroutines.
type Submission struct {
	members map[string]*member // for lookup only: nothing iterates it
}

// member is one answer of a Submission.
type member struct {
	path  string   // its JSON Pointer, "/q1"
	array bool     // the answer is an array
	elems []Scalar // of an array
	texts []string // of an array: each element's literal as written
	value Scalar   // of a scalar
}

// ParseSubmission reads data, one JSON document that is an object of
// answers, with the strictness [ParseArray] has for one array, at every
// level. The error is an *[claimcheck.Error] with code invalid_input, for
// the first fault in document order:
//
//   - a document that is not JSON (a grammar error, trailing data, a byte
//     order mark...): path "", the message giving the byte offset;
//   - a document that is not an object: path "";
//   - a member name that is not valid Unicode: path "" (the name has no
//     path of its own);
//   - a member whose name an earlier member has (which encoding/json would
//     read as the last one's answer without a word): the member's path,
//     "/q1";
//   - an answer that is an object: its path; an array's element that is
//     not a scalar: the element's path, "/q1/3";
//   - a string that is not valid UTF-8 or holds a lone-surrogate escape, a
//     number out of the range of a double, and, with [ExactNumbers], a
//     number that is not the number written: at its path, "/q3" or
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
		return nil, errs.Invalid("", err.Error())
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
		if _, dup := s.members[name]; dup {
			return nil, errs.Invalid(path, "duplicate member "+string(jsonwire.AppendString(nil, name))+": the document answers it twice")
		}
		m, err := readAnswer(doc, i, path, o)
		if err != nil {
			return nil, err
		}
		s.members[name] = m
	}
	return s, nil
}

// readAnswer reads the answer of the member at node i, whose path is path.
func readAnswer(doc *jsontape.Doc, i int, path string, o options) (*member, error) {
	n := &doc.Nodes[i]
	m := &member{path: path}
	switch n.Kind {
	case jsontape.Object:
		return nil, errs.Invalid(path, path+" is an object: an answer is an array of scalars, a string, a number, a boolean or null")
	case jsontape.Array:
		elems := doc.ArrayElems(i)
		var err error
		if m.elems, err = readElems(elems, path, o); err != nil {
			return nil, err
		}
		m.array = true
		m.texts = make([]string, len(elems))
		for i := range elems {
			m.texts[i] = elems[i].Raw
		}
		return m, nil
	}
	e := jsontape.Elem{Raw: doc.Src[n.Start:n.End], Kind: n.Kind, Flags: n.Flags}
	v, err := elemScalar(&e)
	if err == nil && o.exact && e.Kind == jsontape.Number {
		err = exactNumber(e.Raw, v)
	}
	if err != nil {
		return nil, errs.At(stringFault(&e, err), path)
	}
	m.value = v
	return m, nil
}

// answer returns the member name, or the error for a missing one.
func (s *Submission) answer(name string) (*member, *claimcheck.Error) {
	if m := s.members[name]; m != nil {
		return m, nil
	}
	return nil, errs.Invalid(string(jsonwire.AppendPointerToken(nil, name)), "missing member "+string(jsonwire.AppendString(nil, name)))
}

// Array returns the answer named name, an array, as Scalars: a new slice,
// the caller's to change. A missing member and an answer that is not an
// array are an *[claimcheck.Error] with code invalid_input at the member's
// path.
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
// decoded). A missing member and an answer that is not a string are an
// *[claimcheck.Error] with code invalid_input at the member's path.
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
// boolean or null). A missing member and an answer that is an array are
// an *[claimcheck.Error] with code invalid_input at the member's path.
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
// when there is no such element. A report that quotes the student shows
// this, where the Scalar (0, 1.5, 9007199254740992) is what was compared.
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
