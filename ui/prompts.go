package ui

import (
	"time"

	"charm.land/bubbles/v2/cursor"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/forms"
)

// paneExpireMsg clears an ended pane after its notice has been shown.
type paneExpireMsg struct{ id int }

// waitTickMsg refreshes the waiting times of open panes.
type waitTickMsg struct{}

// handlePromptOpened makes a pane for a new prompt. It takes focus only if
// no open pane has it: a new prompt never steals focus from a pane being
// typed in; the strip announces it instead.
func (m *Model) handlePromptOpened(msg promptOpenedMsg) tea.Cmd {
	p := msg.p
	if _, dup := m.byKey[p.Key]; dup {
		// The engine keeps keys unique; a duplicate is refused rather
		// than allowed to shadow a pane.
		msg.reply <- client.Outcome{Kind: client.Cancel, Reason: "duplicate prompt key in the UI"}
		return nil
	}
	pn := &pane{id: m.newID(), p: p, reply: msg.reply}
	var cmd tea.Cmd
	if p.Mode == client.ModeURL {
		pn.url = inspectURL(p.URL, m.serverHost(p.Server))
	} else {
		// The form shows the server's message above its fields, sanitized.
		pn.form = forms.New(p.Schema, forms.Options{Message: p.Message, Theme: m.theme.Form})
		cmd = tag(pn.id, pn.form.Init())
		if m.bg != nil {
			cmd = tea.Batch(cmd, tag(pn.id, pn.form.Update(m.bg)))
		}
	}
	m.panes = append(m.panes, pn)
	m.byKey[p.Key] = pn
	m.byID[pn.id] = pn
	if f := m.focused(); f == nil || !f.open() {
		if m.view != viewPrompts && !m.typing() {
			m.view = viewPrompts
		}
		return tea.Batch(cmd, m.focusPane(pn.id))
	}
	return cmd
}

// handlePromptClosed stops a pane whose prompt context ended.
func (m *Model) handlePromptClosed(msg promptClosedMsg) tea.Cmd {
	pn := m.byKey[msg.key]
	if pn == nil || !pn.open() {
		// Answered panes wait for the engine's verdict instead.
		return nil
	}
	kind, text := causeText(pn.p.Server, msg.cause)
	pn.end(kind, text, m.now(), false)
	return m.expireLater(pn.id)
}

// handleResolved shows the engine's verdict on a prompt.
func (m *Model) handleResolved(e client.PromptResolved) tea.Cmd {
	pn := m.byKey[e.Key]
	if pn == nil {
		return m.loadJournal()
	}
	pn.end(e.Entry.Kind, endText(pn.p, e.Entry, e.Sent), m.now(), true)
	return tea.Batch(m.expireLater(pn.id), m.loadJournal())
}

func (m *Model) expireLater(id int) tea.Cmd {
	return tea.Tick(m.opts.EndedLinger, func(time.Time) tea.Msg { return paneExpireMsg{id: id} })
}

func (m *Model) handlePaneExpire(msg paneExpireMsg) tea.Cmd {
	pn := m.byID[msg.id]
	if pn == nil || pn.state != paneEnded {
		return nil
	}
	return m.removePane(pn)
}

// removePane drops an ended pane; the journal keeps its outcome. Focus
// moves to the next pane, preferring open ones.
func (m *Model) removePane(pn *pane) tea.Cmd {
	i := m.indexOf(pn.id)
	if i < 0 {
		return nil
	}
	m.panes = append(m.panes[:i], m.panes[i+1:]...)
	delete(m.byKey, pn.p.Key)
	delete(m.byID, pn.id)
	if m.focus != pn.id {
		return nil
	}
	m.focus = 0
	if len(m.panes) == 0 {
		return nil
	}
	for j := range m.panes {
		if c := m.panes[(i+j)%len(m.panes)]; c.open() {
			return m.focusPane(c.id)
		}
	}
	return m.focusPane(m.panes[min(i, len(m.panes)-1)].id)
}

func (m *Model) indexOf(id int) int {
	for i, p := range m.panes {
		if p.id == id {
			return i
		}
	}
	return -1
}

// focusPane gives a pane focus and sizes its form for the current window
// (forms are sized lazily, so 200 hidden panes cost nothing on resize).
func (m *Model) focusPane(id int) tea.Cmd {
	pn := m.byID[id]
	if pn == nil {
		return nil
	}
	m.focus = id
	return m.sizePane(pn)
}

func (m *Model) sizePane(pn *pane) tea.Cmd {
	if pn.form == nil || m.width == 0 {
		return nil
	}
	w, h := m.paneInner()
	// The form shows the message itself; the header, a note, a blank
	// line and the footer take four more.
	return tag(pn.id, pn.form.SetSize(w, max(h-4, 3)))
}

// cyclePane moves focus by delta through the panes in strip order.
func (m *Model) cyclePane(delta int) tea.Cmd {
	if len(m.panes) == 0 {
		return nil
	}
	m.view = viewPrompts
	i := m.indexOf(m.focus)
	if i < 0 {
		i = 0
	} else {
		i = (i + delta + len(m.panes)) % len(m.panes)
	}
	return m.focusPane(m.panes[i].id)
}

func (m *Model) jumpPane(n int) tea.Cmd {
	if n < 1 || n > len(m.panes) {
		return nil
	}
	m.view = viewPrompts
	return m.focusPane(m.panes[n-1].id)
}

