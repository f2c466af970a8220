package claimchecktest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
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
func Equality[S, C any](t TB, source []S, claim []C, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	return c.report(t, checkEquality(&c, source, claim))
}

// CheckEquality is [Equality] without a test: it returns the verdict, the
// score and the report Equality would write, or a [*ReferenceError] when
// source cannot be used.
func CheckEquality[S, C any](source []S, claim []C, opts ...Option) (Report, error) {
	c := newConfig(opts)
	return public(checkEquality(&c, source, claim))
}

func checkEquality[S, C any](c *config, source []S, claim []C) Report {
	bases, bracket := c.paths("Equality", "/claim")
	base := bases[0]
	if err := c.answerErr(readArray); err != nil {
		return c.refused("Equality", err, nil, nil, false)
	}
	res, err := multiset.CheckEquality(multiset.EqualityInput[S, C]{Source: source, Claim: claim}, c.lim)
	if err != nil {
		return c.refused("Equality", err, []string{"/claim"}, bases, bracket, "/source")
	}
	if res.Valid {
		return Report{Valid: true, Score: 1}
	}
	cl := claimList(c, 0, base, bracket, claim)
	missing := 0
	for d := range res.Discrepancies() {
		missing += max(d.Expected-d.Actual, 0)
	}
	r := Report{Score: ratio(len(source)-missing, max(len(source), len(claim)))}
	if c.hide {
		r.Text = hiddenBagReport(res, cl, "the claim is not the expected bag: ", "")
	} else {
		r.Text = c.head("Equality") + equalityReport(res, cl)
	}
	r.Text = c.label(r.Text)
	return r
}

// Difference reports whether leftOnly and rightOnly are the residuals of the
// bag difference of left and right (one occurrence removed for one
// occurrence, the earliest first). On failure it reports, with t.Errorf,
// every index at which each claimed list differs from the expected one, and
// both claimed and expected lists, and returns false; see the package doc
// for the report, and [Option] for what opts change ([AnyOrder] compares
// each list as a bag).
//
// left, right and the claimed residuals may each have their own element
// type, as for [Equality].
func Difference[L, R, C any](t TB, left []L, right []R, leftOnly, rightOnly []C, opts ...Option) bool {
	t.Helper()
	c := newConfig(opts)
	return c.report(t, checkDifference(&c, left, right, leftOnly, rightOnly))
}

// CheckDifference is [Difference] without a test: it returns the verdict,
// the score and the report Difference would write, or a [*ReferenceError]
// when left or right cannot be used.
func CheckDifference[L, R, C any](left []L, right []R, leftOnly, rightOnly []C, opts ...Option) (Report, error) {
	c := newConfig(opts)
	return public(checkDifference(&c, left, right, leftOnly, rightOnly))
}

func checkDifference[L, R, C any](c *config, left []L, right []R, leftOnly, rightOnly []C) Report {
	bases, bracket := c.paths("Difference", "/claim/left_only", "/claim/right_only")
	if err := c.answerErr(readArray); err != nil {
		return c.refused("Difference", err, nil, nil, false)
	}
	res, err := difference(left, right, leftOnly, rightOnly, c.lim)
	if err != nil {
		return c.refused("Difference", err, []string{"/claim/left_only", "/claim/right_only"}, bases, bracket, "/left", "/right")
	}
	if res.Valid {
		return Report{Valid: true, Score: 1}
	}
	lo, ro := res.Residuals()
	d := diff{
		lists: [2]string{"left_only", "right_only"},
		claim: [2]list{claimList(c, 0, bases[0], bracket, leftOnly), claimList(c, 1, bases[1], bracket, rightOnly)},
		want:  [2][]canon.Scalar{lo, ro},
	}
	switch {
	case c.sub != nil:
		d.lists, d.inDoc = [2]string{c.names[0], c.names[1]}, true
	case bracket:
		d.lists, d.inDoc = [2]string{bases[0], bases[1]}, true
	}
	if c.anyOrder {
		return d.anyOrder(c)
	}
	var r Report
	matched, total := 0, 0
	for l := range d.lists {
		n := max(len(d.claim[l].vals), len(d.want[l]))
		matched += n - len(d.wrong(l))
		total += n
	}
	r.Score = ratio(matched, total)
	if c.hide {
		r.Text = d.hiddenReport()
	} else {
		r.Text = c.head("Difference") + d.report()
	}
	r.Text = c.label(r.Text)
	return r
}

