package bench

import (
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
	"github.com/gowebpki/jcs"
)

// equalityDecoded is what a Go grader decodes an equality document into.
type equalityDecoded struct {
	Source []any `json:"source"`
	Claim  []any `json:"claim"`
}

// decoders are the fast JSON decoders a user would pick instead of
// encoding/json, each with its default configuration.
var decoders = []struct {
	name      string
	unmarshal func([]byte, any) error
}{
	{"goccy", gojson.Unmarshal},
	{"sonic", sonic.Unmarshal},
}

var errNotEqual = errors.New("not equal")

// countAny is the fastest inexact idiom: count map[any]int keys by Go type
// and value. It is not the contract (json.Number("1.0") and 1 differ, and -0
// and 0 only agree by accident of float equality), but it is what a hurried
// grader writes.
func countAny(source, claim []any) bool {
	counts := make(map[any]int, len(source))
	for _, x := range source {
		counts[x]++
	}
	for _, x := range claim {
		counts[x]--
	}
	for _, n := range counts {
		if n != 0 {
			return false
		}
	}
	return true
}

// jcsKey canonicalizes one scalar the naive exact way: marshal it as a JSON
// array and canonicalize that with jcs.Transform.
func jcsKey(x any) string {
	b, err := jcs.Transform([]byte(mustJSON([]any{x})))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// countJCS is the naive exact idiom: count canonical keys.
func countJCS(source, claim []any) bool {
	counts := make(map[string]int, len(source))
	for _, x := range source {
		counts[jcsKey(x)]++
	}
	for _, x := range claim {
		counts[jcsKey(x)]--
	}
	for _, n := range counts {
		if n != 0 {
			return false
		}
	}
	return true
}

// differenceJCS computes both residuals the naive exact way and compares
// them with the claim.
func differenceJCS(left, right, leftOnly, rightOnly []any) bool {
	keys := func(xs []any) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = jcsKey(x)
		}
		return out
	}
	l, r, lo, ro := keys(left), keys(right), keys(leftOnly), keys(rightOnly)
	residual := func(self, other []string) []string {
		rem := map[string]int{}
		for _, k := range other {
			rem[k]++
		}
		var out []string
		for _, k := range self {
			if rem[k] > 0 {
				rem[k]--
				continue
			}
			out = append(out, k)
		}
		return out
	}
	eq := func(a, b []string) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	return eq(residual(l, r), lo) && eq(residual(r, l), ro)
}

// ratEval is the straightforward peer of rational.CheckRational: a
// recursive-descent evaluator on math/big.Rat with the same grammar
// (including U+2212, U+00D7, U+00F7), no limits, then an exact comparison
// with the claim. It is the peer of issue 5, the same as rational's own
// benchmark peer but kept here so this module measures only public APIs.
type ratEval struct {
	s   string
	pos int
}

func ratCheck(expr, claim string) (bool, error) {
	p := &ratEval{s: expr}
	v, err := p.expr()
	if err != nil {
		return false, err
	}
	p.space()
	if p.pos != len(p.s) {
		return false, fmt.Errorf("trailing input at %d", p.pos)
	}
	c, ok := new(big.Rat).SetString(claim)
	if !ok {
		return false, fmt.Errorf("bad claim")
	}
	return v.Cmp(c) == 0, nil
}

func (p *ratEval) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

// op returns the operator at pos, if any, and its width.
func (p *ratEval) op() (byte, int) {
	p.space()
	if p.pos >= len(p.s) {
		return 0, 0
	}
	switch c := p.s[p.pos]; c {
	case '+', '-', '*', '/', '(', ')':
		return c, 1
	}
	r, w := utf8.DecodeRuneInString(p.s[p.pos:])
	switch r {
	case '\u2212':
		return '-', w
	case '\u00d7':
		return '*', w
	case '\u00f7':
		return '/', w
	}
	return 0, 0
}

func (p *ratEval) expr() (*big.Rat, error) {
	v, err := p.term()
	for err == nil {
		c, w := p.op()
		if c != '+' && c != '-' {
			return v, nil
		}
		p.pos += w
		var r *big.Rat
		if r, err = p.term(); err == nil {
			if c == '+' {
				v.Add(v, r)
			} else {
				v.Sub(v, r)
			}
		}
	}
	return nil, err
}

func (p *ratEval) term() (*big.Rat, error) {
	v, err := p.unary()
	for err == nil {
		c, w := p.op()
		if c != '*' && c != '/' {
			return v, nil
		}
		p.pos += w
		var r *big.Rat
		if r, err = p.unary(); err == nil {
			if c == '*' {
				v.Mul(v, r)
			} else if r.Sign() == 0 {
				err = fmt.Errorf("division by zero")
			} else {
				v.Quo(v, r)
			}
		}
	}
	return nil, err
}

func (p *ratEval) unary() (*big.Rat, error) {
	c, w := p.op()
	switch c {
	case '-':
		p.pos += w
		v, err := p.unary()
		if err != nil {
			return nil, err
		}
		return v.Neg(v), nil
	case '(':
		p.pos += w
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		if c, w := p.op(); c != ')' {
			return nil, fmt.Errorf("missing ) at %d", p.pos)
		} else {
			p.pos += w
		}
		return v, nil
	}
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		return nil, fmt.Errorf("expected a number at %d", p.pos)
	}
	v, ok := new(big.Rat).SetString(p.s[start:p.pos])
	if !ok {
		return nil, fmt.Errorf("bad integer")
	}
	return v, nil
}

// constantCheck is the go/constant peer: go/parser reads the expression as
// Go (ASCII operators only) and constant.BinaryOp evaluates it, exactly at
// these sizes (token.QUO on integer constants is exact rational division).
func constantCheck(expr, claim string) (bool, error) {
	v, err := constEval(expr)
	if err != nil {
		return false, err
	}
	c, err := constEval(claim)
	if err != nil {
		return false, err
	}
	return constant.Compare(v, token.EQL, c), nil
}

func mustJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
