package jsontape

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"pgregory.net/rapid"
)

// This file holds the oracles: a naive recursive-descent recognizer of RFC
// 8259 (refParse) that builds the whole tree, the tape Parse should record of
// that tree (modelTape), and encoding/json.Valid. refParse reads literals
// with package jsonwire, their one owner, whose tests hold it to the
// grammar; encoding/json.Valid checks the whole document independently.
//
// encoding/json.Valid checks exactly the RFC 8259 grammar with the same
// leniencies as Parse: it does not check UTF-8 inside strings, nor pair
// surrogate escapes, nor the range of numbers, nor duplicate names. Its one
// extra refusal is nesting deeper than 10000, which a document shorter than
// 10001 bytes cannot reach; the oracle is used only below that size.

const validMaxLen = 10000

type refNode struct {
	kind               Kind
	start, end         int
	nameStart, nameEnd int
	children           []*refNode
}

type refParser struct {
	s string
	i int
}

// refParse recognizes a whole document; it recurses, so it is for small
// inputs only.
func refParse(s string) (*refNode, bool) {
	p := &refParser{s: s}
	p.ws()
	n, ok := p.value()
	if !ok {
		return nil, false
	}
	p.ws()
	return n, p.i == len(s)
}

func (p *refParser) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *refParser) at(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

func (p *refParser) value() (*refNode, bool) {
	if p.i >= len(p.s) {
		return nil, false
	}
	n := &refNode{start: p.i}
	switch c := p.s[p.i]; {
	case c == '[' || c == '{':
		n.kind = Array
		closer := byte(']')
		if c == '{' {
			n.kind, closer = Object, '}'
		}
		p.i++
		p.ws()
		if p.at(closer) {
			p.i++
			n.end = p.i
			return n, true
		}
		for {
			p.ws()
			ns, ne := 0, 0
			if n.kind == Object {
				ns = p.i
				if !p.str() {
					return nil, false
				}
				ne = p.i
				p.ws()
				if !p.at(':') {
					return nil, false
				}
				p.i++
				p.ws()
			}
			ch, ok := p.value()
			if !ok {
				return nil, false
			}
			ch.nameStart, ch.nameEnd = ns, ne
			n.children = append(n.children, ch)
			p.ws()
			switch {
			case p.at(','):
				p.i++
			case p.at(closer):
				p.i++
				n.end = p.i
				return n, true
			default:
				return nil, false
			}
		}
	case c == '"':
		n.kind = String
		if !p.str() {
			return nil, false
		}
	case c == '-' || c >= '0' && c <= '9':
		n.kind = Number
		num, fault := jsonwire.ParseNumber(p.s[p.i:])
		if fault != jsonwire.OK {
			return nil, false
		}
		p.i += num.Len
	default:
		ok := false
		for _, lit := range []struct {
			text string
			kind Kind
		}{{"true", True}, {"false", False}, {"null", Null}} {
			if strings.HasPrefix(p.s[p.i:], lit.text) {
				n.kind, ok = lit.kind, true
				p.i += len(lit.text)
				break
			}
		}
		if !ok {
			return nil, false
		}
	}
	n.end = p.i
	return n, true
}

func (p *refParser) str() bool {
	if !p.at('"') {
		return false
	}
	end, _, fault := jsonwire.ScanString(p.s, p.i)
	p.i = end
	return fault == jsonwire.OK
}

// stringFlags is what jsonwire.ScanString reports of a string's contents.
func stringFlags(contents string) uint8 {
	_, flags, _ := jsonwire.ScanString(`"`+contents+`"`, 0)
	return flags
}

// spanIn returns the byte offset of sub, a substring of src sharing its
// memory, within src (-1 if it is not one).
func spanIn(src, sub string) int {
	if len(sub) == 0 {
		return -1
	}
	off := int(uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(src))))
	if off < 0 || off+len(sub) > len(src) {
		return -1
	}
	return off
}

