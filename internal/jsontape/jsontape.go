package jsontape

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// Kind is the JSON type of a recorded value.
type Kind uint8

// The JSON value kinds.
const (
	Null Kind = iota
	False
	True
	Number
	String
	Array
	Object
)

// Number flags.
const (
	// HasNum: the element's Num is the double nearest the literal (the
	// reader computed it while finding the literal's end; see jsonwire's
	// Short and Number.Float). Without it the literal is to be converted
	// from Raw.
	HasNum = 1 << iota
)

// Noun returns how an error message names a value of kind k: "null", "a
// boolean", "a number", "a string", "an array" or "an object" (as in "params
// must be an object, not an array").
func (k Kind) Noun() string {
	switch k {
	case Null:
		return "null"
	case True, False:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	}
	return "an object"
}

// Node is one recorded value. Spans are byte offsets into the document;
// a string's span includes its quotes.
type Node struct {
	Kind      Kind
	Flags     uint8 // of a String value: jsonwire.Escaped, jsonwire.NonASCII
	NameFlags uint8 // of the member name, for an object member
	Start     int
	End       int
	NameStart int // the member name's span (with quotes), for an object member
	NameEnd   int
	Len       int // Array/Object: the number of elements or members
	Rec       int // Array/Object: how many of them are recorded
	Skip      int // the index of the node after this one and its descendants
	Elem0     int // Array with Options.ArrayElems: the index of its first Elem
}

// Elem is a recorded array element (with Options.ArrayElems): a third of a
// Node, since arrays of scalars are most of a document. It holds its own
// text, so an element can be decoded without its document.
// The contents of an element that is itself an array or object are checked
// by the grammar but not recorded.
type Elem struct {
	// Raw is the element's source text: a scalar's whole literal (a
	// string's with its quotes), a container's opening bracket only.
	Raw  string
	Num  float64 // of a Number with HasNum
	Kind Kind
	// Flags: of a String, jsonwire's flags, so 0 exactly when its text is
	// printable ASCII without an escape, which is its value and valid
	// UTF-8 (canon converts such a string without checking it again); of a
	// Number, HasNum.
	Flags uint8
}

// Doc is a parsed document: its text and the tape. Nodes[0] is the root.
type Doc struct {
	Src   string
	Nodes []Node
	Elems []Elem

	// The parser's stacks, kept for the next Parse: frames holds no
	// reference to the text, deep only bits.
	frames []frame
	deep   []uint64
}

// Options says how much of the tree to record.
type Options struct {
	// MaxDepth: values at depth <= MaxDepth are recorded (the root, depth 0,
	// always is).
	MaxDepth int
	// MaxChildren: at most this many elements or members of a container are
	// recorded; the rest are checked by the grammar and counted in Len.
	MaxChildren int
	// ArrayElems: record the elements of arrays as Elems (see Node.Elem0), not
	// as Nodes, and never record inside an element.
	ArrayElems bool
}

// SyntaxError is a grammar error at a byte offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at byte offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

type frame struct {
	node   int // recorded node index, or -1
	object bool
	count  int
}

type parser struct {
	src   string
	pos   int
	opt   Options
	nodes []Node
	elems []Elem
	// frames holds the open containers up to the recorded depth + 1; deeper
	// levels are kept as bits (1 = object) in deep.
	frames []frame
	deep   []uint64
	ndeep  int
}

// Parse checks src against the JSON grammar and records its shallow values.
// The error is a *SyntaxError.
func Parse(src string, opt Options) (*Doc, error) {
	d := new(Doc)
	if err := d.Parse(src, opt); err != nil {
		return nil, err
	}
	return d, nil
}

