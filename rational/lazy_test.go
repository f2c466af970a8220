package rational

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
)

// TestLazySums: sums past the word tiers, which the machine leaves out of
// lowest terms (addLazy), give the math/big.Rat oracle's value, division by
// zero and digit-limit error, in lowest terms, with the lazy sums on and
// off; and the canonical claim of each value is valid.
func TestLazySums(t *testing.T) {
	bigInt := func(s string) *big.Int {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatal(s)
		}
		return v
	}
	// f is 260 digits: 1/(f*p) + 1/(f*q) has the unreduced denominator
	// f^2*p*q, past 500 digits, and the reduced one f*p*q, within them.
	f := new(big.Int).Exp(big.NewInt(7), big.NewInt(307), nil)
	f.Add(f, big.NewInt(2))
	fp := new(big.Int).Mul(f, big.NewInt(3)).String()
	fq := new(big.Int).Mul(f, big.NewInt(5)).String()
	b1 := "123456789012345678901234567890123456789012345678901"
	b2 := "98765432109876543210987654321098765432109876543219"
	b3 := "340282366920938463463374607431768211507" // past 2^128, prime to nothing here
	bm1 := new(big.Int).Sub(bigInt(b1), big.NewInt(1)).String()
	// 1/s6 + 1/s10 is 16*b3/(60*b3^2) unreduced, 4/(15*b3) reduced.
	s6 := new(big.Int).Mul(bigInt(b3), big.NewInt(6)).String()
	s10 := new(big.Int).Mul(bigInt(b3), big.NewInt(10)).String()
	lazy := "(1/" + s6 + " + 1/" + s10 + ")"
	rows := []struct {
		src    string
		digits int
		why    string
	}{
		{harmonic(100), 0, "partial sums past 2^128 go unreduced to the end"},
		{lazy, 0, "a sum out of lowest terms is reduced at the end"},
		{lazy + " * 7", 0, "a lazy sum is reduced before a product takes it"},
		{lazy + " * " + lazy, 0, "a product of two lazy sums"},
		{"7 * " + lazy, 0, "a lazy right operand of a product"},
		{"7 / " + lazy, 0, "a lazy divisor is reduced before the quotient"},
		{"1/" + b1 + " + " + lazy, 0, "a lazy right operand of a sum"},
		{"-" + lazy + " + 1/" + b2, 0, "a negated lazy sum"},
		{"(1/" + b1 + " + 1/" + b2 + ") * " + b1, 0, "a lazy sum already in lowest terms, then a product"},
		{"1/" + b1 + " + 1/" + b2 + " - 1/" + b1 + " - 1/" + b2, 0, "a lazy sum reaching 0 is the zero value"},
		{"1/" + b1 + " + " + bm1 + "/" + b1, 0, "a common denominator, reduced to the integer 1 at the end"},
		{"(1/" + b1 + " + " + bm1 + "/" + b1 + ") + 2/3 - 5", 0, "a lazy value reduced to a small one takes small operations after it"},
		{"(1/" + b1 + " + 1/" + b2 + ") / (1/" + b1 + " + 1/" + b2 + " - 1/" + b1 + " - 1/" + b2 + ")", 0, "division by a lazy sum of 0"},
		{"1/" + fp + " + 1/" + fq, 0, "unreduced parts past the limit, reduced ones within it: no error"},
		{"1/" + fp + " + 1/" + fq + " + 1/" + b1, 0, "a sum past the limit unreduced, reduced, then lazy again"},
		{"1/" + fp + " + 1/" + b1 + " + 1/" + b2, 300, "the reduced parts past the limit: the error is at the operator that made them"},
		{"(1/" + b1 + " + 1/" + b2 + ") * (1/" + b1 + " + 1/" + b2 + ")", 0, "a product of two lazy sums"},
		{"-(1/" + b1 + " + 1/" + b2 + ") - (1/" + b3 + " - 1/" + b2 + ")", 0, "negated lazy sums"},
		{strings.Repeat("(1/"+b3+" + 1/"+b1+") * ", 3) + "1", 0, "lazy sums within products"},
	}
	for _, ts := range []struct {
		name string
		set  tierSet
	}{{"all", tiers}, {"noLazySum", tiers &^ tierLazySum}, {"lazyOnly", tierLazySum}} {
		withTiers(ts.set, func() {
			for _, r := range rows {
				lim := Limits{MaxValueDigits: r.digits}
				v, zd, err := lim.Evaluate(r.src)
				v2, zd2, err2 := lim.EvaluateTwoPass(r.src)
				var e, e2 *claimcheck.Error
				switch {
				case err != nil || err2 != nil:
					if !errors.As(err, &e) || !errors.As(err2, &e2) || *e != *e2 {
						t.Fatalf("%s, %s: %v, want %v", ts.name, r.why, err, err2)
					}
					continue
				case (zd == nil) != (zd2 == nil) || zd != nil && *zd != *zd2:
					t.Fatalf("%s, %s: %+v, want %+v", ts.name, r.why, zd, zd2)
				case zd != nil:
					continue
				case !v.equal(&v2) || v.String() != v2.String():
					t.Fatalf("%s, %s: %v, want %v", ts.name, r.why, v, v2)
				}
				var g big.Int
				if g.GCD(nil, nil, new(big.Int).Abs(v.num.MathBigInt()), v.denom().MathBigInt()); g.Cmp(big.NewInt(1)) != 0 && v.Sign() != 0 {
					t.Fatalf("%s, %s: %v not in lowest terms", ts.name, r.why, v)
				}
				if v.den.Sign() != 0 && isOne(&v.den) {
					t.Fatalf("%s, %s: denominator 1 stored", ts.name, r.why)
				}
				res, err := CheckRational(Input{Expression: r.src, ClaimedValue: v.String(), RequireCanonical: true}, lim)
				if err != nil || !res.Valid {
					t.Fatalf("%s, %s: the canonical claim %v: %+v, %v", ts.name, r.why, v, res, err)
				}
			}
		})
	}
}
