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
		cmd = m.handleStreams()
	case paneExpireMsg:
		cmd = m.handlePaneExpire(msg)
	case waitTickMsg:
		cmd = m.handleWaitTick()
	case spinTickMsg:
		cmd = m.handleSpinTick(msg)
	case serversMsg:
		cmd = m.handleServers(msg)
	case journalMsg:
		m.journal.set(msg)
	case toolsMsg:
		cmd = m.handleTools(msg)
	case callDoneMsg:
		cmd = m.handleCallDone(msg)
	case resourcesMsg:
		m.handleResources(msg)
	case resourceReadMsg:
		m.handleResourceRead(msg)
	case templatesMsg:
		m.handleTemplates(msg)
	case templateGotMsg:
		m.handleTemplateGot(msg)
	case tasksMsg:
		m.handleTasks(msg)
	case taskCancelledMsg:
		m.handleTaskCancelled(msg)
	case urlOpenedMsg:
		m.handleURLOpened(msg)
	case exportedMsg:
		m.handleExported(msg)
	case noticeMsg:
		m.notice = string(msg)
	case Probe:
		msg(m)
	}
	m.markSeen()
	return m, tea.Batch(cmd, m.armTicks())
}