// Parse is the package's Parse into d, reusing the memory of d's tape: a
// caller that parses many documents keeps its Docs (see Reset) rather than
// allocate a tape, mostly array elements, for each. On error d is empty.
func (d *Doc) Parse(src string, opt Options) error {
	p := parser{src: src, opt: opt, nodes: d.Nodes[:0], elems: d.Elems[:0], frames: d.frames[:0], deep: d.deep[:0]}
	if cap(p.nodes) == 0 {
		p.nodes = make([]Node, 0, 16)
	}
	if opt.ArrayElems {
		// Most of a tool's document is array elements, and there are at most
		// as many as commas and '[' (counted at memory speed), so reserve
		// that, within reason, rather than grow from nothing.
		n := min(strings.Count(src, ",")+strings.Count(src, "[")+1, len(src)/2+1, 1<<17)
		if cap(p.elems) < n {
			p.elems = make([]Elem, 0, n)
		}
	}
	err := p.run()
	d.Src, d.Nodes, d.Elems = src, p.nodes, p.elems
	d.frames, d.deep = p.frames[:0], p.deep[:0]
	if err != nil {
		d.Reset()
	}
	return err
}

// Reset empties d, keeping the memory of its tape, and drops its references
// to the document's text, so that a kept Doc holds no document alive.
func (d *Doc) Reset() {
	clear(d.Elems)
	d.Src, d.Nodes, d.Elems = "", d.Nodes[:0], d.Elems[:0]
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Offset: p.pos, Msg: msg}
}

func (p *parser) skipWS() { p.pos = jsonwire.SkipSpace(p.src, p.pos) }

// depth returns the depth of the next value.
func (p *parser) depth() int { return len(p.frames) + p.ndeep }

// How the next value is recorded.
const (
	recNone = iota
	recNode
	recElem
)

// record says how the next value (a child of the innermost open container,
// or the root) is to be recorded, and counts it in its parent.
func (p *parser) record() int {
	if len(p.frames) == 0 && p.ndeep == 0 {
		return recNode
	}
	if p.ndeep > 0 {
		return recNone
	}
	f := &p.frames[len(p.frames)-1]
	f.count++
	if f.node < 0 || len(p.frames) > p.opt.MaxDepth || int(f.count) > p.opt.MaxChildren {
		return recNone
	}
	p.nodes[f.node].Rec++
	if !f.object && p.opt.ArrayElems {
		return recElem
	}
	return recNode
}

func (p *parser) run() error {
	p.skipWS()
	var nameStart, nameEnd int
	var nameFlags uint8
	for {
		// A value is expected at p.pos.
		if p.pos >= len(p.src) {
			return p.fail("unexpected end of input")
		}
		mode := p.record()
		idx := int(-1)
		start := p.pos
		switch mode {
		case recNode:
			idx = len(p.nodes)
			p.nodes = append(p.nodes, Node{Start: p.pos, NameStart: nameStart, NameEnd: nameEnd, NameFlags: nameFlags, Elem0: len(p.elems)})
		case recElem:
			idx = len(p.elems)
			p.elems = append(p.elems, Elem{})
		}
		nameStart, nameEnd, nameFlags = 0, 0, 0
		c := p.src[p.pos]
		var kind Kind
		var flags uint8
		var num float64 // of a Number with HasNum
		var ok bool
		switch {
		case c == '{' || c == '[':
			p.pos++
			kind := Array
			if c == '{' {
				kind = Object
			}
			switch mode {
			case recNode:
				p.nodes[idx].Kind = kind
			case recElem:
				e := &p.elems[idx]
				e.Kind, e.Raw = kind, p.src[start:start+1]
				idx = -1 // an element's contents are not recorded
			}
			p.push(idx, c == '{')
			p.skipWS()
			if p.pos < len(p.src) && (p.src[p.pos] == '}' && c == '{' || p.src[p.pos] == ']' && c == '[') {
				p.pos++
				p.pop()
				goto after
			}
			if c == '{' {
				var err error
				if nameStart, nameEnd, nameFlags, err = p.name(); err != nil {
					return err
				}
			} else if p.scalars() {
				goto after
			}
			continue
		case c == '"':
			var err error
			if flags, err = p.str(); err != nil {
				return err
			}
			kind = String
		case c == '-' || c >= '0' && c <= '9':
			n, err := p.number()
			if err != nil {
				return err
			}
			kind = Number
			if num, ok = n.Float(); ok && mode == recElem { // a Node has no Num
				flags = HasNum
			}
		case c == 't':
			if err := p.literal("true"); err != nil {
				return err
			}
			kind = True
		case c == 'f':
			if err := p.literal("false"); err != nil {
				return err
			}
			kind = False
		case c == 'n':
			if err := p.literal("null"); err != nil {
				return err
			}
			kind = Null
		default:
			return p.fail("unexpected character " + quoteByte(c))
		}
		switch mode {
		case recNode:
			n := &p.nodes[idx]
			n.Kind = kind
			n.Flags = flags
			n.End = p.pos
			n.Skip = idx + 1
		case recElem:
			e := &p.elems[idx]
			e.Kind, e.Flags, e.Raw, e.Num = kind, flags, p.src[start:p.pos], num
		}
	after:
		// A value has ended at p.pos: close containers or move to the next value.
		for {
			p.skipWS()
			if p.depth() == 0 {
				if p.pos != len(p.src) {
					return p.fail("trailing data after the document")
				}
				return nil
			}
			if p.pos >= len(p.src) {
				return p.fail("unexpected end of input")
			}
			c := p.src[p.pos]
			obj := p.topIsObject()
			switch {
			case c == ',':
				p.pos++
				p.skipWS()
				if obj {
					var err error
					if nameStart, nameEnd, nameFlags, err = p.name(); err != nil {
						return err
					}
				} else if p.scalars() {
					continue
				}
			case c == '}' && obj || c == ']' && !obj:
				p.pos++
				p.pop()
				continue
			default:
				if obj {
					return p.fail("expected ',' or '}' after an object member")
				}
				return p.fail("expected ',' or ']' after an array element")
			}
			break
		}
	}
}

