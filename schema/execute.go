package schema

import (
	"errors"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/multiset"
)

// Output is what Execute gives for an input document it accepts: the output
// document and the verdict it states, so that a caller need not read the
// document again to branch on it or label it.
type Output struct {
	// Doc is the output document: compact, members in the output schema's
	// order, no trailing newline.
	Doc []byte
	// Valid is the document's valid member.
	Valid bool
	// Reason is the document's reason member (claim_mismatch,
	// value_mismatch, division_by_zero, not_canonical), "" when Valid.
	Reason string
}

// Execute runs one tool on one input document and returns the output
// document with its verdict, or an *[claimcheck.Error] whose JSON form is
// the error document: code invalid_input or limit_exceeded for input the
// tool refuses, unknown_tool for a tool id or version not served (an empty
// version means the newest).
//
// Input is read strictly, in one pass (docs/contract.md §5 and §6): a grammar
// error anywhere is invalid_input at path "" before any other check; then
// the members of each object in document order (unknown, duplicate, or not
// valid Unicode), missing members in schema order, value types in schema
// order, and each array's max_items, its elements, and its max_distinct.
// Limits are the descriptor's. Output documents are deterministic bytes with
// members in the output schema's property order. Execute reads input in
// place and keeps none of it: nothing it returns refers to input, which the
// caller may reuse or change once Execute returns (not while it runs).
// Execute is safe for concurrent use.
func Execute(toolID, version string, input []byte) (Output, error) {
	s, err := lookup(toolID, version)
	if err != nil {
		return Output{}, err
	}
	return s.execute(input)
}

// Execute runs the tool on one input document; see the package function
// [Execute]. The limits are the served descriptor's, whatever t's Limits
// hold; a Tool made by hand runs as the served tool of its ID and Version.
func (t *Tool) Execute(input []byte) (Output, error) {
	s := t.served
	if s == nil {
		var err error
		if s, err = lookup(t.ID, t.Version); err != nil || t.Version == "" {
			return Output{}, errs.Coded(claimcheck.UnknownTool, "no tool "+t.ID+"@"+t.Version)
		}
	}
	return s.execute(input)
}

// execute reads input in place, without a copy (at 10^4 items a copy was
// an allocation of the document's size per call, and garbage collections
// to match): every span, key and scalar below is a substring of it, and
// none outlives the call. The output document is new bytes and its reason
// a constant. An error's strings quote the input (a member's name in a
// path); today each is built by concatenation, so none shares the input's
// memory, but detach copies them before the error is returned, so that no
// later error can. So nothing returned refers to input, as if it had been
// copied.
func (s *served) execute(input []byte) (Output, error) {
	src := unsafe.String(unsafe.SliceData(input), len(input))
	var out Output
	var err error
	switch s.tool.ID {
	case MultisetEquality:
		out, err = executeEquality(s.bag, src)
	case MultisetDifference:
		out, err = executeDifference(s.bag, src)
	case RationalExpression:
		out, err = executeRational(s.rat, src)
	default:
		return Output{}, errs.Coded(claimcheck.UnknownTool, "no tool "+s.tool.ID)
	}
	if err != nil {
		return Output{}, detach(err)
	}
	return out, nil
}

// detach returns err with copies of its strings: an *claimcheck.Error that
// refers to no input. Any other error (the tools return none) becomes a new
// error of its text.
func detach(err error) error {
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		return errors.New(err.Error())
	}
	c := *e
	c.Path, c.Limit, c.Message = strings.Clone(c.Path), strings.Clone(c.Limit), strings.Clone(c.Message)
	return &c
}

// parse checks the grammar and records the root (depth 0), its members (1),
// their elements or members (2) and theirs (3): deep enough for every tool.
// Array elements are recorded compactly for the multiset tools (arrays).
// At most maxItems+1 elements or members of a container are recorded: an
// array longer than maxItems is over its limit whatever its elements are, and
// the one more says so.
//
// The Doc comes from docs; the caller hands it back with release once
// nothing it holds (array elements, as Go values) is used any more. Nothing
// a tool returns refers to the tape: scalars and paths refer to src, which
// is the caller's input, read in place (see served.execute).
func parse(src string, maxItems int, arrays bool) (*jsontape.Doc, error) {
	doc := docs.Get().(*jsontape.Doc)
	if err := doc.Parse(src, jsontape.Options{MaxDepth: 3, MaxChildren: maxItems + 1, ArrayElems: arrays}); err != nil {
		release(doc)
		return nil, errs.Invalid("", err.Error())
	}
	return doc, nil
}

// root is the preamble of every tool: it parses src (see parse) and reads
// the root object, whose first arrays members must be arrays (see object).
// The caller releases the Doc; on an error there is none to release.
func root(src string, maxItems int, names []string, arrays int) (*jsontape.Doc, members, error) {
	doc, err := parse(src, maxItems, arrays > 0)
	if err != nil {
		return nil, members{}, err
	}
	m, err := object(doc, 0, "", names, arrays)
	if err != nil {
		release(doc)
		return nil, members{}, err
	}
	return doc, m, nil
}

