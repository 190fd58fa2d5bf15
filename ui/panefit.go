package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes"
)

// A question is never cut, in any layout (issue 25): a line of a pane's
// body wider than its frame wraps, and a body taller than its frame shows
// a window of itself between "more ↑" and "more ↓" lines that name the
// keys that move it (pgup, pgdn; the wheel over the pane). The frame
// (drawTitledFrame) cuts only what reaches it anyway, and nothing does.
// Only the header (cut with "…", so the call and the waiting time stay
// on screen) and the footer (keys, cut with "…") are the pane's own
// lines, not the question's.

// paneMore is what the last draw of a pane found about its body: the
// last line its window can start at (0 when it fits) and how far a page
// moves it. The keys read it (the same goroutine draws and updates).
type paneMore struct{ last, page int }

// wheelLines is how far a wheel notch scrolls a pane.
const wheelLines = 3

// fit lays out the pane's inside for a frame of w×h cells: body lines
// wrapped to w, then as many as fit above the footer from pn.scroll on,
// with markers for what is above and below the window.
func (pn *pane) fit(st *themes.Styles, body, footer string, w, h int) string {
	lines := wrapLines(body, w)
	room := h
	if footer != "" {
		room--
	}
	// Blank lines at the end (the one above the footer) give way first:
	// "more ↓" for nothing but a blank line would send the person looking.
	for len(lines) > room && len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	if room < 3 || len(lines) <= room {
		// Too small for a window and its markers: the top of it (a frame
		// this small is below the tiles' minimum and the body's).
		pn.more = paneMore{}
		if len(lines) > room {
			lines = lines[:max(room, 0)]
		}
		return joinFooter(lines, footer)
	}
	// The last window has the "more ↑" line and room-1 lines of the body;
	// one in the middle has both markers; a page keeps a line of the one
	// before.
	last := len(lines) - (room - 1)
	pn.more = paneMore{last: last, page: max(room-3, 1)}
	off := min(max(pn.scroll, 0), last)
	var out []string
	switch {
	case off == 0:
		out = append(lines[:room-1:room-1], moreBelow(st, len(lines)-(room-1), w))
	case off == last:
		out = append([]string{moreAbove(st, off, w)}, lines[off:]...)
	default:
		out = append([]string{moreAbove(st, off, w)}, lines[off:off+room-2]...)
		out = append(out, moreBelow(st, len(lines)-(off+room-2), w))
	}
	return joinFooter(out, footer)
}

func joinFooter(lines []string, footer string) string {
	s := strings.Join(lines, "\n")
	if footer != "" {
		s += "\n" + footer
	}
	return s
}

func moreBelow(st *themes.Styles, n int, w int) string {
	return st.Muted.Render(ansi.Truncate("more ↓ ("+lineCount(n)+", pgdn)", w, "…"))
}

func moreAbove(st *themes.Styles, n int, w int) string {
	return st.Muted.Render(ansi.Truncate("more ↑ ("+lineCount(n)+", pgup)", w, "…"))
}

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return strconv.Itoa(n) + " lines"
}

// wrapLines splits s into lines of at most w cells: a wider line wraps at
// its spaces (a longer word is broken), its styles carried onto the next
// line. Lines are measured only when their bytes could exceed w.
func wrapLines(s string, w int) []string {
	lines := strings.Split(s, "\n")
	if w <= 0 {
		return lines
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if len(l) <= w || ansi.StringWidth(l) <= w {
			continue
		}
		wrapped := strings.Split(lipgloss.Wrap(l, w, ""), "\n")
		lines = append(lines[:i], append(wrapped, lines[i+1:]...)...)
		i += len(wrapped) - 1
	}
	return lines
}

// scrollPane moves the pane's window by delta lines, within what its last
// draw found; it reports whether the pane has a window to move.
func (pn *pane) scrollPane(delta int) bool {
	if pn.more.last == 0 {
		return false
	}
	pn.scroll = min(max(min(max(pn.scroll, 0), pn.more.last)+delta, 0), pn.more.last)
	return true
}

// paneScrollKey takes pgup and pgdn for the focused pane when its body
// does not fit its frame; otherwise they are the form's (a text area
// pages with them).
func paneScrollKey(c *viewCtx, pn *pane, k tea.KeyPressMsg) bool {
	if pn.more.last == 0 || !key.Matches(k, c.keys.PaneMore) {
		return false
	}
	step := pn.more.page
	if k.Code == tea.KeyPgUp {
		step = -step
	}
	return pn.scrollPane(step)
}

// wheelPane scrolls the pane under the wheel, in the prompts view; it
// reports whether there was one with a window to move.
func (m *Model) wheelPane(msg tea.MouseWheelMsg) bool {
	if m.view != viewPrompts || m.showHelp || m.width == 0 {
		return false
	}
	ms := msg.Mouse()
	by := ms.Y - (stripRow + 1)
	for _, tl := range m.prompts.tiling(&m.viewCtx).tiles {
		if ms.X < tl.x || ms.X >= tl.x+tl.w || by < tl.y || by >= tl.y+tl.h {
			continue
		}
		switch ms.Button {
		case tea.MouseWheelUp:
			return tl.pn.scrollPane(-wheelLines)
		case tea.MouseWheelDown:
			return tl.pn.scrollPane(wheelLines)
		}
	}
	return false
}
