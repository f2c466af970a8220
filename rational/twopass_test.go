package rational

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
)

// This file is the reference implementation the tests compare the
// one-pass evaluator (machine, expr.go) with: the two-pass checker the
// package ran before it. It tokenises the whole expression into a token
// array, parses the tokens into a post-order program, and evaluates the
// program only once the parse has succeeded, which makes the check order
// (lexical errors, then syntax and depth errors, then evaluation errors)
// hold by construction. Its program also gives the tests the parsed tree
// (expr.String in export_test.go).

// opLit and opSmall are the program's literals; the operators are
// expr.go's opcodes.
const (
	opLit   opcode = iota + 16 // a literal of expr.lits
	opSmall                    // a literal below 2^64, held in the instr
	opNeg
)

// expr is a parsed expression: its syntax tree, kept in post-order (the
// order of evaluation) with the source position of every token. It is
// immutable once built; it may be evaluated any number of times,
// concurrently.
type expr struct {
	src       string
	prog      []instr
	lits      []Rat
	maxStack  int
	maxDigits int
}

// instr is one node of the tree in post-order. pos is the code point offset
// of the node's token (the operator, or a literal's first digit). For opLit,
// arg indexes expr.lits; for opSmall, arg and end are the low and high 32
// bits of the value (see smallValue); for opQuo, [arg, end) is the byte span
// of the divisor operand's source text.
type instr struct {
	op       opcode
	pos      int32
	arg, end int32
}

// zeroDivision is the first division by zero met when evaluating an

// already validated expression and stores the result in e, with tb as the
// token buffer. It returns *claimcheck.Error, not error, so that a nil
// result is never a non-nil interface. The tokens, program and literals are
// appended to tb's and e's slices, from length 0, when their capacities
// suffice.
func (l Limits) parseInto(e *expr, tb *[]token, src string) *claimcheck.Error {
	// Every token takes at least one byte, so this capacity is never exceeded.
	n := min(len(src), l.MaxTokens) + 1
	if cap(*tb) < n {
		*tb = make([]token, 0, max(n, 64))
	}
	toks, ints, err := lex(src, l, (*tb)[:0])
	if err != nil {
		return err
	}
	p := parser{src: src, toks: toks, maxDepth: l.MaxDepth}
	p.prog = e.prog[:0]
	if cap(p.prog) < len(toks)-1 {
		p.prog = make([]instr, 0, len(toks)-1)
	}
	p.lits = e.lits[:0]
	if cap(p.lits) < ints {
		p.lits = make([]Rat, 0, ints)
	}
	err = p.parseExpr()
	if err == nil {
		if t := p.peek(); t.kind != tokEOF {
			err = p.unexpected(t)
		}
	}
	if err != nil {
		// Keep the buffers, and the literals to clear (see workspace.release).
		e.prog, e.lits = p.prog[:0], p.lits
		return err
	}
	*e = expr{src: src, prog: p.prog, lits: p.lits, maxStack: p.maxStack, maxDigits: l.MaxValueDigits}
	return nil
}

// A workspace is the working memory of one CheckRational: the token buffer,
// the parsed program and its literals, and the temporaries of big-number
// arithmetic. One pool holds them, so that a check allocates none of it in
// steady state. Only the slices' backing arrays and the temporaries' storage
// are reused: the literals are cleared before a workspace goes back, and a
// literal's storage is built afresh by every parse, so values computed from

// lex tokenises src in one left-to-right scan, so that the first lexical
// error wins over any syntax error (see docs/contract.md in the repository),
// and appends the tokens, then an EOF token at the length in code points. ints
// counts the INTEGER tokens.
func lex(src string, l Limits, toks []token) (_ []token, ints int, _ *claimcheck.Error) {
	pos := 0
	for i := 0; i < len(src); {
		c := src[i]
		kind := tokenKind(byteClass[c])
		size := 1
		switch kind {
		case classSpace:
			i++
			pos++
			continue
		case classOther:
			if c < utf8.RuneSelf {
				return nil, 0, errs.InvalidAt(pathExpression, pos, unexpectedChar(src, i, rune(c), 1))
			}
			var r rune
			r, size = utf8.DecodeRuneInString(src[i:])
			switch r {
			case '\u2212':
				kind = tokMinus
			case '\u00d7':
				kind = tokTimes
			case '\u00f7':
				kind = tokDivide
			default:
				return nil, 0, errs.InvalidAt(pathExpression, pos, unexpectedChar(src, i, r, size))
			}
		}
		if len(toks) >= l.MaxTokens {
			return nil, 0, errs.LimitAt(pathExpression, pos, limitTokens,
				"more than "+strconv.Itoa(l.MaxTokens)+" tokens")
		}
		if kind == tokInt {
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if c == '0' && j > i+1 {
				return nil, 0, errs.InvalidAt(pathExpression, pos+1, "integer literal with a leading zero")
			}
			if j-i > l.MaxValueDigits {
				return nil, 0, errs.LimitAt(pathExpression, pos, limitDigits,
					"integer literal of more than "+strconv.Itoa(l.MaxValueDigits)+" digits")
			}
			size = j - i
			ints++
		}
		toks = append(toks, token{kind: kind, pos: int32(pos), start: int32(i), end: int32(i + size)})
		i += size
		if kind == tokInt {
			pos += size
		} else {
			pos++
		}
	}
	return append(toks, token{kind: tokEOF, pos: int32(pos), start: int32(len(src)), end: int32(len(src))}), ints, nil
}

