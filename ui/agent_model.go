package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
)

// The Model's part of the agent view: the agent list it keeps in the
// viewCtx (the status bar and the tab bar read it too).

func (m *Model) handleAgents(msg agentsMsg) tea.Cmd {
	m.agents = append(m.agents[:0], msg...)
	return m.toScreens(msg)
}

// countOpen counts, after every Update, the open panes per server or
// agent (when agents run) and the calls of each tool that have one open
// (the tools view shows them waiting on the person instead of spinning):
// a few hundred panes at most.
func (m *Model) countOpen() {
	clear(m.openBy)
	clear(m.askingCalls)
	seen := map[askingCall]bool{}
	for _, pn := range m.prompts.panes {
		if !pn.open() {
			continue
		}
		if len(m.agents) > 0 {
			if m.openBy == nil {
				m.openBy = map[string]int{}
			}
			m.openBy[pn.p.Server]++
		}
		o := pn.p.Origin
		if o.Kind != question.OriginToolCall || !o.CallID.IsValid() {
			continue
		}
		k := askingCall{server: pn.p.Server, tool: o.Name, id: o.CallID.Raw()}
		if seen[k] {
			continue
		}
		seen[k] = true
		if m.askingCalls == nil {
			m.askingCalls = map[askingCall]int{}
		}
		m.askingCalls[askingCall{server: k.server, tool: k.tool}]++
	}
}
