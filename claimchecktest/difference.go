package claimchecktest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/multiset"
)

// maxListed is how many elements of a list a difference report prints
// before "… N more".
const maxListed = 20

// diff is a failed difference check, list by list: the claimed and the
// expected residuals.
type diff struct {
	lists [2]string // the lists' names: left_only and right_only, or In's answers
	inDoc bool      // the lists are In's answers: name indexes by their paths
	claim [2]list
	want  [2][]canon.Scalar
}

// wrong returns the indexes at which list l of the claim differs from the
// expected one: where the elements differ, or one list has none.
func (d *diff) wrong(l int) []int {
	c, w := d.claim[l].vals, d.want[l]
	var idx []int
	for i := range max(len(c), len(w)) {
		if i >= len(c) || i >= len(w) || c[i] != w[i] {
			idx = append(idx, i)
		}
	}
	return idx
}

// first is the first discrepancy in the tool's order, all of left_only
// before right_only, in one line; show names the values.
func (d *diff) first(wrong [2][]int, show names) string {
	for l := range d.lists {
		if len(wrong[l]) == 0 {
			continue
		}
		i := wrong[l][0]
		c, w := d.claim[l].vals, d.want[l]
		at := d.lists[l] + "[" + strconv.Itoa(i) + "]"
		where := " (at " + d.claim[l].path(i) + ")"
		if d.claim[l].named { // at is the path
			where = ""
		}
		switch {
		case i >= len(c):
			return at + " is missing; expected " + show[w[i]] + where
		case i >= len(w):
			return at + " is " + show[c[i]] + " but the residual has no element there" + where
		}
		return at + " is " + show[c[i]] + "; expected " + show[w[i]] + where
	}
	return "the claim differs"
}

// report lists, for each claimed list, every index at which it differs
// from the expected one (at most maxRows), then both lists.
func (d *diff) report() string {
	var wrong [2][]int
	var vals []canon.Scalar
	for l := range d.lists {
		wrong[l] = d.wrong(l)
		for _, i := range wrong[l][:min(len(wrong[l]), maxRows)] {
			vals = appendAt(vals, d.claim[l].vals, i)
			vals = appendAt(vals, d.want[l], i)
		}
		vals = append(vals, d.claim[l].vals[:min(len(d.claim[l].vals), maxListed)]...)
		vals = append(vals, d.want[l][:min(len(d.want[l]), maxListed)]...)
	}
	show := newNames(vals, canon.Scalar.String)
	at := func(xs []canon.Scalar, i int) string {
		if i < len(xs) {
			return show[xs[i]]
		}
		return "(none)"
	}
	var b strings.Builder
	b.WriteString(d.first(wrong, show))
	for l, name := range d.lists {
		if len(wrong[l]) == 0 {
			fmt.Fprintf(&b, "\n  %s is right", name)
			continue
		}
		fmt.Fprintf(&b, "\n  %s differs at %s:\n", name, plural(len(wrong[l]), "index", "indexes"))
		rows := [][]string{{"index", "claim", "expected"}}
		for _, i := range wrong[l][:min(len(wrong[l]), maxRows)] {
			rows = append(rows, []string{strconv.Itoa(i), at(d.claim[l].vals, i), at(d.want[l], i)})
		}
		writeTable(&b, rows, []bool{true, false, false}, "    ")
		writeMore(&b, len(wrong[l])-maxRows, "    ")
	}
	d.writeLists(&b, show)
	return b.String()
}

// writeLists writes the claim's lists beside the expected ones.
func (d *diff) writeLists(b *strings.Builder, show names) {
	rows := [][]string{}
	for l, name := range d.lists {
		rows = append(rows,
			[]string{name, "claim", plural(len(d.claim[l].vals), "element:", "elements:"), listed(show, d.claim[l].vals)},
			[]string{"", "expected", plural(len(d.want[l]), "element:", "elements:"), listed(show, d.want[l])})
	}
	b.WriteByte('\n')
	writeTable(b, rows, []bool{false, false, true, false}, "  ")
}

func appendAt(dst, xs []canon.Scalar, i int) []canon.Scalar {
	if i < len(xs) {
		return append(dst, xs[i])
	}
	return dst
}

