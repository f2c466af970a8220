package claimchecktest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// noCap lifts the JSON tools' limits: a test's bags are bounded by memory.
var noCap = multiset.Limits{MaxItems: math.MaxInt32, MaxDistinct: math.MaxInt32}

// maxRows is how many differing values an equality report lists.
const maxRows = 20

// Equality reports whether claim is the same bag as source: every value
// occurs as often in both, in any order. On failure it reports, with
// t.Errorf, every value whose counts differ, and returns false.
//
// source and claim may have different element types, so a typed reference
// ([]int) can be compared with a JSON-decoded answer ([]any) as they are:
// elements are compared as JSON values, so int 1 equals float64 1.
func Equality[S, C any](t testing.TB, source []S, claim []C) bool {
	t.Helper()
	var res multiset.EqualityResult
	var err error
	if c, same := any(claim).([]S); same {
		res, err = multiset.CheckEquality(multiset.EqualityInput[S, S]{Source: source, Claim: c}, noCap)
	} else {
		res, err = multiset.CheckEquality(multiset.EqualityInput[any, any]{Source: boxed(source), Claim: boxed(claim)}, noCap)
	}
	if err != nil {
		t.Errorf("%s", refused("Equality", err))
		return false
	}
	if res.Valid {
		return true
	}
	t.Errorf("%s", equalityReport(res))
	return false
}

// Difference reports whether leftOnly and rightOnly are the residuals of the
// bag difference of left and right (one occurrence removed for one
// occurrence, the earliest first). On failure it reports, with t.Errorf, the
// first discrepancy and the expected residuals, and returns false.
//
// The claimed residuals may have another element type than left and right,
// as for [Equality].
func Difference[T, C any](t testing.TB, left, right []T, leftOnly, rightOnly []C) bool {
	t.Helper()
	var res multiset.DifferenceResult
	var err error
	if lo, same := any(leftOnly).([]T); same {
		res, err = multiset.CheckDifference(multiset.DifferenceInput[T, T]{
			Left: left, Right: right,
			Claim: multiset.DifferenceClaim[T]{LeftOnly: lo, RightOnly: any(rightOnly).([]T)},
		}, noCap)
	} else {
		res, err = multiset.CheckDifference(multiset.DifferenceInput[any, any]{
			Left: boxed(left), Right: boxed(right),
			Claim: multiset.DifferenceClaim[any]{LeftOnly: boxed(leftOnly), RightOnly: boxed(rightOnly)},
		}, noCap)
	}
	if err != nil {
		t.Errorf("%s", refused("Difference", err))
		return false
	}
	if res.Valid {
		return true
	}
	t.Errorf("%s", differenceReport(res, len(leftOnly), len(rightOnly)))
	return false
}

// boxed returns xs as []any, for comparing slices of two element types.
func boxed[T any](xs []T) []any {
	if a, ok := any(xs).([]any); ok {
		return a
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// refused is the report of an input the check refuses.
func refused(helper string, err error) string {
	var e *claimcheck.Error
	if errors.As(err, &e) {
		return fmt.Sprintf("claimchecktest.%s: cannot check the claim: %s", helper, e.Error())
	}
	return fmt.Sprintf("claimchecktest.%s: cannot check the claim: %v", helper, err)
}

// equalityReport lists every value whose counts differ as an aligned table.
func equalityReport(res multiset.EqualityResult) string {
	rows := [][]string{{"value", "source", "claim", "first at"}}
	n := 0
	for d := range res.Discrepancies() {
		n++
		if n <= maxRows {
			rows = append(rows, []string{shortKey(d.Value), strconv.Itoa(d.Expected), strconv.Itoa(d.Actual), d.Path})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claimchecktest.Equality: claim is not the same bag as source: %s\n", plural(n, "value differs", "values differ"))
	writeTable(&b, rows, []bool{false, true, true, false})
	if n > maxRows {
		fmt.Fprintf(&b, "\n  … and %d more", n-maxRows)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// writeTable writes rows with aligned columns, two spaces apart, each line
// indented by two spaces; right-aligned columns are marked in right.
func writeTable(b *strings.Builder, rows [][]string, right []bool) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for c, cell := range r {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	for i, r := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := "  "
		for c, cell := range r {
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			if c > 0 {
				line += "  "
			}
			if right[c] {
				line += pad + cell
			} else if c < len(r)-1 {
				line += cell + pad
			} else {
				line += cell
			}
		}
		b.WriteString(line)
	}
}

// maxShown is how many runes of one value a report shows.
const maxShown = 40

// shortKey is a value's canonical form, cut to maxShown runes.
func shortKey(s canon.Scalar) string {
	k := s.Key()
	if utf8.RuneCountInString(k) <= maxShown {
		return k
	}
	r := []rune(k)
	return string(r[:maxShown-1]) + "…"
}

// maxListed is the longest residual a difference report prints in full.
const maxListed = 20

// differenceReport states the first discrepancy and, when short enough, the
// residuals the claim should have had.
func differenceReport(res multiset.DifferenceResult, claimedLeft, claimedRight int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "claimchecktest.Difference: %s", res.Discrepancy)
	lo, ro := res.Residuals()
	writeList(&b, "left_only ", lo, claimedLeft)
	writeList(&b, "right_only", ro, claimedRight)
	return b.String()
}

func writeList(b *strings.Builder, name string, xs []canon.Scalar, claimed int) {
	fmt.Fprintf(b, "\n  expected %s (%s): ", name, plural(len(xs), "element", "elements"))
	if len(xs) > maxListed {
		fmt.Fprintf(b, "too long to print; the claim has %d", claimed)
		return
	}
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(shortKey(x))
	}
	b.WriteByte(']')
}
