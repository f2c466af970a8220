package rational

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

const (
	pathExpression = "/expression"

	limitTokens = "max_tokens"
	limitDepth  = "max_depth"
	limitDigits = "max_value_digits"
)

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokInt
	tokPlus
	tokMinus
	tokTimes
	tokDivide
	tokOpen
	tokClose
)

// token is one lexical token. pos is its code point offset (what errors and
// discrepancies report); start and end are byte offsets into the source,
// used to cut out divisor texts and literals.
type token struct {
	kind       tokenKind
	pos        int32
	start, end int32
}

// tokError is the kind of the token where the lexer met its first error
// (machine.lexErr): no token follows it.
const tokError tokenKind = 0xff

type opcode uint8

// The binary operators, in this order: opAdd and opSub are at most opSub,
// opMul and opQuo at least opMul.
const (
	opAdd opcode = iota
	opSub
	opMul
	opQuo
)

// zeroDivision is the first division by zero met when evaluating an
// expression.
type zeroDivision struct {
	// Position is the code point offset of the "/" or "÷" token.
	Position int
	// DivisorText is the divisor operand's exact source text, from its first
	// token's first character to its last token's last character.
	DivisorText string
}

// inlineSlots is how many operands the evaluation stack holds in the
// machine itself; past them it moves to the heap.
const inlineSlots = 4

// A machine runs steps 5 to 7 of the check order (tokenise, parse,
// evaluate) in one left-to-right pass over an expression that passed step
// 2: a recursive-descent parser reads the tokens one at a time from the
// lexer and evaluates each node as soon as its operands are, in post-order,
// left operand before right. The check order is kept by holding errors:
//
//   - the first evaluation error (a division by zero or an intermediate
//     value over the digit limit) stops the evaluation, and is the answer
//     only if the rest of the expression lexes and parses;
//   - a syntax or depth error stops the parse, and is the answer only if
//     the rest of the expression lexes (the lexer runs on to the end);
//   - the first lexical error stops everything, and is the answer.
//
// A machine lives on its caller's stack: it holds the first inlineSlots
// operands itself and takes a workspace from the pool only for operands
// past them or values past the word tiers, or when its caller asks for the
// scratch (machine.scratch); the caller returns it (machine.release).
type machine struct {
	src string
	// The lexer: tok is the current token, prev the kind of the token
	// before it (tokEOF at the start), prevEnd that token's end byte. i and
	// cp are the byte and code point offsets just past tok; ntok counts the
	// tokens read, tok included.
	tok     token
	prev    tokenKind
	prevEnd int32
	i, cp   int
	ntok    int
	lexErr  *claimcheck.Error
	// val is an INTEGER tok's value when it has at most 19 digits.
	val uint64

	maxTokens, maxDepth, maxDigits int
	depth                          int
	w64, w128, words               bool
	// inlTop is inlineSlots while literals of at most 19 digits are pushed
	// in words on the machine's own slots (the word tiers are on, the
	// stack is not on the heap, the evaluation has not halted), else 0.
	inlTop int

	// The evaluation: the stack's operands are inl[:h] while heap is nil,
	// then heap[:h]. An operand that is not small is ws.scratch.rats[its
	// index] (see slot). halted is set once an evaluation error is held
	// in zd or evalErr.
	h       int
	heap    []slot
	ws      *workspace
	halted  bool
	zd      *zeroDivision
	evalErr *claimcheck.Error
	inl     [inlineSlots]slot
}

