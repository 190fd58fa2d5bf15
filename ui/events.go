package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// serversMsg carries the engine's server list.
type serversMsg []ServerStatus

// noticeMsg is a one-line message for the status bar.
type noticeMsg string

// handleEvent applies a lane-2 event.
func (m *Model) handleEvent(msg eventMsg) tea.Cmd {
	switch e := msg.e.(type) {
	case client.ServerStateChanged:
		m.setServer(e)
		if e.State == client.StateReady {
			// A new session may list other things: drop what was cached.
			// The status (its capabilities) comes again from the engine.
			return tea.Batch(m.tools.changed(m, e.Server),
				m.resources.changed(m, e.Server), m.templates.changed(m, e.Server), m.loadServers())
		}
	case client.PromptResolved:
		return m.handleResolved(e)
	case client.ListChanged:
		switch e.What {
		case "tools":
			return m.tools.changed(m, e.Server)
		case "resources":
			return m.resources.changed(m, e.Server)
		case "prompts":
			return m.templates.changed(m, e.Server)
		}
	case client.Notice:
		m.logs.notice(m, e)
	case client.TaskChanged:
		m.tasks.put(e.Task)
	}
	return nil
}

func (m *Model) setServer(e client.ServerStateChanged) {
	st := ServerStatus{Name: e.Server, State: e.State, Protocol: e.Protocol, Era: e.Era, Err: e.Err}
	for i := range m.servers {
		if m.servers[i].Name == e.Server {
			st.Host, st.Caps = m.servers[i].Host, m.servers[i].Caps
			m.servers[i] = st
			return
		}
	}
	m.servers = append(m.servers, st)
}

// loadServers reads the engine's server list (in a Cmd: no engine calls
// in Update).
func (m *Model) loadServers() tea.Cmd {
	eng := m.engine
	return func() tea.Msg { return serversMsg(eng.Servers()) }
}

func (m *Model) handleServers(msg serversMsg) tea.Cmd {
	m.servers = append(m.servers[:0], msg...)
	return m.tools.enter(m)
}

// handleStreams pulls the visible window of the rings (lane 3).
func (m *Model) handleStreams() tea.Cmd {
	switch m.view {
	case viewTraffic:
		m.traffic.refresh(m)
	case viewLogs:
		m.logs.refresh(m)
	}
	m.tools.applyProgress(m)
	return nil
}
