package rational_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/rational"
)

// row is one check of CheckRational. Every row must say why it is there.
type row struct {
	reason string
	in     rational.Input
	limits rational.Limits

	// The expected answer: an error (code set) or a Result.
	code  claimcheck.Code
	path  string
	pos   int // error position, or a division by zero's position
	limit string

	result  rational.Reason // "" for valid
	value   string          // canonical value; "" when null
	diff    string          // value_mismatch difference
	divisor string
}

func in(expr, claim string, canonical bool) rational.Input {
	return rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: canonical}
}

// valid: expr evaluates to value, claimed canonically.
func valid(reason, expr, value string) row {
	return row{reason: reason, in: in(expr, value, true), value: value}
}

func mismatch(reason, expr, claim, value, diff string) row {
	return row{reason: reason, in: in(expr, claim, true), result: rational.ValueMismatch, value: value, diff: diff}
}

// form: a claim of the right value in a non-canonical spelling.
func form(reason, expr, claim, value string, requireCanonical bool) row {
	r := row{reason: reason, in: in(expr, claim, requireCanonical), value: value}
	if requireCanonical {
		r.result = rational.NotCanonical
	}
	return r
}

func divZero(reason, expr string, pos int, divisor string) row {
	return row{reason: reason, in: in(expr, "1", false), result: rational.DivisionByZero, pos: pos, divisor: divisor}
}

func invalid(reason, expr string, pos int) row {
	return row{reason: reason, in: in(expr, "1", true), code: claimcheck.InvalidInput, path: "/expression", pos: pos}
}

func over(reason, expr string, pos int, limit string) row {
	return row{reason: reason, in: in(expr, "1", true), code: claimcheck.LimitExceeded, path: "/expression", pos: pos, limit: limit}
}

func badClaim(reason, claim string) row {
	return row{reason: reason, in: in("1", claim, true), code: claimcheck.InvalidInput, path: "/claimed_value", pos: claimcheck.NoPosition}
}

func (r row) with(l rational.Limits) row { r.limits = l; return r }