// scalars is the fast path for the elements of the innermost open array,
// which is most of a tool's document: while they are scalars, it reads and
// records them in a tight loop, with what record, str, number and literal do
// for them but without the general loop's dispatch. It stops at anything
// else (a container, an error, the end of the array or of the input) and
// leaves it to the general loop, in one of two states: before an element
// not yet counted (false: a value is expected at p.pos), or after an
// element (true: p.pos is past it). Either way the general loop then does
// exactly what it would have done had it read everything itself, so errors
// and their offsets do not depend on this path.
func (p *parser) scalars() bool {
	if p.ndeep > 0 {
		return false
	}
	f := &p.frames[len(p.frames)-1]
	rec := f.node >= 0 && len(p.frames) <= p.opt.MaxDepth
	if rec && !p.opt.ArrayElems {
		return false // elements are recorded as Nodes: the general loop's job
	}
	n0 := len(p.elems)
	i, count, elems, after := p.scalarRun(p.pos, f.count, rec, p.elems)
	p.pos, f.count, p.elems = i, count, elems
	if rec {
		p.nodes[f.node].Rec += len(elems) - n0
	}
	return after
}

// scalarRun is the loop of scalars, on locals: from i, a value expected
// there, with count elements counted and elems recorded so far.
func (p *parser) scalarRun(i, count int, rec bool, elems []Elem) (int, int, []Elem, bool) {
	src, limit := p.src, p.opt.MaxChildren
	if !rec {
		limit = -1 // no count is at most -1: nothing is recorded
	}
	for i < len(src) {
		// The commonest elements first, in a loop without a call; it stops
		// before an element it does not read, or after one not followed by
		// a comma.
		var done bool
		if i, count, elems, done = wordRun(src, i, count, limit, elems); done {
			goto after
		}
		if i >= len(src) {
			break
		}
		{
			// A value is expected at i.
			start := i
			var kind Kind
			var flags uint8
			var num float64
			var ok bool
			switch c := src[i]; {
			case c == '"':
				kind = String
				j := jsonwire.PlainEnd(src, i+1)
				if j < len(src) && src[j] == '"' {
					i = j + 1
				} else {
					p.pos = i
					var err error
					if flags, err = p.str(); err != nil {
						return start, count, elems, false
					}
					i = p.pos
				}
			case c == '-' || c-'0' < 10:
				kind, flags = Number, HasNum
				// With 24 bytes or more left, wordRun declined this literal:
				// mostly one Short declines too (an exponent, more than 15
				// digits). The few Short would read (8 to 15 digits before or
				// after the point) go through ParseNumber instead, to the same
				// value, at a few nanoseconds more.
				if len(src)-i < 24 {
					if n, f := jsonwire.Short(src[i:]); n > 0 {
						i, num = i+n, f
						break
					}
				}
				n, fault := jsonwire.ParseNumber(src[i:])
				if fault != jsonwire.OK {
					return start, count, elems, false
				}
				i += n.Len
				if num, ok = n.Float(); !ok {
					flags = 0
				}
			case c == 't' && len(src)-i >= 4 && src[i:i+4] == "true":
				i += 4
				kind = True
			case c == 'f' && len(src)-i >= 5 && src[i:i+5] == "false":
				i += 5
				kind = False
			case c == 'n' && len(src)-i >= 4 && src[i:i+4] == "null":
				i += 4
				kind = Null
			default:
				return start, count, elems, false
			}
			count++
			if count <= limit {
				elems = append(elems, Elem{Raw: src[start:i], Num: num, Kind: kind, Flags: flags})
			}
		}
	after:
		// After a value: a comma and the next element, or anything else for
		// the general loop.
		if i >= len(src) {
			return i, count, elems, true
		}
		if src[i] != ',' {
			if i = jsonwire.SkipSpace(src, i); i >= len(src) || src[i] != ',' {
				return i, count, elems, true
			}
		}
		i++
		if i < len(src) && src[i] <= ' ' {
			i = jsonwire.SkipSpace(src, i)
		}
	}
	return i, count, elems, false
}

