package multiset_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
)

const (
	validDoc = `{"valid":true,"reference_version":"` + multiset.ReferenceVersion + `"}`
	valid    = "valid"
)

// mismatchDoc is the output document of a mismatch with discrepancy d.
func mismatchDoc(d string) string {
	return `{"valid":false,"reason":"claim_mismatch","discrepancy":` + d + `,"reference_version":"` + multiset.ReferenceVersion + `"}`
}

// wantErr is an expected *claimcheck.Error.
type wantErr struct {
	code  claimcheck.Code
	path  string
	limit string
	msg   string // a substring of the message
}

func invalid(path, msg string) *wantErr {
	return &wantErr{code: claimcheck.InvalidInput, path: path, msg: msg}
}

func limited(path, limit string) *wantErr {
	return &wantErr{code: claimcheck.LimitExceeded, path: path, limit: limit, msg: limit}
}

// checkErr asserts that err is the *claimcheck.Error w describes (see
// conformance.ExpectError); multiset errors have no position.
func checkErr(t *testing.T, err error, w *wantErr) {
	t.Helper()
	conformance.ExpectError(t, err, conformance.Expected{Code: w.code, Path: w.path, Position: claimcheck.NoPosition, Limit: w.limit, Message: w.msg})
}

// result is what both verdict types share.
type result interface {
	Err() error
	String() string
	AppendJSON([]byte) ([]byte, error)
}

// checkResult asserts the output document (byte for byte: member order and
// number form are part of the contract), and that Err, String, AppendJSON and
// json.Marshal agree with it.
func checkResult(t *testing.T, r result, wantDoc, wantMsg string) {
	t.Helper()
	got, err := r.AppendJSON(nil)
	if err != nil || string(got) != wantDoc {
		t.Fatalf("output\ngot  %s, %v\nwant %s", got, err, wantDoc)
	}
	if app, _ := r.AppendJSON([]byte("prefix")); string(app) != "prefix"+string(got) {
		t.Errorf("AppendJSON(prefix) = %s, want prefix+%s", app, got)
	}
	// json.Marshal gives the same document; being encoding/json it also
	// escapes <, >, &, U+2028 and U+2029 (the same JSON value, other bytes).
	marshaled, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var escaped bytes.Buffer
	json.HTMLEscape(&escaped, got)
	if !bytes.Equal(marshaled, escaped.Bytes()) {
		t.Errorf("json.Marshal = %s, want %s", marshaled, escaped.Bytes())
	}
	if r.String() != wantMsg {
		t.Errorf("String() = %q, want %q", r.String(), wantMsg)
	}
	switch err := r.Err(); {
	case wantMsg == valid && err != nil:
		t.Errorf("Err() = %v for a valid claim", err)
	case wantMsg != valid && (err == nil || err.Error() != wantMsg):
		t.Errorf("Err() = %v, want %q", err, wantMsg)
	}
}

var (
	negZero = math.Copysign(0, -1)
	nan     = math.NaN()
	inf     = math.Inf(1)
	roomy   = multiset.Limits{MaxItems: 100000, MaxDistinct: 100000}
)

type (
	grade  string             // a named string type, as grading code declares
	points float64            // a named float type
	pair   struct{ A, B int } // a struct: not a scalar
)

// ones returns n copies of v.
func ones(n int, v any) []any {
	xs := make([]any, n)
	for i := range xs {
		xs[i] = v
	}
	return xs
}

// count returns 0, 1, ..., n-1.
func count(n int) []any {
	xs := make([]any, n)
	for i := range xs {
		xs[i] = i
	}
	return xs
}

func cat(parts ...[]any) []any {
	var xs []any
	for _, p := range parts {
		xs = append(xs, p...)
	}
	return xs
}

type equalityRow struct {
	reason        string
	limits        *multiset.Limits // nil: CheckEquality with the defaults
	source, claim []any
	want          string // "valid" or the discrepancy document
	msg           string // Err().Error() of a mismatch
	err           *wantErr
}

