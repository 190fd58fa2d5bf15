package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// serversMsg carries the engine's server list.
type serversMsg []ServerStatus

// noticeMsg is a message for the person (notice.go).
type noticeMsg string

// handleEvent applies a lane-2 event: the Model's part (the server list,
// the panes), then every screen's.
func (m *Model) handleEvent(msg eventMsg) tea.Cmd {
	var cmd tea.Cmd
	switch e := msg.e.(type) {
	case client.ServerStateChanged:
		m.setServer(e)
		if e.State == client.StateReady {
			// The status (its capabilities) comes again from the engine.
			cmd = m.loadServers()
		}
	case client.PromptResolved:
		cmd = m.handleResolved(e)
	}
	return tea.Batch(cmd, m.toScreens(msg))
}

func (m *Model) setServer(e client.ServerStateChanged) {
	st := ServerStatus{Name: e.Server, State: e.State, Protocol: e.Protocol, Era: e.Era, Err: e.Err}
	for i := range m.servers {
		if m.servers[i].Name == e.Server {
			st.Host, st.Caps, st.Auth = m.servers[i].Host, m.servers[i].Caps, m.servers[i].Auth
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
	auth := make(map[string]string, len(m.servers))
	for _, s := range m.servers {
		auth[s.Name] = s.Auth
	}
	m.servers = append(m.servers[:0], msg...)
	for i := range m.servers {
		if m.servers[i].Auth == "" {
			m.servers[i].Auth = auth[m.servers[i].Name]
		}
	}
	m.noteSelves()
	return m.toScreens(msg)
}

// handleStreams lets the screens pull what they show of lane 3.
func (m *Model) handleStreams(msg streamsChangedMsg) tea.Cmd { return m.toScreens(msg) }