// modelTape is the tape Parse should record of the tree root: the root
// always, then in pre-order a child when its parent is recorded, its depth is
// at most MaxDepth and it is among the first MaxChildren. With ArrayElems an
// array's recorded elements are Elems (a container element spans its opening
// bracket only) and nothing inside them is recorded.
func modelTape(src string, root *refNode, opt Options) ([]Node, []Elem) {
	var out []Node
	var elems []Elem
	var walk func(n *refNode, depth int)
	walk = func(n *refNode, depth int) {
		idx := len(out)
		nd := Node{Kind: n.kind, Start: n.start, End: n.end, NameStart: n.nameStart, NameEnd: n.nameEnd, Elem0: len(elems)}
		if n.kind == String {
			nd.Flags = stringFlags(src[n.start+1 : n.end-1])
		}
		if n.nameEnd > 0 {
			nd.NameFlags = stringFlags(src[n.nameStart+1 : n.nameEnd-1])
		}
		nd.Len = len(n.children)
		out = append(out, nd)
		for k, ch := range n.children {
			if depth+1 > opt.MaxDepth || k >= opt.MaxChildren {
				continue
			}
			out[idx].Rec++
			if opt.ArrayElems && n.kind == Array {
				e := Elem{Raw: src[ch.start:ch.end], Kind: ch.kind}
				switch ch.kind {
				case String:
					e.Flags = stringFlags(src[ch.start+1 : ch.end-1])
				case Array, Object:
					e.Raw = src[ch.start : ch.start+1]
				}
				elems = append(elems, e)
				continue
			}
			walk(ch, depth+1)
		}
		out[idx].Skip = len(out)
	}
	walk(root, 0)
	return out, elems
}

// checkTape checks the invariants of a tape, and for a document small enough
// for the recursive model, that the tape is exactly the model's.
func checkTape(t testutil.TB, doc *Doc, opt Options) {
	t.Helper()
	src, nodes := doc.Src, doc.Nodes
	if len(nodes) == 0 {
		t.Fatalf("no root recorded")
	}
	if int(nodes[0].Skip) != len(nodes) {
		t.Fatalf("root Skip %d, %d nodes", nodes[0].Skip, len(nodes))
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Start < 0 || n.Start >= n.End || int(n.End) > len(src) {
			t.Fatalf("node %d: span %d..%d outside the document (%d bytes)", i, n.Start, n.End, len(src))
		}
		if int(n.Skip) <= i || int(n.Skip) > len(nodes) {
			t.Fatalf("node %d: Skip %d", i, n.Skip)
		}
		raw := src[n.Start:n.End]
		first := map[Kind]string{Null: "n", False: "f", True: "t", Number: "-0123456789", String: `"`, Array: "[", Object: "{"}[n.Kind]
		if first == "" || !strings.ContainsRune(first, rune(raw[0])) {
			t.Fatalf("node %d: kind %d for %q", i, n.Kind, raw)
		}
		if len(src) <= validMaxLen && !json.Valid([]byte(raw)) {
			t.Fatalf("node %d: span %q is not a JSON value", i, raw)
		}
		switch n.Kind {
		case String:
			if len(raw) < 2 || raw[len(raw)-1] != '"' || n.Flags != stringFlags(raw[1:len(raw)-1]) {
				t.Fatalf("node %d: string %q flags %d", i, raw, n.Flags)
			}
		case Array, Object:
			if n.Rec > n.Len || n.Rec < 0 {
				t.Fatalf("node %d: Rec %d, Len %d", i, n.Rec, n.Len)
			}
			c, prevEnd := int(i+1), n.Start+1
			if opt.ArrayElems && n.Kind == Array {
				if int(n.Elem0+n.Rec) > len(doc.Elems) || int(n.Skip) != i+1 {
					t.Fatalf("node %d: Elem0 %d, Rec %d, Skip %d, %d elems", i, n.Elem0, n.Rec, n.Skip, len(doc.Elems))
				}
				for _, e := range doc.ArrayElems(int(i)) {
					start := spanIn(src, e.Raw)
					end := start + len(e.Raw)
					if start < prevEnd || end > n.End-1 || start >= end {
						t.Fatalf("node %d: elem span %d..%d outside %d..%d", i, start, end, prevEnd, n.End-1)
					}
					if (e.Kind == Array || e.Kind == Object) != (len(e.Raw) == 1 && strings.IndexByte("[{", e.Raw[0]) >= 0) {
						t.Fatalf("node %d: elem %+v", i, e)
					}
					prevEnd = end
				}
				break
			}
			for k := int(0); k < n.Rec; k++ {
				ch := &nodes[c]
				if ch.Start < prevEnd || ch.End > n.End-1 {
					t.Fatalf("node %d: child %d span %d..%d outside %d..%d", i, c, ch.Start, ch.End, prevEnd, n.End-1)
				}
				if n.Kind == Object {
					if ch.NameStart < prevEnd || ch.NameEnd > ch.Start || ch.NameEnd-ch.NameStart < 2 ||
						src[ch.NameStart] != '"' || src[ch.NameEnd-1] != '"' || ch.NameFlags != stringFlags(src[ch.NameStart+1:ch.NameEnd-1]) {
						t.Fatalf("node %d: member %d name span %d..%d flags %d", i, c, ch.NameStart, ch.NameEnd, ch.NameFlags)
					}
				} else if ch.NameStart != 0 || ch.NameEnd != 0 || ch.NameFlags != 0 {
					t.Fatalf("node %d: element %d has a name", i, c)
				}
				prevEnd = ch.End
				c = ch.Skip
			}
			if c != n.Skip {
				t.Fatalf("node %d: children end at %d, Skip %d", i, c, n.Skip)
			}
		default:
			if n.Flags != 0 || n.Len != 0 || n.Rec != 0 {
				t.Fatalf("node %d: scalar with flags or counts: %+v", i, *n)
			}
		}
		if n.Kind != Array && n.Kind != Object && int(n.Skip) != i+1 {
			t.Fatalf("node %d: scalar Skip %d", i, n.Skip)
		}
	}
	if len(src) > 1<<16 {
		return
	}
	root, ok := refParse(src)
	if !ok {
		t.Fatalf("the model refuses a document Parse accepted: %q", src)
	}
	want, wantElems := modelTape(src, root, opt)
	if len(want) != len(nodes) || len(wantElems) != len(doc.Elems) {
		t.Fatalf("%d nodes and %d elems, model has %d and %d\ngot  %+v %+v\nwant %+v %+v", len(nodes), len(doc.Elems), len(want), len(wantElems), nodes, doc.Elems, want, wantElems)
	}
	for i := range want {
		if want[i] != nodes[i] {
			t.Fatalf("node %d = %+v, model %+v (document %q)", i, nodes[i], want[i], src)
		}
	}
	for i := range wantElems {
		got := doc.Elems[i]
		if got.Kind == Number && got.Flags == HasNum {
			// The reader's value, when it gives one, is the correctly
			// rounded double of the literal (as strconv reads it), and
			// HasNum is the only flag a number has.
			if f, err := strconv.ParseFloat(got.Raw, 64); err != nil || f != got.Num {
				t.Fatalf("elem %d (%s): Num %v, strconv %v, %v", i, got.Raw, got.Num, f, err)
			}
			got.Num, got.Flags = 0, 0
		}
		if wantElems[i] != got {
			t.Fatalf("elem %d = %+v, model %+v (document %q)", i, doc.Elems[i], wantElems[i], src)
		}
	}
}

