package ui

import (
	tea "charm.land/bubbletea/v2"
)

// The Model's part of the agent view: the agent list it keeps in the
// viewCtx (the status bar and the tab bar read it too).

func (m *Model) handleAgents(msg agentsMsg) tea.Cmd {
	m.agents = append(m.agents[:0], msg...)
	return m.toScreens(msg)
}

// countOpen counts the open panes per server or agent, after every
// Update: a few hundred panes at most, and only when agents run.
func (m *Model) countOpen() {
	if len(m.agents) == 0 {
		return
	}
	clear(m.openBy)
	if m.openBy == nil {
		m.openBy = map[string]int{}
	}
	for _, pn := range m.prompts.panes {
		if pn.open() {
			m.openBy[pn.p.Server]++
		}
	}
}