// A workspace is the heap memory of a check that needs some: the operands
// past the machine's own, the Rats of values past the word tiers, and the
// temporaries of big-number arithmetic, GCDs included. One pool holds
// them, so that a check allocates none of it in steady state. The Rats are
// cleared before a workspace goes back, so that no value outside shares
// their storage with a later check; no value in the scratch is ever part
// of a Rat outside it (see scratch).
type workspace struct {
	slots   []slot
	scratch scratch
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// evaluate runs steps 5 to 7 of the check order on src, which passed step
// 2 with the normalised limits l. It returns exactly one of: the value;
// the first division by zero; the error of steps 5 to 7 that the check
// order puts first. It returns *claimcheck.Error, not error, so that a nil
// result is never a non-nil interface. With the value, top is the value in
// words when top.small. The value may share storage with m's workspace
// until m.release.
func (m *machine) evaluate(l Limits, src string) (v Rat, top slot, zd *zeroDivision, err *claimcheck.Error) {
	// Fields set one by one, not by a composite literal, which the compiler
	// builds in a temporary and copies.
	m.src, m.maxTokens, m.maxDepth, m.maxDigits = src, l.MaxTokens, l.MaxDepth, l.MaxValueDigits
	m.w64, m.w128 = tiers&tier64 != 0, tiers&tier128 != 0
	m.words = m.w64 || m.w128
	if m.words {
		m.inlTop = inlineSlots
	}
	v, zd, err = m.run()
	if err == nil && zd == nil {
		top = *m.at(0)
	}
	return v, top, zd, err
}

// scratch returns the temporaries of m's workspace, taking one if m has
// none yet.
func (m *machine) scratch() *scratch { return &m.workspace().scratch }

// release returns m's workspace, if it took one, to the pool.
func (m *machine) release() {
	if m.ws != nil {
		m.ws.release()
		m.ws = nil
	}
}

func (m *machine) run() (Rat, *zeroDivision, *claimcheck.Error) {
	m.next()
	err := m.parseExpr()
	if err == nil && m.tok.kind != tokEOF {
		err = m.unexpected()
	}
	if err != nil {
		// A lexical error after the syntax error comes first.
		for m.lexErr == nil && m.tok.kind != tokEOF {
			m.next()
		}
		if m.lexErr != nil {
			return Rat{}, nil, m.lexErr
		}
		return Rat{}, nil, err
	}
	switch {
	case m.zd != nil:
		return Rat{}, m.zd, nil
	case m.evalErr != nil:
		return Rat{}, nil, m.evalErr
	}
	top := m.at(0)
	if top.lazy {
		reduce(&m.ws.scratch.rats[0], &m.ws.scratch)
		top.lazy = false
		top.setRat(&m.ws.scratch.rats[0])
	}
	if top.small {
		return rat128(top.n, top.neg, top.d), nil, nil
	}
	return m.ws.scratch.rats[0], nil, nil
}

// release returns w to the pool, unless keep says its buffers are too
// large to.
func (w *workspace) release() {
	if !w.keep() {
		return
	}
	// The Rats are part of no value outside: clear them for the next
	// check, which must not share their storage.
	clear(w.scratch.rats)
	workspaces.Put(w)
}

// keep reports whether w's buffers are within what DefaultLimits need,
// four times over: an operand per token, and big temporaries for the GCD
// of two products of values at the digit limit (the parts of a lazy sum
// before it is reduced, see addLazy). Only a check with limits past the
// default ones grows them further, and those are left to the garbage
// collector.
func (w *workspace) keep() bool {
	d := Limits{}.norm()
	return max(cap(w.slots), cap(w.scratch.rats))/4 <= d.MaxTokens && w.scratch.words()/4 <= 2*wordsOf(d.MaxValueDigits)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// byteClass is the token kind a byte starts (tokInt for a digit), or
// classSpace for white space, or classOther for any other byte (a byte of a
// multi-byte character, or one that starts no token).
var byteClass = func() (t [256]uint8) {
	for i := range t {
		t[i] = classOther
	}
	for _, c := range " \t\n\r" {
		t[c] = classSpace
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(tokInt)
	}
	for c, k := range map[byte]tokenKind{'+': tokPlus, '-': tokMinus, '*': tokTimes, '/': tokDivide, '(': tokOpen, ')': tokClose} {
		t[c] = uint8(k)
	}
	return t
}()

const (
	classSpace = 0xfe
	classOther = 0xff
)

// next reads the token after m.tok into m.tok. Tokens are read in one
// left-to-right scan, so that the first lexical error is met before any
// token after it. At the first lexical error m.tok's kind is tokError and
// m.lexErr the error; after the last token m.tok is the EOF token, at the
// expression's length in code points.
func (m *machine) next() {
	m.prev, m.prevEnd = m.tok.kind, m.tok.end
	src, i, pos := m.src, m.i, m.cp
	for i < len(src) {
		c := src[i]
		kind := tokenKind(byteClass[c])
		if kind == classSpace {
			i++
			pos++
			continue
		}
		// Faults and multi-byte characters are lexSlow's, so that this
		// loop keeps its state in registers.
		if kind == classOther || m.ntok >= m.maxTokens {
			m.lexSlow(i, pos)
			return
		}
		m.ntok++
		m.tok = token{kind: kind, pos: int32(pos), start: int32(i)}
		if kind != tokInt {
			m.tok.end = int32(i + 1)
			m.i, m.cp = i+1, pos+1
			return
		}
		j := i + 1
		v := uint64(c - '0')
		for j < len(src) && isDigit(src[j]) {
			v = v*10 + uint64(src[j]-'0')
			j++
			if j-i == 19 { // past 19 digits, v is unused
				for j < len(src) && isDigit(src[j]) {
					j++
				}
				break
			}
		}
		m.val = v
		if c == '0' && j > i+1 || j-i > m.maxDigits {
			m.literalFail(c == '0' && j > i+1, pos)
			return
		}
		m.tok.end = int32(j)
		m.i, m.cp = j, pos+j-i
		return
	}
	m.tok = token{kind: tokEOF, pos: int32(pos), start: int32(len(src)), end: int32(len(src))}
	m.i, m.cp = i, pos
}

// lexSlow is next for the token at byte offset i and code point offset
// pos when it starts with a byte that is no ASCII token, or is past the
// token limit.
func (m *machine) lexSlow(i, pos int) {
	src := m.src
	c := src[i]
	kind := tokenKind(byteClass[c])
	size := 1
	if kind == classOther {
		if c < utf8.RuneSelf {
			m.lexFail(errs.InvalidAt(pathExpression, pos, unexpectedChar(src, i, rune(c), 1)))
			return
		}
		var r rune
		r, size = utf8.DecodeRuneInString(src[i:])
		var ok bool
		if kind, ok = multiByteOp(r); !ok {
			m.lexFail(errs.InvalidAt(pathExpression, pos, unexpectedChar(src, i, r, size)))
			return
		}
	}
	if m.ntok >= m.maxTokens {
		m.lexFail(errs.LimitAt(pathExpression, pos, limitTokens,
			"more than "+strconv.Itoa(m.maxTokens)+" tokens"))
		return
	}
	m.ntok++
	m.tok = token{kind: kind, pos: int32(pos), start: int32(i), end: int32(i + size)}
	m.i, m.cp = i+size, pos+1
}

// multiByteOp is the operator token the character r is, if it is one: the
// minus sign, multiplication and division signs.
func multiByteOp(r rune) (tokenKind, bool) {
	switch r {
	case '\u2212':
		return tokMinus, true
	case '\u00d7':
		return tokTimes, true
	case '\u00f7':
		return tokDivide, true
	}
	return 0, false
}

// literalFail fails the INTEGER token at code point offset pos: for a
// leading zero when leadingZero, else for its digits.
func (m *machine) literalFail(leadingZero bool, pos int) {
	if leadingZero {
		m.lexFail(errs.InvalidAt(pathExpression, pos+1, "integer literal with a leading zero"))
		return
	}
	m.lexFail(errs.LimitAt(pathExpression, pos, limitDigits,
		"integer literal of more than "+strconv.Itoa(m.maxDigits)+" digits"))
}

func (m *machine) lexFail(err *claimcheck.Error) {
	m.lexErr = err
	m.tok.kind = tokError
}

// unexpectedChar describes a character that starts no token; src[i:i+size]
// holds it.
func unexpectedChar(src string, i int, r rune, size int) string {
	afterDigit := i > 0 && isDigit(src[i-1])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("invalid UTF-8 byte %#02x", src[i])
	case r == '.':
		return "unexpected character '.': decimal fractions are not supported, only integers"
	case (r == 'e' || r == 'E') && afterDigit:
		return fmt.Sprintf("unexpected character %q: exponents are not supported, only integers", r)
	case r == '^':
		return "unexpected character '^': there is no power operator"
	case (r == '_' || r == ',') && afterDigit:
		return fmt.Sprintf("unexpected character %q: digit separators are not supported", r)
	}
	return fmt.Sprintf("unexpected character %q", r)
}

func (m *machine) parseExpr() *claimcheck.Error {
	if err := m.parseTerm(); err != nil {
		return err
	}
	for {
		op := opAdd
		switch m.tok.kind {
		case tokPlus:
		case tokMinus:
			op = opSub
		default:
			return nil
		}
		pos := m.tok.pos
		m.next()
		if err := m.parseTerm(); err != nil {
			return err
		}
		if !m.halted {
			m.apply(op, pos, 0, 0)
		}
	}
}

func (m *machine) parseTerm() *claimcheck.Error {
	var op opcode
	var pos, first int32
	for lhs := true; ; lhs = false {
		// An INTEGER operand, the most common, skips parseUnary and
		// parsePrimary.
		if m.tok.kind == tokInt {
			m.pushInt()
			m.next()
		} else if err := m.parseUnary(); err != nil {
			return err
		}
		if !lhs && !m.halted {
			m.apply(op, pos, first, m.prevEnd)
		}
		switch m.tok.kind {
		case tokTimes:
			op = opMul
		case tokDivide:
			op = opQuo
		default:
			return nil
		}
		pos = m.tok.pos
		m.next()
		first = m.tok.start
	}
}

func (m *machine) parseUnary() *claimcheck.Error {
	n := 0
	for m.tok.kind == tokMinus {
		if m.depth >= m.maxDepth {
			return m.depthError()
		}
		m.depth++
		n++
		m.next()
	}
	if err := m.parsePrimary(); err != nil {
		return err
	}
	// Negations commute: an odd number of them negates.
	if n&1 != 0 && !m.halted {
		m.neg()
	}
	m.depth -= n
	return nil
}

func (m *machine) parsePrimary() *claimcheck.Error {
	switch m.tok.kind {
	case tokInt:
		m.pushInt()
		m.next()
		return nil
	case tokOpen:
		if m.depth >= m.maxDepth {
			return m.depthError()
		}
		m.depth++
		m.next()
		if err := m.parseExpr(); err != nil {
			return err
		}
		if m.tok.kind != tokClose {
			return m.unexpected()
		}
		m.depth--
		m.next()
		return nil
	}
	return m.unexpected()
}

// pushInt pushes the value of the INTEGER token m.tok, unless the
// evaluation halted.
func (m *machine) pushInt() {
	if h := m.h; h < m.inlTop && m.tok.end-m.tok.start <= 19 {
		s := &m.inl[h&(inlineSlots-1)]
		s.n, s.d = u128{0, m.val}, u128{0, 1}
		s.neg, s.small, s.owned = false, true, false
		m.h = h + 1
		return
	}
	m.pushIntSlow()
}

//go:noinline
func (m *machine) pushIntSlow() {
	if !m.halted {
		m.pushLiteral(m.src[m.tok.start:m.tok.end], m.val)
	}
}

func (m *machine) depthError() *claimcheck.Error {
	return errs.LimitAt(pathExpression, int(m.tok.pos), limitDepth,
		"nesting deeper than "+strconv.Itoa(m.maxDepth)+" (parentheses plus pending unary minus)")
}

// unexpected reports a syntax error at m.tok, or the lexical error there.
func (m *machine) unexpected() *claimcheck.Error {
	if m.lexErr != nil {
		return m.lexErr
	}
	return syntaxError(m.src, m.tok, m.prev)
}

// syntaxError is the error of the unexpected token t of src, after a token
// of kind prev (tokEOF at the start).
func syntaxError(src string, t token, prev tokenKind) *claimcheck.Error {
	var msg string
	operandEnded := prev == tokInt || prev == tokClose
	text := src[t.start:t.end]
	switch {
	case t.kind == tokEOF:
		msg = "unexpected end of expression"
	case operandEnded && (t.kind == tokInt || t.kind == tokOpen):
		msg = fmt.Sprintf("missing operator before %q: implicit multiplication is not supported", text)
	case t.kind == tokPlus:
		msg = "unexpected '+': there is no unary plus"
	case t.kind == tokClose && operandEnded:
		msg = "unmatched ')'"
	default:
		msg = fmt.Sprintf("unexpected %q: expected an integer, '(' or '-'", text)
	}
	return errs.InvalidAt(pathExpression, int(t.pos), msg)
}

// at returns the operand of index i.
func (m *machine) at(i int) *slot {
	if m.heap == nil {
		return &m.inl[i]
	}
	return &m.heap[i]
}

// push adds an operand on top of the stack and returns it, zero.
func (m *machine) push() *slot {
	i := m.h
	m.h++
	if m.heap == nil {
		if i < inlineSlots {
			m.inl[i] = slot{}
			return &m.inl[i]
		}
		m.grow()
	} else if i == len(m.heap) {
		m.grow()
	}
	m.heap[i] = slot{}
	return &m.heap[i]
}

// grow moves the stack to the workspace, or doubles it there.
func (m *machine) grow() {
	w := m.workspace()
	n := max(2*m.h, 2*inlineSlots)
	if cap(w.slots) < n {
		w.slots = make([]slot, n)
	}
	w.slots = w.slots[:cap(w.slots)]
	if m.heap == nil {
		copy(w.slots, m.inl[:])
	} else if &m.heap[0] != &w.slots[0] {
		copy(w.slots, m.heap)
	}
	m.heap = w.slots
	m.inlTop = 0
}

func (m *machine) workspace() *workspace {
	if m.ws == nil {
		m.ws = workspaces.Get().(*workspace)
	}
	return m.ws
}

// rats returns the Rats of the operands, at least n of them.
func (m *machine) rats(n int) []Rat {
	s := &m.workspace().scratch
	if len(s.rats) < n {
		r := make([]Rat, max(2*n, 2*inlineSlots))
		copy(r, s.rats)
		s.rats = r
	}
	return s.rats
}

// pushLiteral pushes the value of the digits s; v is that value when s
// has at most 19 digits (the lexer's m.val). A literal's storage, if it
// has any, is made for this evaluation alone, so the slot owns it.
func (m *machine) pushLiteral(s string, v uint64) {
	switch {
	case len(s) <= 19 && m.words:
		*m.push() = slot{n: u128{0, v}, d: one128, small: true}
	case len(s) <= 19:
		m.push().owned = true
		m.rats(m.h)[m.h-1] = rat64(v, false, 1)
	case len(s) <= 38 && m.w128: // below 10^38 < 2^128
		*m.push() = slot{n: decimal128(s), d: one128, small: true}
	default:
		m.push().owned = true
		m.rats(m.h)[m.h-1] = literal(s)
	}
}

// neg negates the top operand.
func (m *machine) neg() {
	i := m.h - 1
	top := m.at(i)
	if top.small {
		top.neg = !top.neg && !top.n.isZero()
		return
	}
	r := &m.ws.scratch.rats[i]
	switch {
	case r.Sign() == 0:
	case top.owned:
		r.num.Neg(&r.num)
	default:
		*r = r.neg()
		top.owned = true
	}
}

// apply replaces the two top operands x and y by x op y, made by the
// operator at code point offset pos; for opQuo, src[divStart:divEnd] is
// the divisor's text. A zero divisor or a value over the digit limit is
// held, and halts the evaluation.
func (m *machine) apply(op opcode, pos, divStart, divEnd int32) {
	i := m.h - 2
	// The fast path: both operands on the machine, below 2^64, and neither
	// 0 for a product or a quotient; a result that does not fit a word or
	// is over the digit limit takes the general path below, which computes
	// it again.
	if m.heap == nil && m.w64 && uint(i) < inlineSlots-1 {
		x, y := &m.inl[i], &m.inl[i+1]
		if x.small && y.small && x.n.hi|x.d.hi|y.n.hi|y.d.hi == 0 && (op <= opSub || x.n.lo != 0 && y.n.lo != 0) {
			// wordOp's first case, written out: a call to a helper here
			// costs 4.7% more instructions on Small1024.
			var n, d uint64
			var neg, ok bool
			if op <= opSub {
				n, neg, d, ok = addW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg != (op == opSub), y.d.lo)
			} else {
				n, neg, d, ok = mulW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg, y.d.lo, op == opQuo)
			}
			// 2^64 < 10^20: the digit test is needed only below 20 digits.
			if ok && (m.maxDigits >= 20 || !smallOver(u128{0, n}, u128{0, d}, m.maxDigits)) {
				x.n.lo, x.neg, x.d.lo = n, neg, d
				m.h = i + 1
				return
			}
		}
	}
	m.applyWords(op, pos, divStart, divEnd)
}

