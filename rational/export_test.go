package rational

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/rattext"
)

// This file gives the external tests (package rational_test) the parser,
// the evaluator and Rat's arithmetic, which are not API.

type (
	Expr         = expr
	ZeroDivision = zeroDivision
)

// evaluate is the machine's evaluate, for the normalised limits l, with
// the workspace returned.
func (l Limits) evaluate(src string) (Rat, slot, *zeroDivision, *claimcheck.Error) {
	var m machine
	defer m.release()
	return m.evaluate(l, src)
}

// Parse runs steps 2, 5 and 6 of the check order with DefaultLimits.
func Parse(src string) (*Expr, error) { return Limits{}.Parse(src) }

// Parse runs steps 2, 5 and 6 of the check order.
func (l Limits) Parse(src string) (*Expr, error) {
	l = l.norm()
	if err := rattext.Expression(src, l.MaxExpressionBytes); err != nil {
		return nil, err
	}
	e, err := l.parse(src)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Eval is step 7 of the check order on e's expression, by the one-pass
// machine CheckRational runs (which lexes and parses it again, as e was).
func (e *expr) Eval() (Rat, *ZeroDivision, error) {
	v, _, zd, err := e.lim.evaluate(e.src)
	if err != nil {
		return Rat{}, nil, err
	}
	return v, zd, nil
}

// Evaluate runs steps 2 and 5 to 7 of the check order on src with the
// one-pass machine CheckRational runs.
func (l Limits) Evaluate(src string) (Rat, *ZeroDivision, error) {
	l = l.norm()
	if err := rattext.Expression(src, l.MaxExpressionBytes); err != nil {
		return Rat{}, nil, err
	}
	v, _, zd, err := l.evaluate(src)
	if err != nil {
		return Rat{}, nil, err
	}
	return v, zd, nil
}

// EvaluateTwoPass runs the same steps with the two-pass reference
// (twopass_test.go): Parse, then the math/big.Rat oracle's evaluation.
func (l Limits) EvaluateTwoPass(src string) (Rat, *ZeroDivision, error) {
	e, err := l.Parse(src)
	if err != nil {
		return Rat{}, nil, err
	}
	v, zd, cerr := e.eval()
	if cerr != nil {
		return Rat{}, nil, cerr
	}
	return v, zd, nil
}

// ValidateExpression is step 2 of the check order with DefaultLimits.
func ValidateExpression(s string) error { return Limits{}.ValidateExpression(s) }

// ValidateExpression is step 2 of the check order.
func (l Limits) ValidateExpression(s string) error {
	if err := rattext.Expression(s, l.norm().MaxExpressionBytes); err != nil {
		return err
	}
	return nil
}

// ParseClaim is step 3 of the check order with DefaultLimits.
func ParseClaim(s string) (Rat, error) { return Limits{}.ParseClaim(s) }

// ParseClaim is step 3 of the check order.
func (l Limits) ParseClaim(s string) (Rat, error) {
	r, _, err := l.norm().parseClaim(s)
	if err != nil {
		return Rat{}, err
	}
	return r, nil
}

// NewRat returns num/den reduced; den must not be 0.
func NewRat(num, den int64) Rat {
	var n, d Rat
	n.num.SetInt64(num)
	d.num.SetInt64(den)
	return arith(opQuo, &n, &d, new(scratch))
}

// ratio returns n/d reduced; d must not be 0.
func ratio(n, d *apd.BigInt) Rat {
	var x, y Rat
	x.num.Set(n)
	y.num.Set(d)
	return arith(opQuo, &x, &y, new(scratch))
}

func (x Rat) Add(y Rat) Rat { return arith(opAdd, &x, &y, new(scratch)) }
func (x Rat) Sub(y Rat) Rat { return arith(opSub, &x, &y, new(scratch)) }
func (x Rat) Mul(y Rat) Rat { return arith(opMul, &x, &y, new(scratch)) }
func (x Rat) Neg() Rat      { return x.neg() }

// Quo panics when y is 0, as math/big.Rat.Quo does.
func (x Rat) Quo(y Rat) Rat {
	if y.Sign() == 0 {
		panic("rational: division by zero")
	}
	return arith(opQuo, &x, &y, new(scratch))
}

func (x Rat) Equal(y Rat) bool         { return x.equal(&y) }
func (x Rat) Append(dst []byte) []byte { return x.appendText(dst) }

// String returns e fully parenthesised with ASCII operators, one pair of
// parentheses per operation: "1 + 1/2" is "(1 + (1 / 2))", "-2" is "(-2)".
func (e *expr) String() string {
	if len(e.prog) == 0 {
		return ""
	}
	// Rebuild the tree from the post-order program, then write it in order
	// with an explicit stack, into one builder: linear in the output, with
	// no recursion and no string rebuilt per node.
	type node struct{ in, left, right int32 }
	nodes := make([]node, len(e.prog))
	stack := make([]int32, 0, e.maxStack)
	for i, in := range e.prog {
		n := node{in: int32(i), left: -1, right: -1}
		switch in.op {
		case opLit, opSmall:
		case opNeg:
			n.left = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		default:
			n.left, n.right = stack[len(stack)-2], stack[len(stack)-1]
			stack = stack[:len(stack)-2]
		}
		nodes[i] = n
		stack = append(stack, int32(i))
	}
	ops := [...]string{opAdd: " + ", opSub: " - ", opMul: " * ", opQuo: " / "}
	var b strings.Builder
	// Each frame is a node and how many of its parts have been written.
	type frame struct {
		node int32
		step uint8
	}
	pending := []frame{{node: stack[0]}}
	for len(pending) > 0 {
		f := &pending[len(pending)-1]
		n := nodes[f.node]
		in := e.prog[n.in]
		switch {
		case in.op == opLit:
			b.WriteString(e.lits[in.arg].String())
			pending = pending[:len(pending)-1]
		case in.op == opSmall:
			b.WriteString(strconv.FormatUint(in.smallValue(), 10))
			pending = pending[:len(pending)-1]
		case f.step == 0:
			f.step = 1
			if in.op == opNeg {
				b.WriteString("(-")
			} else {
				b.WriteString("(")
			}
			pending = append(pending, frame{node: n.left})
		case f.step == 1 && in.op != opNeg:
			f.step = 2
			b.WriteString(ops[in.op])
			pending = append(pending, frame{node: n.right})
		default:
			b.WriteString(")")
			pending = pending[:len(pending)-1]
		}
	}
	return b.String()
}

// parseClaim is step 3 of the check order on s, then its value.
func (l Limits) parseClaim(s string) (Rat, bool, *claimcheck.Error) {
	var c rattext.ClaimSpans
	var err *claimcheck.Error
	if c.Num, c.NumEnd, c.Den, err = rattext.Claim(s, l.MaxValueDigits); err != nil {
		return Rat{}, false, err
	}
	v, canonical := claimValue(s, c, new(scratch))
	return v, canonical, nil
}