// wordRun is the heart of scalarRun: the commonest elements (a plain string
// of at most seven bytes, a number of at most seven digits before the point
// and seven after, without an exponent, true, false, null), each read in a
// word or two, and recorded, in a loop without a
// call, so that its state stays in registers. From i, a value expected
// there, it reads elements while at least 24 bytes are left and elems has
// room (no append grows it), and stops either before a value it does not
// read (done false: the value is for scalarRun's general reading, which
// may end the run), or after a value not directly followed by a comma
// (done true). What it reads, records and counts is what scalarRun's
// general reading would: the checks are Short's, PlainEnd's and literal's.
func wordRun(src string, i, count, limit int, elems []Elem) (int, int, []Elem, bool) {
	// It records every element it reads, so it reads only while there is
	// room under the limit as well as in elems (none once count reaches
	// limit: those elements are counted, not recorded, by the general
	// reading); the count is then the elements recorded.
	n0 := len(elems)
	stop := min(cap(elems), n0+limit-count)
	for i+24 <= len(src) && len(elems) < stop {
		start := i
		var kind Kind
		var flags uint8
		var num float64
		switch c := src[i]; {
		case c == '"':
			m := jsonwire.NonPlain(jsonwire.LE64(src[i+1:]))
			if m == 0 {
				return i, count + len(elems) - n0, elems, false // eight plain bytes: longer than a word
			}
			j := i + 1 + bits.TrailingZeros64(m)>>3
			if src[j] != '"' {
				return i, count + len(elems) - n0, elems, false // an escape, a byte >= 0x80 or a control byte
			}
			i, kind = j+1, String
		case c-'0' < 10 || c == '-':
			// Short's reading of a literal of at most seven digits before
			// the point and seven after, a word each.
			j := i
			if c == '-' {
				j++
			}
			k, v := jsonwire.WordInt(jsonwire.LE64(src[j:]))
			if uint(k-1) >= 7 || k > 1 && src[j] == '0' {
				return i, count + len(elems) - n0, elems, false // no digit, eight or more, or a leading zero
			}
			j += k
			num = float64(int64(v))
			if src[j] == '.' {
				k, f := jsonwire.WordInt(jsonwire.LE64(src[j+1:]))
				if uint(k-1) >= 7 {
					return i, count + len(elems) - n0, elems, false
				}
				num = jsonwire.Decimal(v, k, f)
				j += 1 + k
			}
			if d := src[j]; d == '.' || d|0x20 == 'e' {
				return i, count + len(elems) - n0, elems, false // an exponent, or a second point
			}
			if c == '-' {
				num = 0 - num // -0 reads as 0, as Short has it
			}
			i, kind, flags = j, Number, HasNum
		case c == 't' && src[i:i+4] == "true":
			i, kind = i+4, True
		case c == 'f' && src[i:i+5] == "false":
			i, kind = i+5, False
		case c == 'n' && src[i:i+4] == "null":
			i, kind = i+4, Null
		default:
			return i, count + len(elems) - n0, elems, false
		}
		n := len(elems)
		elems = elems[:n+1]
		elems[n] = Elem{Raw: src[start:i], Num: num, Kind: kind, Flags: flags}
		if src[i] != ',' {
			return i, count + len(elems) - n0, elems, true
		}
		i++
		if i < len(src) && src[i] <= ' ' {
			i = jsonwire.SkipSpace(src, i)
		}
	}
	return i, count + len(elems) - n0, elems, false
}

