package rational

import (
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

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
	lim       Limits // what it was parsed with, normalised
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

// parse runs steps 5 and 6 of the check order (lexing and parsing) on an
// expression that passed step 2 with the normalised limits l. It returns
// *claimcheck.Error, not error, so that a nil result is never a non-nil
// interface.
func (l Limits) parse(src string) (*expr, *claimcheck.Error) {
	toks, ints, err := lex(src, l, nil)
	if err != nil {
		return nil, err
	}
	p := parser{src: src, toks: toks, maxDepth: l.MaxDepth,
		prog: make([]instr, 0, len(toks)-1), lits: make([]Rat, 0, ints)}
	err = p.parseExpr()
	if err == nil {
		if t := p.peek(); t.kind != tokEOF {
			err = p.unexpected(t)
		}
	}
	if err != nil {
		return nil, err
	}
	return &expr{src: src, lim: l, prog: p.prog, lits: p.lits, maxStack: p.maxStack, maxDigits: l.MaxValueDigits}, nil
}

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
			var ok bool
			if kind, ok = multiByteOp(r); !ok {
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
	prev := tokEOF
	if p.i > 0 {
		prev = p.toks[p.i-1].kind
	}
	return syntaxError(p.src, t, prev)
}

// smallValue is the value of an opSmall instr.
func (in *instr) smallValue() uint64 { return uint64(uint32(in.arg)) | uint64(uint32(in.end))<<32 }

// eval evaluates e with math/big.Rat, the oracle, in post-order, left
// operand before right, by the contract's rules rather than the machine's
// arithmetic: it returns exactly one of
//
//   - the value, when evaluation finishes;
//   - the first division by zero (a divisor is evaluated whole before it is
//     tested);
//   - a limit_exceeded error with limit "max_value_digits" at the operator
//     that produced the first intermediate value whose numerator or
//     denominator, in lowest terms, has more digits than e's limits allow.
func (e *expr) eval() (Rat, *zeroDivision, *claimcheck.Error) {
	if len(e.prog) == 0 { // the zero expr, not built by parse
		return Rat{}, nil, nil
	}
	bound := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e.maxDigits)), nil)
	var abs big.Int
	over := func(r *big.Rat) bool { return abs.Abs(r.Num()).Cmp(bound) >= 0 || r.Denom().Cmp(bound) >= 0 }
	stack := make([]*big.Rat, 0, e.maxStack)
	for k := range e.prog {
		in := &e.prog[k]
		switch in.op {
		case opSmall:
			stack = append(stack, new(big.Rat).SetUint64(in.smallValue()))
			continue
		case opLit:
			stack = append(stack, e.lits[in.arg].BigRat())
			continue
		case opNeg:
			top := stack[len(stack)-1]
			top.Neg(top)
			continue
		}
		x, y := stack[len(stack)-2], stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch in.op {
		case opAdd:
			x.Add(x, y)
		case opSub:
			x.Sub(x, y)
		case opMul:
			x.Mul(x, y)
		default:
			if y.Sign() == 0 {
				return Rat{}, &zeroDivision{Position: int(in.pos), DivisorText: e.src[in.arg:in.end]}, nil
			}
			x.Quo(x, y)
		}
		if over(x) {
			return Rat{}, nil, digitsError(in.pos, e.maxDigits)
		}
	}
	var n, d apd.BigInt
	n.SetMathBigInt(stack[0].Num())
	d.SetMathBigInt(stack[0].Denom())
	return ratio(&n, &d), nil, nil
}