// parser is a recursive-descent parser over the token slice. Recursion happens
// only at "(", so its depth is bounded by the depth limit; runs of "+", "-",
// "*", "/" and unary "-" are loops.
type parser struct {
	src      string
	toks     []token
	i        int
	depth    int
	maxDepth int

	prog     []instr
	lits     []Rat
	stack    int // operand stack height of prog so far
	maxStack int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) emit(in instr) {
	switch in.op {
	case opLit, opSmall:
		p.stack++
		if p.stack > p.maxStack {
			p.maxStack = p.stack
		}
	case opAdd, opSub, opMul, opQuo:
		p.stack--
	}
	p.prog = append(p.prog, in)
}

func (p *parser) parseExpr() *claimcheck.Error {
	if err := p.parseTerm(); err != nil {
		return err
	}
	for {
		t := p.peek()
		var op opcode
		switch t.kind {
		case tokPlus:
			op = opAdd
		case tokMinus:
			op = opSub
		default:
			return nil
		}
		p.i++
		if err := p.parseTerm(); err != nil {
			return err
		}
		p.emit(instr{op: op, pos: t.pos})
	}
}

func (p *parser) parseTerm() *claimcheck.Error {
	if err := p.parseUnary(); err != nil {
		return err
	}
	for {
		t := p.peek()
		var op opcode
		switch t.kind {
		case tokTimes:
			op = opMul
		case tokDivide:
			op = opQuo
		default:
			return nil
		}
		p.i++
		first := p.peek()
		if err := p.parseUnary(); err != nil {
			return err
		}
		last := p.toks[p.i-1]
		p.emit(instr{op: op, pos: t.pos, arg: first.start, end: last.end})
	}
}

func (p *parser) parseUnary() *claimcheck.Error {
	start := p.i
	for p.peek().kind == tokMinus {
		if p.depth >= p.maxDepth {
			return p.depthError(p.peek())
		}
		p.depth++
		p.i++
	}
	n := p.i - start
	if err := p.parsePrimary(); err != nil {
		return err
	}
	// The innermost minus, the last one written, applies first.
	for k := n - 1; k >= 0; k-- {
		p.emit(instr{op: opNeg, pos: p.toks[start+k].pos})
	}
	p.depth -= n
	return nil
}

func (p *parser) parsePrimary() *claimcheck.Error {
	t := p.peek()
	switch t.kind {
	case tokInt:
		p.i++
		if t.end-t.start <= 19 {
			v := decimalChunk(p.src[t.start:t.end])
			p.emit(instr{op: opSmall, pos: t.pos, arg: int32(uint32(v)), end: int32(uint32(v >> 32))})
			return nil
		}
		p.lits = append(p.lits, literal(p.src[t.start:t.end]))
		p.emit(instr{op: opLit, pos: t.pos, arg: int32(len(p.lits) - 1)})
		return nil
	case tokOpen:
		if p.depth >= p.maxDepth {
			return p.depthError(t)
		}
		p.depth++
		p.i++
		if err := p.parseExpr(); err != nil {
			return err
		}
		c := p.peek()
		if c.kind != tokClose {
			return p.unexpected(c)
		}
		p.depth--
		p.i++
		return nil
	}
	return p.unexpected(t)
}

func (p *parser) depthError(t token) *claimcheck.Error {
	return errs.LimitAt(pathExpression, int(t.pos), limitDepth,
		"nesting deeper than "+strconv.Itoa(p.maxDepth)+" (parentheses plus pending unary minus)")
}

