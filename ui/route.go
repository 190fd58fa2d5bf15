package ui

import tea "charm.land/bubbletea/v2"

// How the messages every screen may care about reach the screens: routed
// form messages to the form's owner, a paste to the screen on show, the
// background and the window size to every form, and the rest to every
// updater. The screens' optional parts are in screen.go.

// handleRouted gives a form's message to the screen that owns the form.
func (m *Model) handleRouted(msg routedMsg) tea.Cmd {
	for _, t := range m.tabs {
		if r, ok := t.screen.(router); ok {
			if cmd, mine := r.routed(&m.viewCtx, msg); mine {
				return cmd
			}
		}
	}
	return nil // a form that is gone
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	if pg := m.openPager(); pg != nil && pg.paste(msg.Content) {
		return nil
	}
	if m.readers[m.view] != nil {
		return nil
	}
	if p, ok := m.shown.(paster); ok {
		return p.paste(&m.viewCtx, msg)
	}
	return nil
}

// handleBackground switches light/dark styles and tells every form (huh
// assumes a light background until told).
func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	m.bg = msg
	m.isDark = msg.IsDark()
	m.st = m.theme.Styles(m.isDark)
	cmds := make([]tea.Cmd, 0, len(m.tabs))
	for _, t := range m.tabs {
		if b, ok := t.screen.(backgrounder); ok {
			cmds = append(cmds, b.background(&m.viewCtx, msg))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleResize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = msg.Width, msg.Height
	m.noticeRows = len(m.noticeLines())
	return m.resizeScreens()
}

// resizeScreens sizes every screen's forms to the body as it is now.
func (m *Model) resizeScreens() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.tabs))
	for _, t := range m.tabs {
		if r, ok := t.screen.(resizer); ok {
			cmds = append(cmds, r.resize(&m.viewCtx))
		}
	}
	return tea.Batch(cmds...)
}

// handleScreenMsg hands a screen's own message to the screens.
func (m *Model) handleScreenMsg(msg screenMsg) tea.Cmd { return m.toScreens(msg) }

// toScreens gives msg to every updater, shown or not.
func (m *Model) toScreens(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, t := range m.tabs {
		if u, ok := t.screen.(updater); ok {
			cmds = append(cmds, u.update(&m.viewCtx, msg))
		}
	}
	return tea.Batch(cmds...)
}
