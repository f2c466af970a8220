package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineClass is what one line's document says, for -summary: its verdict
// ("valid", "invalid" or "error"), and the reason of an invalid verdict or
// the code of an error document.
type lineClass struct {
	verdict, detail string
}

// classOf is the class of a line whose document answer described (its
// outcome, and the reason or code).
func classOf(o outcome, detail string) lineClass {
	switch o {
	case gotValid:
		return lineClass{"valid", ""}
	case gotInvalid:
		return lineClass{"invalid", detail}
	}
	return lineClass{"error", detail}
}

// summary counts a batch's lines by verdict, by reason and by error code,
// with the first line of each.
type summary struct {
	lines int64
	stats map[summaryKey]*summaryStat
}

type summaryKey struct {
	section int // 0 verdict, 1 reason, 2 error code
	name    string
}

type summaryStat struct {
	count, first int64
}

func newSummary() *summary { return &summary{stats: make(map[summaryKey]*summaryStat)} }

// add counts line num, of class c; lines are added in input order.
func (s *summary) add(num int64, c lineClass) {
	s.lines++
	s.count(summaryKey{0, c.verdict}, num)
	switch c.verdict {
	case "invalid":
		s.count(summaryKey{1, c.detail}, num)
	case "error":
		s.count(summaryKey{2, c.detail}, num)
	}
}

func (s *summary) count(k summaryKey, num int64) {
	st := s.stats[k]
	if st == nil {
		st = &summaryStat{first: num}
		s.stats[k] = st
	}
	st.count++
}

// write writes the summary as one aligned table, a section for verdicts,
// reasons and error codes each (the empty ones left out), each in order of
// first line.
func (s *summary) write(w io.Writer, name string) {
	keys := make([]summaryKey, 0, len(s.stats))
	for k := range s.stats {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b summaryKey) int {
		if a.section != b.section {
			return a.section - b.section
		}
		return cmp.Compare(s.stats[a].first, s.stats[b].first)
	})
	heads := [...]string{"verdict", "reason", "error code"}
	var rows [][3]string
	for i, k := range keys {
		if i == 0 || keys[i-1].section != k.section {
			rows = append(rows, [3]string{heads[k.section], "lines", "first line"})
		}
		st := s.stats[k]
		rows = append(rows, [3]string{"  " + k.name, strconv.FormatInt(st.count, 10), strconv.FormatInt(st.first, 10)})
	}
	var width [3]int
	for _, r := range rows {
		for c, cell := range r {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "claimcheck: summary of %s: %d lines\n", name, s.lines)
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %*s  %*s\n", width[0], r[0], width[1], r[1], width[2], r[2])
	}
	io.WriteString(w, b.String())
}