// applyWords is apply past its fast path: on the word tiers when the
// operands are small, else past them.
func (m *machine) applyWords(op opcode, pos, divStart, divEnd int32) {
	i := m.h - 2
	x, y := m.at(i), m.at(i+1)
	m.h = i + 1
	if op == opQuo && (y.small && y.n.isZero() || !y.small && m.ws.scratch.rats[i+1].Sign() == 0) {
		m.halted, m.inlTop = true, 0
		m.zd = &zeroDivision{Position: int(pos), DivisorText: m.src[divStart:divEnd]}
		return
	}
	if x.small && y.small {
		if n, neg, d, ok := wordOp(op, x, y); ok {
			if m.maxDigits < 39 && smallOver(n, d, m.maxDigits) { // 2^128 < 10^39
				m.halted, m.inlTop = true, 0
				m.evalErr = digitsError(pos, m.maxDigits)
				return
			}
			x.setSmall(n, neg, d)
			return
		}
	}
	m.applyBig(op, pos, i, x, y)
}

// applyBig is apply past the word tiers: x and y are the operands of index
// i and i+1.
func (m *machine) applyBig(op opcode, pos int32, i int, x, y *slot) {
	rats := m.rats(i + 2)
	xr, yr := &rats[i], &rats[i+1]
	// y leaves the stack: the next operand pushed there must not find the
	// flag (pushInt sets only what a small value needs).
	yLazy := y.lazy
	y.lazy = false
	if op >= opMul && (x.small && x.n.isZero() || !x.small && xr.Sign() == 0 ||
		y.small && y.n.isZero() || !y.small && yr.Sign() == 0) {
		*x = slot{d: one128, small: m.words, owned: true}
		*xr = Rat{}
		return
	}
	if x.small {
		*xr, x.small, x.owned = rat128(x.n, x.neg, x.d), false, true
	}
	if y.small {
		*yr = rat128(y.n, y.neg, y.d)
	}
	s := &m.ws.scratch
	if op >= opMul {
		// mulBig's cross cancellation needs operands in lowest terms. A lazy
		// operand's storage is its own: lazy values are only ever results.
		if x.lazy {
			reduce(xr, s)
			x.lazy = false
		}
		if yLazy {
			reduce(yr, s)
		}
	}
	var z Rat
	dst := xr
	if !x.owned {
		dst = &z // the zero Rat
	}
	switch {
	case op >= opMul:
		mulBig(dst, xr, yr, op == opQuo, s)
	case tiers&tierLazySum != 0:
		x.lazy = addLazy(dst, xr, yr, op == opSub, s)
	default:
		addBig(dst, xr, yr, op == opSub, s)
	}
	*xr = *dst
	x.owned = true
	// The limit is on the reduced value, which a lazy sum within it is
	// within too.
	if x.lazy && ratOver(xr, m.maxDigits) {
		reduce(xr, s)
		x.lazy = false
	}
	if ratOver(xr, m.maxDigits) {
		m.halted, m.inlTop = true, 0
		m.evalErr = digitsError(pos, m.maxDigits)
		return
	}
	if !x.lazy {
		x.setRat(xr)
	}
}

