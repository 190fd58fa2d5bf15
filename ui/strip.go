package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// stripItem is one pane's entry on the strip, with its columns for mouse
// clicks.
type stripItem struct {
	id     int
	label  string
	x0, x1 int
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

// stripLayout places as many entries as fit, in a window that contains
// the focused pane, so its cost is the window's, not the number of panes.
// View and the click handler share it.
func (m *Model) stripLayout() []stripItem {
	if len(m.prompts.panes) == 0 {
		return nil
	}
	head := ansi.StringWidth(m.stripHead())
	avail := m.width - head - 12 // room for "‹ 123 " and " 123 ›"
	f := max(m.prompts.indexOf(m.prompts.focus), 0)
	label := func(i int) string {
		p := m.prompts.panes[i]
		l := fmt.Sprintf("%d %s", i+1, untrusted.Line(p.p.Key.String()))
		if !p.seen && p.open() {
			l += " ●"
		}
		return ansi.Truncate(l, stripLabelMax, "…")
	}
	width := func(i int) int { return ansi.StringWidth(label(i)) + 2 } // padding
	lo, hi := f, f+1
	used := width(f)
	for grew := true; grew; {
		grew = false
		if hi < len(m.prompts.panes) && used+width(hi) <= avail {
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
	if lo > 0 {
		x += len(fmt.Sprintf("‹ %d ", lo)) - 2 // "‹" is 3 bytes, 1 column
	}
	items := make([]stripItem, 0, hi-lo)
	for i := lo; i < hi; i++ {
		w := width(i)
		items = append(items, stripItem{id: m.prompts.panes[i].id, label: label(i), x0: x, x1: x + w})
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
	first := m.prompts.indexOf(items[0].id)
	if first > 0 {
		b.WriteString(m.st.Muted.Render(fmt.Sprintf("‹ %d ", first)))
	}
	for _, it := range items {
		p := m.prompts.byID[it.id]
		st := m.st.Strip.Item
		switch {
		case it.id == m.prompts.focus:
			st = m.st.Strip.Active
		case !p.open():
			st = m.st.Strip.Ended
		case !p.seen:
			st = m.st.Strip.Fresh
		}
		b.WriteString(st.Render(it.label))
	}
	if rest := len(m.prompts.panes) - 1 - m.prompts.indexOf(items[len(items)-1].id); rest > 0 {
		b.WriteString(m.st.Muted.Render(fmt.Sprintf(" %d ›", rest)))
	}
	return ansi.Truncate(b.String(), m.width, "…")
}
