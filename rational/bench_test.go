package rational_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/rational"
)

// The benchmarks pair each CheckRational run with a straightforward
// math/big.Rat recursive-descent evaluator of the same expression (the peer):
// it tokenises, parses and evaluates too, but checks no limit or position.

var benchCases = []struct {
	name  string
	input rational.Input
}{
	{"Seed", rational.Input{Expression: "1 + 1/2 + 1/3 + 1/4", ClaimedValue: "25/12", RequireCanonical: true}},
	{"Tokens1024", rational.Input{Expression: tokens1024(), ClaimedValue: "0", RequireCanonical: true}},
	{"Digits500", rational.Input{Expression: digits500(), ClaimedValue: "2", RequireCanonical: true}},
}

// tokens1024 is 1,024 tokens of small integers mixing all four operators.
func tokens1024() string {
	var b strings.Builder
	ops := []string{"+", "*", "-", "/"}
	b.WriteString("1")
	for i := 1; i < 512; i++ {
		b.WriteString(ops[i%4])
		b.WriteString(string(rune('1' + i%9)))
	}
	return b.String()
}

// digits500 is eight 500-digit literals, A/B*B/A + C/D*D/C: every operation
// multiplies or divides 500-digit numbers and reduces a fraction of them.
func digits500() string {
	lit := func(d byte, last byte) string { return strings.Repeat(string(d), 499) + string(last) }
	a, b, c, d := lit('9', '7'), lit('8', '3'), lit('7', '9'), lit('6', '1')
	return a + "/" + b + "*" + b + "/" + a + "+" + c + "/" + d + "*" + d + "/" + c
}

func TestBenchCasesAgree(t *testing.T) {
	for _, bc := range benchCases {
		res, err := rational.CheckRational(bc.input, rational.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", bc.name, err)
		}
		want := peerEval(bc.input.Expression)
		if want == nil || res.Value == nil || res.Value.BigRat().Cmp(want) != 0 {
			t.Fatalf("%s: got %v, peer %v", bc.name, res.Value, want)
		}
		if bc.name != "Tokens1024" && !res.Valid {
			t.Fatalf("%s: %v", bc.name, res.Err())
		}
	}
}

func BenchmarkCheckRational(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name+"/rational", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rational.CheckRational(bc.input, rational.Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/bigRatPeer", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if peerEval(bc.input.Expression) == nil {
					b.Fatal("peer failed")
				}
			}
		})
	}
}

// peerEval evaluates an ASCII expression with math/big.Rat by recursive
// descent; nil on a syntax error or a division by zero.
func peerEval(s string) *big.Rat {
	p := peer{s: s}
	v := p.expr()
	p.space()
	if v == nil || p.i != len(s) {
		return nil
	}
	return v
}

type peer struct {
	s string
	i int
}

func (p *peer) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *peer) next() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *peer) expr() *big.Rat {
	x := p.term()
	for x != nil {
		switch p.next() {
		case '+':
			p.i++
			y := p.term()
			if y == nil {
				return nil
			}
			x.Add(x, y)
		case '-':
			p.i++
			y := p.term()
			if y == nil {
				return nil
			}
			x.Sub(x, y)
		default:
			return x
		}
	}
	return nil
}

func (p *peer) term() *big.Rat {
	x := p.unary()
	for x != nil {
		switch p.next() {
		case '*':
			p.i++
			y := p.unary()
			if y == nil {
				return nil
			}
			x.Mul(x, y)
		case '/':
			p.i++
			y := p.unary()
			if y == nil || y.Sign() == 0 {
				return nil
			}
			x.Quo(x, y)
		default:
			return x
		}
	}
	return nil
}

func (p *peer) unary() *big.Rat {
	if p.next() == '-' {
		p.i++
		x := p.unary()
		if x == nil {
			return nil
		}
		return x.Neg(x)
	}
	switch c := p.next(); {
	case c == '(':
		p.i++
		x := p.expr()
		if x == nil || p.next() != ')' {
			return nil
		}
		p.i++
		return x
	case '0' <= c && c <= '9':
		j := p.i
		for j < len(p.s) && '0' <= p.s[j] && p.s[j] <= '9' {
			j++
		}
		x, ok := new(big.Rat).SetString(p.s[p.i:j])
		p.i = j
		if !ok {
			return nil
		}
		return x
	}
	return nil
}
