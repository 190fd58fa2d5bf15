package ui

import tea "charm.land/bubbletea/v2"

// Update is only the type switch: one line per case, each calling a named
// handler. Handlers never do IO and never call the engine: client work
// runs in tea.Cmds (see AGENTS.md). The one exception to "no side effects"
// is a pane's buffered reply send, which never blocks.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmd = m.handleKey(msg)
	case tea.PasteMsg:
		cmd = m.handlePaste(msg)
	case tea.MouseClickMsg:
		cmd = m.handleClick(msg)
	case tea.MouseWheelMsg:
		cmd = m.handleWheel(msg)
	case readMsg:
		m.handleRead(msg)
	case tea.WindowSizeMsg:
		cmd = m.handleResize(msg)
	case tea.BackgroundColorMsg:
		cmd = m.handleBackground(msg)
	case routedMsg:
		cmd = m.handleRouted(msg)
	case promptOpenedMsg:
		cmd = m.handlePromptOpened(msg)
	case promptClosedMsg:
		cmd = m.handlePromptClosed(msg)
	case eventMsg:
		cmd = m.handleEvent(msg)
	case streamsChangedMsg:
		cmd = m.handleStreams(msg)
	case waitTickMsg:
		cmd = m.handleWaitTick(msg)
	case spinTickMsg:
		cmd = m.handleSpinTick(msg)
	case serversMsg:
		cmd = m.handleServers(msg)
	case showTaskPromptMsg:
		cmd = m.handleShowTaskPrompt(msg)
	case showFrameMsg:
		cmd = m.handleShowFrame(msg)
	case urlOpenedMsg:
		m.handleURLOpened(msg)
	case mediaSavedMsg:
		m.handleMediaSaved(msg)
	case noticeMsg:
		cmd = m.handleNotice(msg)
	case authStateMsg:
		m.handleAuthState(msg)
	case runMsg:
		cmd = m.handleRun(msg)
	case ranMsg:
		cmd = m.handleRan(msg)
	case agentsChangedMsg:
		cmd = loadAgents(m.engine)
	case agentsMsg:
		cmd = m.handleAgents(msg)
	case screenMsg:
		cmd = m.handleScreenMsg(msg)
	case Probe:
		m.handleProbe(msg)
	}
	settled := m.settlePanes()
	m.countOpen() // agent_model.go
	return m, tea.Batch(cmd, settled, m.armTicks())
}

// handleProbe runs a test's probe on the event loop.
func (m *Model) handleProbe(p Probe) { p(m) }
