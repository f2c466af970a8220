// Package claimchecktest provides helpers for grading tests: each checks one
// claim with the claimcheck tools and, when the claim does not hold or the
// input is refused, reports it with t.Errorf (the test goes on) and returns
// false, in the manner of net/http/httptest and testing/fstest.
//
//	func TestSubmission(t *testing.T) {
//		claimchecktest.Equality(t, reference, studentAnswer)
//		claimchecktest.Rational(t, "1 + 1/2 + 1/3 + 1/4", studentValue)
//	}
//
// Every helper calls t.Helper first, so a failure points at the caller's
// line. t is a [TB]: *testing.T, or any harness with Helper and Errorf.
// Each helper's check is also a function that takes no t ([CheckEquality],
// [CheckDifference], [CheckRational], [CheckRationalCanonical]) and
// returns a [Report]: the verdict, the score and the report's text, for a
// grader that writes a feedback file or Gradescope's results.json.
//
// Messages name JSON kinds (array, object, number), never Go types, since
// the student who reads them wrote JSON.
//
// # Options
//
// Each helper takes options after the claim, go-cmp style: [Message] (or
// [Messagef], with a format) labels the report, [FailNow] stops the test after it (t.FailNow, as testify's
// require does), [HideReference] writes a report fit to show the student,
// without the answer key, [AnyOrder] compares each of a difference's lists
// as a bag, [In] names where the claim is in the student's document, and
// [Limits] and [RationalLimits] set the checks' bounds.
//
//	claimchecktest.Equality(t, reference, answer,
//		claimchecktest.Message("Q1 factors"), claimchecktest.HideReference())
//
// # Score
//
// A [Report]'s Score is partial credit, defined exactly as a ratio of
// counts (then one correctly rounded division), in [0, 1], and 1 exactly
// when the claim holds:
//
//   - [Equality]: with s(v) and c(v) the occurrences of value v in source
//     and claim, Σ min(s(v), c(v)) / max(len(source), len(claim)): the
//     occurrences the two bags share over the larger bag's size. It is 1
//     exactly when every count agrees, symmetric in source and claim, and
//     blind to order.
//   - [Difference]: over both lists l (left_only, right_only), Σ m(l) /
//     Σ max(len(claimed l), len(expected l)), where m(l) is the number of
//     indexes at which the claimed and expected list have the same element;
//     with [AnyOrder], m(l) is the occurrences they share as bags, as for
//     Equality, so the score is blind to each list's order and never below
//     the score in order.
//   - [Rational] and [RationalCanonical]: 1 when the claim holds, else 0;
//     with [PartialCanonical](credit), a claim of RationalCanonical that
//     is the right value in a form that is not canonical scores credit.
//
// When there is nothing to match (every list empty) the score is 1; a
// refused input scores 0. With counts below 2^53, (n-1)/n rounds to less
// than 1, so a float64 score of 1 means the ratio is 1.
//
// # Reports
//
// A failure says everything a grader needs to fix the answer in one go, in a
// deterministic form:
//
//   - [Equality]: every value whose counts differ, in the order of the tool's
//     contract (by first occurrence in source, then values only in claim), as
//     an aligned table of the value, its counts in source and in claim, and
//     where it first occurs; at most 20 rows, then "… and N more";
//   - [Difference]: the first discrepancy; for each claimed list, every
//     index at which it differs from the expected one, as an aligned table
//     of the claim's element and the expected one (at most 20 rows, then
//     "… and N more"), or, with [AnyOrder], every value whose count in it
//     is wrong (missing, too few, too often, should not occur) and where it
//     first is; and the claim's lists beside the expected ones (their first
//     20 elements, then how many more);
//   - [Rational] and [RationalCanonical]: the true value, the claim and their
//     difference; for a division by zero or an error in the expression, the
//     expression with a caret under the position; for a malformed claim, a
//     hint at the fault and the value written the right way, in canonical
//     form (a value the same check accepts), where that can be worked out (white space, a sign, U+2212, digits other than ASCII's,
//     another fraction bar, white space around '/', a mixed number, a
//     decimal point, a second '/', a negative or zero denominator, a
//     leading zero).
//
// A value longer than 40 characters is shown with its middle elided ("…"),
// keeping its start and end; two different values of one report never show
// alike: where the short forms would, the part that tells them apart is
// kept, or the values are shown whole. Under [HideReference] the reports
// say what is wrong in terms of the claim only, in the student's words;
// see there.
//
// Paths name where a value is: with [In], by JSON Pointers into the
// student's own document (/q1/3), the paths [canon.ParseSubmission] names
// its errors by; with [Named], by the answer's name (factors[3],
// leftOnly[0]); otherwise, in a staff report, by JSON Pointers into the
// tool's input document (/source/0, /claim/3, /claim/left_only/1,
// /claimed_value), and in a student's report ([HideReference]) by the
// default names answer[3], answer1[0] and answer2[0]: a student's report
// never shows a tool's path, list name or grammar.
//
// The reports come from the engine (the verdict's own discrepancy list, the
// expected residuals, its bag equality), not from a second implementation
// of the rules.
//
// # JSON answers
//
// Read a student's JSON with [canon.ParseSubmission] (an object of
// answers) or [canon.ParseArray] (one array), the tools' strict readers,
// rather than encoding/json: json.Unmarshal turns 1e400 into an error and
// a nil, which the report would show as a null the student never wrote,
// replaces invalid UTF-8 with U+FFFD, and keeps the last of duplicate
// object members without a word. The canon readers name the value at
// fault by its JSON Pointer path, and their []canon.Scalar is accepted by
// every helper as it is.
//
// By default a number is the double nearest its literal, as the JSON tools
// compare it: 9007199254740993 is read as, and equals, 9007199254740992,
// and 1e-400 equals 0, so an answer wrong as written may pass. With
// [canon.ExactNumbers] the readers keep every integer as written, so that
// it equals a reference of Go integers ([]int64{1, 1<<53 + 1}) exactly
// when it is the same integer, and refuse, at its path, a fraction that
// would read as an integer (1e-400), saying what it would have become;
// given [In], a helper reports that refusal as the claim's. For an answer
// decoded with json.Decoder.UseNumber, convert each json.Number to a
// [canon.ExactNumber]. Reports show an integer by its digits.
//
// # Element types
//
// [Equality] and [Difference] take any element type the multiset tools
// accept, each slice its own: []any as encoding/json decodes it (with or
// without UseNumber), []int, []int64, []uint64, []*big.Int, []string,
// []float64, []json.Number, []canon.ExactNumber, the []canon.Scalar of
// the canon readers and their named variants. There is
// no size cap by default: a test checks bags of any size that fits in
// memory (the JSON tools' 10,000-item limits do not apply here; see
// [Limits]).
package claimchecktest