// difference is the helpers' call into package multiset. left and right of
// one element type are checked as they are; of two, as []any, whose
// elements the tools read as the typed slices' (an int as an int).
func difference[L, R, C any](left []L, right []R, leftOnly, rightOnly []C, lim multiset.Limits) (multiset.DifferenceResult, error) {
	claim := multiset.DifferenceClaim[C]{LeftOnly: leftOnly, RightOnly: rightOnly}
	if r, same := any(right).([]L); same {
		return multiset.CheckDifference(multiset.DifferenceInput[L, C]{Left: left, Right: r, Claim: claim}, lim)
	}
	return multiset.CheckDifference(multiset.DifferenceInput[any, C]{Left: boxed(left), Right: boxed(right), Claim: claim}, lim)
}

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

// A list is a claimed array as a report shows it: its values, where it is
// in the student's document, and how the student wrote each number, where
// that is known.
type list struct {
	vals  []canon.Scalar
	base  string   // its JSON Pointer, /claim, /claim/left_only, /q1; or its name
	named bool     // base is a name (Named): element i is base[i]
	texts []string // per element, the literal of a number as written, or ""
}

// path is where element i is: its JSON Pointer, or name[i].
func (l *list) path(i int) string {
	if l.named {
		return l.base + "[" + strconv.Itoa(i) + "]"
	}
	return l.base + "/" + strconv.Itoa(i)
}

// written is how the student wrote element i: its literal when known, else
// its canonical form.
func (l *list) written(i int) string {
	if i < len(l.texts) && l.texts[i] != "" {
		return l.texts[i]
	}
	return l.vals[i].String()
}

// claimList returns the k-th claimed array of a check the engine accepted.
// The numbers' literals come from In's answer (each element that is the
// answer's own) or from json.Number and canon.ExactNumber elements, which
// are JSON text.
func claimList[C any](c *config, k int, base string, named bool, xs []C) list {
	l := list{vals: scalars(xs), base: base, named: named}
	var answer []canon.Scalar
	if c.sub != nil {
		answer, _ = c.sub.Array(c.names[k])
	}
	boxed, _ := any(xs).([]any)
	numbers, _ := any(xs).([]json.Number)
	exact, _ := any(xs).([]canon.ExactNumber)
	if answer == nil && boxed == nil && numbers == nil && exact == nil {
		return l // no literal is known
	}
	for i, v := range l.vals {
		if v.Kind() != canon.Number {
			continue
		}
		text := ""
		switch {
		case i < len(answer) && answer[i] == v:
			text = c.sub.Literal(c.names[k], i)
		case boxed != nil:
			switch n := boxed[i].(type) {
			case json.Number:
				text = string(n)
			case canon.ExactNumber:
				text = string(n)
			}
		case numbers != nil:
			text = string(numbers[i])
		case exact != nil:
			text = string(exact[i])
		}
		if text != "" && text != v.String() {
			if l.texts == nil {
				l.texts = make([]string, len(l.vals))
			}
			l.texts[i] = text
		}
	}
	return l
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

// refused is the Report of an input the check refuses. The error's path is
// moved from the tool's claim paths (from) to the claim's own (to), so
// that it names the student's document under In. Under HideReference an
// error whose path is in the reference (under one of refPaths) is reported
// without its message, which may quote a reference value.
func (c *config) refused(helper string, err error, from, to []string, named bool, refPaths ...string) Report {
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		return Report{Text: c.label(c.head(helper) + "cannot check the claim: " + err.Error()), Err: err}
	}
	for k := range from {
		if rest, ok := under(e.Path, from[k]); ok && from[k] != to[k] {
			if named && rest != "" { // "/3": an element, name[3]
				rest = "[" + rest[1:] + "]"
			}
			err = errs.At(e, to[k]+rest)
			errors.As(err, &e)
			break
		}
	}
	for _, p := range refPaths {
		if _, ok := under(e.Path, p); ok {
			return c.referenceFault(helper, e.Error(), err)
		}
	}
	text := c.head(helper) + "cannot check the claim: " + e.Error()
	if c.hide {
		text = studentRefusal(e)
	}
	return Report{Text: c.label(text), Err: err}
}

// referenceFault is the Report of a check the reference makes impossible:
// the staff's report, with or without HideReference, which says that the
// fault is the grading code's and what it is (what).
func (c *config) referenceFault(helper, what string, err error) Report {
	text := "claimchecktest." + helper + ": the reference is refused (a fault in the grading code, not in the answer): " + what
	return Report{Text: c.label(text), Err: err, ref: true}
}

