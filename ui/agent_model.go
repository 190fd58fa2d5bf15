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

// listed reports whether tab t, which has no F-key, is on the bar.
func (m *Model) listed(t tab) bool {
	l, ok := t.screen.(lister)
	return ok && l.listed(&m.viewCtx)
}

// agentBadge is an agent on the status bar.
func (m *Model) agentBadge(a AgentStatus) string {
	name := untrusted.Line(a.Name)
	st := m.st.Status
	switch a.State {
	case client.StateReady:
		return st.Ready.Render("● "+name) + m.st.Muted.Render(" agent")
	case client.StateConnecting:
		return st.Connecting.Render("◌ "+name) + m.st.Muted.Render(" agent starting…")
	case client.StateFailed:
		return st.Failed.Render("✗ "+name) + m.st.Error.Render(" agent failed: "+errText(a.Err))
	case client.StateDisconnected:
		return st.Disconnected.Render("⚡ "+name) + m.st.Warning.Render(" agent gone: "+errText(a.Err))
	}
	return m.st.Muted.Render("○ " + name + " agent")
}