// digitsError is the error of an intermediate value over the digit limit,
// made by the operator at code point offset pos.
func digitsError(pos int32, maxDigits int) *claimcheck.Error {
	return errs.LimitAt(pathExpression, int(pos), limitDigits,
		"intermediate value with more than "+strconv.Itoa(maxDigits)+" digits")
}

// literal converts a validated digit string.
func literal(s string) Rat {
	var z Rat
	if len(s) <= 19 {
		if v := decimalChunk(s); v != 0 {
			z.num.SetUint64(v)
		}
		return z
	}
	if bits.UintSize != 64 {
		z.num.SetString(s, 10)
		return z
	}
	if len(s) <= 38 { // below 10^38 < 2^128: stored inline
		setU128(&z.num, decimal128(s), false)
		return z
	}
	// math/big's SetString reads byte by byte through an io.ByteScanner;
	// folding in 19 digits at a time is several times faster.
	words := make([]big.Word, 0, len(s)/19+1)
	for i := 0; i < len(s); {
		n := min(19, len(s)-i)
		carry, scale := decimalChunk(s[i:i+n]), pow10u64[n]
		for k, w := range words {
			hi, lo := bits.Mul64(uint64(w), scale)
			var c uint64
			lo, c = bits.Add64(lo, carry, 0)
			words[k] = big.Word(lo)
			carry = hi + c
		}
		if carry != 0 {
			words = append(words, big.Word(carry))
		}
		i += n
	}
	z.num.SetBits(words)
	return z
}