// checkOracle is the differential property: Parse accepts exactly what the
// RFC 8259 grammar accepts, and then records the model's tape.
func checkOracle(t testutil.TB, src string, opt Options) {
	t.Helper()
	doc, err := Parse(src, opt)
	if len(src) <= validMaxLen {
		_, refOK := refParse(src)
		valid := json.Valid([]byte(src))
		if refOK != valid {
			t.Fatalf("the oracles disagree on %q: model %v, encoding/json %v", src, refOK, valid)
		}
		if (err == nil) != valid {
			t.Fatalf("Parse(%q): err %v, RFC 8259 valid %v", src, err, valid)
		}
	}
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) || doc != nil {
			t.Fatalf("Parse(%q): error %#v", src, err)
		}
		return
	}
	checkTape(t, doc, opt)
}

// Generators.

var soupTokens = []string{
	"{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\f", "\v",
	`"a"`, `""`, `"\u00e9"`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", "\"\xed\xa0\x80\"", `"\"`, `"\\"`, `"\x"`, `"\u12"`,
	"\"\x01\"", `"`, `\`, "'a'",
	"0", "1", "-", "-0", "01", "0123456", "1234567.", "1.5", "1.", ".5", "1e5", "1e", "1e+", "E", "+1", "1e400", "-1e400",
	"true", "false", "null", "tru", "nul", "NaN", "Infinity",
	"\xef\xbb\xbf", "\xc3\xa9", "\x00", "//", "/*", "*/",
}

func genSoup(t *rapid.T) string {
	return strings.Join(rapid.SliceOfN(rapid.SampledFrom(soupTokens), 0, 24).Draw(t, "soup"), "")
}

var strPieces = []string{
	"a", "é", "€", "😀", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00E9`,
	`\ud83d\ude00`, `\ud800`, `\udc00`, "\xff", "\xed\xa0\x80", "\xc0\x80", "\x7f", " ", ":", ",", "[", "{", "abcdefg", "abcdefgh",
}

func genWS(t *rapid.T) string {
	return rapid.SampledFrom([]string{"", "", "", " ", "\n", "\t ", "\r\n  "}).Draw(t, "ws")
}

func genString(t *rapid.T) string {
	return `"` + strings.Join(rapid.SliceOfN(rapid.SampledFrom(strPieces), 0, 5).Draw(t, "str"), "") + `"`
}

