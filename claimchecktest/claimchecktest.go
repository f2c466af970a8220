package claimchecktest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// maxRows is how many rows a report's table lists before "… and N more".
const maxRows = 20

// Equality reports whether claim is the same bag as source: every value
// occurs as often in both, in any order. On failure it reports, with
// t.Errorf, every value whose counts differ, and returns false; see the
// package doc for the report, and [Option] for what opts change.
//
// source and claim may have different element types, so a typed reference
// ([]int) can be compared with a JSON-decoded answer ([]any, or the
// []canon.Scalar of [canon.ParseArray]) as they are: elements are compared
// as JSON values, so int 1 equals float64 1.
func Equality[S, C any](t testing.TB, source []S, claim []C, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	res, err := checkEquality(source, claim, c.lim)
	if err != nil {
		c.fail(t, refused("Equality", err, c.hide, "/source"))
		return false
	}
	if res.Valid {
		return true
	}
	if c.hide {
		c.fail(t, hiddenEqualityReport(res, scalars(claim)))
	} else {
		c.fail(t, equalityReport(res))
	}
	return false
}

// Difference reports whether leftOnly and rightOnly are the residuals of the
// bag difference of left and right (one occurrence removed for one
// occurrence, the earliest first). On failure it reports, with t.Errorf,
// every index at which each claimed list differs from the expected one, and
// both claimed and expected lists, and returns false; see the package doc
// for the report, and [Option] for what opts change.
//
// The claimed residuals may have another element type than left and right,
// as for [Equality].
func Difference[T, C any](t testing.TB, left, right []T, leftOnly, rightOnly []C, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	res, err := checkDifference(left, right, leftOnly, rightOnly, c.lim)
	if err != nil {
		c.fail(t, refused("Difference", err, c.hide, "/left", "/right"))
		return false
	}
	if res.Valid {
		return true
	}
	lo, ro := res.Residuals()
	d := diff{
		lists:   [2]string{"left_only", "right_only"},
		claim:   [2][]canon.Scalar{scalars(leftOnly), scalars(rightOnly)},
		want:    [2][]canon.Scalar{lo, ro},
		summary: res.Discrepancy.String(),
	}
	if c.hide {
		c.fail(t, d.hiddenReport())
	} else {
		c.fail(t, d.report())
	}
	return false
}

// checkEquality and checkDifference are the helpers' calls into package
// multiset. A claim of the reference's element type is checked as it is;
// any other pair of types as []any.
func checkEquality[S, C any](source []S, claim []C, lim multiset.Limits) (multiset.EqualityResult, error) {
	return multiset.CheckEquality(multiset.EqualityInput[S, C]{Source: source, Claim: claim}, lim)
}

func checkDifference[T, C any](left, right []T, leftOnly, rightOnly []C, lim multiset.Limits) (multiset.DifferenceResult, error) {
	return multiset.CheckDifference(multiset.DifferenceInput[T, C]{
		Left: left, Right: right,
		Claim: multiset.DifferenceClaim[C]{LeftOnly: leftOnly, RightOnly: rightOnly},
	}, lim)
}

// scalars returns a claim the check accepted as canonical scalars, for a
// report that shows the claim itself: canon.Of reads each element as the
// multiset tools do. It is called only after the check accepted every
// element, so a conversion cannot fail; if one did, the element would show
// as null.
func scalars[C any](xs []C) []canon.Scalar {
	if s, ok := any(xs).([]canon.Scalar); ok {
		return s
	}
	out := make([]canon.Scalar, len(xs))
	for i, x := range xs {
		out[i], _ = canon.Of(x)
	}
	return out
}

// refused is the report of an input the check refuses. When hide is set
// and the error's path is in the reference (under one of refPaths), the
// message, which may quote a reference value, is left out.
func refused(helper string, err error, hide bool, refPaths ...string) string {
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		return fmt.Sprintf("claimchecktest.%s: cannot check the claim: %v", helper, err)
	}
	if hide {
		for _, p := range refPaths {
			if e.Path == p || strings.HasPrefix(e.Path, p+"/") {
				return fmt.Sprintf("claimchecktest.%s: cannot check the claim: the reference is refused (%s at %s)", helper, e.Code, e.Path)
			}
		}
	}
	return fmt.Sprintf("claimchecktest.%s: cannot check the claim: %s", helper, e.Error())
}