// studentRefusal is a refused claim in the student's words: where, and
// the message, without the wire's code ("cannot check the claim at /q1/2:
// number 9007199254740993 is not exact as a double: it would become
// 9007199254740992").
func studentRefusal(e *claimcheck.Error) string {
	var b strings.Builder
	b.WriteString("cannot check the claim")
	if e.Path != "" {
		b.WriteString(" at " + e.Path)
	}
	if e.Position >= 0 {
		b.WriteString(", position " + strconv.Itoa(e.Position))
	}
	if e.Limit != "" {
		b.WriteString(" (limit " + e.Limit + ")")
	}
	return b.String() + ": " + e.Message
}

// under reports whether path is p or below it, and what follows p.
func under(path, p string) (string, bool) {
	if path == p {
		return "", true
	}
	if strings.HasPrefix(path, p+"/") {
		return path[len(p):], true
	}
	return "", false
}

// equalityReport lists every value whose counts differ as an aligned
// table; a value first in the claim is named by its path in claim.
func equalityReport(res multiset.EqualityResult, claim list) string {
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
	show := newNames(vals, canon.Scalar.String)
	rows := [][]string{{"value", "source", "claim", "first at"}}
	for _, d := range ds {
		path := d.Path
		if rest, ok := strings.CutPrefix(path, "/claim/"); ok {
			if i, err := strconv.Atoi(rest); err == nil {
				path = claim.path(i)
			}
		}
		rows = append(rows, []string{show[d.Value], strconv.Itoa(d.Expected), strconv.Itoa(d.Actual), path})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claim is not the same bag as source: %s\n", plural(n, "value differs", "values differ"))
	writeTable(&b, rows, []bool{false, true, true, false}, "  ")
	writeMore(&b, n-maxRows, "  ")
	return b.String()
}

// excess is a value the claim has more often than the reference: its
// counts, and where the claim first has it.
type excess struct {
	d  multiset.EqualityDiscrepancy
	at int
}

// bagFaults returns the claim's values in excess of the reference, in the
// order the claim first has them (which says nothing of the reference's
// order), and the number of occurrences the claim lacks.
func bagFaults(res multiset.EqualityResult, claim list) (extras []excess, missing int) {
	first := firstIndexes(claim.vals)
	for d := range res.Discrepancies() {
		if d.Actual > d.Expected {
			extras = append(extras, excess{d, first[d.Value]})
		} else {
			missing += d.Expected - d.Actual
		}
	}
	// Insertion sort by first index: a discrepancy of the claim's comes in
	// claim order already, one of the source's in source order.
	for i := 1; i < len(extras); i++ {
		for j := i; j > 0 && extras[j].at < extras[j-1].at; j-- {
			extras[j], extras[j-1] = extras[j-1], extras[j]
		}
	}
	return extras, missing
}

// hiddenBagReport is the report of a claimed bag under HideReference:
// head, then the claim's values that occur too often or should not occur,
// each shown as the student wrote it at its first occurrence, and the
// number of missing occurrences; indent prefixes the table's lines.
func hiddenBagReport(res multiset.EqualityResult, claim list, head, indent string) string {
	extras, missing := bagFaults(res, claim)
	var b strings.Builder
	b.WriteString(head)
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
	firstAt := make(map[canon.Scalar]int, len(shown))
	for i, e := range shown {
		vals[i] = e.d.Value
		firstAt[e.d.Value] = e.at
	}
	show := newNames(vals, func(v canon.Scalar) string { return claim.written(firstAt[v]) })
	rows := [][]string{{"value", "claim", "fault", "first at"}}
	for _, e := range shown {
		fault := "too often"
		if e.d.Expected == 0 {
			fault = "should not occur"
		}
		rows = append(rows, []string{show[e.d.Value], strconv.Itoa(e.d.Actual), fault, claim.path(e.at)})
	}
	b.WriteByte('\n')
	writeTable(&b, rows, []bool{false, true, false, false}, indent+"  ")
	writeMore(&b, len(extras)-maxRows, indent+"  ")
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// writeMore writes "… and n more" on a line of its own after indent, when
// n > 0.
func writeMore(b *strings.Builder, n int, indent string) {
	if n > 0 {
		fmt.Fprintf(b, "\n%s… and %d more", indent, n)
	}
}

// writeTable writes rows with aligned columns, two spaces apart, each line
// after indent; right-aligned columns are marked in right.
func writeTable(b *strings.Builder, rows [][]string, right []bool, indent string) {
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
