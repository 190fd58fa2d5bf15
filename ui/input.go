package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey applies global bindings first (they avoid every key a form
// field uses), then hands the key to the current view.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	quit := key.Matches(k, m.keys.Quit)
	var said tea.Cmd
	switch {
	case !quit && m.quitAsked:
		// Any other key withdraws the question, and its warning with it.
		m.quitAsked = false
		said = m.setNotice("")
	case !quit:
		said = m.dismissNotice()
	}
	return tea.Batch(said, m.handleKeyAfterNotice(k, quit))
}

// handleKeyAfterNotice is handleKey once the notice has had the key.
func (m *Model) handleKeyAfterNotice(k tea.KeyPressMsg, quit bool) tea.Cmd {
	if m.showHelp {
		// Any key closes the overlay, except quit and the ones that
		// scroll it.
		switch {
		case quit:
			return m.quit()
		case k.Code == tea.KeyUp:
			m.scrollHelp(-1)
		case k.Code == tea.KeyDown:
			m.scrollHelp(+1)
		case k.Code == tea.KeyPgUp:
			m.scrollHelp(-max(m.bodyHeight()-4, 1))
		case k.Code == tea.KeyPgDown:
			m.scrollHelp(max(m.bodyHeight()-4, 1))
		default:
			m.showHelp, m.helpScroll = false, 0
		}
		return nil
	}
	switch {
	case quit:
		return m.quit()
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	case key.Matches(k, m.keys.NextPane):
		return m.cyclePane(+1)
	case key.Matches(k, m.keys.PrevPane):
		return m.cyclePane(-1)
	case key.Matches(k, m.keys.JumpPane):
		return m.jumpPane(int(k.String()[len(k.String())-1] - '0'))
	}
	if v, ok := m.tabFor(k); ok {
		return m.showView(v)
	}
	if !m.typing() && key.Matches(k, m.keys.HelpQ) {
		m.showHelp = true
		return nil
	}
	if cmd, ok := m.readerKey(k); ok {
		return cmd
	}
	return m.shown.key(&m.viewCtx, k)
}

// quit quits, asking once first when questions are open (not when
// attached to a session, which keeps them): quitting ends
// them abandoned (each answered cancel), which a stray ctrl+c should not
// do to a question someone was about to answer.
func (m *Model) quit() tea.Cmd {
	n := 0
	for _, pn := range m.prompts.panes {
		if pn.open() {
			n++
		}
	}
	if n == 0 || m.quitAsked || m.opts.Attached {
		return tea.Quit
	}
	m.quitAsked = true
	q := "1 question is"
	if n > 1 {
		q = fmt.Sprintf("%d questions are", n)
	}
	return m.setNotice(q + " open: ctrl+c again quits, and they end abandoned (answered cancel); any other key stays")
}

// handleClick focuses the pane whose strip entry or tile was clicked,
// and declines a pane when its Decline button was (clickPane, tiles.go).
func (m *Model) handleClick(c tea.MouseClickMsg) tea.Cmd {
	if c.Button != tea.MouseLeft {
		return nil
	}
	return tea.Batch(m.dismissNotice(), m.click(c))
}

func (m *Model) click(c tea.MouseClickMsg) tea.Cmd {
	if c.Y != stripRow {
		return m.clickPane(c.X, c.Y)
	}
	for _, it := range m.stripLayout() {
		if it.id != 0 && c.X >= it.x0 && c.X < it.x1 {
			m.setView(viewPrompts)
			return m.prompts.focusPane(&m.viewCtx, it.id)
		}
	}
	return nil
}
