package rational_test

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/rational"
)

// node is a random expression tree; op is 0 for a literal, '~' for unary
// minus, or one of + - * /.
type node struct {
	op          byte
	lit         string
	left, right *node
}

// literalGen yields INTEGER literals: mostly small, some of many digits.
var literalGen = rapid.OneOf(
	rapid.Map(rapid.IntRange(0, 12), strconv.Itoa),
	rapid.Map(rapid.Uint64(), func(v uint64) string { return strconv.FormatUint(v, 10) }),
	rapid.Map(rapid.SliceOfN(rapid.IntRange(0, 9), 1, 60), func(ds []int) string {
		var b strings.Builder
		b.WriteByte('1')
		for _, d := range ds {
			b.WriteByte(byte('0' + d))
		}
		return b.String()
	}),
)

func treeGen(depth int) *rapid.Generator[*node] {
	return rapid.Custom(func(t *rapid.T) *node {
		kind := rapid.IntRange(0, 5).Draw(t, "kind")
		if depth == 0 || kind == 0 {
			return &node{lit: literalGen.Draw(t, "lit")}
		}
		if kind == 1 {
			return &node{op: '~', left: treeGen(depth-1).Draw(t, "operand")}
		}
		return &node{
			op:    rapid.SampledFrom([]byte("+-*/")).Draw(t, "op"),
			left:  treeGen(depth-1).Draw(t, "left"),
			right: treeGen(depth-1).Draw(t, "right"),
		}
	})
}

// printer writes a tree with random spacing, redundant parentheses and
// Unicode operators, recording each binary operator's code point position
// and each divisor's source text (keyed by node).
type printer struct {
	t       *rapid.T
	b       strings.Builder
	opPos   map[*node]int
	divisor map[*node]string
}

func (p *printer) pos() int { return utf8.RuneCountInString(p.b.String()) }

func (p *printer) space() {
	p.b.WriteString(rapid.SampledFrom([]string{"", "", "", " ", "  ", "\t", "\n", "\r"}).Draw(p.t, "space"))
}

func (p *printer) operator(op byte) {
	ascii := string(op)
	uni := map[byte]string{'~': "\u2212", '-': "\u2212", '*': "\u00d7", '/': "\u00f7", '+': "+"}[op]
	if op == '~' {
		ascii = "-"
	}
	p.b.WriteString(rapid.SampledFrom([]string{ascii, uni}).Draw(p.t, "operator"))
}

// print writes n, in parentheses when need is set (or at random).
func (p *printer) print(n *node, need bool) {
	wrap := need || rapid.IntRange(0, 5).Draw(p.t, "wrap") == 0
	if wrap {
		p.b.WriteString("(")
		p.space()
	}
	switch n.op {
	case 0:
		p.b.WriteString(n.lit)
	case '~':
		p.operator('~')
		p.space()
		p.print(n.left, n.left.op != 0 && n.left.op != '~')
	default:
		additive := n.op == '+' || n.op == '-'
		p.print(n.left, !additive && (n.left.op == '+' || n.left.op == '-'))
		p.space()
		p.opPos[n] = p.pos()
		p.operator(n.op)
		p.space()
		start := p.b.Len()
		if additive {
			p.print(n.right, n.right.op == '+' || n.right.op == '-')
		} else {
			p.print(n.right, n.right.op != 0 && n.right.op != '~')
		}
		p.divisor[n] = p.b.String()[start:]
	}
	if wrap {
		p.space()
		p.b.WriteString(")")
	}
}

// outcome is what the math/big.Rat oracle expects of a tree.
type outcome struct {
	value    *big.Rat // nil after a division by zero or a limit
	zeroPos  int
	divisor  string
	limitPos int // -1 when no limit is hit
	// maxDigits is the digit limit of intermediate values, 500 when 0.
	maxDigits int
}

func digits(x *big.Int) int { return len(new(big.Int).Abs(x).String()) }

// oracle evaluates n with math/big.Rat in post-order, left before right,
// stopping at the first zero divisor or intermediate over 500 digits.
func oracle(n *node, p *printer, out *outcome) *big.Rat {
	switch n.op {
	case 0:
		v, _ := new(big.Rat).SetString(n.lit)
		return v
	case '~':
		v := oracle(n.left, p, out)
		if v == nil {
			return nil
		}
		return v.Neg(v)
	}
	x := oracle(n.left, p, out)
	if x == nil {
		return nil
	}
	y := oracle(n.right, p, out)
	if y == nil {
		return nil
	}
	z := new(big.Rat)
	switch n.op {
	case '+':
		z.Add(x, y)
	case '-':
		z.Sub(x, y)
	case '*':
		z.Mul(x, y)
	case '/':
		if y.Sign() == 0 {
			out.zeroPos, out.divisor = p.opPos[n], p.divisor[n]
			return nil
		}
		z.Quo(x, y)
	}
	limit := out.maxDigits
	if limit == 0 {
		limit = 500
	}
	if digits(z.Num()) > limit || digits(z.Denom()) > limit {
		out.limitPos = p.opPos[n]
		return nil
	}
	return z
}

