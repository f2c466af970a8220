package claimchecktest

import (
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/canon"
)

// maxShown is how many runes of one value a report shows before it elides
// the middle; shownTail is how many of them come from the value's end.
const (
	maxShown  = 40
	shownTail = 12
	// context is how many runes from the first difference on an elided
	// value keeps when the default form would not tell it apart.
	context = 6
)

// names is how a report shows each value: its form (its JSON text, or the
// literal the student wrote), with the middle elided ("…") when it is
// longer than maxShown runes. Two different values never show alike: the
// elision keeps the part that tells a value from the others of the same
// report, or, failing that, the value is shown whole, or by its key.
type names map[canon.Scalar]string

// newNames gives a display form to every value of vals (the values one
// report shows), from form(v). Different values may share a form (an
// exact integer's digits and a double's text, or a literal): those are
// shown by their keys.
func newNames(vals []canon.Scalar, form func(canon.Scalar) string) names {
	n := make(names, len(vals))
	keys := make(map[canon.Scalar][]rune, len(vals))
	for _, v := range vals {
		if _, seen := n[v]; seen {
			continue
		}
		k := form(v)
		if utf8.RuneCountInString(k) <= maxShown {
			n[v] = k
			continue
		}
		r := []rune(k)
		keys[v] = r
		n[v] = elide(r, maxShown-shownTail-1, shownTail)
	}
	// A long value whose form another shares keeps the runes around its
	// first and last difference from them.
	for _, group := range n.collisions() {
		for _, v := range group {
			r, long := keys[v]
			if !long {
				continue
			}
			// The others of the group share the default form, so they
			// share its tail: they differ from v before it, and a head
			// that reaches past the last common prefix tells them apart.
			head, tail := 0, shownTail
			for _, w := range group {
				if w != v {
					head = max(head, commonPrefix(r, []rune(form(w)))+context)
				}
			}
			if head+tail+1 < len(r) {
				n[v] = elide(r, head, tail)
			} else {
				n[v] = string(r)
			}
		}
	}
	// What still collides is shown whole, and what collides whole by its
	// canonical key (an exact integer's digits are a double's form too:
	// 1152921504606847000 is the double 2^60's). Keys are distinct, and
	// each pass moves a value on from elided to whole to its key, so this
	// ends.
	for c := n.collisions(); len(c) > 0; c = n.collisions() {
		for _, group := range c {
			for _, v := range group {
				if r, long := keys[v]; long && n[v] != string(r) {
					n[v] = string(r)
				} else {
					n[v] = v.Key()
				}
			}
		}
	}
	return n
}

// collisions returns the groups of values that show alike.
func (n names) collisions() [][]canon.Scalar {
	by := make(map[string][]canon.Scalar, len(n))
	for v, s := range n {
		by[s] = append(by[s], v)
	}
	var out [][]canon.Scalar
	for _, g := range by {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// elide is the first head and last tail runes of r around "…".
func elide(r []rune, head, tail int) string {
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

func commonPrefix(a, b []rune) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
