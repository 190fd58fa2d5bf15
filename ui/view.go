package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Screen rows: tabs, the prompt strip, the body, and the status bar.
const (
	tabsRow  = 0
	stripRow = 1
	chrome   = 3 // rows that are not body
)

// View draws the screen. It renders only what is visible: the focused pane
// (or the up to four tiles) and the strip's window, never hidden panes, so
// its cost does not grow with the number of open prompts.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "elicit"
	if m.width == 0 {
		v.SetContent("loading…")
		return v
	}
	body, exact := "", false
	if rd := m.readers[m.view]; rd != nil && !m.showHelp {
		body = m.renderReader(rd)
	} else if m.showHelp {
		body = m.renderHelp()
	} else {
		body = m.shown.render(&m.viewCtx)
		if f, ok := m.shown.(fitted); ok {
			exact = f.fitted()
		}
	}
	if !exact {
		body = fitBody(body, m.width, m.bodyHeight())
	}
	rows := []string{m.renderTabs(), m.renderStrip(), body}
	if n := m.renderNotice(); n != "" {
		rows = append(rows, n)
	}
	v.SetContent(strings.Join(append(rows, m.renderStatus()), "\n"))
	return v
}

// renderHelp draws every binding from the key map, in two columns. Lines
// are cut, never wrapped, so the columns stay aligned and the overlay
// keeps the height balance computed.
func (m *Model) renderHelp() string {
	lines, inner, rows := m.helpLines()
	scroll := min(max(m.helpScroll, 0), max(len(lines)-rows, 0))
	title := m.st.Help.Section.Render("Keys") + m.st.Muted.Render("  (any key closes)")
	if len(lines) > rows {
		title = m.st.Help.Section.Render("Keys") + m.st.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · ↑↓ pgup pgdn scroll · any other key closes",
			scroll+1, min(scroll+rows, len(lines)), len(lines)))
		lines = lines[scroll:min(scroll+rows, len(lines))]
	}
	var b strings.Builder
	b.WriteString(ansi.Truncate(title, inner, "…") + "\n")
	for _, line := range lines {
		b.WriteString("\n" + ansi.Truncate(line, inner, "…"))
	}
	return m.st.Help.Box.Width(m.width).Render(b.String())
}

// helpLines lays out the help: two columns side by side where they fit
// the width, else one. It returns the lines, the box's inner width and
// how many lines the body shows at once.
func (m *Model) helpLines() (lines []string, inner, rows int) {
	secs := m.keys.helpSections(m.tabBindings())
	kw := 0 // the key column fits the longest key
	for _, sec := range secs {
		for _, l := range sec.lines {
			kw = max(kw, ansi.StringWidth(l.key))
		}
	}
	col := func(secs []helpSection) []string {
		var out []string
		for _, sec := range secs {
			out = append(out, m.st.Help.Section.Render(sec.title))
			for _, l := range sec.lines {
				pad := strings.Repeat(" ", kw-ansi.StringWidth(l.key))
				out = append(out, "  "+m.st.Help.Key.Render(l.key)+pad+" "+m.st.Help.Desc.Render(l.desc))
			}
			out = append(out, "")
		}
		return out[:len(out)-1]
	}
	half := balance(secs)
	left, right := col(secs[:half]), col(secs[half:])
	lw, rw := 0, 0
	for _, l := range left {
		lw = max(lw, ansi.StringWidth(l))
	}
	for _, r := range right {
		rw = max(rw, ansi.StringWidth(r))
	}
	inner = max(m.width-4, 10) // the box's border and padding
	// The box's border, its title and the blank line under it take four
	// rows of the body.
	rows = max(m.bodyHeight()-4, 3)
	// Side by side while the second column keeps 40 columns (a long
	// description may be cut there with "…"), else one column, scrolled.
	if lw+2+min(rw, 40) > inner {
		return append(append(left, ""), right...), inner, rows
	}
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		lines = append(lines, l+strings.Repeat(" ", lw-ansi.StringWidth(l)+2)+r)
	}
	return lines, inner, rows
}

// scrollHelp moves the help overlay by delta lines, within its length.
func (m *Model) scrollHelp(delta int) {
	lines, _, rows := m.helpLines()
	m.helpScroll = min(max(m.helpScroll+delta, 0), max(len(lines)-rows, 0))
}

// balance picks where the help's second column starts so that the taller
// column is as short as possible (a 56-row terminal shows it all; a
// smaller one scrolls).
func balance(secs []helpSection) int {
	lines := func(ss []helpSection) int {
		n := 0
		for _, s := range ss {
			n += len(s.lines) + 2 // title and blank line
		}
		return n
	}
	best, bestH := 1, -1
	for i := 1; i < len(secs); i++ {
		if h := max(lines(secs[:i]), lines(secs[i:])); bestH < 0 || h < bestH {
			best, bestH = i, h
		}
	}
	return best
}