// equalityReport lists every value whose counts differ as an aligned table.
func equalityReport(res multiset.EqualityResult) string {
	var ds []multiset.EqualityDiscrepancy
	n := 0
	for d := range res.Discrepancies() {
		n++
		if n <= maxRows {
			ds = append(ds, d)
		}
	}
	vals := make([]canon.Scalar, len(ds))
	for i, d := range ds {
		vals[i] = d.Value
	}
	show := newNames(vals)
	rows := [][]string{{"value", "source", "claim", "first at"}}
	for _, d := range ds {
		rows = append(rows, []string{show[d.Value], strconv.Itoa(d.Expected), strconv.Itoa(d.Actual), d.Path})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claimchecktest.Equality: claim is not the same bag as source: %s\n", plural(n, "value differs", "values differ"))
	writeTable(&b, rows, []bool{false, true, true, false})
	writeMore(&b, n-maxRows, "")
	return b.String()
}

// hiddenEqualityReport is the equality report under HideReference: the
// claim's values that occur too often or should not occur, in the order the
// claim first has them, and the number of missing occurrences.
func hiddenEqualityReport(res multiset.EqualityResult, claim []canon.Scalar) string {
	first := make(map[canon.Scalar]int)
	for i, s := range claim {
		if _, seen := first[s]; !seen {
			first[s] = i
		}
	}
	type extra struct {
		d  multiset.EqualityDiscrepancy
		at int
	}
	var extras []extra
	missing := 0
	for d := range res.Discrepancies() {
		if d.Actual > d.Expected {
			extras = append(extras, extra{d, first[d.Value]})
		} else {
			missing += d.Expected - d.Actual
		}
	}
	// In claim order, which says nothing of the reference's.
	for i := 1; i < len(extras); i++ {
		for j := i; j > 0 && extras[j].at < extras[j-1].at; j-- {
			extras[j], extras[j-1] = extras[j-1], extras[j]
		}
	}
	var b strings.Builder
	b.WriteString("claimchecktest.Equality: the claim is not the expected bag: ")
	var parts []string
	if len(extras) > 0 {
		parts = append(parts, plural(len(extras), "value occurs too often or should not occur", "values occur too often or should not occur"))
	}
	if missing > 0 {
		parts = append(parts, plural(missing, "occurrence is missing", "occurrences are missing"))
	}
	b.WriteString(strings.Join(parts, ", and "))
	if len(extras) == 0 {
		return b.String()
	}
	shown := extras[:min(len(extras), maxRows)]
	vals := make([]canon.Scalar, len(shown))
	for i, e := range shown {
		vals[i] = e.d.Value
	}
	show := newNames(vals)
	rows := [][]string{{"value", "claim", "fault", "first at"}}
	for _, e := range shown {
		fault := "too often"
		if e.d.Expected == 0 {
			fault = "should not occur"
		}
		rows = append(rows, []string{show[e.d.Value], strconv.Itoa(e.d.Actual), fault, "/claim/" + strconv.Itoa(e.at)})
	}
	b.WriteByte('\n')
	writeTable(&b, rows, []bool{false, true, false, false})
	writeMore(&b, len(extras)-maxRows, "")
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// writeMore writes "… and n more" (then what) on a line of its own, when
// n > 0.
func writeMore(b *strings.Builder, n int, what string) {
	if n > 0 {
		fmt.Fprintf(b, "\n  … and %d more%s", n, what)
	}
}

// writeTable writes rows with aligned columns, two spaces apart, each line
// indented by two spaces; right-aligned columns are marked in right.
func writeTable(b *strings.Builder, rows [][]string, right []bool) {
	writeTableIndent(b, "  ", rows, right)
}

func writeTableIndent(b *strings.Builder, indent string, rows [][]string, right []bool) {
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
		line := indent
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
		b.WriteString(strings.TrimRight(line, " "))
	}
}

// maxListed is how many elements of a list a difference report prints
// before "… N more".
const maxListed = 20

// diff is a failed difference check, list by list: the claimed and the
// expected residuals.
type diff struct {
	lists       [2]string
	claim, want [2][]canon.Scalar
	summary     string // the engine's first discrepancy
}

// wrong returns the indexes at which list l of the claim differs from the
// expected one: where the elements differ, or one list has none.
func (d *diff) wrong(l int) []int {
	c, w := d.claim[l], d.want[l]
	var idx []int
	for i := range max(len(c), len(w)) {
		if i >= len(c) || i >= len(w) || c[i] != w[i] {
			idx = append(idx, i)
		}
	}
	return idx
}

// report lists, for each claimed list, every index at which it differs
// from the expected one (at most maxRows), then both lists.
func (d *diff) report() string {
	var wrong [2][]int
	var vals []canon.Scalar
	for l := range d.lists {
		wrong[l] = d.wrong(l)
		for _, i := range wrong[l][:min(len(wrong[l]), maxRows)] {
			vals = appendAt(vals, d.claim[l], i)
			vals = appendAt(vals, d.want[l], i)
		}
		vals = append(vals, d.claim[l][:min(len(d.claim[l]), maxListed)]...)
		vals = append(vals, d.want[l][:min(len(d.want[l]), maxListed)]...)
	}
	show := newNames(vals)
	at := func(xs []canon.Scalar, i int) string {
		if i < len(xs) {
			return show[xs[i]]
		}
		return "(none)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claimchecktest.Difference: %s", d.summary)
	for l, name := range d.lists {
		if len(wrong[l]) == 0 {
			fmt.Fprintf(&b, "\n  %s is right", name)
			continue
		}
		fmt.Fprintf(&b, "\n  %s differs at %s:\n", name, plural(len(wrong[l]), "index", "indexes"))
		rows := [][]string{{"index", "claim", "expected"}}
		for _, i := range wrong[l][:min(len(wrong[l]), maxRows)] {
			rows = append(rows, []string{strconv.Itoa(i), at(d.claim[l], i), at(d.want[l], i)})
		}
		writeTableIndent(&b, "    ", rows, []bool{true, false, false})
		if n := len(wrong[l]) - maxRows; n > 0 {
			fmt.Fprintf(&b, "\n    … and %d more", n)
		}
	}
	rows := [][]string{}
	for l, name := range d.lists {
		rows = append(rows,
			[]string{name, "claim", plural(len(d.claim[l]), "element:", "elements:"), list(show, d.claim[l])},
			[]string{"", "expected", plural(len(d.want[l]), "element:", "elements:"), list(show, d.want[l])})
	}
	b.WriteByte('\n')
	writeTable(&b, rows, []bool{false, false, true, false})
	return b.String()
}

func appendAt(dst, xs []canon.Scalar, i int) []canon.Scalar {
	if i < len(xs) {
		return append(dst, xs[i])
	}
	return dst
}

// list prints xs in brackets, its first maxListed elements, then how many
// more.
func list(show names, xs []canon.Scalar) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs[:min(len(xs), maxListed)] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(show[x])
	}
	if n := len(xs) - maxListed; n > 0 {
		fmt.Fprintf(&b, ", … %d more", n)
	}
	b.WriteByte(']')
	return b.String()
}

// hiddenReport is the difference report under HideReference: for each
// claimed list, its first wrong index and the claim's element there.
func (d *diff) hiddenReport() string {
	var vals []canon.Scalar
	first := [2]int{-1, -1}
	for l := range d.lists {
		if w := d.wrong(l); len(w) > 0 {
			first[l] = w[0]
			vals = appendAt(vals, d.claim[l], w[0])
		}
	}
	show := newNames(vals)
	var b strings.Builder
	b.WriteString("claimchecktest.Difference: the claim is not the expected difference")
	rows := [][]string{}
	for l, name := range d.lists {
		i := first[l]
		switch {
		case i < 0:
			rows = append(rows, []string{name + ":", "right"})
		case i < len(d.claim[l]):
			rows = append(rows, []string{name + ":", fmt.Sprintf("first wrong at index %d, where the claim has %s", i, show[d.claim[l][i]])})
		default:
			rows = append(rows, []string{name + ":", fmt.Sprintf("first wrong at index %d, where the claim has no element", i)})
		}
	}
	b.WriteByte('\n')
	writeTable(&b, rows, []bool{false, false})
	return b.String()
}