// decimal128 returns the value of the 20 to 38 digits s, below 10^38 < 2^128.
func decimal128(s string) u128 {
	v, _ := u128{0, decimalChunk(s[:19])}.mul(u128{0, pow10u64[len(s)-19]})
	v, _ = v.add(u128{0, decimalChunk(s[19:])})
	return v
}

// decimalChunk converts at most 19 digits.
func decimalChunk(s string) uint64 {
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v*10 + uint64(s[i]-'0')
	}
	return v
}

var pow10u64 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// slot is one operand of the evaluation stack. A value whose numerator and
// denominator are below 2^128 (2^64 without the 128-bit tier) is kept in
// words (small: n/d, negated when neg, in lowest terms, d = 1 for 0), so
// that the word tiers run without apd.BigInt; any other value is the Rat of
// the same index in scratch.rats. owned reports that the heap storage of
// that Rat, if any, belongs to this evaluation alone: a result can then be
// computed into it once it is dead. lazy reports that the Rat may be out
// of lowest terms (a sum past the word tiers, see addLazy): it is reduced
// before a product or quotient takes it, when its parts pass the digit
// limit, and at the end; a lazy value is never small, and always owned.
type slot struct {
	n, d  u128
	neg   bool
	small bool
	owned bool
	lazy  bool
}

