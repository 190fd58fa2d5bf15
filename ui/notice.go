package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The notice: what elicit says to the person (the quit warning, "copied
// … to the clipboard", an error) has lines of its own between the body
// and the status bar, wrapped to the width, never cut there: on the
// status bar it shared one line with the servers' badges and was cut to
// "…" at 80 and 120 columns (issue 26). The body gives up the rows it
// takes, and the screens are sized again when that count changes.
//
// It stays for as long as it matters: until another notice replaces it,
// until the question it asks is withdrawn (the quit warning goes with
// the key that withdraws it), or until the person presses a key or
// clicks once it has been on screen noticeHold, so one that arrives
// while they type is not gone before it could be read.

// noticeHold is how long a notice stays whatever keys come.
const noticeHold = time.Second

// setNotice shows text ("" clears it) and sizes the body to what is left.
func (m *Model) setNotice(text string) tea.Cmd {
	m.notice, m.noticeAt = text, m.now()
	return m.fitNotice()
}

func (m *Model) handleNotice(msg noticeMsg) tea.Cmd { return m.setNotice(string(msg)) }

// dismissNotice clears a notice that has been on screen noticeHold, on a
// key press or a click (before it is handled: what it does may say
// something new).
func (m *Model) dismissNotice() tea.Cmd {
	if m.notice == "" || m.now().Sub(m.noticeAt) < noticeHold {
		return nil
	}
	return m.setNotice("")
}

// fitNotice counts the rows the notice takes at this width and, when
// the count changed, sizes every screen to the body that is left.
func (m *Model) fitNotice() tea.Cmd {
	rows := len(m.noticeLines())
	if rows == m.noticeRows {
		return nil
	}
	m.noticeRows = rows
	return m.resizeScreens()
}

// maxNoticeRows is the most rows a notice takes: a third of the screen
// below the tabs and the strip, at least one. Only a notice quoting a
// server's text at length can need more; its last row then ends in "…".
func (m *Model) maxNoticeRows() int { return max((m.height-chrome)/3, 1) }

// noticeLines is the notice wrapped to the width, sanitized (a notice
// may quote a server), at most maxNoticeRows lines.
func (m *Model) noticeLines() []string {
	if m.notice == "" || m.width <= 0 {
		return nil
	}
	text := untrusted.Line(m.notice)
	lines := strings.Split(ansi.Wrap(text, m.width, ""), "\n")
	if n := m.maxNoticeRows(); len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1]+" …", m.width, "…")
	}
	return lines
}

// renderNotice draws the notice's lines, or "" when there is none.
func (m *Model) renderNotice() string {
	lines := m.noticeLines()
	for i, l := range lines {
		lines[i] = m.st.Warning.Render(l)
	}
	return strings.Join(lines, "\n")
}
