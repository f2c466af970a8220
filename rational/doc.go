// Package rational checks a claimed exact value of an integer/fraction
// expression: it implements the rational-expression-check tool of the
// claimcheck contract (see also [docs/contract.md]).
//
//	res, err := rational.CheckRational(rational.Input{
//		Expression:   "1 + 1/2 + 1/3 + 1/4",
//		ClaimedValue: "25/12",
//	}, rational.Limits{})
//
// [CheckRational] is the one entry point. A claim that does not hold is a
// verdict, not an error: a [Result] with Valid false, a [Reason] and a
// [Discrepancy]; [Result.Err] turns it into an error for test code, and
// [Result.AppendJSON] writes it as the tool's output document. Bad input and
// exceeded limits are errors.
//
// # Expressions
//
// An expression is built from INTEGER literals (RFC 8259 integers without
// sign: "0" or no leading zero), the binary operators + - * /, unary minus
// and parentheses, by the grammar
//
//	expr    := term (("+" | "-") term)*
//	term    := unary (("*" | "/") unary)*
//	unary   := "-" unary | primary
//	primary := INTEGER | "(" expr ")"
//
// U+2212 (−), U+00D7 (×) and U+00F7 (÷) are read as -, * and /. Whitespace is
// space, tab, line feed and carriage return. There is no unary plus, no power
// operator, no implicit multiplication, no decimal point, exponent or digit
// separator. Positions are 0-based code point offsets into the expression.
//
// # Check order
//
// A check takes the tool's ten steps, listed with every case in
// [CheckRational]'s documentation (and in the contract's §4, see
// [docs/contract.md]): the inputs' text (steps 1 to 4), tokenising (5), parsing (6)
// and evaluating (7) the expression, then the value (8) and the form (9) of
// the claim. The first step that fails decides the answer. Steps 2, 3, 5
// and 6, and the digit limit of step 7, fail with an *[claimcheck.Error],
// the error type of every claimcheck package: Code invalid_input or
// limit_exceeded, Path "/expression" or "/claimed_value", Position (for
// expression errors), Limit (for limit_exceeded) and a one-line Message.
// The others give a [Result].
//
// # Guarantees
//
// Exactness: arithmetic is exact over the rationals; every [Rat] is in
// lowest terms and written in canonical form: "0", "n", "-n", "n/d" or
// "-n/d" with gcd(n, d) = 1 and d > 1. Differences are exact and never
// capped.
//
// Determinism: the answer depends on the input and the limits only; the JSON
// form of a [Result] is the same bytes every time.
//
// Limits ([Limits]; a zero or negative field means the tool's bound, that
// of [DefaultLimits], here and wherever a Limits is taken): 4096
// bytes per expression, 1024 tokens, nesting depth 64 (open parentheses plus
// pending unary minus), 500 digits per literal, per part of the claim and
// per numerator or denominator of every reduced intermediate value. Over a
// limit is limit_exceeded; no input makes the package panic, recurse deeper
// than the depth limit, or use time or memory beyond a polynomial in the
// limits.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package rational