func drawExpression(t *rapid.T) (string, outcome) { return drawLimited(t, 0) }

// drawLimited is drawExpression with a digit limit of maxDigits (500 when 0).
func drawLimited(t *rapid.T, maxDigits int) (string, outcome) {
	tree := treeGen(5).Draw(t, "tree")
	p := &printer{t: t, opPos: map[*node]int{}, divisor: map[*node]string{}}
	p.space()
	p.print(tree, false)
	p.space()
	out := outcome{limitPos: -1, maxDigits: maxDigits}
	out.value = oracle(tree, p, &out)
	return p.b.String(), out
}

// TestValueIsBigRatValue: a random expression, however spaced, parenthesised
// and spelled, evaluates to the value math/big.Rat computes for its tree, or
// to the same first division by zero or digit limit.
func TestValueIsBigRatValue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		expr, want := drawExpression(t)
		res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: "0"}, rational.Limits{})
		switch {
		case want.limitPos >= 0:
			e, ok := err.(*claimcheck.Error)
			if !ok || e.Code != claimcheck.LimitExceeded || e.Position != want.limitPos || e.Limit != "max_value_digits" {
				t.Fatalf("%q: got %v, %v; want digit limit at %d", expr, res.Value, err, want.limitPos)
			}
		case err != nil:
			t.Fatalf("%q: %v", expr, err)
		case want.value == nil:
			d := res.FirstDiscrepancy
			if res.Reason != rational.DivisionByZero || d.Position != want.zeroPos || d.DivisorText != want.divisor {
				t.Fatalf("%q: got %s %+v; want division by zero at %d, divisor %q", expr, res.Reason, d, want.zeroPos, want.divisor)
			}
		default:
			if res.Value == nil || res.Value.BigRat().Cmp(want.value) != 0 || res.Value.String() != want.value.RatString() {
				t.Fatalf("%q = %v, want %s", expr, res.Value, want.value.RatString())
			}
		}
	})
}

// TestSmallDigitLimitIsOnReducedValues: with a digit limit below the 20
// digits of a word, the word tier's results are held to it as the big
// tiers' are: the first reduced intermediate over the limit, in post-order,
// is the error, at its operator, as math/big.Rat finds it.
func TestSmallDigitLimitIsOnReducedValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(1, 45).Draw(t, "max_value_digits")
		expr, want := drawLimited(t, limit)
		res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: "0"}, rational.Limits{MaxValueDigits: limit})
		var e *claimcheck.Error
		if errors.As(err, &e) && e.Path == "/expression" && e.Limit == "max_value_digits" &&
			strings.Contains(e.Message, "literal") {
			t.Skip("a literal over the limit")
		}
		switch {
		case want.limitPos >= 0:
			if e == nil || e.Code != claimcheck.LimitExceeded || e.Position != want.limitPos || e.Limit != "max_value_digits" {
				t.Fatalf("%q, limit %d: got %v, %v; want digit limit at %d", expr, limit, res.Value, err, want.limitPos)
			}
		case err != nil:
			t.Fatalf("%q, limit %d: %v", expr, limit, err)
		case want.value == nil:
			if d := res.FirstDiscrepancy; res.Reason != rational.DivisionByZero || d.Position != want.zeroPos {
				t.Fatalf("%q: got %s %+v; want division by zero at %d", expr, res.Reason, d, want.zeroPos)
			}
		case res.Value == nil || res.Value.String() != want.value.RatString():
			t.Fatalf("%q = %v, want %s", expr, res.Value, want.value.RatString())
		}
	})
}

// drawValue draws an expression that evaluates to a value.
func drawValue(t *rapid.T) (string, *big.Rat) {
	expr, want := drawExpression(t)
	if want.value == nil {
		t.Skip("no value")
	}
	return expr, want.value
}

// TestCanonicalClaimIsValid: the canonical value as the claim is valid, with
// or without require_canonical.
func TestCanonicalClaimIsValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		expr, v := drawValue(t)
		canonical := rapid.Bool().Draw(t, "require_canonical")
		res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: v.RatString(), RequireCanonical: canonical}, rational.Limits{})
		if err != nil || !res.Valid || res.Err() != nil {
			t.Fatalf("%q claimed %s: %v, %v", expr, v.RatString(), res.Err(), err)
		}
	})
}