// unexpected reports a syntax error at t.
func (p *parser) unexpected(t token) *claimcheck.Error {
	var msg string
	prev := tokEOF
	if p.i > 0 {
		prev = p.toks[p.i-1].kind
	}
	operandEnded := prev == tokInt || prev == tokClose
	text := p.src[t.start:t.end]
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

// smallValue is the value of an opSmall instr.
func (in *instr) smallValue() uint64 { return uint64(uint32(in.arg)) | uint64(uint32(in.end))<<32 }

// eval evaluates e exactly, in post-order, left operand before right. It
// returns exactly one of:
//
//   - the value, when evaluation finishes;
//   - the first division by zero (a divisor is evaluated whole before it is
//     tested);
//   - a limit_exceeded error with limit "max_value_digits" at the operator
//     that produced the first reduced intermediate value whose numerator or
//     denominator has more digits than e's limits allow.
//
// s holds the temporaries of the big-number paths.
func (e *expr) eval(s *scratch) (Rat, *zeroDivision, *claimcheck.Error) {
	if len(e.prog) == 0 { // the zero expr, not built by parse
		return Rat{}, nil, nil
	}
	stack, rats := make([]slot, 0, e.maxStack), make([]Rat, e.maxStack)
	w64, w128 := tiers&tier64 != 0, tiers&tier128 != 0
	words := w64 || w128
	for k := range e.prog {
		in := &e.prog[k]
		switch in.op {
		case opSmall:
			v := in.smallValue()
			if words {
				stack = append(stack, slot{n: u128{0, v}, d: one128, small: true})
			} else {
				rats[len(stack)] = rat64(v, false, 1)
				stack = append(stack, slot{owned: true})
			}
			continue
		case opLit:
			v := e.lits[in.arg]
			rats[len(stack)] = v
			stack = append(stack, slot{owned: v.inline()})
			continue
		case opNeg:
			i := len(stack) - 1
			top, r := &stack[i], &rats[i]
			switch {
			case top.small:
				top.neg = !top.neg && !top.n.isZero()
			case r.Sign() == 0:
			case top.owned:
				r.num.Neg(&r.num)
			default:
				*r = r.neg()
				top.owned = true
			}
			continue
		}
		i := len(stack) - 2
		x, y := &stack[i], &stack[i+1]
		stack = stack[:i+1]
		if in.op == opQuo && (y.small && y.n.isZero() || !y.small && rats[i+1].Sign() == 0) {
			return Rat{}, &zeroDivision{Position: int(in.pos), DivisorText: e.src[in.arg:in.end]}, nil
		}
		if x.small && y.small {
			var n, d u128
			var neg, ok bool
			if in.op >= opMul && (x.n.isZero() || y.n.isZero()) {
				n, neg, d, ok = u128{}, false, one128, true
			} else if w64 && x.n.hi|x.d.hi|y.n.hi|y.d.hi == 0 {
				var n64, d64 uint64
				if in.op <= opSub {
					n64, neg, d64, ok = addW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg != (in.op == opSub), y.d.lo)
				} else {
					n64, neg, d64, ok = mulW(x.n.lo, x.neg, x.d.lo, y.n.lo, y.neg, y.d.lo, in.op == opQuo)
				}
				n, d = u128{0, n64}, u128{0, d64}
			}
			if !ok && w128 {
				if in.op <= opSub {
					n, neg, d, ok = add128W(x.n, x.neg, x.d, y.n, y.neg != (in.op == opSub), y.d)
				} else {
					n, neg, d, ok = mul128W(x.n, x.neg, x.d, y.n, y.neg, y.d, in.op == opQuo)
				}
			}
			if ok {
				if smallOver(n, d, e.maxDigits) {
					return Rat{}, nil, digitsError(in.pos, e.maxDigits)
				}
				x.setSmall(n, neg, d)
				continue
			}
		}
		if in.op >= opMul && (x.small && x.n.isZero() || !x.small && rats[i].Sign() == 0 ||
			y.small && y.n.isZero() || !y.small && rats[i+1].Sign() == 0) {
			*x = slot{d: one128, small: words, owned: true}
			rats[i] = Rat{}
			continue
		}
		xr, yr := &rats[i], &rats[i+1]
		if x.small {
			*xr, x.small, x.owned = rat128(x.n, x.neg, x.d), false, true
		}
		if y.small {
			*yr = rat128(y.n, y.neg, y.d)
		}
		var z Rat
		dst := xr
		if !x.owned {
			dst = &z // the zero Rat
		}
		switch in.op {
		case opAdd, opSub:
			addBig(dst, xr, yr, in.op == opSub, s)
		default:
			mulBig(dst, xr, yr, in.op == opQuo, s)
		}
		*xr = *dst
		x.owned = true
		if ratOver(xr, e.maxDigits) {
			return Rat{}, nil, digitsError(in.pos, e.maxDigits)
		}
		if w128 {
			if n, neg, d, ok := xr.parts128(); ok {
				x.setSmall(n, neg, d)
			}
		} else if w64 {
			if n, neg, d, ok := xr.parts64(); ok {
				x.setSmall(u128{0, n}, neg, u128{0, d})
			}
		}
	}
	if top := &stack[0]; top.small {
		return rat128(top.n, top.neg, top.d), nil, nil
	}
	return rats[0], nil, nil
}