// docs keeps parsed documents' tapes for reuse: for a document of many
// elements, allocating and zeroing the tape (and collecting it) costs a
// large part of a check.
var docs = sync.Pool{New: func() any { return new(jsontape.Doc) }}

// maxPooledElems is the largest tape release keeps (4 MiB of elements).
const maxPooledElems = 1 << 17

func release(doc *jsontape.Doc) {
	if cap(doc.Elems) > maxPooledElems {
		return
	}
	doc.Reset()
	docs.Put(doc)
}

// members are the nodes of an object's members, in schema order.
type members [3]int

// object applies the member rules to the object at node i: members in
// document order (a name that is not valid Unicode: the object's path; an
// unknown or repeated name: the member's path), then missing members in
// schema order, then the types of its first arrays members, which must be
// arrays. It returns each name's node.
func object(doc *jsontape.Doc, i int, path string, names []string, arrays int) (members, error) {
	var out members
	n := &doc.Nodes[i]
	if n.Kind != jsontape.Object {
		return out, errs.Invalid(path, describe(path)+" must be an object, not "+n.Kind.Noun())
	}
	for k := range out {
		out[k] = -1
	}
	c := i + 1
	for m := 0; m < n.Rec; m++ {
		mn := &doc.Nodes[c]
		name := doc.Name(mn)
		if mn.NameFlags != 0 && !utf8.ValidString(name) {
			return out, errs.Invalid(path, "member name is not valid Unicode")
		}
		k := 0
		for k < len(names) && names[k] != name {
			k++
		}
		if k == len(names) {
			return out, errs.Invalid(memberPath(path, name), "unknown member "+string(jsonwire.AppendString(nil, name)))
		}
		if out[k] >= 0 {
			return out, errs.Invalid(memberPath(path, name), "duplicate member "+string(jsonwire.AppendString(nil, name)))
		}
		out[k] = c
		c = mn.Skip
	}
	for k, name := range names {
		if out[k] < 0 {
			return out, errs.Invalid(path+"/"+name, "missing member \""+name+"\"")
		}
	}
	for k, name := range names[:arrays] {
		if kind := doc.Nodes[out[k]].Kind; kind != jsontape.Array {
			p := path + "/" + name
			return out, errs.Invalid(p, p+" must be an array, not "+kind.Noun())
		}
	}
	return out, nil
}

func memberPath(path, name string) string {
	return string(jsonwire.AppendPointerToken([]byte(path), name))
}

func describe(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// elems returns the elements of the array at node i, for package multiset
// to read.
func elems(doc *jsontape.Doc, i int) []jsontape.Elem { return doc.ArrayElems(i) }

var (
	equalityNames   = []string{"source", "claim"}
	differenceNames = []string{"left", "right", "claim"}
	claimNames      = []string{"left_only", "right_only"}
	rationalNames   = []string{"expression", "claimed_value", "require_canonical"}
)

func executeEquality(lim multiset.Limits, src string) (Output, error) {
	doc, m, err := root(src, lim.MaxItems, equalityNames, 2)
	if err != nil {
		return Output{}, err
	}
	defer release(doc)
	res, err := multiset.CheckEquality(multiset.EqualityInput[jsontape.Elem, jsontape.Elem]{Source: elems(doc, m[0]), Claim: elems(doc, m[1])}, lim)
	if err != nil {
		return Output{}, err
	}
	out, err := res.AppendJSON(make([]byte, 0, 192))
	return output(out, err, res.Valid, string(res.Reason))
}

func executeDifference(lim multiset.Limits, src string) (Output, error) {
	doc, m, err := root(src, lim.MaxItems, differenceNames, 2)
	if err != nil {
		return Output{}, err
	}
	defer release(doc)
	c, err := object(doc, m[2], "/claim", claimNames, 2)
	if err != nil {
		return Output{}, err
	}
	res, err := multiset.CheckDifference(multiset.DifferenceInput[jsontape.Elem, jsontape.Elem]{
		Left:  elems(doc, m[0]),
		Right: elems(doc, m[1]),
		Claim: multiset.DifferenceClaim[jsontape.Elem]{LeftOnly: elems(doc, c[0]), RightOnly: elems(doc, c[1])},
	}, lim)
	if err != nil {
		return Output{}, err
	}
	out, err := res.AppendJSON(make([]byte, 0, 192))
	return output(out, err, res.Valid, string(res.Reason))
}

// output makes an Output of a result's AppendJSON and its verdict.
func output(doc []byte, err error, valid bool, reason string) (Output, error) {
	if err != nil {
		return Output{}, err
	}
	return Output{Doc: doc, Valid: valid, Reason: reason}, nil
}
