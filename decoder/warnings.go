package decoder

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A request's warnings are bounded twice, so that their size never follows
// the input's: each piece of input (a name, a value, a keyword) gets one
// warning per kind of problem, with a count and the first few offsets,
// however many bad bytes it holds; and a request gets at most
// Limits.Warnings of them, then one line that counts the rest. A megabyte of
// "%FF" once answered with a warning per byte: 33 MB of JSON.

// keptOffsets is how many offsets of one kind of problem a warning names.
const keptOffsets = 3

// offsets counts the places of one kind of problem in one piece of input
// and keeps the first keptOffsets of them.
type offsets struct {
	n     int
	first [keptOffsets]int
}

func (o *offsets) add(at int) {
	if o.n < keptOffsets {
		o.first[o.n] = at
	}
	o.n++
}

// kept is the offsets o keeps, in order.
func (o *offsets) kept() []int { return o.first[:min(o.n, keptOffsets)] }

// joinOffsets writes offsets as "1, 2, 3".
func joinOffsets(at []int) string {
	var b strings.Builder
	for i, n := range at {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// moreOf says how many of a problem a piece held in all and where the next
// ones after the first are (when next is given), for a warning that
// describes the first: empty when there was only the one.
func moreOf(n int, what string, next []int) string {
	switch {
	case n <= 1:
		return ""
	case len(next) == 0:
		return fmt.Sprintf("; %d %s in all", n, what)
	}
	return fmt.Sprintf("; %d %s in all, the next at offsets %s", n, what, joinOffsets(next))
}

// warnList gathers a request's warnings: at most max lines, and a count of
// those past it. A warning past max is never formatted.
type warnList struct {
	lines []string
	max   int
	more  int
}

func (w *warnList) add(s string) {
	if len(w.lines) >= w.max {
		w.more++
		return
	}
	w.lines = append(w.lines, s)
}

func (w *warnList) addf(format string, args ...any) {
	if len(w.lines) >= w.max {
		w.more++
		return
	}
	w.lines = append(w.lines, fmt.Sprintf(format, args...))
}

// done is the warnings, with one last line for those past max.
func (w *warnList) done() []string {
	if w.more > 0 {
		return append(w.lines, moreWarnings(w.more))
	}
	return w.lines
}

func moreWarnings(n int) string {
	if n == 1 {
		return "1 more warning not shown"
	}
	return fmt.Sprintf("%d more warnings not shown", n)
}

// warnf adds a warning to r, or counts it once r holds Limits.Warnings.
func (d *Decoder) warnf(r *Raw, format string, args ...any) {
	if len(r.Warnings) >= d.opts.Limits.warnings() {
		r.moreWarnings++
		return
	}
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// shownNameBytes bounds the bytes of a field name a warning repeats: a name
// may be a kilobyte, and every warning about its value would carry it.
const shownNameBytes = 64

// shortName is name cut to shownNameBytes at a character boundary, with an
// ellipsis when cut.
func shortName(name string) string {
	if len(name) <= shownNameBytes {
		return name
	}
	cut := shownNameBytes
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut] + "…"
}