var equalityRows = []equalityRow{
	{reason: "seed example 1: order does not matter",
		source: []any{1, nil, 1}, claim: []any{nil, 1, 1}, want: valid},
	{reason: "seed example 2: counts are decimal strings",
		source: []any{1, 1}, claim: []any{1},
		want: `{"path":"/source/0","expected":"2","actual":"1"}`,
		msg:  "claim has 1 occurrence of 1 where source has 2 (first at /source/0)"},
	{reason: "nil slices are empty arrays",
		source: nil, claim: nil, want: valid},
	{reason: "a nil source against a non-empty claim reports the claim's value",
		source: nil, claim: []any{"x", "x"},
		want: `{"path":"/claim/0","expected":"0","actual":"2"}`,
		msg:  `claim has 2 occurrences of "x" where source has none (first at /claim/0)`},
	{reason: "a non-empty source against a nil claim",
		source: []any{"x"}, claim: nil,
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of "x" where source has 1 (first at /source/0)`},
	{reason: "-0 and 0 are one value (float64 -0, json.Number -0, int 0)",
		source: []any{negZero, json.Number("-0"), json.Number("-0.0e5")}, claim: []any{0, 0.0, json.Number("0")}, want: valid},
	{reason: "-0 and 0 count together: two of them against one",
		source: []any{0, negZero}, claim: []any{0},
		want: `{"path":"/source/0","expected":"2","actual":"1"}`,
		msg:  "claim has 1 occurrence of 0 where source has 2 (first at /source/0)"},
	{reason: "1.0, 1, json.Number 1e0, 100e-2, float32, int8, uint64 are one value",
		source: []any{1.0, 1, json.Number("1e0"), json.Number("100e-2"), float32(1), int8(1), uint64(1)},
		claim:  []any{json.Number("1"), json.Number("1.0"), json.Number("10e-1"), 1, 1, 1, 1}, want: valid},
	{reason: "the string \"1\" is not the number 1",
		source: []any{"1"}, claim: []any{1},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of "1" where source has 1 (first at /source/0)`},
	{reason: "true is not the string \"true\"",
		source: []any{true}, claim: []any{"true"},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of true where source has 1 (first at /source/0)`},
	{reason: "null is not the string \"null\"",
		source: []any{nil}, claim: []any{"null"},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of null where source has 1 (first at /source/0)`},
	{reason: "0, false, null and \"\" are four values",
		source: []any{0, false, nil, ""}, claim: []any{"", nil, false, 0}, want: valid},
	{reason: "1 and true are two values",
		source: []any{1}, claim: []any{true},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 1 where source has 1 (first at /source/0)"},
	{reason: "float32(0.1) is the 0.1 encoding/json writes for it, the same as the double 0.1",
		source: []any{float32(0.1)}, claim: []any{0.1}, want: valid},
	{reason: "float32(0.1) is not the double it holds",
		source: []any{float32(0.1)}, claim: []any{0.10000000149011612},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 0.1 where source has 1 (first at /source/0)"},
	{reason: "json.Number is JSON text: 9007199254740993 rounds to 2^53, as the literal in a document does",
		source: []any{json.Number("9007199254740993")}, claim: []any{float64(1 << 53)}, want: valid},
	{reason: "int64 2^53+1 has no double: it is that integer, not 2^53 (refused before)",
		source: []any{1, int64(1<<53 + 1)}, claim: []any{1, int64(1 << 53)},
		want: `{"path":"/source/1","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 9007199254740993 where source has 1 (first at /source/1)"},
	{reason: "int64 2^53+1 equals itself (refused before)",
		source: []any{1, int64(1<<53 + 1)}, claim: []any{uint64(1<<53 + 1), 1}, want: valid},
	{reason: "math.MaxUint64 is not 2^64 nor MaxUint64-1: a discrepancy at its path (refused before)",
		source: []any{1, float64(1 << 64), uint64(math.MaxUint64 - 1)}, claim: []any{1, uint64(math.MaxUint64), uint64(math.MaxUint64 - 1)},
		want: `{"path":"/source/1","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 18446744073709552000 where source has 1 (first at /source/1)"},
	{reason: "*big.Int and big.Int elements are their integers (refused before)",
		source: []any{big.NewInt(1<<53 + 1), *big.NewInt(7), new(big.Int).Lsh(big.NewInt(1), 60)}, claim: []any{int64(1 << 60), 7, int64(1<<53 + 1)}, want: valid},
	{reason: "a *big.Int is told from its neighbour",
		source: []any{new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))}, claim: []any{float64(1 << 64)},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 18446744073709551617 where source has 1 (first at /source/0)"},
	{reason: "canon.ExactNumber is a json.Number read exactly: 9007199254740993 is not 2^53 (json.Number rounds, as the next rows)",
		source: []any{canon.ExactNumber("9007199254740993")}, claim: []any{int64(1 << 53)},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 9007199254740993 where source has 1 (first at /source/0)"},
	{reason: "canon.ExactNumber equals the int64 of its value, in any notation",
		source: []any{canon.ExactNumber("9007199254740993"), canon.ExactNumber("9.007199254740993e15")}, claim: []any{int64(1<<53 + 1), int64(1<<53 + 1)}, want: valid},
	{reason: "a nil *big.Int is refused at its path",
		source: []any{1, (*big.Int)(nil)}, err: invalid("/source/1", "nil *big.Int")},
	{reason: "int64 2^60 is exact although above 2^53",
		source: []any{int64(1) << 60, uint64(1) << 60}, claim: []any{float64(1 << 60), json.Number("1152921504606846976")}, want: valid,
	},
	{reason: "named types of scalar kinds are accepted",
		source: []any{grade("A"), points(2.5)}, claim: []any{"A", 2.5}, want: valid},
	{reason: "canon.Scalar elements pass through",
		source: []any{canon.BoolScalar(true), canon.NullScalar()}, claim: []any{true, nil}, want: valid},
	{reason: "the first mismatch follows first source occurrence, not the largest difference",
		source: []any{"x", "y", "y"}, claim: []any{"x", "x", "x", "y"},
		want: `{"path":"/source/0","expected":"1","actual":"3"}`,
		msg:  `claim has 3 occurrences of "x" where source has 1 (first at /source/0)`},
	{reason: "the path is the first source occurrence, not a later one",
		source: []any{"a", "b", "a", "b"}, claim: []any{"a", "a", "b"},
		want: `{"path":"/source/1","expected":"2","actual":"1"}`,
		msg:  `claim has 1 occurrence of "b" where source has 2 (first at /source/1)`},
	{reason: "a source mismatch beats an extra claim value that comes earlier in the claim",
		source: []any{1, 2}, claim: []any{3, 1},
		want: `{"path":"/source/1","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 2 where source has 1 (first at /source/1)"},
	{reason: "extra claim values: the first by first occurrence in claim, with its count",
		source: []any{1}, claim: []any{1, "b", "a", "b"},
		want: `{"path":"/claim/1","expected":"0","actual":"2"}`,
		msg:  `claim has 2 occurrences of "b" where source has none (first at /claim/1)`},
	{reason: "an extra claim value spelled like a source value but of another type",
		source: []any{"1e+21"}, claim: []any{"1e+21", 1e21},
		want: `{"path":"/claim/1","expected":"0","actual":"1"}`,
		msg:  "claim has 1 occurrence of 1e+21 where source has none (first at /claim/1)"},
	{reason: "strings compare by code points: no Unicode normalization",
		source: []any{"\u00c5"}, claim: []any{"A\u030a"},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of "Å" where source has 1 (first at /source/0)`},
	{reason: "Err() writes the value in canonical form, control characters escaped",
		source: []any{"a\nb"}, claim: nil,
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  `claim has 0 occurrences of "a\nb" where source has 1 (first at /source/0)`},

	// Limits.
	{reason: "10000 items is the default max_items, inclusive",
		source: ones(10000, 1), claim: ones(10000, json.Number("1.0")), want: valid},
	{reason: "10000 distinct values is the default max_distinct, inclusive",
		source: count(10000), claim: count(10000), want: valid},
	{reason: "10001 source items exceed the default max_items",
		source: ones(10001, 1), claim: nil, err: limited("/source", "max_items")},
	{reason: "10001 claim items exceed the default max_items",
		source: nil, claim: ones(10001, 1), err: limited("/claim", "max_items")},
	{reason: "the zero Limits means the defaults",
		limits: &multiset.Limits{}, source: ones(10001, 1), err: limited("/source", "max_items")},
	{reason: "negative limits mean the defaults too",
		limits: &multiset.Limits{MaxItems: -1, MaxDistinct: -5}, source: count(10000), claim: count(10000), want: valid},
	{reason: "raised limits accept a bag over the defaults",
		limits: &roomy, source: count(20000), claim: count(20000), want: valid},
	{reason: "custom max_items: one over",
		limits: &multiset.Limits{MaxItems: 3}, source: []any{1, 2, 3}, claim: []any{1, 2, 3, 4}, err: limited("/claim", "max_items")},
	{reason: "max_items comes before the array's own bad elements",
		limits: &multiset.Limits{MaxItems: 3}, source: []any{map[string]any{}, 1, 2, 3}, err: limited("/source", "max_items")},
	{reason: "a bad source element comes before claim's max_items",
		limits: &multiset.Limits{MaxItems: 3}, source: []any{1, []any{}}, claim: ones(4, 1), err: invalid("/source/1", "element is an array, not a scalar")},
	{reason: "elements come before max_distinct",
		limits: &multiset.Limits{MaxDistinct: 2}, source: []any{1, 2, 3, nan}, err: invalid("/source/3", "not finite")},
	{reason: "a custom max_distinct smaller than max_items fires",
		limits: &multiset.Limits{MaxDistinct: 2}, source: []any{1, 1, 2, 2, 3}, claim: []any{1}, err: limited("/source", "max_distinct")},
	{reason: "source max_distinct comes before claim max_items",
		limits: &multiset.Limits{MaxItems: 4, MaxDistinct: 2}, source: []any{1, 2, 3}, claim: ones(5, 1), err: limited("/source", "max_distinct")},
	{reason: "claim max_distinct, after a clean source",
		limits: &multiset.Limits{MaxDistinct: 2}, source: []any{1, 2}, claim: []any{1, 2, 3}, err: limited("/claim", "max_distinct")},
	{reason: "max_distinct counts per array, not over both",
		limits: &multiset.Limits{MaxDistinct: 2}, source: []any{1, 2}, claim: []any{3, 4},
		want: `{"path":"/source/0","expected":"1","actual":"0"}`,
		msg:  "claim has 0 occurrences of 1 where source has 1 (first at /source/0)"},
	{reason: "max_distinct counts canonical values: -0, 0 and json 0.0 are one",
		limits: &multiset.Limits{MaxDistinct: 1}, source: []any{0, negZero, json.Number("0.0")}, claim: []any{0, 0, 0}, want: valid},

	// Element errors.
	{reason: "a map is not a scalar", source: []any{1, map[string]any{"a": 1}}, err: invalid("/source/1", "element is an object, not a scalar")},
	{reason: "a slice is not a scalar", source: []any{1}, claim: []any{1, []int{1}}, err: invalid("/claim/1", "element is an array, not a scalar")},
	{reason: "a struct is not a scalar", source: []any{pair{}}, err: invalid("/source/0", "element is an object, not a scalar")},
	{reason: "a pointer is not a scalar, even to a scalar", source: []any{new(int)}, err: invalid("/source/0", "element is a reference to a value")},
	{reason: "NaN is not finite", source: []any{nan}, err: invalid("/source/0", "not finite")},
	{reason: "+Inf is not finite", source: []any{0}, claim: []any{inf}, err: invalid("/claim/0", "not finite")},
	{reason: "-Inf is not finite", source: []any{math.Inf(-1)}, err: invalid("/source/0", "not finite")},
	{reason: "float32 NaN is not finite", source: []any{float32(nan)}, err: invalid("/source/0", "not finite")},
	{reason: "a named float NaN is not finite", source: []any{points(nan)}, err: invalid("/source/0", "not finite")},
	{reason: "invalid UTF-8 is refused, never repaired", source: []any{"ok", "caf\xe9"}, err: invalid("/source/1", "UTF-8")},
	{reason: "a surrogate code point in UTF-8 form is invalid", source: []any{"\xed\xa0\x80"}, err: invalid("/source/0", "UTF-8")},
	{reason: "a named string type with invalid UTF-8", claim: []any{grade("\xff")}, err: invalid("/claim/0", "UTF-8")},
	{reason: "json.Number out of double range", source: []any{json.Number("1e400")}, err: invalid("/source/0", "range")},
	{reason: "json.Number with a bad literal", source: []any{json.Number("01")}, err: invalid("/source/0", "not a JSON number")},
	{reason: "an empty json.Number is not a number", source: []any{json.Number("")}, err: invalid("/source/0", "not a JSON number")},
	{reason: "json.Number 1e-400 underflows to 0, not an error",
		source: []any{json.Number("1e-400"), json.Number("-1e-400")}, claim: []any{0, 0}, want: valid},
	{reason: "elements in index order: the first bad one wins",
		source: []any{1, inf, map[string]int{}}, err: invalid("/source/1", "not finite")},
	{reason: "source elements before claim elements",
		source: []any{1, []any{}}, claim: []any{map[string]any{}}, err: invalid("/source/1", "element is an array, not a scalar")},
}

func TestCheckEqualityTable(t *testing.T) {
	testutil.Run(t, equalityRows, func(t *testing.T, r equalityRow) {
		in := multiset.EqualityInput[any, any]{Source: r.source, Claim: r.claim}
		var res multiset.EqualityResult
		var err error
		if r.limits == nil {
			res, err = multiset.CheckEquality(in, multiset.Limits{})
		} else {
			res, err = multiset.CheckEquality(in, *r.limits)
		}
		if r.err != nil {
			checkErr(t, err, r.err)
			return
		}
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		if r.want == valid {
			checkResult(t, res, validDoc, valid)
			if res.Discrepancy != nil || res.Reason != "" {
				t.Errorf("a valid result has discrepancy %v, reason %q", res.Discrepancy, res.Reason)
			}
			return
		}
		checkResult(t, res, mismatchDoc(r.want), r.msg)
		if res.Reason != multiset.ClaimMismatch {
			t.Errorf("reason %q", res.Reason)
		}
		if d, _ := res.Discrepancy.MarshalJSON(); string(d) != r.want {
			t.Errorf("discrepancy MarshalJSON %s, want %s", d, r.want)
		}
	})
}

type differenceRow struct {
	reason              string
	limits              *multiset.Limits
	left, right, lo, ro []any
	want                string
	msg                 string
	err                 *wantErr
}

var differenceRows = []differenceRow{
	{reason: "seed example 1",
		left: []any{"a", "a", "b"}, right: []any{"a", "c"}, lo: []any{"a", "b"}, ro: []any{"c"}, want: valid},
	{reason: "seed example 2: null where the claim has no element",
		left: []any{1}, want: `{"path":"/left_only/0","expected":1,"actual":null}`,
		msg: "claim.left_only[0] is missing; expected 1 (at /left_only/0)"},
	{reason: "nil slices are empty arrays", want: valid},
	{reason: "integers no double holds are removed one for one, as any value",
		left: []any{int64(1<<53 + 1), uint64(1<<53 + 1), 5}, right: []any{big.NewInt(1<<53 + 1), int64(1 << 53)},
		lo: []any{canon.ExactNumber("9007199254740993"), 5}, ro: []any{float64(1 << 53)}, want: valid},
	{reason: "an integer no double holds is written in the discrepancy as its digits, a JSON number",
		left: []any{uint64(math.MaxUint64)}, lo: []any{float64(1 << 64)},
		want: `{"path":"/left_only/0","expected":18446744073709551615,"actual":18446744073709552000}`,
		msg:  "claim.left_only[0] is 18446744073709552000; expected 18446744073709551615 (at /left_only/0)"},
	{reason: "the earliest occurrences are removed: [a,b,a]-[a] is [b,a]",
		left: []any{"a", "b", "a"}, right: []any{"a"}, lo: []any{"b", "a"}, want: valid},
	{reason: "removing the latest occurrence instead is caught at index 0",
		left: []any{"a", "b", "a"}, right: []any{"a"}, lo: []any{"a", "b"},
		want: `{"path":"/left_only/0","expected":"b","actual":"a"}`,
		msg:  `claim.left_only[0] is "a"; expected "b" (at /left_only/0)`},
	{reason: "right_only: the same walk over right",
		left: []any{2}, right: []any{2, 3, 2}, ro: []any{3, 2}, want: valid},
	{reason: "one occurrence for one occurrence",
		left: []any{"a", "a", "a", "b"}, right: []any{"a", "b", "b"}, lo: []any{"a", "a"}, ro: []any{"b"}, want: valid},
	{reason: "left_only is checked fully before right_only: a long left_only beats a wrong right_only[0]",
		left: []any{1}, right: []any{2}, lo: []any{1, 5}, ro: []any{9},
		want: `{"path":"/left_only/1","expected":null,"actual":5}`,
		msg:  "claim.left_only[1] is 5 but the residual has no element there (at /left_only/1)"},
	{reason: "right_only is checked once left_only is right",
		left: []any{1}, right: []any{2}, lo: []any{1}, ro: []any{3},
		want: `{"path":"/right_only/0","expected":2,"actual":3}`,
		msg:  "claim.right_only[0] is 3; expected 2 (at /right_only/0)"},
	{reason: "a short right_only: expected element, actual null",
		right: []any{1, 1}, ro: []any{1},
		want: `{"path":"/right_only/1","expected":1,"actual":null}`,
		msg:  "claim.right_only[1] is missing; expected 1 (at /right_only/1)"},
	{reason: "a real null expected where the claim has nothing: both null, told apart by Err()",
		left: []any{nil},
		want: `{"path":"/left_only/0","expected":null,"actual":null}`,
		msg:  "claim.left_only[0] is missing; expected null (at /left_only/0)"},
	{reason: "a claimed real null past the residual's end: both null, told apart by Err()",
		lo:   []any{nil},
		want: `{"path":"/left_only/0","expected":null,"actual":null}`,
		msg:  "claim.left_only[0] is null but the residual has no element there (at /left_only/0)"},
	{reason: "null is not the string \"null\"",
		left: []any{nil}, lo: []any{"null"},
		want: `{"path":"/left_only/0","expected":null,"actual":"null"}`,
		msg:  `claim.left_only[0] is "null"; expected null (at /left_only/0)`},
	{reason: "null residuals are data: matched one for one",
		left: []any{nil, nil, nil}, right: []any{nil}, lo: []any{nil, nil}, want: valid},
	{reason: "-0 consumes 0",
		left: []any{negZero, json.Number("-0")}, right: []any{0, 0.0}, want: valid},
	{reason: "1.0 consumes 1 and json.Number 1e0; the claim's spelling need not match",
		left: []any{1.0, json.Number("1e0"), 2}, right: []any{1}, lo: []any{json.Number("100e-2"), json.Number("2.0")}, want: valid},
	{reason: "\"1\" and 1 do not consume each other",
		left: []any{"1", 1}, right: []any{1}, lo: []any{"1"}, want: valid},
	{reason: "true and \"true\", null and \"null\" do not consume each other",
		left: []any{true, nil}, right: []any{"true", "null"}, lo: []any{true, nil}, ro: []any{"true", "null"}, want: valid},
	{reason: "expected and actual are written canonically: 100e-2 as 1",
		left: []any{json.Number("100e-2")}, lo: []any{"1"},
		want: `{"path":"/left_only/0","expected":1,"actual":"1"}`,
		msg:  `claim.left_only[0] is "1"; expected 1 (at /left_only/0)`},
	{reason: "1e21 is written 1e+21 and 1e-7 as 1e-7",
		left: []any{json.Number("1000000000000000000000")}, lo: []any{json.Number("0.0000001")},
		want: `{"path":"/left_only/0","expected":1e+21,"actual":1e-7}`,
		msg:  "claim.left_only[0] is 1e-7; expected 1e+21 (at /left_only/0)"},
	{reason: "strings are written in JCS form: control characters escaped, U+2028 literal",
		left: []any{"\x01\n"}, lo: []any{"\u2028"},
		want: `{"path":"/left_only/0","expected":"\u0001\n","actual":"` + "\u2028" + `"}`,
		msg:  `claim.left_only[0] is "` + "\u2028" + `"; expected "\u0001\n" (at /left_only/0)`},
	{reason: "a mismatch at a later index",
		left: []any{1, 2, 3, 4}, right: []any{2}, lo: []any{1, 3, 5},
		want: `{"path":"/left_only/2","expected":4,"actual":5}`,
		msg:  "claim.left_only[2] is 5; expected 4 (at /left_only/2)"},

	// Limits: left, right, claim.left_only, claim.right_only in turn, each
	// max_items, then its elements, then max_distinct.
	{reason: "10000 items per array, inclusive",
		left: ones(10000, 1), right: ones(10000, 1), want: valid},
	{reason: "10001 items in left", left: ones(10001, 1), err: limited("/left", "max_items")},
	{reason: "10001 items in right", right: ones(10001, 1), err: limited("/right", "max_items")},
	{reason: "10001 items in left_only", lo: ones(10001, 1), err: limited("/claim/left_only", "max_items")},
	{reason: "10001 items in right_only", ro: ones(10001, 1), err: limited("/claim/right_only", "max_items")},
	{reason: "raised limits accept big residuals",
		limits: &roomy, left: count(15000), lo: count(15000), want: valid},
	{reason: "max_items before the array's own elements",
		limits: &multiset.Limits{MaxItems: 2}, right: []any{[]any{}, 1, 1}, err: limited("/right", "max_items")},
	{reason: "an earlier array's element before a later array's max_items",
		limits: &multiset.Limits{MaxItems: 2}, left: []any{map[string]any{}}, right: ones(3, 1), err: invalid("/left/0", "element is an object, not a scalar")},
	{reason: "left's max_distinct before right's max_items",
		limits: &multiset.Limits{MaxItems: 3, MaxDistinct: 2}, left: []any{1, 2, 3}, right: ones(4, 1), err: limited("/left", "max_distinct")},
	{reason: "elements before max_distinct within one array",
		limits: &multiset.Limits{MaxDistinct: 1}, left: []any{1, 2, "\xff"}, err: invalid("/left/2", "UTF-8")},
	{reason: "max_distinct of a claimed residual",
		limits: &multiset.Limits{MaxDistinct: 2}, left: []any{1, 2, 1}, right: []any{2, 1}, lo: []any{1, 2, 3}, err: limited("/claim/left_only", "max_distinct")},
	{reason: "max_distinct counts per array: four arrays of two values each pass",
		limits: &multiset.Limits{MaxDistinct: 2}, left: []any{1, 2}, right: []any{3, 4}, lo: []any{5, 6}, ro: []any{true, false},
		want: `{"path":"/left_only/0","expected":1,"actual":5}`,
		msg:  "claim.left_only[0] is 5; expected 1 (at /left_only/0)"},
	{reason: "left_only's elements before right_only's",
		lo: []any{1, 1, map[string]any{}}, ro: []any{[]any{}}, err: invalid("/claim/left_only/2", "element is an object, not a scalar")},
	{reason: "right_only's element, at the input document's path",
		ro: []any{1, pair{}}, err: invalid("/claim/right_only/1", "element is an object, not a scalar")},
	{reason: "json.Number out of range in right", right: []any{json.Number("-1e400")}, err: invalid("/right/0", "range")},

	// A claimed residual is first compared with the expected one, and read
	// in full only where they differ: none of that shows in the answers.
	{reason: "a residual that matches the expected one for 100 elements, then has a bad element",
		left: count(100), lo: append(count(100), map[string]any{}), err: invalid("/claim/left_only/100", "element is an object, not a scalar")},
	{reason: "a residual that differs at 70 (past a batch of 64) and has a bad element at 90",
		left: count(100), lo: cat(count(70), []any{"x"}, count(100)[71:90], []any{[]any{}}), err: invalid("/claim/left_only/90", "element is an array, not a scalar")},
	{reason: "a bad element in right_only after left_only differs: errors before any verdict",
		left: []any{1}, lo: []any{2}, ro: []any{pair{}}, err: invalid("/claim/right_only/0", "element is an object, not a scalar")},
	{reason: "the expected residual spelled otherwise, element by element, across batches",
		left: count(200), right: count(100), lo: respell(count(200)[100:]), want: valid},
	{reason: "a respelled residual that then differs, at 150",
		left: count(200), right: count(100), lo: cat(respell(count(200)[100:150]), []any{-1}, count(200)[151:]),
		want: `{"path":"/left_only/50","expected":150,"actual":-1}`,
		msg:  "claim.left_only[50] is -1; expected 150 (at /left_only/50)"},
	{reason: "a residual one element longer than the expected one, after 130 matching",
		right: count(130), ro: append(count(130), 7),
		want: `{"path":"/right_only/130","expected":null,"actual":7}`,
		msg:  "claim.right_only[130] is 7 but the residual has no element there (at /right_only/130)"},
	{reason: "a residual that differs has its max_distinct counted over all of it",
		limits: &multiset.Limits{MaxDistinct: 100}, left: count(100), lo: cat(count(99), count(200)[100:102]), err: limited("/claim/left_only", "max_distinct")},
	{reason: "a residual that matches cannot be over max_distinct: it has left's values",
		limits: &multiset.Limits{MaxDistinct: 100}, left: count(100), right: count(50), lo: count(100)[50:], want: valid},
}

// respell returns the ints xs as json.Numbers with a fraction ("7.0"): the
// same values, spelled otherwise than left spells them.
func respell(xs []any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = json.Number(strconv.Itoa(x.(int)) + ".0")
	}
	return out
}

func TestCheckDifferenceTable(t *testing.T) {
	testutil.Run(t, differenceRows, func(t *testing.T, r differenceRow) {
		in := multiset.DifferenceInput[any, any]{Left: r.left, Right: r.right,
			Claim: multiset.DifferenceClaim[any]{LeftOnly: r.lo, RightOnly: r.ro}}
		var res multiset.DifferenceResult
		var err error
		if r.limits == nil {
			res, err = multiset.CheckDifference(in, multiset.Limits{})
		} else {
			res, err = multiset.CheckDifference(in, *r.limits)
		}
		if r.err != nil {
			checkErr(t, err, r.err)
			return
		}
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		if r.want == valid {
			checkResult(t, res, validDoc, valid)
			return
		}
		checkResult(t, res, mismatchDoc(r.want), r.msg)
		if d, _ := res.Discrepancy.MarshalJSON(); string(d) != r.want {
			t.Errorf("discrepancy MarshalJSON %s, want %s", d, r.want)
		}
	})
}

// TestScalarsAPI checks that the Scalar entry points give the typed API's
// answers and apply the same limits.
func TestScalarsAPI(t *testing.T) {
	scalars := func(t *testing.T, xs ...any) []canon.Scalar {
		t.Helper()
		out := make([]canon.Scalar, len(xs))
		for i, x := range xs {
			s, err := canon.Of(x)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = s
		}
		return out
	}
	type row struct {
		reason       string
		limits       multiset.Limits
		a, b, lo, ro []any
	}
	rows := []row{
		{"valid bags", multiset.Limits{}, []any{1, "a", nil}, []any{nil, "a", 1.0}, []any{}, []any{}},
		{"a source mismatch", multiset.Limits{}, []any{1, 1, "a"}, []any{"a", 1}, []any{1}, nil},
		{"an extra claim value", multiset.Limits{}, []any{1}, []any{1, false}, nil, []any{false}},
		{"a wrong residual", multiset.Limits{}, []any{1, 2}, []any{2}, []any{2}, nil},
		{"max_items", multiset.Limits{MaxItems: 2}, []any{1, 2}, []any{1, 2, 3}, nil, nil},
		{"max_distinct", multiset.Limits{MaxDistinct: 2}, []any{1, 2, 3}, []any{1}, nil, nil},
		{"max_distinct of left_only", multiset.Limits{MaxDistinct: 1}, []any{1}, []any{1}, []any{1, 2}, nil},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		eq, err1 := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: r.a, Claim: r.b}, r.limits)
		eqS, err2 := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: scalars(t, r.a...), Claim: scalars(t, r.b...)}, r.limits)
		if !sameAnswer(eq, err1, eqS, err2) {
			t.Errorf("equality: typed %v %v, scalars %v %v", eq, err1, eqS, err2)
		}
		in := multiset.DifferenceInput[any, any]{Left: r.a, Right: r.b, Claim: multiset.DifferenceClaim[any]{LeftOnly: r.lo, RightOnly: r.ro}}
		df, err1 := multiset.CheckDifference(in, r.limits)
		dfS, err2 := multiset.CheckDifference(multiset.DifferenceInput[canon.Scalar, canon.Scalar]{Left: scalars(t, r.a...), Right: scalars(t, r.b...),
			Claim: multiset.DifferenceClaim[canon.Scalar]{LeftOnly: scalars(t, r.lo...), RightOnly: scalars(t, r.ro...)}}, r.limits)
		if !sameAnswer(df, err1, dfS, err2) {
			t.Errorf("difference: typed %v %v, scalars %v %v", df, err1, dfS, err2)
		}
	})
}

