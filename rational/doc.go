// Package rational checks a claimed exact value of an integer/fraction
// expression: it implements the rational-expression-check tool of the
// claimcheck contract.
//
//	res, err := rational.CheckRational(rational.Input{
//		Expression:   "1 + 1/2 + 1/3 + 1/4",
//		ClaimedValue: "25/12",
//	})
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
// [CheckRational] takes these steps; the first that fails decides the answer:
//
//  1. expression: not empty, at most 4096 UTF-8 bytes, valid UTF-8
//     ([ValidateExpression]);
//  2. claimed value: a string -?(0|[1-9][0-9]*)(/[1-9][0-9]*)? of at most 500
//     digits per part ([ParseClaim]);
//  3. tokenise the whole expression (the first lexical error wins), then
//     parse it ([Parse]);
//  4. evaluate in post-order, left operand before right ([Expr.Eval]); the
//     first zero divisor gives reason [DivisionByZero];
//  5. value: a claim of another value gives reason [ValueMismatch];
//  6. form: with RequireCanonical, a claim not written in canonical form
//     gives reason [NotCanonical];
//  7. otherwise the claim is valid.
//
// Steps 1 to 3, and the digit limit of step 4, fail with an *[claimcheck.Error] (the one
// error type of every claimcheck package, an alias of the internal
// claimcheck.Error): Code invalid_input or
// limit_exceeded, Path "/expression" or "/claimed_value", Position (for
// expression errors), Limit (for limit_exceeded) and a one-line Message.
// Verdicts are values: a rejected claim is a [Result] with Valid false, a
// [Reason] and a [Discrepancy], and [Result.Err] turns it into an error for
// test code.
//
// # Guarantees
//
// Exactness: arithmetic is exact over the rationals ([Rat]); every value is
// kept in lowest terms and written in canonical form: "0", "n", "-n", "n/d"
// or "-n/d" with gcd(n, d) = 1 and d > 1. Differences are exact and never
// capped.
//
// Determinism: the answer depends on the input and the [Limits] only; the JSON
// form of a [Result] ([Result.AppendJSON]) is the same bytes every time.
//
// Limits ([DefaultLimits], configurable with [Limits]): 4096 bytes per
// expression, 1024 tokens, nesting depth 64 (open parentheses plus pending
// unary minus), 500 digits per literal, per part of the claim and per
// numerator or denominator of every reduced intermediate value. Over a limit
// is limit_exceeded; no input makes the package panic, recurse deeper than
// the depth limit, or use time or memory beyond a polynomial in the limits.
package rational
