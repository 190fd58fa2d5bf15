package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// stripItem is one entry on the strip, with its columns for mouse clicks:
// a pane, or (id 0) the run of panes shown in tiles, first to last.
type stripItem struct {
	id          int
	first, last int // indexes of the panes it stands for
	label       string
	x0, x1      int
}

const stripLabelMax = 24

// stripHead is the count at the start of the strip.
func (m *Model) stripHead() string {
	open, fresh := 0, 0
	for _, p := range m.prompts.panes {
		if p.open() {
			open++
			if !p.seen {
				fresh++
			}
		}
	}
	s := fmt.Sprintf("%d open", open)
	if fresh > 0 {
		s += fmt.Sprintf(", %d new", fresh)
	}
	return s + ": "
}

// stripLayout places as many entries as fit, in arrival order, in a
// window that contains what is on screen: the focused pane, or the tiles
// as one entry ("2–5 in tiles") with the panes not on screen around it.
// Its cost is the window's, not the number of panes. View and the click
// handler share it.
func (m *Model) stripLayout() []stripItem {
	ps := m.prompts
	n := len(ps.panes)
	if n == 0 {
		return nil
	}
	t := ps.tiling(&m.viewCtx)
	runLo, runLen := t.start, len(t.tiles)
	if runLen == 0 {
		runLo, runLen = 0, 1
	}
	// Entry e stands for pane e before the run, the run at runLo, and
	// pane e+runLen-1 after it.
	span := func(e int) (first, last int) {
		switch {
		case e < runLo:
			return e, e
		case e == runLo:
			return runLo, runLo + runLen - 1
		}
		return e + runLen - 1, e + runLen - 1
	}
	entries := n - runLen + 1
	label := func(e int) string {
		first, last := span(e)
		if last > first {
			return fmt.Sprintf("%d–%d in tiles", first+1, last+1)
		}
		p := ps.panes[first]
		l := fmt.Sprintf("%d %s", first+1, untrusted.Line(p.p.Key.String()))
		if !p.seen && p.open() {
			l += " ●"
		}
		return ansi.Truncate(l, stripLabelMax, "…")
	}
	width := func(e int) int { return ansi.StringWidth(label(e)) + 2 } // padding
	head := ansi.StringWidth(m.stripHead())
	avail := m.width - head - 12 // room for "‹ 123 " and " 123 ›"
	lo, hi := runLo, runLo+1
	used := width(runLo)
	for grew := true; grew; {
		grew = false
		if hi < entries && used+width(hi) <= avail {
			used += width(hi)
			hi++
			grew = true
		}
		if lo > 0 && used+width(lo-1) <= avail {
			lo--
			used += width(lo)
			grew = true
		}
	}
	x := head
	if first, _ := span(lo); first > 0 {
		x += ansi.StringWidth(fmt.Sprintf("‹ %d ", first))
	}
	items := make([]stripItem, 0, hi-lo)
	for e := lo; e < hi; e++ {
		w := width(e)
		first, last := span(e)
		it := stripItem{first: first, last: last, label: label(e), x0: x, x1: x + w}
		if first == last {
			it.id = ps.panes[first].id
		}
		items = append(items, it)
		x += w
	}
	return items
}

func (m *Model) renderStrip() string {
	if len(m.prompts.panes) == 0 {
		return m.st.Muted.Render("no questions")
	}
	items := m.stripLayout()
	var b strings.Builder
	b.WriteString(m.st.Strip.Count.Render(m.stripHead()))
	if first := items[0].first; first > 0 {
		b.WriteString(m.st.Muted.Render(fmt.Sprintf("‹ %d ", first)))
	}
	for _, it := range items {
		st := m.st.Strip.Item
		if p := m.prompts.byID[it.id]; p != nil {
			switch {
			case it.id == m.prompts.focus:
				st = m.st.Strip.Active
			case !p.open():
				st = m.st.Strip.Ended
			case !p.seen:
				st = m.st.Strip.Fresh
			}
		} else {
			st = m.st.Strip.Active // the tiles
		}
		b.WriteString(st.Render(it.label))
	}
	if rest := len(m.prompts.panes) - 1 - items[len(items)-1].last; rest > 0 {
		b.WriteString(m.st.Muted.Render(fmt.Sprintf(" %d ›", rest)))
	}
	return ansi.Truncate(b.String(), m.width, "…")
}
