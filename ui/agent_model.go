package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The Model's part of the agent view: the agent list it keeps in the
// viewCtx (the status bar and the tab bar read it too).

func (m *Model) handleAgents(msg agentsMsg) tea.Cmd {
	m.agents = append(m.agents[:0], msg...)
	return m.toScreens(msg)
}

// agentBadge is an agent on the status bar. Its tab has no F-key and is
// on the tab bar only while shown (the bar is full at 120 columns), so
// the badge names the key.
func (m *Model) agentBadge(a AgentStatus) string {
	name := untrusted.Line(a.Name)
	st := m.st.Status
	switch a.State {
	case client.StateReady:
		return st.Ready.Render("● "+name) + m.st.Muted.Render(" agent (alt+a)")
	case client.StateConnecting:
		return st.Connecting.Render("◌ "+name) + m.st.Muted.Render(" agent starting… (alt+a)")
	case client.StateFailed:
		return st.Failed.Render("✗ "+name) + m.st.Error.Render(" agent failed: "+errText(a.Err))
	case client.StateDisconnected:
		return st.Disconnected.Render("⚡ "+name) + m.st.Warning.Render(" agent gone: "+errText(a.Err))
	}
	return m.st.Muted.Render("○ " + name + " agent")
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