var (
	d500  = strings.Repeat("9", 500)
	d501  = strings.Repeat("1", 501)
	d251  = "1" + strings.Repeat("0", 250) // 10^250, 251 digits
	depth = func(n int, open, inner, close string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	ones = func(n int, sep string) string { // n tokens: 1 op 1 op ... 1
		return strings.TrimSuffix(strings.Repeat("1"+sep, (n+1)/2), sep)
	}
)

var rows = []row{
	// Operators, ASCII and Unicode.
	valid("ASCII operators and precedence", "1+2*3-8/4", "5"),
	valid("U+2212 is binary minus", "5 − 3", "2"),
	valid("U+2212 is unary minus", "−3", "-3"),
	valid("U+00D7 is times", "2×3", "6"),
	valid("U+00F7 is divide", "6÷4", "3/2"),
	valid("left associative division", "1/2/2", "1/4"),
	valid("left associative subtraction", "1-2-3", "-4"),
	valid("unary minus binds tighter than *", "2*-3", "-6"),
	valid("double unary minus", "--2", "2"),
	valid("binary then unary minus", "1--1", "2"),
	valid("parentheses override precedence", "(1+2)*3", "9"),
	valid("negative zero result is 0", "-0", "0"),
	valid("seed example", "1 + 1/2 + 1/3 + 1/4", "25/12"),

	// Whitespace: exactly space, tab, LF, CR.
	valid("space", "1 + 2", "3"),
	valid("tab", "1\t+\t2", "3"),
	valid("line feed", "1\n+\n2", "3"),
	valid("carriage return", "1\r+\r2", "3"),
	invalid("NBSP is not whitespace", "1\u00a0+1", 1),
	invalid("form feed is not whitespace", "1\f+1", 1),
	invalid("vertical tab is not whitespace", "1+\v1", 2),

	// Literals.
	valid("zero", "0", "0"),
	valid("zero followed by an operator", "0*5+0", "0"),
	invalid("leading zero, reported at the second character", "007", 1),
	invalid("double zero", "00", 1),
	invalid("leading zero after an operator", "1 + 05", 5),
	invalid("zero, space, digit is two literals: a syntax error", "0 5", 2),
	invalid("decimal point", "1.5", 1),
	invalid("leading decimal point", ".5", 0),
	invalid("trailing decimal point", "1.", 1),
	invalid("exponent", "1e5", 1),
	invalid("upper-case exponent", "2E3", 1),
	invalid("underscore separator", "1_000", 1),
	invalid("comma separator", "1,000", 1),
	invalid("apostrophe separator", "1'000", 1),
	invalid("fullwidth digit", "１", 0),
	invalid("Arabic-Indic digit", "1+٣", 2),

	// Characters that start no token.
	invalid("letter", "a", 0),
	invalid("caret", "2^3", 1),
	invalid("caret is lexical, before the syntax error at 3", "(1))^2", 4),
	invalid("lexical error before syntax error", "1 + * a", 6),
	invalid("lexical error beats division by zero", "1/0 + 1.5", 7),
	invalid("first lexical error wins", "1 + a + b", 4),
	invalid("en dash is not minus", "3–1", 1),
	invalid("division slash is not divide", "1∕2", 1),

	// Syntax.
	invalid("unary plus", "+1", 0),
	invalid("unary plus after an operator", "1++1", 2),
	invalid("unary plus after unary minus", "-+1", 1),
	invalid("implicit multiplication, number and parenthesis", "2(3)", 1),
	invalid("implicit multiplication, parentheses", "(1)(2)", 3),
	invalid("implicit multiplication, parenthesis and number", "(1)2", 3),
	invalid("juxtaposed integers", "1 2", 2),
	invalid("unclosed parenthesis ends early", "(1", 2),
	invalid("extra close parenthesis", "1)", 1),
	invalid("unbalanced close after a group", "(1))", 3),
	invalid("lone close parenthesis", ")", 0),
	invalid("empty parentheses", "()", 1),
	invalid("trailing operator ends early", "1 +", 3),
	invalid("trailing operator and space: position is the length", "1 + ", 4),
	invalid("lone minus", "-", 1),
	invalid("double times", "1**2", 2),
	invalid("syntax error beats division by zero", "1/0 +", 5),
	invalid("empty expression", "", 0),
	invalid("whitespace only ends early at its length", "   ", 3),
	invalid("a single tab", "\t", 1),

	// Positions count code points, not bytes.
	invalid("positions after U+2212 count code points", "−−−a", 3),
	invalid("positions after × and ÷ count code points", "1 × 2 ÷ x", 8),
	invalid("an emoji is one code point", "1×😀", 2),
	invalid("end of input after multi-byte characters", "2×", 2),
	invalid("invalid UTF-8 at its code point", "1+\xff", 2),
	invalid("invalid UTF-8 after a multi-byte character", "×\xc0\xaf", 1),
	invalid("encoded surrogate (WTF-8) is invalid", "12\xed\xa0\x80", 2),
	invalid("encoding error before a lexical error", "a\xed\xbf\xbf", 1),

	// Depth: open parentheses plus pending unary minus.
	valid("depth 64 parentheses", depth(64, "(", "1", ")"), "1"),
	over("depth 65 parentheses", depth(65, "(", "1", ")"), 64, "max_depth"),
	valid("depth 64 unary minus", strings.Repeat("-", 64)+"1", "1"),
	over("depth 65 unary minus", strings.Repeat("-", 65)+"1", 64, "max_depth"),
	valid("depth 64 mixed", depth(32, "-(", "1", ")"), "1"),
	over("depth 65 mixed", depth(32, "-(", "-1", ")"), 64, "max_depth"),
	over("depth 65 with U+2212", depth(60, "(", "−−−−−1", ")"), 64, "max_depth"),
	valid("depth restored after a close", depth(64, "(", "1", ")")+"+"+depth(64, "(", "1", ")"), "2"),
	valid("binary minus is not counted", depth(64, "(", "1-1-1", ")"), "-1"),
	over("depth limit before the missing parenthesis", strings.Repeat("(", 70)+"1", 64, "max_depth"),
	invalid("syntax error before depth limit", "1 1"+strings.Repeat("(", 70), 2),

	// Tokens.
	valid("1024 tokens", "-"+ones(1023, "+"), "510"),
	over("1025th token", ones(1025, "+"), 1024, "max_tokens"),
	over("1025th token after whitespace", ones(1025, " + "), 2048, "max_tokens"),
	over("token limit before a later lexical error", ones(1025, "+")+"a", 1024, "max_tokens"),
	invalid("lexical error before the token limit", "a"+ones(1025, "+"), 0),
	invalid("a character starting no token after 1024 tokens", ones(1023, "+")+" a", 1024),
	over("token limit before syntax error", ")"+ones(1025, "+"), 1024, "max_tokens"),

	// Digits: literals, intermediates.
	valid("500-digit literal", d500, d500),
	over("501-digit literal at its first digit", "1+"+d501, 2, "max_value_digits"),
	over("literal limit at its end, before a later '.'", d501+".5", 0, "max_value_digits"),
	invalid("leading zero before the literal limit", "0"+d501, 1),
	over("intermediate sum of 501 digits", d500+"+1", 500, "max_value_digits"),
	valid("intermediate of exactly 500 digits", d500+"/"+d500+"*"+d500, d500),
	over("intermediate product of 501 digits", d251+"*"+d251, 251, "max_value_digits"),
	over("intermediate denominator of 501 digits", "1/"+d500+"/10", 502, "max_value_digits"),
	over("intermediate limit even if the final value is small", "("+d251+"*"+d251+")/"+d251, 252, "max_value_digits"),
	valid("unary minus never trips the digit limit", "-"+d500, "-"+d500),
	divZero("division by zero before a later limit", "1/0*("+d251+"*"+d251+")", 1, "0"),

	// 4096 vs 4097 bytes.
	valid("4096 bytes", "1"+strings.Repeat(" ", 4095), "1"),
	over("4097 bytes", "1"+strings.Repeat(" ", 4096), 0, "max_expression_bytes"),
	over("bytes before lexical errors", strings.Repeat("a", 4097), 0, "max_expression_bytes"),
	over("bytes before invalid UTF-8", "1+\xff"+strings.Repeat("1", 4094), 0, "max_expression_bytes"),
	over("bytes, not code points", "1"+strings.Repeat("−1", 1024), 0, "max_expression_bytes"),

	// Division by zero.
	divZero("literal zero divisor", "1/0", 1, "0"),
	divZero("zero over zero", "0/0", 1, "0"),
	divZero("÷ and inner spaces in the divisor", "1 ÷ ( 2 - 2 )", 2, "( 2 - 2 )"),
	divZero("nested: the inner division comes first", "1/(1/0)", 4, "0"),
	divZero("a divisor is evaluated whole before it is tested", "1/(0/0)", 4, "0"),
	divZero("first in left-to-right order", "1/0 + 2/0", 1, "0"),
	divZero("left operand first", "(1/(1-1)) * (2/0)", 2, "(1-1)"),
	divZero("first of a chain", "1/0/0", 1, "0"),
	divZero("later in a chain", "1/2/0", 3, "0"),
	divZero("unary minus in the divisor", "5/-0", 1, "-0"),
	divZero("U+2212 in the divisor text", "5/−(0)", 1, "−(0)"),
	divZero("nested parentheses in the divisor text", "3/((2-2))", 1, "((2-2))"),
	divZero("divisor text keeps inner whitespace", "1/(\n0\t)", 1, "(\n0\t)"),
	divZero("divisor text has no outer whitespace", "1 /  0  ", 2, "0"),
	divZero("position in code points", "2×3÷0", 3, "0"),
	divZero("a fraction that cancels to zero", "7/(1/3-2/6)", 1, "(1/3-2/6)"),
	divZero("product divisor", "1/(0*5)", 1, "(0*5)"),

	// Value and form.
	mismatch("off by one", "1+1", "3", "2", "-1"),
	mismatch("seed example 2", "1/3 - 1/2", "1/6", "-1/6", "-1/3"),
	mismatch("sign", "-1/2", "1/2", "-1/2", "-1"),
	mismatch("unreduced wrong claim", "1/2", "2/2", "1/2", "-1/2"),
	mismatch("-0 claim of a non-zero value", "1", "-0", "1", "1"),
	mismatch("difference is not capped (about 1000 digits)", "1/"+strings.Repeat("7", 500), "-1/"+strings.Repeat("3", 500),
		"1/"+strings.Repeat("7", 500), ""),
	form("2/4 with require_canonical", "1/2", "2/4", "1/2", true),
	form("2/4 without require_canonical", "1/2", "2/4", "1/2", false),
	form("3/1 with require_canonical", "3", "3/1", "3", true),
	form("3/1 without require_canonical", "3", "3/1", "3", false),
	form("-0 with require_canonical", "0", "-0", "0", true),
	form("-0 without require_canonical", "0", "-0", "0", false),
	form("0/5 with require_canonical", "1-1", "0/5", "0", true),
	form("0/5 without require_canonical", "1-1", "0/5", "0", false),
	form("-0/3 with require_canonical", "0", "-0/3", "0", true),
	form("-0/3 without require_canonical", "0", "-0/3", "0", false),
	form("-6/4 with require_canonical", "-3/2", "-6/4", "-3/2", true),
	form("-5/1 with require_canonical", "-5", "-5/1", "-5", true),

	// Claims.
	badClaim("decimal claim", "1.5"),
	badClaim("plus sign", "+1"),
	badClaim("leading zero", "01"),
	badClaim("zero denominator", "1/0"),
	badClaim("negative denominator", "1/-2"),
	badClaim("a claim with a leading space", " 1"),
	badClaim("U+2212 in a claim", "−1"),
	badClaim("empty claim", ""),
	badClaim("two slashes", "1/2/3"),
	badClaim("pattern before digit limit", "0"+d501),
	{reason: "501-digit claim numerator", in: in("1", d501, true), code: claimcheck.LimitExceeded, path: "/claimed_value", pos: claimcheck.NoPosition, limit: "max_value_digits"},
	{reason: "501-digit negative claim; the sign is no digit", in: in("1", "-"+d501, true), code: claimcheck.LimitExceeded, path: "/claimed_value", pos: claimcheck.NoPosition, limit: "max_value_digits"},
	{reason: "501-digit claim denominator", in: in("1", "1/"+d501, true), code: claimcheck.LimitExceeded, path: "/claimed_value", pos: claimcheck.NoPosition, limit: "max_value_digits"},
	valid("500-digit claim", "-"+d500, "-"+d500),
	{reason: "claim is checked before the expression is tokenised", in: in("a", "x", true), code: claimcheck.InvalidInput, path: "/claimed_value", pos: claimcheck.NoPosition},
	{reason: "expression bytes are checked before the claim", in: in("", "x", true), code: claimcheck.InvalidInput, path: "/expression", pos: 0},

	// Configured limits.
	over("configured token limit", "1+1", 2, "max_tokens").with(rational.Limits{MaxTokens: 2}),
	over("configured depth limit", "((1))", 1, "max_depth").with(rational.Limits{MaxDepth: 1}),
	over("configured literal digits", "123", 0, "max_value_digits").with(rational.Limits{MaxValueDigits: 2}),
	over("configured intermediate digits", "99+1", 2, "max_value_digits").with(rational.Limits{MaxValueDigits: 2}),
	over("configured bytes", "1+1", 0, "max_expression_bytes").with(rational.Limits{MaxExpressionBytes: 2}),
	valid("zero fields are the defaults", "1", "1").with(rational.Limits{}),
}

func TestCheckRational(t *testing.T) {
	testutil.Run(t, rows, func(t *testing.T, r row) {
		res, err := rational.CheckRational(r.in, r.limits)
		if r.code != "" {
			checkError(t, err, r.code, r.path, r.pos, r.limit)
			return
		}
		if err != nil {
			t.Fatalf("CheckRational(%+q) error: %v", r.in.Expression, err)
		}
		checkResult(t, r, res)
	})
}

func checkError(t *testing.T, err error, code claimcheck.Code, path string, pos int, limit string) {
	t.Helper()
	conformance.ExpectError(t, err, conformance.Expected{Code: code, Path: path, Position: pos, Limit: limit})
}

func checkResult(t *testing.T, r row, res rational.Result) {
	t.Helper()
	if res.Valid != (r.result == "") || res.Reason != r.result {
		t.Fatalf("got valid=%v reason %q, want reason %q (%v)", res.Valid, res.Reason, r.result, res.Err())
	}
	if res.ReferenceVersion != rational.ReferenceVersion {
		t.Fatalf("reference version %q", res.ReferenceVersion)
	}
	if got := ratString(res.Value); got != r.value {
		t.Fatalf("value %s, want %s", got, r.value)
	}
	d := res.FirstDiscrepancy
	if (d == nil) != res.Valid {
		t.Fatalf("discrepancy %+v for valid %v", d, res.Valid)
	}
	if (res.Err() == nil) != res.Valid {
		t.Fatalf("Err() = %v for valid %v", res.Err(), res.Valid)
	}
	if d == nil {
		return
	}
	claim, err := rational.ParseClaim(r.in.ClaimedValue)
	if err != nil {
		t.Fatal(err)
	}
	if d.ClaimedValue != r.in.ClaimedValue || !d.CanonicalClaim.Equal(claim) {
		t.Fatalf("claim %q canonical %v", d.ClaimedValue, d.CanonicalClaim)
	}
	switch r.result {
	case rational.DivisionByZero:
		if d.Field != rational.FieldExpression || d.Position != r.pos || d.DivisorText != r.divisor || d.ActualValue != nil || d.Difference != nil {
			t.Fatalf("got %+v, want position %d divisor %q", *d, r.pos, r.divisor)
		}
	case rational.ValueMismatch, rational.NotCanonical:
		want := r.diff
		if r.result == rational.NotCanonical {
			want = "0"
		}
		if want == "" { // computed: value - claim
			want = res.Value.Sub(claim).String()
		}
		if d.Field != rational.FieldClaimedValue || d.Position != claimcheck.NoPosition || d.DivisorText != "" ||
			ratString(d.ActualValue) != r.value || ratString(d.Difference) != want {
			t.Fatalf("got %+v, want difference %s", *d, want)
		}
	}
}

func ratString(x *rational.Rat) string {
	if x == nil {
		return ""
	}
	return x.String()
}

// textRow is an input whose answer must give the text want.
type textRow struct {
	reason string
	in     rational.Input
	want   string
}

func TestResultJSON(t *testing.T) {
	testutil.Run(t, []textRow{
		{"valid: nulls for reason and discrepancy", in("1 + 1/2", "3/2", true),
			`{"valid":true,"reason":null,"value":"3/2","first_discrepancy":null,"reference_version":"` + rational.ReferenceVersion + `"}`},
		{"mismatch: position and divisor_text null", in("1/3 - 1/2", "1/6", true),
			`{"valid":false,"reason":"value_mismatch","value":"-1/6","first_discrepancy":{"field":"claimed_value","claimed_value":"1/6","canonical_claim":"1/6","actual_value":"-1/6","difference":"-1/3","position":null,"divisor_text":null},"reference_version":"` + rational.ReferenceVersion + `"}`},
		{"not canonical: difference 0", in("1/2", "2/4", true),
			`{"valid":false,"reason":"not_canonical","value":"1/2","first_discrepancy":{"field":"claimed_value","claimed_value":"2/4","canonical_claim":"1/2","actual_value":"1/2","difference":"0","position":null,"divisor_text":null},"reference_version":"` + rational.ReferenceVersion + `"}`},
		{"division by zero: value, actual_value and difference null; newline escaped", in("1/(\n2-2)", "2/4", false),
			`{"valid":false,"reason":"division_by_zero","value":null,"first_discrepancy":{"field":"expression","claimed_value":"2/4","canonical_claim":"1/2","actual_value":null,"difference":null,"position":1,"divisor_text":"(\n2-2)"},"reference_version":"` + rational.ReferenceVersion + `"}`},
	}, func(t *testing.T, tc textRow) {
		res, err := rational.CheckRational(tc.in, rational.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		app, err := res.AppendJSON([]byte("x"))
		if string(got) != tc.want || err != nil || string(app) != "x"+tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	})
}

func TestResultErr(t *testing.T) {
	testutil.Run(t, []textRow{
		{"mismatch", in("1 + 1/2", "1/2", true), "1 + 1/2 = 3/2, not 1/2 claimed (difference 1)"},
		{"division by zero", in("1/(2-2) + 1", "1", true), "division by zero at position 1: divisor (2-2) is 0"},
		{"not canonical", in("2/4", "2/4", true), "2/4 = 1/2, claimed as 2/4, which is not in canonical form"},
		{"newlines become spaces", in("1/(2\n-2)", "1", true), "division by zero at position 1: divisor (2 -2) is 0"},
	}, func(t *testing.T, tc textRow) {
		res, err := rational.CheckRational(tc.in, rational.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Err()
		if got == nil || got.Error() != tc.want || !errors.Is(got, rational.ErrRejected) {
			t.Errorf("Err() = %v, want %q wrapping ErrRejected", got, tc.want)
		}
	})
	if err := (rational.Result{Valid: true}).Err(); err != nil {
		t.Errorf("valid result: Err() = %v", err)
	}
	if err := (rational.Result{Reason: rational.ValueMismatch}).Err(); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("bare result: Err() = %v", err)
	}
}

func TestParseClaim(t *testing.T) {
	type claimRow struct{ reason, claim, want string }
	testutil.Run(t, []claimRow{
		{"integer", "7", "7"},
		{"negative", "-7", "-7"},
		{"reduced", "6/4", "3/2"},
		{"negative reduced", "-6/4", "-3/2"},
		{"denominator one", "3/1", "3"},
		{"negative zero", "-0", "0"},
		{"zero over n", "0/5", "0"},
		{"negative zero over n", "-0/3", "0"},
		{"large", "123456789012345678901234567890/10", "12345678901234567890123456789"},
	}, func(t *testing.T, tc claimRow) {
		got, err := rational.ParseClaim(tc.claim)
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseClaim(%q) = %v, %v; want %s", tc.claim, got, err, tc.want)
		}
	})
	_, err := rational.ParseClaim("1.0")
	checkError(t, err, claimcheck.InvalidInput, "/claimed_value", claimcheck.NoPosition, "")
	const want = `invalid_input at /claimed_value: claimed value "1.5" is not an integer or fraction of the form -?(0|[1-9][0-9]*)(/[1-9][0-9]*)?: a decimal point is not accepted; write the value as a fraction such as 5/2 for 2.5`
	if _, err := rational.ParseClaim("1.5"); err == nil || err.Error() != want {
		t.Errorf("ParseClaim(1.5) = %v, want %s", err, want)
	}
	_, err = rational.Limits{MaxValueDigits: 3}.ParseClaim("1/1000")
	checkError(t, err, claimcheck.LimitExceeded, "/claimed_value", claimcheck.NoPosition, "max_value_digits")
}

func TestValidateExpression(t *testing.T) {
	if err := rational.ValidateExpression("1 + a"); err != nil {
		t.Errorf("lexical errors are not step 2: %v", err)
	}
	checkError(t, rational.ValidateExpression(""), claimcheck.InvalidInput, "/expression", 0, "")
	checkError(t, rational.ValidateExpression(strings.Repeat("1", 4097)), claimcheck.LimitExceeded, "/expression", 0, "max_expression_bytes")
	checkError(t, rational.ValidateExpression("😀×\xed\xa0\x80"), claimcheck.InvalidInput, "/expression", 2, "")
	checkError(t, rational.Limits{MaxExpressionBytes: 1}.ValidateExpression("12"), claimcheck.LimitExceeded, "/expression", 0, "max_expression_bytes")
}

func TestParseAndEval(t *testing.T) {
	type evalRow struct{ reason, expr, tree, value string }
	testutil.Run(t, []evalRow{
		{"precedence", "1 + 2 × 3", "(1 + (2 * 3))", "7"},
		{"left associativity", "8 ÷ 2 / 2", "((8 / 2) / 2)", "2"},
		{"unary minus binds tighter", "2*−−3", "(2 * (-(-3)))", "6"},
		{"parentheses leave no node", "((1 - 2))", "(1 - 2)", "-1"},
		{"Unicode operators, unary minus of a group", "2 × −(1/4 − 1)", "(2 * (-((1 / 4) - 1)))", "3/2"},
	}, func(t *testing.T, tc evalRow) {
		e, err := rational.Parse(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		v, zd, err := e.Eval()
		if e.String() != tc.tree || err != nil || zd != nil || v.String() != tc.value {
			t.Errorf("%s = %v, %v, %v; want %s = %s", e, v, zd, err, tc.tree, tc.value)
		}
	})
	e, err := rational.Parse("1/(2-2)")
	if err != nil {
		t.Fatal(err)
	}
	if v, zd, err := e.Eval(); err != nil || zd == nil || *zd != (rational.ZeroDivision{Position: 1, DivisorText: "(2-2)"}) || v.Sign() != 0 {
		t.Errorf("Eval(1/(2-2)) = %v, %+v, %v", v, zd, err)
	}
	e, err = rational.Parse("7 / (1/3 - 2/6)")
	if err != nil {
		t.Fatal(err)
	}
	if _, zd, err := e.Eval(); err != nil || zd == nil || *zd != (rational.ZeroDivision{Position: 2, DivisorText: "(1/3 - 2/6)"}) {
		t.Errorf("Eval(7 / (1/3 - 2/6)) = %+v, %v", zd, err)
	}
	e, err = rational.Limits{MaxValueDigits: 2}.Parse("99*99")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = e.Eval()
	checkError(t, err, claimcheck.LimitExceeded, "/expression", 2, "max_value_digits")
	_, err = rational.Parse("1 +")
	checkError(t, err, claimcheck.InvalidInput, "/expression", 3, "")
	_, err = rational.Parse("\xff")
	checkError(t, err, claimcheck.InvalidInput, "/expression", 0, "")
}

func TestRatZeroValue(t *testing.T) {
	var z rational.Rat
	one := rational.NewRat(1, 1)
	if z.String() != "0" || z.Sign() != 0 || z.Add(one).String() != "1" || !z.Equal(rational.NewRat(0, 5)) {
		t.Errorf("zero value misbehaves: %v", z)
	}
	if got := rational.NewRat(-6, -4).String(); got != "3/2" {
		t.Errorf("NewRat(-6, -4) = %s", got)
	}
	if got := rational.NewRat(0, -4).Neg().String(); got != "0" {
		t.Errorf("-0 = %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Quo by zero did not panic")
		}
	}()
	one.Quo(z)
}

// TestAppendJSONRefusesNonVerdicts: a Result that CheckRational cannot
// return has no JSON form; AppendJSON, MarshalJSON and json.Marshal all say
// so, and AppendJSON leaves dst as it was.
func TestAppendJSONRefusesNonVerdicts(t *testing.T) {
	check := func(in rational.Input) rational.Result {
		t.Helper()
		res, err := rational.CheckRational(in, rational.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	valid := check(in("1/2", "1/2", true))
	mismatch := check(in("1/2", "1/3", true))
	divZero := check(in("1/0", "1", true))
	// with returns a copy of r, with its own discrepancy, changed by f.
	with := func(r rational.Result, f func(*rational.Result)) rational.Result {
		if r.FirstDiscrepancy != nil {
			d := *r.FirstDiscrepancy
			r.FirstDiscrepancy = &d
		}
		f(&r)
		return r
	}
	one := rational.NewRat(1, 1)
	type resultRow struct {
		reason string
		res    rational.Result
		fault  string // what the error must say is wrong
	}
	testutil.Run(t, []resultRow{
		{"the zero Result", rational.Result{}, "zero value"},
		{"valid without reference version", with(valid, func(r *rational.Result) { r.ReferenceVersion = "" }), "ReferenceVersion \"\""},
		{"another reference version", with(mismatch, func(r *rational.Result) { r.ReferenceVersion = "LIA-2" }), "\"LIA-2\" is not"},
		{"valid with a reason", with(valid, func(r *rational.Result) { r.Reason = rational.ValueMismatch }), "valid but has a Reason"},
		{"valid with a discrepancy", with(valid, func(r *rational.Result) { r.FirstDiscrepancy = mismatch.FirstDiscrepancy }), "valid but has a FirstDiscrepancy"},
		{"valid without a value", with(valid, func(r *rational.Result) { r.Value = nil }), "valid but has no Value"},
		{"invalid without a reason", with(mismatch, func(r *rational.Result) { r.Reason = "" }), "Reason \"\" is none"},
		{"a reason of no tool", with(mismatch, func(r *rational.Result) { r.Reason = "wrong" }), "Reason \"wrong\" is none"},
		{"invalid without a discrepancy", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy = nil }), "invalid but has no FirstDiscrepancy"},
		{"value_mismatch without a value", with(mismatch, func(r *rational.Result) { r.Value = nil }), "value_mismatch result has no Value"},
		{"division_by_zero with a value", with(divZero, func(r *rational.Result) { r.Value = &one }), "division_by_zero result has a Value"},
		{"division_by_zero about the claim", with(divZero, func(r *rational.Result) { r.FirstDiscrepancy = mismatch.FirstDiscrepancy }), "not the expression"},
		{"value_mismatch about the expression", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy = divZero.FirstDiscrepancy }), "not the claimed value"},
		{"a field of no input", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy.Field = "claim" }), "not the claimed value"},
		{"a claim discrepancy with a position", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy.Position = 0 }), "claimed value has a Position"},
		{"a claim discrepancy with a divisor", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy.DivisorText = "0" }), "claimed value has a Position or a DivisorText"},
		{"a claim discrepancy without a difference", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy.Difference = nil }), "claimed value has no Difference"},
		{"a claim discrepancy without an actual value", with(mismatch, func(r *rational.Result) { r.FirstDiscrepancy.ActualValue = nil }), "claimed value has no ActualValue"},
		{"an expression discrepancy without a position", with(divZero, func(r *rational.Result) { r.FirstDiscrepancy.Position = claimcheck.NoPosition }), "expression has no Position"},
		{"an expression discrepancy without a divisor", with(divZero, func(r *rational.Result) { r.FirstDiscrepancy.DivisorText = "" }), "expression has no DivisorText"},
		{"an expression discrepancy with a difference", with(divZero, func(r *rational.Result) { r.FirstDiscrepancy.Difference = &one }), "expression has an ActualValue or a Difference"},
	}, func(t *testing.T, tc resultRow) {
		dst := []byte("x")
		out, err := tc.res.AppendJSON(dst)
		if err == nil || string(out) != "x" || !strings.HasPrefix(err.Error(), "rational: ") || !strings.Contains(err.Error(), tc.fault) {
			t.Errorf("AppendJSON = %q, %v; want \"x\" and an error saying %q", out, err, tc.fault)
		}
		if out, err := tc.res.MarshalJSON(); err == nil || out != nil {
			t.Errorf("MarshalJSON = %q, %v; want an error", out, err)
		}
		if _, err := json.Marshal(tc.res); err == nil {
			t.Error("json.Marshal succeeded")
		}
	})
	for _, r := range []rational.Result{valid, mismatch, divZero} {
		if _, err := r.AppendJSON(nil); err != nil {
			t.Errorf("%v: %v", r, err)
		}
	}
	if out, err := json.Marshal(rational.Discrepancy{}); err == nil {
		t.Errorf("json.Marshal(Discrepancy{}) = %s, want an error", out)
	}
}