// sameAnswer compares two answers by their JSON documents.
func sameAnswer(a any, errA error, b any, errB error) bool {
	if errA != nil || errB != nil {
		ja, _ := json.Marshal(errA)
		jb, _ := json.Marshal(errB)
		return errA != nil && errB != nil && bytes.Equal(ja, jb)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestGenericHelpers(t *testing.T) {
	type row struct {
		reason string
		got    func() (any, error)
		want   string // output document, or the error's JSON path
		err    *wantErr
	}
	rows := []row{
		{"[]int bags", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1, 2, 2}, Claim: []int{2, 1, 2}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]string mismatch", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: []string{"a", "b"}, Claim: []string{"b", "b"}}, multiset.Limits{})
		},
			mismatchDoc(`{"path":"/source/0","expected":"1","actual":"0"}`), nil},
		{"[]float64 -0 equals 0", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: []float64{negZero}, Claim: []float64{0}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]float32 is the number encoding/json writes", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[float32, float32]{Source: []float32{0.5, 0.1}, Claim: []float32{0.1, 0.5}}, multiset.Limits{})
		}, validDoc, nil},
		{"named element type", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[grade, grade]{Source: []grade{"A", "B"}, Claim: []grade{"B", "A"}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]bool extra", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[bool, bool]{Source: []bool{true}, Claim: []bool{true, false}}, multiset.Limits{})
		},
			mismatchDoc(`{"path":"/claim/1","expected":"0","actual":"1"}`), nil},
		{"[]int64 2^53 and 2^53+1 are not one value (2^53+1 refused before)", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int64, int64]{Source: []int64{1 << 53}, Claim: []int64{1<<53 + 1}}, multiset.Limits{})
		}, mismatchDoc(`{"path":"/source/0","expected":"1","actual":"0"}`), nil},
		{"[]int64 IDs above 2^53 are checked as they are (refused before)", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int64, int64]{Source: []int64{1<<53 + 1, 5, math.MaxInt64, 1<<53 + 1}, Claim: []int64{math.MaxInt64, 1<<53 + 1, 5, 1<<53 + 1}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]uint64 maximum and maximum-1 are two values (refused before)", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[uint64, uint64]{Source: []uint64{math.MaxUint64}, Claim: []uint64{math.MaxUint64 - 1}}, multiset.Limits{})
		}, mismatchDoc(`{"path":"/source/0","expected":"1","actual":"0"}`), nil},
		{"[]uint64 maximum equals itself", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[uint64, uint64]{Source: []uint64{math.MaxUint64, 2}, Claim: []uint64{2, math.MaxUint64}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]*big.Int against []int64 (refused before)", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[*big.Int, int64]{Source: []*big.Int{big.NewInt(1<<53 + 1), big.NewInt(-3)}, Claim: []int64{-3, 1<<53 + 1}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]big.Int against []uint64 (refused before)", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[big.Int, uint64]{Source: []big.Int{*new(big.Int).SetUint64(math.MaxUint64)}, Claim: []uint64{math.MaxUint64}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]canon.ExactNumber keeps 9007199254740993", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[canon.ExactNumber, int64]{Source: []canon.ExactNumber{"9007199254740993", "1e23"}, Claim: []int64{1<<53 + 1, 1}}, multiset.Limits{})
		}, mismatchDoc(`{"path":"/source/1","expected":"1","actual":"0"}`), nil},
		{"[]canon.ExactNumber refuses a fraction that would read as an integer, as ExactNumbers does", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[canon.ExactNumber, int64]{Source: []canon.ExactNumber{"1", "1e-400"}}, multiset.Limits{})
		}, "", invalid("/source/1", "not exact as a double")},
		{"[]int64 2^60 is exact: accepted", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int64, int64]{Source: []int64{1 << 60, 3}, Claim: []int64{3, 1 << 60}}, multiset.Limits{})
		}, validDoc, nil},
		{"named uint64 type read like uint64", func() (any, error) {
			type id uint64
			return multiset.CheckEquality(multiset.EqualityInput[id, uint64]{Source: []id{1<<53 + 1}, Claim: []uint64{1<<53 + 1}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]json.Number 9007199254740993 is JSON text: it rounds to 2^53", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[json.Number, json.Number]{Source: []json.Number{"9007199254740993"}, Claim: []json.Number{"9007199254740992"}}, multiset.Limits{})
		}, validDoc, nil},
		{"[]any of canon.Scalar values", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: []any{canon.BoolScalar(true)}, Claim: []any{true}}, multiset.Limits{})
		}, validDoc, nil},
		{"an element type that is not a scalar: every element refused at its path", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[[]int, []int]{Source: [][]int{{1}}}, multiset.Limits{})
		}, "", invalid("/source/0", "element is an array, not a scalar")},
		{"pointers are not followed", func() (any, error) {
			one := 1
			return multiset.CheckEquality(multiset.EqualityInput[*int, *int]{Source: []*int{&one}}, multiset.Limits{})
		}, "", invalid("/source/0", "element is a reference to a value")},
		{"nil typed slices are empty", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int, int]{}, multiset.Limits{})
		}, validDoc, nil},
		{"NaN in a []float64 names the element", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: []float64{1}, Claim: []float64{1, nan}}, multiset.Limits{})
		}, "",
			invalid("/claim/1", "not finite")},
		{"invalid UTF-8 in a []string", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[string, string]{Source: []string{"\xc0\x80"}, Claim: nil}, multiset.Limits{})
		}, "",
			invalid("/source/0", "UTF-8")},
		{"default max_items applies", func() (any, error) {
			return multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: make([]int, 10001), Claim: nil}, multiset.Limits{})
		}, "",
			limited("/source", "max_items")},
		{"difference of []int", func() (any, error) {
			return multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: []int{1, 2, 1}, Right: []int{1, 3}, Claim: multiset.DifferenceClaim[int]{LeftOnly: []int{2, 1}, RightOnly: []int{3}}}, multiset.Limits{})
		}, validDoc, nil},
		{"difference of []string, wrong residual", func() (any, error) {
			return multiset.CheckDifference(multiset.DifferenceInput[string, string]{Left: []string{"a", "b", "a"}, Right: []string{"a"}, Claim: multiset.DifferenceClaim[string]{LeftOnly: []string{"a", "b"}, RightOnly: nil}}, multiset.Limits{})
		}, mismatchDoc(`{"path":"/left_only/0","expected":"b","actual":"a"}`), nil},
		{"difference of []uint8 with a short residual", func() (any, error) {
			return multiset.CheckDifference(multiset.DifferenceInput[uint8, uint8]{Left: []uint8{7}, Right: nil, Claim: multiset.DifferenceClaim[uint8]{LeftOnly: nil, RightOnly: nil}}, multiset.Limits{})
		}, mismatchDoc(`{"path":"/left_only/0","expected":7,"actual":null}`), nil},
		{"difference: Inf in right_only names the element at the document path", func() (any, error) {
			return multiset.CheckDifference(multiset.DifferenceInput[float64, float64]{Left: nil, Right: nil, Claim: multiset.DifferenceClaim[float64]{LeftOnly: nil, RightOnly: []float64{inf}}}, multiset.Limits{})
		}, "", invalid("/claim/right_only/0", "not finite")},
		{"difference: max_items of left_only", func() (any, error) {
			return multiset.CheckDifference(multiset.DifferenceInput[int, int]{Left: nil, Right: nil, Claim: multiset.DifferenceClaim[int]{LeftOnly: make([]int, 10001), RightOnly: nil}}, multiset.Limits{})
		}, "", limited("/claim/left_only", "max_items")},
	}
	testutil.Run(t, rows, func(t *testing.T, r row) {
		got, err := r.got()
		if r.err != nil {
			checkErr(t, err, r.err)
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(got)
		if string(doc) != r.want {
			t.Errorf("got  %s\nwant %s", doc, r.want)
		}
	})
}