// markSeen records that the focused pane is on screen: only a pane a
// person has seen may send an answer.
func (m *Model) markSeen() {
	if m.view != viewPrompts {
		return
	}
	if p := m.focused(); p != nil {
		p.seen = true
	}
}

// armTicks starts the 1 s waiting-time tick while a waiting time is on
// screen and nothing else redraws it, and the spinner while a call runs.
// Neither runs when idle.
func (m *Model) armTicks() tea.Cmd {
	var cmds []tea.Cmd
	if !m.ticking && m.waitNeedsTick() {
		m.ticking = true
		cmds = append(cmds, tea.Tick(time.Second, func(time.Time) tea.Msg { return waitTickMsg{} }))
	}
	if !m.spin.running && m.spinNeeded() {
		m.spin.running = true
		m.spin.gen++
		cmds = append(cmds, m.spin.tick())
	}
	if pn := m.focused(); pn != nil && pn.blinkParked && m.onScreen(pn) && pn.open() && pn.form != nil {
		pn.blinkParked = false
		cmds = append(cmds, m.formUpdate(pn, cursor.Blink()))
	}
	return tea.Batch(cmds...)
}

// onScreen reports whether pn is the pane being shown.
func (m *Model) onScreen(pn *pane) bool {
	return m.view == viewPrompts && m.focused() == pn
}

func (m *Model) handleWaitTick() tea.Cmd {
	m.ticking = false // armTicks re-arms it if a pane is still open
	return nil
}

// waitNeedsTick reports whether the focused pane's "waiting Ns" is on
// screen with nothing to refresh it: it is only drawn in the prompts view,
// and a form whose cursor blinks there is redrawn twice a second already
// (one wake-up fewer per second for an idle screen; BENCHMARKS.md).
func (m *Model) waitNeedsTick() bool {
	pn := m.focused()
	if m.view != viewPrompts || pn == nil || !pn.open() {
		return false
	}
	return pn.form == nil || pn.blinkParked || !pn.form.Blinking()
}

// paneKey handles a key in the prompts view.
func (m *Model) paneKey(k tea.KeyPressMsg) tea.Cmd {
	pn := m.focused()
	if pn == nil {
		if key.Matches(k, m.keys.HelpQ) {
			m.showHelp = true
		}
		return nil
	}
	if !pn.open() {
		switch {
		case key.Matches(k, m.keys.Dismiss):
			if pn.state == paneEnded {
				return m.removePane(pn)
			}
		case key.Matches(k, m.keys.HelpQ):
			m.showHelp = true
		}
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Decline):
		pn.answer(client.Outcome{Kind: client.Decline})
		return nil
	case key.Matches(k, m.keys.Cancel) && (pn.form == nil || !pn.form.Filtering()):
		pn.answer(client.Outcome{Kind: client.Cancel})
		return nil
	}
	if pn.form == nil {
		return m.urlKey(pn, k)
	}
	return m.formUpdate(pn, k)
}

// formUpdate feeds a message to a pane's form and accepts once the form
// is submitted and its content validates.
func (m *Model) formUpdate(pn *pane, msg tea.Msg) tea.Cmd {
	cmd := tag(pn.id, pn.form.Update(msg))
	if pn.open() && pn.form.Submitted() {
		content, err := pn.form.Content()
		if err != nil {
			pn.note = "not sent: " + err.Error()
			return cmd
		}
		pn.note = ""
		pn.answer(client.Outcome{Kind: client.Accept, Content: content})
	}
	return cmd
}

func (m *Model) handleRouted(msg routedMsg) tea.Cmd {
	if pn := m.byID[msg.id]; pn != nil {
		if pn.form == nil || pn.state != paneOpen {
			return nil
		}
		if _, blink := msg.msg.(cursor.BlinkMsg); blink && !m.onScreen(pn) {
			// Every open form has a focused input whose cursor blinks
			// twice a second; fifty hidden panes would redraw the screen
			// a hundred times a second for nothing. Dropping the blink
			// stops that pane's loop until it is shown again.
			pn.blinkParked = true
			return nil
		}
		return m.formUpdate(pn, msg.msg)
	}
	if cmd, ok := m.templates.routed(m, msg); ok {
		return cmd
	}
	cmd, _ := m.tools.routed(m, msg)
	return cmd
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch m.view {
	case viewPrompts:
		if pn := m.focused(); pn != nil && pn.open() && pn.form != nil {
			return m.formUpdate(pn, msg)
		}
	case viewTools:
		return m.tools.paste(m, msg)
	case viewTemplates:
		return m.templates.paste(m, msg)
	}
	return nil
}

// handleBackground switches light/dark styles and tells every form (huh
// assumes a light background until told).
func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	m.bg = msg
	m.isDark = msg.IsDark()
	m.st = m.theme.Styles(m.isDark)
	cmds := make([]tea.Cmd, 0, len(m.panes)+1)
	for _, pn := range m.panes {
		if pn.form != nil {
			cmds = append(cmds, tag(pn.id, pn.form.Update(msg)))
		}
	}
	cmds = append(cmds, m.tools.background(msg), m.templates.background(msg))
	return tea.Batch(cmds...)
}

func (m *Model) handleResize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = msg.Width, msg.Height
	var cmd tea.Cmd
	if pn := m.focused(); pn != nil {
		cmd = m.sizePane(pn)
	}
	return tea.Batch(cmd, m.tools.resize(m), m.templates.resize(m))
}

func (m *Model) serverHost(name string) string {
	for _, s := range m.servers {
		if s.Name == name {
			return s.Host
		}
	}
	return ""
}