// TestZeroLimitsAreDefaultLimits: a zero or negative field of the Limits
// given to CheckRational is DefaultLimits()'s field; a set field is itself.
func TestZeroLimitsAreDefaultLimits(t *testing.T) {
	d := rational.DefaultLimits()
	if d != (rational.Limits{MaxExpressionBytes: 4096, MaxTokens: 1024, MaxDepth: 64, MaxValueDigits: 500}) {
		t.Fatalf("DefaultLimits() = %+v, not the descriptor's", d)
	}
	long := "1" + strings.Repeat("+1", 512) // 1025 tokens
	type limitsRow struct {
		reason string
		lim    rational.Limits
		expr   string
		limit  string // "" for no error
		pos    int
	}
	testutil.Run(t, []limitsRow{
		{"the default token limit", rational.Limits{}, long, "max_tokens", 1024},
		{"a negative field is the default", rational.Limits{MaxTokens: -1}, long, "max_tokens", 1024},
		{"a set field wins over the default", rational.Limits{MaxTokens: 1025}, long, "", 0},
		{"other fields keep their defaults", rational.Limits{MaxTokens: 2000}, "1/" + strings.Repeat("9", 501), "max_value_digits", 2},
		{"a set field lowers a bound", rational.Limits{MaxTokens: 2}, "1+1", "max_tokens", 2},
	}, func(t *testing.T, tc limitsRow) {
		_, err := rational.CheckRational(rational.Input{Expression: tc.expr, ClaimedValue: "2"}, tc.lim)
		if tc.limit == "" {
			if err != nil {
				t.Error(err)
			}
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Limit != tc.limit || e.Position != tc.pos {
			t.Errorf("got %v, want %s at %d", err, tc.limit, tc.pos)
		}
	})
}

// TestOtherReferenceVersion: the document of a result ends with
// ReferenceVersion, and a result whose ReferenceVersion a caller changed is
// refused, not written with the version every document carries.
func TestOtherReferenceVersion(t *testing.T) {
	res, err := rational.CheckRational(rational.Input{Expression: "1/2", ClaimedValue: "1/2"}, rational.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := res.AppendJSON(nil)
	if want := `,"reference_version":"` + rational.ReferenceVersion + `"}`; err != nil || !strings.HasSuffix(string(got), want) {
		t.Errorf("%s (%v), want it to end %s", got, err, want)
	}
	for _, v := range []string{"v2 \"quoted\" <b>", rational.ReferenceVersion + " "} {
		res.ReferenceVersion = v
		if got, err := res.AppendJSON(nil); err == nil {
			t.Errorf("version %q: %s, want an error", v, got)
		}
	}
}
