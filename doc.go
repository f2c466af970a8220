// Package claimcheck checks claimed results exactly. It answers questions a
// grader or a service asks of a claimed answer — is this array the same bag as
// that one? are these the left and right residuals of a bag difference? is
// 25/12 really the value of 1 + 1/2 + 1/3 + 1/4? — with a deterministic
// verdict and the first discrepancy, never a repaired answer.
//
// This package holds the error type that every claimcheck package returns
// ([Error], with its [Code] and sentinels) and the one sentinel of a
// rejected claim, [ErrRejected]. The work is done by:
//
//   - [github.com/claimcheck/claimcheck/multiset]: CheckEquality and
//     CheckDifference over bags of JSON scalars, for any element type;
//   - [github.com/claimcheck/claimcheck/rational]: CheckRational, exact
//     rational arithmetic over integer and fraction expressions;
//   - [github.com/claimcheck/claimcheck/canon]: the RFC 8785 canonical form
//     that defines when two JSON scalars are equal;
//   - [github.com/claimcheck/claimcheck/schema]: the tools as JSON documents
//     (descriptors and a strict Execute), used by the claimcheck command
//     (cmd/claimcheck) and the HTTP handler
//     [github.com/claimcheck/claimcheck/httpapi];
//   - [github.com/claimcheck/claimcheck/claimchecktest]: helpers for grading
//     tests that report every difference.
//
// # Verdicts and errors
//
// A check's verdict is a value with Valid, Reason and a discrepancy; its Err
// method is nil for a valid claim and otherwise reads as a test failure. An
// error means the input was malformed or over a limit, and is always an
// *[Error]: one errors.As target finds it whichever package returned it, and
// errors.Is matches [ErrInvalidInput], [ErrLimitExceeded] or [ErrUnknownTool].
// It carries the code, a JSON Pointer path to the offending value, a code
// point position for expression errors, and the name of the limit exceeded.
//
// # Guarantees
//
// Exact: no floating point in the rational tool; no formatting-dependent
// equality in the multiset tools; no Go value rounded silently (an integer
// is compared as that integer at any size, never rounded). Deterministic: the same input
// gives the same bytes. Bounded: every input is checked against the
// descriptors' limits (or the caller's); the multiset checks run in linear
// time; JSON is read without recursion, and the rational parser recurses no
// deeper than its depth limit.
//
// Each package's documentation states the rules it applies; the contract,
// [docs/contract.md], writes them all out in one place: equality of
// scalars, each tool's decision, which error wins and what paths and
// positions mean.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package claimcheck