// TestGenericAgreesWithTyped checks CheckEqualityOf against CheckEquality
// on the same values boxed as []any.
func TestGenericAgreesWithTyped(t *testing.T) {
	src := []float64{1, 2.5, negZero, 1e21, 2.5}
	claims := [][]float64{{2.5, 0, 1e21, 1, 2.5}, {2.5, 0, 1e21, 1}, {1, 2.5, 0, 1e21, 2.5, 7}, nil}
	box := func(xs []float64) []any {
		var out []any
		for _, x := range xs {
			out = append(out, x)
		}
		return out
	}
	for _, c := range claims {
		a, err1 := multiset.CheckEquality(multiset.EqualityInput[float64, float64]{Source: src, Claim: c}, multiset.Limits{})
		b, err2 := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: box(src), Claim: box(c)}, multiset.Limits{})
		if !sameAnswer(a, err1, b, err2) {
			t.Errorf("claim %v: generic %v, typed %v", c, a, b)
		}
		d1, err1 := multiset.CheckDifference(multiset.DifferenceInput[float64, float64]{Left: src, Right: c}, multiset.Limits{})
		d2, err2 := multiset.CheckDifference(multiset.DifferenceInput[any, any]{Left: box(src), Right: box(c)}, multiset.Limits{})
		if !sameAnswer(d1, err1, d2, err2) {
			t.Errorf("claim %v: generic difference %v, typed %v", c, d1, d2)
		}
	}
}

