package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey applies global bindings first (they avoid every key a form
// field uses), then hands the key to the current view.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.showHelp {
		// Any key closes the overlay, except quit.
		if key.Matches(k, m.keys.Quit) {
			return tea.Quit
		}
		m.showHelp = false
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return tea.Quit
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	case key.Matches(k, m.keys.NextPane):
		return m.cyclePane(+1)
	case key.Matches(k, m.keys.PrevPane):
		return m.cyclePane(-1)
	case key.Matches(k, m.keys.JumpPane):
		return m.jumpPane(int(k.String()[len(k.String())-1] - '0'))
	case key.Matches(k, m.keys.Prompts):
		m.view = viewPrompts
		if pn := m.focused(); pn != nil {
			return m.sizePane(pn)
		}
		return nil
	case key.Matches(k, m.keys.Tools):
		return m.showView(viewTools)
	case key.Matches(k, m.keys.Traffic):
		return m.showView(viewTraffic)
	case key.Matches(k, m.keys.Journal):
		return m.showView(viewJournal)
	case key.Matches(k, m.keys.Logs):
		return m.showView(viewLogs)
	}
	if !m.typing() && key.Matches(k, m.keys.HelpQ) {
		m.showHelp = true
		return nil
	}
	switch m.view {
	case viewPrompts:
		return m.paneKey(k)
	case viewTools:
		return m.tools.key(m, k)
	case viewTraffic:
		return m.traffic.key(m, k)
	case viewJournal:
		return m.journal.key(m, k)
	case viewLogs:
		return m.logs.key(m, k)
	}
	return nil
}

// showView switches views and refreshes what the new one shows.
func (m *Model) showView(v viewID) tea.Cmd {
	m.view = v
	switch v {
	case viewTraffic:
		m.traffic.refresh(m)
	case viewLogs:
		m.logs.refresh(m)
	case viewJournal:
		return m.loadJournal()
	case viewTools:
		return m.tools.enter(m)
	}
	return nil
}

// handleClick focuses the pane whose strip entry was clicked.
func (m *Model) handleClick(c tea.MouseClickMsg) tea.Cmd {
	if c.Button != tea.MouseLeft || c.Y != stripRow {
		return nil
	}
	for _, it := range m.stripLayout() {
		if c.X >= it.x0 && c.X < it.x1 {
			m.view = viewPrompts
			return m.focusPane(it.id)
		}
	}
	return nil
}