// name reads a member name and the colon after it, leaving p.pos at the value.
func (p *parser) name() (start, end int, flags uint8, err error) {
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return 0, 0, 0, p.fail("expected a member name")
	}
	start = p.pos
	if flags, err = p.str(); err != nil {
		return 0, 0, 0, err
	}
	end = p.pos
	p.skipWS()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return 0, 0, 0, p.fail("expected ':' after a member name")
	}
	p.pos++
	p.skipWS()
	return start, end, flags, nil
}

func (p *parser) push(idx int, object bool) {
	if p.ndeep == 0 && len(p.frames) <= p.opt.MaxDepth {
		p.frames = append(p.frames, frame{node: idx, object: object})
		return
	}
	w, b := p.ndeep/64, uint(p.ndeep%64)
	if w == len(p.deep) {
		p.deep = append(p.deep, 0)
	}
	if object {
		p.deep[w] |= 1 << b
	} else {
		p.deep[w] &^= 1 << b
	}
	p.ndeep++
}

func (p *parser) pop() {
	if p.ndeep > 0 {
		p.ndeep--
		return
	}
	f := p.frames[len(p.frames)-1]
	p.frames = p.frames[:len(p.frames)-1]
	if f.node >= 0 {
		n := &p.nodes[f.node]
		n.End = p.pos
		n.Len = f.count
		n.Skip = len(p.nodes)
	}
}

func (p *parser) topIsObject() bool {
	if p.ndeep > 0 {
		i := p.ndeep - 1
		return p.deep[i/64]&(1<<uint(i%64)) != 0
	}
	return p.frames[len(p.frames)-1].object
}

// str reads a string starting at its opening quote (the grammar is
// package jsonwire's), leaving p.pos after its closing quote.
func (p *parser) str() (uint8, error) {
	end, flags, fault := jsonwire.ScanString(p.src, p.pos)
	p.pos = end
	switch fault {
	case jsonwire.Unterminated:
		return 0, p.fail("unterminated string")
	case jsonwire.UnterminatedEscape:
		return 0, p.fail("unterminated escape")
	case jsonwire.BadUnicodeEscape:
		return 0, p.fail(`bad \u escape`)
	case jsonwire.BadEscape:
		return 0, p.fail("bad escape " + quoteByte(p.src[end+1]))
	case jsonwire.ControlChar:
		return 0, p.fail("unescaped control character " + quoteByte(p.src[end]) + " in a string")
	}
	return flags, nil
}

// number reads a number literal (the grammar is package jsonwire's); what
// follows it is checked by the caller.
// number reads the number literal at p.pos. It returns the Number by value:
// a pointer to it made every number the general loop reads an allocation.
func (p *parser) number() (jsonwire.Number, error) {
	n, f := jsonwire.ParseNumber(p.src[p.pos:])
	p.pos += n.Len
	switch f {
	case jsonwire.NoInt:
		return n, p.fail("bad number")
	case jsonwire.NoFracDigit:
		return n, p.fail("bad number: a digit must follow '.'")
	case jsonwire.NoExpDigit:
		return n, p.fail("bad number: a digit must follow the exponent")
	}
	return n, nil
}

func (p *parser) literal(lit string) error {
	if len(p.src)-p.pos < len(lit) || p.src[p.pos:p.pos+len(lit)] != lit {
		return p.fail("unexpected character " + quoteByte(p.src[p.pos]))
	}
	p.pos += len(lit)
	return nil
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "0x" + strconv.FormatUint(uint64(c), 16)
}