// listed prints xs in brackets, its first maxListed elements, then how
// many more.
func listed(show names, xs []canon.Scalar) string {
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
// claimed list, its first wrong index (its path under In) and the claim's
// element there, as the student wrote it.
func (d *diff) hiddenReport() string {
	first := [2]int{-1, -1}
	for l := range d.lists {
		if w := d.wrong(l); len(w) > 0 {
			first[l] = w[0]
		}
	}
	var b strings.Builder
	b.WriteString("the claim is not the expected difference")
	rows := [][]string{}
	for l, name := range d.lists {
		i, cl := first[l], &d.claim[l]
		where := "index " + strconv.Itoa(i)
		if d.inDoc {
			where = cl.path(i)
		}
		switch {
		case i < 0:
			rows = append(rows, []string{name + ":", "right"})
		case i < len(cl.vals):
			rows = append(rows, []string{name + ":", "first wrong at " + where + ", where the claim has " + d.written(l, i)})
		default:
			rows = append(rows, []string{name + ":", "first wrong at " + where + ", where the claim has no element"})
		}
	}
	b.WriteByte('\n')
	writeTable(&b, rows, []bool{false, false}, "  ")
	return b.String()
}

// written shows element i of claimed list l as the student wrote it, cut
// as a report cuts a long value.
func (d *diff) written(l, i int) string {
	v := d.claim[l].vals[i]
	return newNames([]canon.Scalar{v}, func(canon.Scalar) string { return d.claim[l].written(i) })[v]
}

// anyOrder is the Report of a difference whose lists are compared as bags
// ([AnyOrder]), the claim being wrong in the tool's order: each list is
// checked against the expected one by multiset.CheckEquality, the engine's
// bag equality.
func (d *diff) anyOrder(c *config) Report {
	var res [2]multiset.EqualityResult
	valid := true
	matched, total := 0, 0
	for l := range d.lists {
		var err error
		res[l], err = multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: d.want[l], Claim: d.claim[l].vals},
			multiset.Limits{MaxItems: multiset.NoLimit, MaxDistinct: multiset.NoLimit})
		if err != nil { // the check accepted these lists: they are valid Scalars within its limits
			panic("claimchecktest: the expected residuals are refused: " + err.Error())
		}
		valid = valid && res[l].Valid
		missing := 0
		for m := range res[l].Discrepancies() {
			missing += max(m.Expected-m.Actual, 0)
		}
		matched += len(d.want[l]) - missing
		total += max(len(d.want[l]), len(d.claim[l].vals))
	}
	if valid {
		return Report{Valid: true, Score: 1}
	}
	r := Report{Score: ratio(matched, total)}
	if c.hide {
		var b strings.Builder
		b.WriteString("the claim is not the expected difference (in any order)")
		for l, name := range d.lists {
			if res[l].Valid {
				fmt.Fprintf(&b, "\n  %s: right", name)
				continue
			}
			b.WriteString(hiddenBagReport(res[l], d.claim[l], "\n  "+name+": ", "  "))
		}
		r.Text = c.label(b.String())
		return r
	}
	var vals []canon.Scalar
	for l := range d.lists {
		for m := range res[l].Discrepancies() {
			vals = append(vals, m.Value)
		}
		vals = append(vals, d.claim[l].vals[:min(len(d.claim[l].vals), maxListed)]...)
		vals = append(vals, d.want[l][:min(len(d.want[l]), maxListed)]...)
	}
	show := newNames(vals, canon.Scalar.String)
	var b strings.Builder
	b.WriteString(c.head("Difference") + "the claim is not the bag difference, in any order:")
	var sums []string
	for l, name := range d.lists {
		n := 0
		for range res[l].Discrepancies() {
			n++
		}
		if n > 0 {
			sums = append(sums, name+" has "+plural(n, "value", "values")+" wrong")
		}
	}
	b.WriteString(" " + strings.Join(sums, ", "))
	for l, name := range d.lists {
		if res[l].Valid {
			fmt.Fprintf(&b, "\n  %s is right", name)
			continue
		}
		fmt.Fprintf(&b, "\n  %s, in any order:\n", name)
		rows := [][]string{{"value", "expected", "claim", "fault", "first at"}}
		first := firstIndexes(d.claim[l].vals)
		n := 0
		for m := range res[l].Discrepancies() {
			if n++; n > maxRows {
				continue
			}
			at := "expected[" + m.Path[len("/source/"):] + "]" // in the expected list only
			if i, ok := first[m.Value]; ok {
				at = d.claim[l].path(i)
			}
			rows = append(rows, []string{show[m.Value], strconv.Itoa(m.Expected), strconv.Itoa(m.Actual), bagFault(m), at})
		}
		writeTable(&b, rows, []bool{false, true, true, false, false}, "    ")
		writeMore(&b, n-maxRows, "    ")
	}
	d.writeLists(&b, show)
	r.Text = c.label(b.String())
	return r
}

// bagFault names how a value's count in a claimed bag is wrong.
func bagFault(m multiset.EqualityDiscrepancy) string {
	switch {
	case m.Expected == 0:
		return "should not occur"
	case m.Actual == 0:
		return "missing"
	case m.Actual < m.Expected:
		return "too few"
	}
	return "too often"
}

// firstIndexes maps each value of xs to the index of its first occurrence.
func firstIndexes(xs []canon.Scalar) map[canon.Scalar]int {
	first := make(map[canon.Scalar]int)
	for i, s := range xs {
		if _, seen := first[s]; !seen {
			first[s] = i
		}
	}
	return first
}