func genValue(t *rapid.T, depth int) string {
	kind := rapid.IntRange(0, 6).Draw(t, "kind")
	if depth >= 4 && kind >= 5 {
		kind = 0
	}
	switch kind {
	case 0:
		return rapid.SampledFrom([]string{"0", "-0", "1", "-12", "3.25", "1e5", "-2.5E-3", "1e400", "1e-400", "123456789012345678901",
			// about the word the reader reads an integer or a fraction in
			"1234567", "12345678", "-7654321.1234567", "0.0000001", "123.12345678", "9007199254740993", "1234567e1"}).Draw(t, "num")
	case 1:
		return rapid.SampledFrom([]string{"true", "false", "null"}).Draw(t, "lit")
	case 2, 3:
		return genString(t)
	case 4:
		return rapid.SampledFrom([]string{"[]", "{}", "[ ]", "{ }"}).Draw(t, "empty")
	}
	n := rapid.IntRange(0, 4).Draw(t, "n")
	var b strings.Builder
	if kind == 5 {
		// Up to 12 elements: a run long enough for the reader's word loop
		// (wordRun), which reads while 24 bytes are left.
		n = rapid.IntRange(0, 12).Draw(t, "elems")
		b.WriteString("[")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(genWS(t) + genValue(t, depth+1) + genWS(t))
		}
		b.WriteString("]")
		return b.String()
	}
	b.WriteString("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(genWS(t) + genString(t) + genWS(t) + ":" + genWS(t) + genValue(t, depth+1) + genWS(t))
	}
	b.WriteString("}")
	return b.String()
}

// mutate applies a few byte-level edits to a valid document.
func mutate(t *rapid.T, s string) string {
	b := []byte(s)
	for k := rapid.IntRange(0, 3).Draw(t, "edits"); k > 0; k-- {
		i := rapid.IntRange(0, len(b)).Draw(t, "at")
		switch rapid.IntRange(0, 3).Draw(t, "edit") {
		case 0: // delete a byte
			if i < len(b) {
				b = append(b[:i], b[i+1:]...)
			}
		case 1: // insert a token
			tok := rapid.SampledFrom(soupTokens).Draw(t, "tok")
			b = append(b[:i], append([]byte(tok), b[i:]...)...)
		case 2: // replace a byte
			if i < len(b) {
				b[i] = rapid.SampledFrom([]byte("{}[],:\"\\ 0-.eE+tfnu\x00\x1f\x80\xff")).Draw(t, "byte")
			}
		case 3: // truncate
			b = b[:i]
		}
	}
	return string(b)
}

func genOptions(t *rapid.T) Options {
	return Options{
		MaxDepth:    rapid.IntRange(0, 5).Draw(t, "maxDepth"),
		MaxChildren: rapid.IntRange(0, 16).Draw(t, "maxChildren"),
		ArrayElems:  rapid.Bool().Draw(t, "arrayElems"),
	}
}

// TestParseMatchesGrammarOnTokenSoup: for random token sequences, Parse
// accepts exactly the RFC 8259 documents.
func TestParseMatchesGrammarOnTokenSoup(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkOracle(t, genSoup(t), genOptions(t))
	})
}

// TestParseMatchesGrammarOnMutatedDocuments: the same law on valid documents
// (with rule-2 content: invalid UTF-8, lone surrogates, 1e400) and on their
// byte-level mutations.
func TestParseMatchesGrammarOnMutatedDocuments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := genWS(t) + genValue(t, 0) + genWS(t)
		checkOracle(t, doc, genOptions(t))
		checkOracle(t, mutate(t, doc), genOptions(t))
	})
}

// FuzzParse: Parse never panics, agrees with the grammar oracle, and records
// a consistent tape.
func FuzzParse(f *testing.F) {
	for _, rows := range [][]grammarRow{refused, accepted} {
		for _, r := range rows {
			f.Add([]byte(r.in), uint8(3), uint8(4))
		}
	}
	f.Add([]byte(`{"source":[1,"a",null,true,{"b":[2]}],"claim":[]}`), uint8(2), uint8(2))
	f.Add([]byte(`[falsenull]`), uint8(2), uint8(2)) // once fooled the model
	f.Add([]byte(strings.Repeat("[", 100)+strings.Repeat("]", 100)), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, depth, children uint8) {
		opt := Options{MaxDepth: int(depth % 8), MaxChildren: int(children % 8), ArrayElems: children >= 128}
		checkOracle(t, string(data), opt)
	})
}