// setSmall makes s the small value n/d, negated when neg.
func (s *slot) setSmall(n u128, neg bool, d u128) {
	s.n, s.neg, s.d, s.small = n, neg, d, true
}

// setRat makes s the small value r, which is in lowest terms, and reports
// whether the word tiers in use hold r: on a false result s is unchanged.
func (s *slot) setRat(r *Rat) bool {
	var n, d u128
	var neg, ok bool
	switch {
	case tiers&tier128 != 0:
		n, neg, d, ok = r.parts128()
	case tiers&tier64 != 0:
		var n64, d64 uint64
		n64, neg, d64, ok = r.parts64()
		n, d = u128{0, n64}, u128{0, d64}
	}
	if ok {
		s.setSmall(n, neg, d)
	}
	return ok
}

// smallOver reports whether n or d has more than maxDigits digits.
func smallOver(n, d u128, maxDigits int) bool {
	switch {
	case maxDigits >= 39: // 2^128 < 10^39
		return false
	case maxDigits <= 19:
		p := pow10u64[maxDigits]
		return n.hi|d.hi != 0 || n.lo >= p || d.lo >= p
	}
	p, _ := u128{0, pow10u64[19]}.mul(u128{0, pow10u64[maxDigits-19]})
	return !n.less(p) || !d.less(p)
}
