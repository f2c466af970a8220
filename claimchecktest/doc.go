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
// Messages name JSON kinds (array, object, number), never Go types, since
// the student who reads them wrote JSON.
//
// # Options
//
// Each helper takes options after the claim, go-cmp style: [Message] labels
// the report, [FailNow] stops the test after it (t.FailNow, as testify's
// require does), [HideReference] writes a report fit to show the student,
// without the answer key, and [Limits] and [RationalLimits] set the checks'
// bounds.
//
//	claimchecktest.Equality(t, reference, answer,
//		claimchecktest.Message("Q1 factors"), claimchecktest.HideReference())
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
//     "… and N more"); and the claim's lists beside the expected ones (their
//     first 20 elements, then how many more);
//   - [Rational] and [RationalCanonical]: the true value, the claim and their
//     difference; for a division by zero or an error in the expression, the
//     expression with a caret under the position.
//
// A value longer than 40 characters is shown with its middle elided ("…"),
// keeping its start and end; two different values of one report never show
// alike: where the short forms would, the part that tells them apart is
// kept, or the values are shown whole. Under [HideReference] the reports
// say what is wrong in terms of the claim only; see there.
//
// The reports come from the engine (the verdict's own discrepancy list, the
// expected residuals), not from a second implementation of the rules.
//
// # JSON answers
//
// Read a student's JSON answer with [canon.ParseArray], the tools' strict
// reader, rather than encoding/json: json.Unmarshal turns 1e400 into an
// error and a nil, which the report would show as a null the student never
// wrote, replaces invalid UTF-8 with U+FFFD, and keeps the last of
// duplicate object members without a word. ParseArray names the element at
// fault by its JSON Pointer path, and its []canon.Scalar is accepted by
// every helper as it is.
//
// # Element types
//
// [Equality] and [Difference] take any element type the multiset tools
// accept: []any as encoding/json decodes it (with or without UseNumber),
// []int, []string, []float64, []json.Number, the []canon.Scalar of
// [canon.ParseArray] and their named variants. There
// is no size cap: a test checks bags of any size that fits in memory (the
// JSON tools' 10,000-item limits do not apply here).
package claimchecktest
