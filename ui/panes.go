package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// How panes come and go. The Model does this, not the prompts screen: a
// prompt opens, ends and may take the screen on the engine's word (lanes
// 1 and 2), whatever is on show.

// showTaskPromptMsg asks for a task's open prompt to be shown (p in the
// tasks view).
type showTaskPromptMsg struct{ task client.Task }

// handlePromptOpened makes a pane for a new prompt. Focus belongs to the
// person: a new prompt never switches the view (the tab counter and the
// strip announce it) and never takes focus from an open pane. It becomes
// the pane the prompts view shows only when that view has no open pane in
// focus, and even then answers no key until it has been on screen a
// moment (Options.ArmDelay). In tiles the same holds: it takes a tile
// (or waits on the strip) beside the open pane in focus.
func (m *Model) handlePromptOpened(msg promptOpenedMsg) tea.Cmd {
	ps, p := m.prompts, msg.p
	if _, dup := ps.byKey[p.Key]; dup {
		// The engine keeps keys unique; a duplicate is refused rather
		// than allowed to shadow a pane.
		msg.reply <- question.Outcome{Kind: question.Cancel, Reason: "duplicate prompt key in the UI"}
		return nil
	}
	pn := &pane{id: m.newID(), p: p, reply: msg.reply}
	var cmd tea.Cmd
	paneKindOf(p.Kind).open(m, pn) // kinds.go
	if pn.form != nil {
		cmd = tag(pn.id, pn.form.Init())
		if m.bg != nil {
			cmd = tea.Batch(cmd, tag(pn.id, pn.form.Update(m.bg)))
		}
	}
	ps.panes = append(ps.panes, pn)
	ps.byKey[p.Key] = pn
	ps.byID[pn.id] = pn
	if f := ps.focused(); f == nil || !f.open() {
		return tea.Batch(cmd, ps.focusPane(&m.viewCtx, pn.id))
	}
	return cmd // settlePanes sizes it if it is on screen
}

// handlePromptClosed stops a pane whose prompt context ended.
func (m *Model) handlePromptClosed(msg promptClosedMsg) tea.Cmd {
	pn := m.prompts.byKey[msg.key]
	if pn == nil || !pn.open() {
		// Answered panes wait for the engine's verdict instead.
		return nil
	}
	kind, text := causeText(pn.p.Server, msg.cause)
	if pn.p.Origin.Kind == question.OriginTurn && kind == question.Abandoned {
		text = "the turn was stopped"
	}
	pn.end(kind, text, m.now(), false)
	return nil
}

// handleResolved shows the engine's verdict on a prompt.
func (m *Model) handleResolved(e client.PromptResolved) tea.Cmd {
	pn := m.prompts.byKey[e.Key]
	if pn == nil {
		return nil
	}
	// An ended pane stays, saying how it ended, until the person clears
	// it (enter or ctrl+w on it, ctrl+l for all): one that cleared itself
	// after 5 s was gone before a withdrawal could be read (issue 26).
	pn.end(e.Entry.Kind, endText(pn.p, e.Entry, e.Sent), m.now(), true)
	return nil
}

// cyclePane moves focus by delta through the panes in arrival order (the
// strip's and the tiles'); the tiles' window follows it.
func (m *Model) cyclePane(delta int) tea.Cmd {
	ps := m.prompts
	if len(ps.panes) == 0 {
		return nil
	}
	m.setView(viewPrompts)
	i := ps.indexOf(ps.focus)
	if i < 0 {
		i = 0
	} else {
		i = (i + delta + len(ps.panes)) % len(ps.panes)
	}
	return ps.focusPane(&m.viewCtx, ps.panes[i].id)
}

func (m *Model) jumpPane(n int) tea.Cmd {
	ps := m.prompts
	if n < 1 || n > len(ps.panes) {
		return nil
	}
	m.setView(viewPrompts)
	return ps.focusPane(&m.viewCtx, ps.panes[n-1].id)
}

// handleShowTaskPrompt shows a task's first open prompt.
func (m *Model) handleShowTaskPrompt(msg showTaskPromptMsg) tea.Cmd {
	t := &msg.task
	if pn := m.prompts.taskPane(t); pn != nil {
		m.setView(viewPrompts)
		return m.prompts.focusPane(&m.viewCtx, pn.id)
	}
	return m.setNotice("task " + t.ID + " has no open prompt")
}

// settlePanes runs after every Update: it records which panes are on
// screen (only a pane a person has seen may send an answer; each tile
// counts from the moment it appears) and sizes their forms to their
// tiles.
func (m *Model) settlePanes() tea.Cmd {
	return m.prompts.settle(&m.viewCtx, m.view == viewPrompts && !m.showHelp)
}

func (m *Model) serverHost(name string) string {
	for _, s := range m.servers {
		if s.Name == name {
			return s.Host
		}
	}
	return ""
}

// handleURLOpened reports a URL pane's browser launch on the pane.
func (m *Model) handleURLOpened(msg urlOpenedMsg) {
	pn := m.prompts.byID[msg.id]
	if pn == nil || !pn.open() {
		return
	}
	if msg.err != nil {
		pn.note = "could not open the browser: " + msg.err.Error()
		return
	}
	pn.note = "opened in the browser; accept (enter) when done, or decline"
}