// TestNilEqualsEmpty: a nil slice and an empty one are the same input.
func TestNilEqualsEmpty(t *testing.T) {
	a, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{}, multiset.Limits{})
	b, _ := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: []any{}, Claim: []any{}}, multiset.Limits{})
	if !sameAnswer(a, nil, b, nil) || !a.Valid {
		t.Errorf("nil %v, empty %v", a, b)
	}
	c, _ := multiset.CheckDifference(multiset.DifferenceInput[any, any]{}, multiset.Limits{})
	d, _ := multiset.CheckDifference(multiset.DifferenceInput[any, any]{Left: []any{}, Right: []any{},
		Claim: multiset.DifferenceClaim[any]{LeftOnly: []any{}, RightOnly: []any{}}}, multiset.Limits{})
	if !sameAnswer(c, nil, d, nil) || !c.Valid {
		t.Errorf("nil %v, empty %v", c, d)
	}
	e, _ := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Claim: []canon.Scalar{}}, multiset.Limits{})
	f, _ := multiset.CheckDifference(multiset.DifferenceInput[canon.Scalar, canon.Scalar]{Claim: multiset.DifferenceClaim[canon.Scalar]{LeftOnly: []canon.Scalar{}}}, multiset.Limits{})
	if !e.Valid || !f.Valid {
		t.Errorf("Scalars API: nil and empty: %v %v", e, f)
	}
}