// TestNonCanonicalSpellingValidIffNotRequired: a non-canonical spelling of the
// value (scaled by k, "/1", "-0") is valid exactly when require_canonical is
// false, and otherwise not_canonical with difference 0.
func TestNonCanonicalSpellingValidIffNotRequired(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		expr, v := drawValue(t)
		var claim string
		num, den := new(big.Int).Set(v.Num()), new(big.Int).Set(v.Denom())
		switch {
		case v.Sign() == 0:
			claim = rapid.SampledFrom([]string{"-0", "0/7", "-0/3", "0/1"}).Draw(t, "zero")
		case rapid.Bool().Draw(t, "slash one") && v.IsInt():
			claim = num.String() + "/1"
		default:
			k := big.NewInt(rapid.Int64Range(2, 1000).Draw(t, "k"))
			claim = num.Mul(num, k).String() + "/" + den.Mul(den, k).String()
		}
		for _, require := range []bool{false, true} {
			res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: require}, rational.Limits{})
			if err != nil {
				t.Fatalf("%q claimed %s: %v", expr, claim, err)
			}
			if res.Valid == require {
				t.Fatalf("%q claimed %s, require_canonical %v: valid %v", expr, claim, require, res.Valid)
			}
			if require && (res.Reason != rational.NotCanonical || res.FirstDiscrepancy.Difference.Sign() != 0 ||
				res.FirstDiscrepancy.CanonicalClaim.String() != v.RatString()) {
				t.Fatalf("%q claimed %s: %s %+v", expr, claim, res.Reason, res.FirstDiscrepancy)
			}
		}
	})
}

// TestMismatchDifferenceIsValueMinusClaim: for a wrong claim the difference is
// exactly value − claim, and canonical_claim is the claim's canonical form.
func TestMismatchDifferenceIsValueMinusClaim(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		expr, v := drawValue(t)
		n := rapid.Int64Range(-1000, 1000).Filter(func(n int64) bool { return n != 0 }).Draw(t, "n")
		d := rapid.Int64Range(1, 1000).Draw(t, "d")
		claim := new(big.Rat).Add(v, big.NewRat(n, d))
		k := big.NewInt(rapid.Int64Range(1, 3).Draw(t, "k"))
		text := new(big.Int).Mul(claim.Num(), k).String()
		if den := new(big.Int).Mul(claim.Denom(), k); den.Cmp(big.NewInt(1)) != 0 {
			text += "/" + den.String()
		}
		res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: text, RequireCanonical: true}, rational.Limits{})
		if err != nil {
			t.Fatalf("%q claimed %s: %v", expr, text, err)
		}
		dis := res.FirstDiscrepancy
		want := new(big.Rat).Sub(v, claim)
		if res.Reason != rational.ValueMismatch || dis.Difference.String() != want.RatString() ||
			dis.CanonicalClaim.String() != claim.RatString() || dis.ClaimedValue != text || dis.ActualValue.String() != v.RatString() {
			t.Fatalf("%q claimed %s: %s %+v; want difference %s", expr, text, res.Reason, dis, want.RatString())
		}
	})
}

var ratGen = rapid.Custom(func(t *rapid.T) rational.Rat {
	num := literalGen.Draw(t, "num")
	den := literalGen.Filter(func(s string) bool { return s != "0" }).Draw(t, "den")
	claim := num + "/" + den
	if rapid.Bool().Draw(t, "neg") {
		claim = "-" + claim
	}
	r, err := rational.ParseClaim(claim)
	if err != nil {
		t.Fatalf("ParseClaim(%q): %v", claim, err)
	}
	return r
})

// TestRatArithmeticIsBigRatArithmetic: Add, Sub, Mul, Quo, Neg, Equal,
// Sign and String agree with math/big.Rat.
func TestRatArithmeticIsBigRatArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x, y := ratGen.Draw(t, "x"), ratGen.Draw(t, "y")
		bx, by := x.BigRat(), y.BigRat()
		check := func(name string, got rational.Rat, want *big.Rat) {
			if got.String() != want.RatString() || got.BigRat().Cmp(want) != 0 {
				t.Fatalf("%s(%v, %v) = %v, want %s", name, x, y, got, want.RatString())
			}
		}
		check("String", x, bx)
		check("Add", x.Add(y), new(big.Rat).Add(bx, by))
		check("Sub", x.Sub(y), new(big.Rat).Sub(bx, by))
		check("Mul", x.Mul(y), new(big.Rat).Mul(bx, by))
		check("Neg", x.Neg(), new(big.Rat).Neg(bx))
		if y.Sign() != 0 {
			check("Quo", x.Quo(y), new(big.Rat).Quo(bx, by))
		}
		if x.Equal(y) != (bx.Cmp(by) == 0) || x.Sign() != bx.Sign() {
			t.Fatalf("Equal/Sign(%v, %v) disagree", x, y)
		}
	})
}
