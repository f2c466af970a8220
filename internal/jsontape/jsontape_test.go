package jsontape

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// all records every value of a document: the tape is then the whole tree.
var all = Options{MaxDepth: 1 << 30, MaxChildren: 1 << 30}

// grammarRow is one document of the grammar tables. Every row says why it is
// there; a row without a reason fails the test.
type grammarRow struct {
	in     string
	offset int // the expected SyntaxError offset; -1: not checked
	reason string
}

// longRun is a run of every scalar kind, long enough for the reader's word
// loop (wordRun), with every kind of JSON whitespace between elements.
var longRun = strings.Repeat(`1,"ab", true,`+"\r\n\t"+`false ,null,-2.5,`, 8)

// refused lists every class of input rule 1 of docs/contract.md (and the rest of the
// RFC 8259 grammar) that Parse must refuse with a *SyntaxError.
var refused = []grammarRow{
	{"", 0, "empty input"},
	{" ", 1, "whitespace only"},
	{" \t\r\n", 4, "all four whitespace bytes and nothing else"},
	{"[" + longRun + "\v2]", 1 + len(longRun), "a vertical tab is not whitespace, in a long run of scalars"},
	{"[" + longRun + "\f2]", 1 + len(longRun), "a form feed is not whitespace, in a long run of scalars"},
	{"1 2", 2, "trailing data: a second value"},
	{"{} {}", 3, "trailing data: a second object"},
	{`{"a":1}}`, 7, "trailing data: an extra closer"},
	{"null x", 5, "trailing data: a letter after whitespace"},
	{"1\x00", 1, "trailing data: a NUL byte"},
	{"\xef\xbb\xbf{}", 0, "a leading byte order mark"},
	{"{}\xef\xbb\xbf", 2, "a trailing byte order mark"},
	{"\"a\x00b\"", 2, "unescaped U+0000 in a string"},
	{"\"\x1f\"", 1, "unescaped U+001F in a string"},
	{"\"a\nb\"", 2, "unescaped newline in a string"},
	{"\"\t\"", 1, "unescaped tab in a string"},
	{`{"a` + "\x01" + `":1}`, 3, "unescaped control character in a member name"},
	{`"\x"`, 1, "bad escape \\x"},
	{`"\a"`, 1, "bad escape \\a"},
	{`"\U0041"`, 1, "escapes are case-sensitive: \\U is not \\u"},
	{`"\'"`, 1, "\\' is not a JSON escape"},
	{`"\0"`, 1, "\\0 is not a JSON escape"},
	{"\"\\\xc3\xa9\"", 1, "a backslash before a non-ASCII byte"},
	{`"\`, 1, "a backslash at the end of input"},
	{`"\u"`, 1, "\\u without digits"},
	{`"\u12"`, 1, "truncated \\u: two digits"},
	{`"\u123"`, 1, "truncated \\u: three digits"},
	{`"\u123`, 1, "truncated \\u at the end of input"},
	{`"\u12G4"`, 1, "a non-hex digit in \\u"},
	{`"\u-123"`, 1, "a sign in \\u"},
	{`"\ud800\u"`, 7, "a truncated \\u after a high surrogate"},
	{"\xc3\xa9", 0, "a non-ASCII byte outside a string (é)"},
	{"[1,\xff]", 3, "an invalid byte where a value is expected"},
	{"[1\xc2\xa0]", 2, "U+00A0 is not JSON whitespace"},
	{"\xe2\x80\x8b1", 0, "U+200B is not JSON whitespace"},
	{"\x0c1", 0, "form feed is not JSON whitespace"},
	{"\x0b1", 0, "vertical tab is not JSON whitespace"},
	{"NaN", 0, "NaN"},
	{"nan", 0, "nan"},
	{"Infinity", 0, "Infinity"},
	{"-Infinity", 1, "-Infinity"},
	{"inf", 0, "inf"},
	{"01", 1, "a leading zero"},
	{"00", 1, "two zeros"},
	{"-01", 2, "a leading zero after a minus"},
	{"[01]", 2, "a leading zero inside an array"},
	{"[0123456, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 2, "a leading zero in an integer the reader reads in a word"},
	{"[-0123456, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 3, "a leading zero after a minus, in a word"},
	{"[1234567., 1, 2, 3, 4, 5, 6, 7, 8, 9]", 9, "no digit after a point after an integer read in a word"},
	{"[1234567e, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 9, "no exponent digits after an integer read in a word"},
	{"[1234567.5.5, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 10, "a second point after a fraction read in a word"},
	{"[-1.5e, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 6, "no exponent digits after a fraction read in a word"},
	{"[-.5, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 2, "no digit between the minus and the point, with words to read"},
	{"[-, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 2, "a minus alone, with words to read"},
	{"[0.12345678., 1, 2, 3, 4, 5, 6, 7, 8, 9]", 11, "a point after eight fraction digits"},
	{"[tru, 1, 2, 3, 4, 5, 6, 7, 8, 9]", 1, "a literal cut short, with words to read"},
	{"[\"abcdefg\x01\", 1, 2, 3, 4, 5, 6, 7, 8, 9]", 9, "a control character at the end of a string's first word"},
	{"[\"abc\x01defgh\", 1, 2, 3, 4, 5, 6, 7, 8, 9]", 5, "a control character inside a string's first word"},
	{"+1", 0, "a plus sign"},
	{".5", 0, "no digit before the point"},
	{"-.5", 1, "no digit between the minus and the point"},
	{"1.", 2, "no digit after the point"},
	{"1.e5", 2, "no digit between the point and the exponent"},
	{"1e", 2, "no exponent digits"},
	{"1e+", 3, "no exponent digits after the sign"},
	{"1E-", 3, "no exponent digits after a minus"},
	{"1e5.0", 3, "a fraction after the exponent"},
	{"1.5.0", 3, "two points"},
	{"0x10", 1, "hexadecimal"},
	{"1_000", 1, "digit separators"},
	{"-", 1, "a minus alone"},
	{"--1", 1, "two minus signs"},
	{"- 1", 1, "a space after the minus"},
	{"[-]", 2, "a minus alone in an array"},
	{"tru", 0, "truncated true"},
	{"True", 0, "capitalised True"},
	{"TRUE", 0, "upper-case TRUE"},
	{"trUe", 0, "misspelt true"},
	{"truee", 4, "true with an extra letter"},
	{"fals", 0, "truncated false"},
	{"False", 0, "capitalised False"},
	{"flase", 0, "misspelt false"},
	{"nul", 0, "truncated null"},
	{"Null", 0, "capitalised Null"},
	{"nill", 0, "misspelt null"},
	{"None", 0, "Python's None"},
	{"undefined", 0, "JavaScript's undefined"},
	{"'a'", 0, "single-quoted string"},
	{`{'a':1}`, 1, "single-quoted name"},
	{`{a:1}`, 1, "unquoted name"},
	{`{1:1}`, 1, "a number as a name"},
	{`{null:1}`, 1, "null as a name"},
	{"// c\n1", 0, "a line comment before the value"},
	{"1 // c", 2, "a line comment after the value"},
	{"/* c */ 1", 0, "a block comment"},
	{"[1 /* c */]", 3, "a block comment inside an array"},
	{"# c\n1", 0, "a hash comment"},
	{"[1,]", 3, "a trailing comma in an array"},
	{"[1,,2]", 3, "two commas in an array"},
	{"[,1]", 1, "a leading comma in an array"},
	{"[,]", 1, "a lone comma in an array"},
	{`{"a":1,}`, 7, "a trailing comma in an object"},
	{`{,}`, 1, "a lone comma in an object"},
	{`{"a":1,,"b":2}`, 7, "two commas in an object"},
	{"[1 2]", 3, "a missing comma in an array"},
	{`{"a":1 "b":2}`, 7, "a missing comma in an object"},
	{`{"a" 1}`, 5, "a missing colon"},
	{`{"a"::1}`, 5, "two colons"},
	{`{"a",1}`, 4, "a comma for a colon"},
	{`{"a"}`, 4, "a name without a value"},
	{`{"a":}`, 5, "a colon without a value"},
	{`["a":1]`, 4, "a colon in an array"},
	{`{"a":1:2}`, 6, "a second colon after a value"},
	{"[", 1, "an unclosed array"},
	{"{", 1, "an unclosed object"},
	{"[1", 2, "an unclosed array after an element"},
	{"[1,", 3, "an unclosed array after a comma"},
	{`{"a":1`, 6, "an unclosed object after a member"},
	{`{"a"`, 4, "an unclosed object after a name"},
	{`{"a":`, 5, "an unclosed object after a colon"},
	{`"abc`, 4, "an unclosed string"},
	{`{"ab`, 4, "an unclosed member name"},
	{"[[[]]", 5, "one closer short"},
	{"[}", 1, "an array closed by a brace"},
	{"{]", 1, "an object closed by a bracket"},
	{`[{"a":1]}`, 7, "crossed closers"},
	{`{"a":[1}}`, 7, "an inner array closed by a brace"},
	{"]", 0, "a closer alone"},
	{"}", 0, "a brace alone"},
	{":", 0, "a colon alone"},
	{",", 0, "a comma alone"},
	{"[1]]", 3, "an extra closer after an array"},
}

// accepted lists documents the grammar accepts, including those input rule 2
// of docs/contract.md leaves to the decoders.
var accepted = []grammarRow{
	{"0", -1, "zero"},
	{"-0", -1, "negative zero"},
	{"1", -1, "a single digit"},
	{"-1.5e+10", -1, "every part of a number"},
	{"1E-5", -1, "upper-case exponent"},
	{"0.0e0", -1, "zero fraction and exponent"},
	{"123456789012345678901234567890", -1, "a long integer"},
	{"[" + longRun + "0]", -1, "a long run of every scalar kind, with every whitespace byte"},
	{"1e400", -1, "rule 2: a number that rounds to +Inf is grammatical"},
	{"-1e400", -1, "rule 2: a number that rounds to -Inf is grammatical"},
	{"1e-400", -1, "a number that underflows"},
	{"true", -1, "true"},
	{"false", -1, "false"},
	{"null", -1, "null"},
	{`""`, -1, "the empty string"},
	{" \t\r\n1 \t\r\n", -1, "the four whitespace bytes around a value"},
	{`"\"\\\/\b\f\n\r\t"`, -1, "every short escape"},
	{`"\u0000\uFFFF\uabcd"`, -1, "\\u escapes, either case"},
	{"\"\x7f\"", -1, "DEL is not a control character for JSON"},
	{"\"\xff\"", -1, "rule 2: invalid UTF-8 inside a string"},
	{"\"\xed\xa0\x80\"", -1, "rule 2: a surrogate encoded as three bytes"},
	{"\"\xc3\"", -1, "rule 2: a truncated UTF-8 sequence before the quote"},
	{`"\ud800"`, -1, "rule 2: a lone high surrogate escape"},
	{`"\udc00"`, -1, "rule 2: a lone low surrogate escape"},
	{`"\ud83d\ude00"`, -1, "a surrogate pair"},
	{"{\"\xff\":1}", -1, "rule 2: invalid UTF-8 in a member name"},
	{`{"a":1,"a":2}`, -1, "rule 2: duplicate names"},
	{`{"":1}`, -1, "the empty name"},
	{"\"\u2028\u2029\"", -1, "U+2028 and U+2029 unescaped"},
	{"[]", -1, "the empty array"},
	{"{}", -1, "the empty object"},
	{"[ ]", -1, "an empty array with space"},
	{"{ }", -1, "an empty object with space"},
	{`[1,"a",true,false,null,{},[]]`, -1, "every kind in an array"},
	{`{"a":{"b":{"c":[[[]]]}}}`, -1, "nesting"},
	{`{ "a" : 1 , "b" : [ 2 , 3 ] }`, -1, "space around every token"},
}

// readers are the options under which TestGrammarRefused reads each
// document: every node recorded (the general loop reads each value), array
// elements recorded as Elems, and nothing recorded below the root (the
// loop of scalars reads the elements in both).
var readers = []Options{all, {MaxDepth: 1 << 30, MaxChildren: 1 << 30, ArrayElems: true}, {}}

// TestGrammarRefused: every class of rule 1 is a *SyntaxError, at the same
// offset whichever loop reads it.
func TestGrammarRefused(t *testing.T) {
	testutil.Run(t, refused, func(t *testing.T, r grammarRow) {
		for _, opt := range readers {
			grammarRefused(t, r, opt)
		}
	})
}

func grammarRefused(t *testing.T, r grammarRow, opt Options) {
	t.Helper()
	doc, err := Parse(r.in, opt)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("Parse(%q, %+v) = %v, %v; want a *SyntaxError", r.in, opt, doc, err)
		return
	}
	if doc != nil {
		t.Errorf("Parse(%q) returned a document with its error", r.in)
	}
	if r.offset >= 0 && se.Offset != r.offset {
		t.Errorf("Parse(%q, %+v) offset %d (%s), want %d", r.in, opt, se.Offset, se.Msg, r.offset)
	}
	if se.Offset < 0 || se.Offset > len(r.in) || se.Msg == "" || !strings.Contains(se.Error(), se.Msg) {
		t.Errorf("Parse(%q): bad error %+v", r.in, se)
	}
	if json.Valid([]byte(r.in)) {
		t.Errorf("the oracle encoding/json.Valid accepts %q: bad row", r.in)
	}
}

// TestGrammarAccepted: grammatical documents, including rule 2's.
func TestGrammarAccepted(t *testing.T) {
	testutil.Run(t, accepted, func(t *testing.T, r grammarRow) {
		for _, opt := range readers {
			doc, err := Parse(r.in, opt)
			if err != nil {
				t.Errorf("Parse(%q, %+v): %v", r.in, opt, err)
				return
			}
			checkTape(t, doc, opt)
		}
		if !json.Valid([]byte(r.in)) {
			t.Errorf("the oracle encoding/json.Valid refuses %q: bad row", r.in)
		}
	})
}

// TestTape checks kinds, spans, counts, names and flags of a recorded document.
func TestTape(t *testing.T) {
	src := ` {"a" : [1, "x\u00e9", {"b":null}], "c\n":true,"d":{}, "é":"\ud800", "":-2.5e3 } `
	doc, err := Parse(src, Options{MaxDepth: 1, MaxChildren: 100})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		kind                Kind
		raw, name           string
		flags, nameFlags    uint8
		length, rec, skip   int
		decodedName, strVal string
	}
	wants := []want{
		{kind: Object, raw: src[1 : len(src)-1], length: 5, rec: 5, skip: 6},
		{kind: Array, raw: `[1, "x\u00e9", {"b":null}]`, name: `"a"`, length: 3, skip: 2, decodedName: "a"},
		{kind: True, raw: `true`, name: `"c\n"`, nameFlags: jsonwire.Escaped, skip: 3, decodedName: "c\n"},
		{kind: Object, raw: `{}`, name: `"d"`, skip: 4, decodedName: "d"},
		{kind: String, raw: `"\ud800"`, name: `"é"`, flags: jsonwire.Escaped, nameFlags: jsonwire.NonASCII, skip: 5, decodedName: "é", strVal: "\xed\xa0\x80"},
		{kind: Number, raw: `-2.5e3`, name: `""`, skip: 6, decodedName: ""},
	}
	if len(doc.Nodes) != len(wants) {
		t.Fatalf("%d nodes, want %d: %+v", len(doc.Nodes), len(wants), doc.Nodes)
	}
	for i, w := range wants {
		n := &doc.Nodes[i]
		if n.Kind != w.kind || doc.Raw(n) != w.raw || n.Flags != w.flags || n.Len != w.length || n.Rec != w.rec || n.Skip != w.skip {
			t.Errorf("node %d = %+v (raw %q), want %+v", i, *n, doc.Raw(n), w)
		}
		if i == 0 {
			if n.NameStart != 0 || n.NameEnd != 0 {
				t.Errorf("root has a name span %d..%d", n.NameStart, n.NameEnd)
			}
			continue
		}
		if got := src[n.NameStart:n.NameEnd]; got != w.name || n.NameFlags != w.nameFlags || doc.Name(n) != w.decodedName {
			t.Errorf("node %d name %q flags %d decoded %q, want %q %d %q", i, got, n.NameFlags, doc.Name(n), w.name, w.nameFlags, w.decodedName)
		}
		if w.kind == String && doc.Str(n) != w.strVal {
			t.Errorf("node %d Str = %q, want %q", i, doc.Str(n), w.strVal)
		}
	}
	if got := doc.Children(0); len(got) != 5 || got[0] != 1 || got[4] != 5 {
		t.Errorf("Children(0) = %v", got)
	}
	if got := doc.Children(1); len(got) != 0 {
		t.Errorf("Children of an array beyond MaxDepth = %v, want none", got)
	}
	checkTape(t, doc, Options{MaxDepth: 1, MaxChildren: 100})

	// The same document recorded whole: the array's elements and the inner
	// object's member appear, and the counts and skips follow.
	doc, err = Parse(src, all)
	if err != nil {
		t.Fatal(err)
	}
	checkTape(t, doc, all)
	if len(doc.Nodes) != 10 || doc.Nodes[1].Rec != 3 || doc.Nodes[1].Skip != 6 || doc.Nodes[4].Kind != Object || doc.Nodes[5].Kind != Null {
		t.Errorf("full tape: %+v", doc.Nodes)
	}
	if n := &doc.Nodes[3]; n.Flags != jsonwire.Escaped|jsonwire.NonASCII && n.Flags != jsonwire.Escaped {
		t.Errorf("flags of %q = %d", doc.Raw(n), n.Flags)
	}
}

// TestFlags: a string's node records jsonwire's flags, for its value and for
// its member name: Escaped and NonASCII are set exactly when the string has
// a backslash, or a byte >= 0x80.
func TestFlags(t *testing.T) {
	type row struct {
		str    string
		flags  uint8
		reason string
	}
	rows := []row{
		{`"abc"`, 0, "plain ASCII"},
		{`""`, 0, "empty"},
		{`"a\nb"`, jsonwire.Escaped, "a short escape"},
		{`"\u00e9"`, jsonwire.Escaped, "an escape for a non-ASCII code point is still ASCII text"},
		{`"é"`, jsonwire.NonASCII, "raw UTF-8"},
		{"\"\xff\"", jsonwire.NonASCII, "an invalid byte"},
		{`"é\t"`, jsonwire.Escaped | jsonwire.NonASCII, "both"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		for _, src := range []string{r.str, "{" + r.str + ":" + r.str + "}"} {
			doc, err := Parse(src, all)
			if err != nil {
				t.Fatal(err)
			}
			n := &doc.Nodes[len(doc.Nodes)-1]
			if n.Flags != r.flags {
				t.Errorf("%s: Flags = %d, want %d", src, n.Flags, r.flags)
			}
			if src[0] == '{' && n.NameFlags != r.flags {
				t.Errorf("%s: NameFlags = %d, want %d", src, n.NameFlags, r.flags)
			}
		}
	})
}

// TestRecordingLimits: MaxDepth and MaxChildren bound what is recorded, never
// what is checked or counted.
func TestRecordingLimits(t *testing.T) {
	src := `[[1,[2,[3]]],{"a":[4],"b":5,"c":6},7,8,9]`
	for _, opt := range []Options{
		{MaxDepth: 0}, {MaxDepth: 0, MaxChildren: 10},
		{MaxDepth: 1, MaxChildren: 0}, {MaxDepth: 1, MaxChildren: 2}, {MaxDepth: 2, MaxChildren: 2},
		{MaxDepth: 3, MaxChildren: 1}, {MaxDepth: 10, MaxChildren: 10}, all,
		{MaxDepth: 1, MaxChildren: 10, ArrayElems: true}, {MaxDepth: 2, MaxChildren: 2, ArrayElems: true},
		{MaxDepth: 10, MaxChildren: 10, ArrayElems: true},
	} {
		doc, err := Parse(src, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		checkTape(t, doc, opt)
	}
	// Long runs of scalars, which the reader takes a word at a time: the
	// limit falls inside the run, or past it, and a nested run is counted
	// but not recorded.
	var run []string
	for i := range 40 {
		run = append(run, [...]string{"12", `"ab"`, "3.25", "null", "-7", "true"}[i%6])
	}
	long := "[" + strings.Join(run, ",") + ",[" + strings.Join(run, ", ") + "]," + strings.Join(run, ",") + "]"
	for _, max := range []int{0, 1, 5, 17, 40, 41, 80, 1000} {
		for _, opt := range []Options{{MaxDepth: 1, MaxChildren: max, ArrayElems: true}, {MaxDepth: 2, MaxChildren: max, ArrayElems: true}} {
			doc, err := Parse(long, opt)
			if err != nil {
				t.Fatalf("%+v: %v", opt, err)
			}
			checkTape(t, doc, opt)
		}
	}
	doc, _ := Parse(src, Options{MaxDepth: 1, MaxChildren: 2})
	if len(doc.Nodes) != 3 || doc.Nodes[0].Len != 5 || doc.Nodes[0].Rec != 2 || doc.Nodes[1].Len != 2 || doc.Nodes[2].Len != 3 {
		t.Errorf("MaxDepth 1, MaxChildren 2: %+v", doc.Nodes)
	}
	// ArrayElems: the root array's elements are Elems; a container element
	// spans its opening bracket only, and nothing inside it is recorded.
	doc, _ = Parse(src, Options{MaxDepth: 3, MaxChildren: 10, ArrayElems: true})
	if len(doc.Nodes) != 1 || len(doc.Elems) != 5 || doc.Nodes[0].Rec != 5 || doc.Nodes[0].Elem0 != 0 {
		t.Fatalf("ArrayElems: %+v %+v", doc.Nodes, doc.Elems)
	}
	els := doc.ArrayElems(0)
	if els[0].Kind != Array || els[0].Raw != "[" || els[1].Kind != Object || els[1].Raw != "{" || els[4].Raw != "9" {
		t.Errorf("ArrayElems: %+v", els)
	}
	// Members of an object stay Nodes; the arrays among them get Elems.
	doc, _ = Parse(`{"a":[1,"\u0041"],"b":{"c":[true]},"d":[]}`, Options{MaxDepth: 3, MaxChildren: 10, ArrayElems: true})
	if len(doc.Nodes) != 5 || len(doc.Elems) != 3 || doc.Nodes[1].Elem0 != 0 || doc.Nodes[3].Elem0 != 2 || doc.Nodes[4].Elem0 != 3 || doc.Nodes[4].Rec != 0 {
		t.Fatalf("ArrayElems in an object: %+v %+v", doc.Nodes, doc.Elems)
	}
	if e := doc.ArrayElems(1)[1]; e.Str() != "A" || e.Flags != jsonwire.Escaped {
		t.Errorf("Elem.Str = %q, flags %d", e.Str(), e.Flags)
	}

	// An error beyond the recorded part is still found.
	for _, bad := range []string{`[[1,[2,[3,]]]]`, `[1,2,3,4,{"a" 1}]`} {
		if _, err := Parse(bad, Options{MaxDepth: 1, MaxChildren: 1}); err == nil {
			t.Errorf("Parse(%q) with a shallow tape: no error", bad)
		}
	}
}

// TestDecodedStrings: a recorded string's value, as Doc.Str, Doc.Name and
// Elem.Str give it, is its text between the quotes when it has no escape,
// and jsonwire.Unescape's decoding (whose tests hold it to the escapes)
// when it has one, on every path that reads strings.
func TestDecodedStrings(t *testing.T) {
	type row struct{ in, want, reason string }
	rows := []row{
		{`abc`, "abc", "no escape: the text itself"},
		{"é\xff", "é\xff", "raw bytes, valid or not, kept as they are"},
		{`a\nb\u0041`, "a\nbA", "short and \\u escapes decoded"},
		{`\ud83d\ude00`, "\U0001F600", "a surrogate pair is one code point"},
		{`\ud800`, "\xed\xa0\x80", "a lone surrogate: three generalized UTF-8 bytes"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		lit := `"` + r.in + `"`
		doc, err := Parse(lit, all)
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Str(&doc.Nodes[0]); got != r.want {
			t.Errorf("Str of %s = %q, want %q", lit, got, r.want)
		}
		doc, err = Parse(`{`+lit+`:0}`, all)
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Name(&doc.Nodes[1]); got != r.want {
			t.Errorf("Name %s = %q, want %q", lit, got, r.want)
		}
		// An element read by the run of scalars, and one read by the
		// general loop (after a container).
		doc, err = Parse(`[`+lit+`,[],`+lit+`]`, Options{MaxDepth: 1, MaxChildren: 10, ArrayElems: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 2} {
			if e := doc.Elems[k]; e.Str() != r.want {
				t.Errorf("element %d: Str of %s = %q, want %q", k, lit, e.Str(), r.want)
			}
		}
	})
}

// TestDeepNesting: nesting depth is never an error, costs no recursion, and
// an unclosed or mismatched container far down is still found. The normal
// run nests 100,000 levels, ten times what encoding/json refuses; the long
// run (testutil.Long) nests a million, documents of several megabytes.
func TestDeepNesting(t *testing.T) {
	n := testutil.Size(100_000, 1_000_000)
	alternating := func(k int) (open, close string) {
		var o, c strings.Builder
		for i := 0; i < k; i++ {
			if i%2 == 0 {
				o.WriteString(`[`)
			} else {
				o.WriteString(`{"a":`)
			}
		}
		for i := k - 1; i >= 0; i-- {
			if i%2 == 0 {
				c.WriteString(`]`)
			} else {
				c.WriteString(`}`)
			}
		}
		return o.String(), c.String()
	}
	arrOpen, arrClose := strings.Repeat("[", n), strings.Repeat("]", n)
	objOpen, objClose := strings.Repeat(`{"a":`, n), strings.Repeat("}", n)
	altOpen, altClose := alternating(n)
	for _, c := range []struct {
		name, open, inner, close string
	}{
		{"arrays", arrOpen, "", arrClose},
		{"objects", objOpen, "1", objClose},
		{"alternating", altOpen, "1", altClose},
	} {
		t.Run(c.name, func(t *testing.T) {
			deep := c.open + c.inner + c.close
			src := `{"x":[1,` + deep + `,2],"y":3}`
			doc, err := Parse(src, Options{MaxDepth: 3, MaxChildren: 100})
			if err != nil {
				t.Fatalf("closed: %v", err)
			}
			checkTape(t, doc, Options{MaxDepth: 3, MaxChildren: 100})
			el := &doc.Nodes[3]
			if doc.Nodes[1].Len != 3 || doc.Raw(el) != deep || doc.Raw(&doc.Nodes[el.Skip]) != "2" {
				t.Errorf("the deep element: %+v", *el)
			}
			if len(doc.Nodes) > 10 {
				t.Errorf("%d nodes recorded for a tape of depth 3", len(doc.Nodes))
			}

			// Unclosed: one closer short, or none at all.
			for _, bad := range []string{
				`{"x":[1,` + c.open + c.inner + c.close[1:] + `,2],"y":3}`,
				`{"x":[1,` + c.open + c.inner,
				c.open,
			} {
				if _, err := Parse(bad, Options{MaxDepth: 3, MaxChildren: 100}); err == nil {
					t.Errorf("unclosed nesting accepted")
				}
			}
			// Mismatched: the closer at the middle depth swapped, found
			// among the levels kept as bits (a shallow tape) and among the
			// recorded frames (everything recorded, fewer levels).
			for _, k := range []struct {
				levels int
				opt    Options
			}{{n, Options{MaxDepth: 3, MaxChildren: 100}}, {10_000, all}} {
				open, close := c.open[:len(c.open)/n*k.levels], c.close[n-k.levels:]
				b := []byte(open + c.inner + close)
				mid := len(open) + len(c.inner) + k.levels/2
				if b[mid] == ']' {
					b[mid] = '}'
				} else {
					b[mid] = ']'
				}
				_, err = Parse(string(b), k.opt)
				var se *SyntaxError
				if !errors.As(err, &se) || se.Offset != mid {
					t.Errorf("%d levels, swapped closer at %d: %v", k.levels, mid, err)
				}
			}
		})
	}
}

// TestSyntaxErrorIsTyped: the error of Parse is a *SyntaxError with its offset
// in the message.
func TestSyntaxErrorIsTyped(t *testing.T) {
	_, err := Parse("[1,]", all)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != 3 || !strings.Contains(err.Error(), "offset 3") {
		t.Fatalf("err = %v", err)
	}
}

// TestNumberValues: the reader gives an element's value (HasNum) for every
// literal whose nearest double one operation computes, on both of its paths
// (the run of scalars after a comma, and the general loop), and the value
// is strconv's; other literals are left to the caller.
func TestNumberValues(t *testing.T) {
	type row struct {
		lit    string
		hasNum bool
		reason string
	}
	rows := []row{
		{"0", true, "zero"},
		{"-0", true, "negative zero"},
		{"7", true, "one digit"},
		{"-12", true, "negative"},
		{"123456789012345", true, "fifteen digits: the short loop's most"},
		{"1234567890123456", true, "sixteen digits: past the short loop, still below 2^53"},
		{"9007199254740993", true, "2^53+1, halfway between two doubles: an exact integer, rounded once"},
		{"9007199254740994", true, "above 2^53: the Eisel-Lemire algorithm"},
		{"12345678901234567890", false, "twenty digits"},
		{"1234567", true, "seven digits: an integer in a word"},
		{"-1234567", true, "a negative integer in a word"},
		{"12345678", true, "eight digits: past the word"},
		{"1234567.1234567", true, "seven digits each side: a word each"},
		{"0.5", true, "a short decimal"},
		{"-0.125", true, "a negative decimal"},
		{"0.1", true, "a decimal no double holds: one correctly rounded division"},
		{"0.000000000000001", true, "fifteen fraction digits"},
		{"3.14159", true, "digits on both sides"},
		{"1e3", true, "an exponent: the general reading"},
		{"2.5E-3", true, "an upper-case exponent with a sign"},
		{"1e22", true, "the largest exact power of ten"},
		{"1e23", true, "past the exact powers of ten, and halfway between two doubles: exact, rounded once"},
		{"1e24", true, "past the exact powers of ten: Eisel-Lemire"},
		{"1e-130", false, "past the table of powers of ten"},
		{"1e400", false, "out of range"},
		{"1.0000000000000002", true, "seventeen digits: Eisel-Lemire"},
		{"-1234567.8901234567", true, "a long negative double"},
		{"123456789012345678901", false, "twenty-one digits: the mantissa is not exact"},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		// At the end of the text and with more than a word after it: the
		// reader reads short literals a word at a time when it can.
		for _, src := range []string{"[" + r.lit + "]", "[0, " + r.lit + " ,1]", `{"a":[true,` + r.lit + "]}", "[" + r.lit + ", 1, 2, 3, 4, 5, 6]", "[" + r.lit + ", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]"} {
			doc, err := Parse(src, Options{MaxDepth: 3, MaxChildren: 10, ArrayElems: true})
			if err != nil {
				t.Fatal(err)
			}
			var e *Elem
			for i := range doc.Elems {
				if doc.Elems[i].Raw == r.lit {
					e = &doc.Elems[i]
				}
			}
			if e == nil {
				t.Fatalf("%s: no element %s in %+v", src, r.lit, doc.Elems)
			}
			if got := e.Flags&HasNum != 0; got != r.hasNum {
				t.Errorf("%s: HasNum %v, want %v", src, got, r.hasNum)
			}
			// -0 reads as 0: a value's sign is strconv's, but no Num is -0.
			if f, _ := strconv.ParseFloat(r.lit, 64); r.hasNum && (e.Num != f || math.Signbit(e.Num) != (math.Signbit(f) && f != 0)) {
				t.Errorf("%s: Num %v, strconv %v", src, e.Num, f)
			}
		}
	})
}

// TestDocReuse: a Doc parsed again reads a document exactly as a new one
// does, whatever it held before; Reset and a failed Parse leave it empty,
// with no reference to the text it held.
func TestDocReuse(t *testing.T) {
	opt := Options{MaxDepth: 3, MaxChildren: 100, ArrayElems: true}
	docs := []string{
		`{"source":[1,"a",null,2.5,[3],{"x":1}],"claim":["b",true]}`,
		`[1]`,
		`{"a":[` + strings.Repeat(`"s",7,`, 40) + `0]}`,
		`{"b":[]}`,
	}
	var d Doc
	for _, src := range docs {
		want, err := Parse(src, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Parse(src, opt); err != nil {
			t.Fatal(err)
		}
		if d.Src != want.Src || !slices.Equal(d.Nodes, want.Nodes) || !slices.Equal(d.Elems, want.Elems) {
			t.Fatalf("reused Doc read %s as %+v %+v, a new one as %+v %+v", src, d.Nodes, d.Elems, want.Nodes, want.Elems)
		}
		n := len(d.Elems)
		d.Reset()
		if d.Src != "" || len(d.Nodes) != 0 || len(d.Elems) != 0 {
			t.Fatalf("after Reset: %+v", d)
		}
		for i, e := range d.Elems[:n] {
			if e != (Elem{}) {
				t.Fatalf("after Reset, element %d still holds %+v", i, e)
			}
		}
	}
	if err := d.Parse(`[1, 2, oops]`, opt); err == nil {
		t.Fatal("a bad document parsed")
	}
	if d.Src != "" || len(d.Nodes) != 0 || len(d.Elems) != 0 {
		t.Fatalf("after a failed Parse: %+v", d)
	}
}

// TestKindNoun: the noun phrase of every kind, as the messages of schema
// and mcpserver use it after "not".
func TestKindNoun(t *testing.T) {
	type row struct {
		kind   Kind
		want   string
		reason string
	}
	testutil.Run(t, []row{
		{Null, "null", "null has no article"},
		{False, "a boolean", "false is a boolean"},
		{True, "a boolean", "true is a boolean"},
		{Number, "a number", "a number"},
		{String, "a string", "a string"},
		{Array, "an array", "an array, with its article"},
		{Object, "an object", "an object, with its article"},
	}, func(t *testing.T, r row) {
		if got := r.kind.Noun(); got != r.want {
			t.Errorf("Kind(%d).Noun() = %q, want %q", r.kind, got, r.want)
		}
	})
}
