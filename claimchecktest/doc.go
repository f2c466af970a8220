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
// line.
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
//   - [Difference]: the first discrepancy, and the residuals the claim should
//     have had when they are short enough to print;
//   - [Rational] and [RationalCanonical]: the true value, the claim and their
//     difference; for a division by zero or an error in the expression, the
//     expression with a caret under the position.
//
// The reports come from the engine (the verdict's own discrepancy list), not
// from a second implementation of the rules.
//
// # Element types
//
// [Equality] and [Difference] take any element type the multiset tools
// accept: []any as encoding/json decodes it (with or without UseNumber),
// []int, []string, []float64, []json.Number and their named variants. There
// is no size cap: a test checks bags of any size that fits in memory (the
// JSON tools' 10,000-item limits do not apply here).
package claimchecktest