// TestMaxItemsIsHeld: MaxItems is held at 2^30 − 1, as the engine numbers
// both arrays' elements together in 32 bits: past 2^31 elements in all, a
// value new in the claim had a negative id, and gathering the mismatches
// indexed a bitmap with it. Arrays of empty structs take no memory, and
// max_items is checked before any element is read.
func TestMaxItemsIsHeld(t *testing.T) {
	const held = 1<<30 - 1
	lim := multiset.Limits{MaxItems: math.MaxInt, MaxDistinct: 1}
	_, err := multiset.CheckEquality(multiset.EqualityInput[struct{}, struct{}]{Source: make([]struct{}, held+1)}, lim)
	checkErr(t, err, limited("/source", "max_items"))
	_, err = multiset.CheckEquality(multiset.EqualityInput[struct{}, struct{}]{Claim: make([]struct{}, held+1)}, lim)
	checkErr(t, err, limited("/claim", "max_items"))
	_, err = multiset.CheckDifference(multiset.DifferenceInput[struct{}, struct{}]{Right: make([]struct{}, held+1)}, lim)
	checkErr(t, err, limited("/right", "max_items"))
	// At the cap, the array's elements are read: the first is no scalar.
	_, err = multiset.CheckEquality(multiset.EqualityInput[struct{}, struct{}]{Source: make([]struct{}, held)}, lim)
	checkErr(t, err, invalid("/source/0", "not a scalar"))
}

// TestErrorReturnsInvalidResult: with an error the result is the zero
// value, which is not valid, so code that ignores the error fails closed on
// Valid.
func TestErrorReturnsInvalidResult(t *testing.T) {
	res, err := multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: []any{nan}}, multiset.Limits{})
	if err == nil || res.Valid || res.Discrepancy != nil {
		t.Fatalf("got %v, %v", res, err)
	}
}

// TestDeterminism: a large mixed input gives the same bytes on every run.
func TestDeterminism(t *testing.T) {
	src := testutil.Scalars(10000, 1)
	claim := testutil.Shuffled(src, 1)
	// Two changes: one value missing, one foreign value added, so the
	// discrepancy depends on first-occurrence bookkeeping.
	claim[len(claim)-3] = "not in source"
	in := multiset.EqualityInput[any, any]{Source: src, Claim: claim}
	din := multiset.DifferenceInput[any, any]{Left: src, Right: claim[:7000], Claim: multiset.DifferenceClaim[any]{LeftOnly: claim[:10]}}
	var first, firstD []byte
	for i := 0; i < 20; i++ {
		res, err := multiset.CheckEquality(in, multiset.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		dres, err := multiset.CheckDifference(din, multiset.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res)
		dout, _ := json.Marshal(dres)
		if i == 0 {
			first, firstD = out, dout
			if res.Valid || dres.Valid {
				t.Fatalf("want mismatches, got %s %s", out, dout)
			}
			continue
		}
		if !bytes.Equal(out, first) || !bytes.Equal(dout, firstD) {
			t.Fatalf("run %d: %s / %s, run 0: %s / %s", i, out, dout, first, firstD)
		}
	}
}

// TestOtherReferenceVersion: a result whose ReferenceVersion a caller
// changed is written with that version, escaped, not with the one written
// once for every result that carries ReferenceVersion.
func TestOtherReferenceVersion(t *testing.T) {
	res, err := multiset.CheckEquality(multiset.EqualityInput[int, int]{Source: []int{1}, Claim: []int{1}}, multiset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{multiset.ReferenceVersion, "v2 \"quoted\" <b>", multiset.ReferenceVersion + " "} {
		res.ReferenceVersion = v
		got, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Valid            bool   `json:"valid"`
			ReferenceVersion string `json:"reference_version"`
		}
		if err := json.Unmarshal(got, &back); err != nil || !back.Valid || back.ReferenceVersion != v {
			t.Errorf("version %q: %s (%v)", v, got, err)
		}
	}
}
