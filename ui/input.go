package ui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
)

// handleKey applies global bindings first (they avoid every key a form
// field uses), then hands the key to the current view.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.showHelp {
		// Any key closes the overlay, except quit.
		if key.Matches(k, m.keys.Quit) {
			return tea.Quit
		}
		m.showHelp = false
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return tea.Quit
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	case key.Matches(k, m.keys.NextPane):
		return m.cyclePane(+1)
	case key.Matches(k, m.keys.PrevPane):
		return m.cyclePane(-1)
	case key.Matches(k, m.keys.JumpPane):
		return m.jumpPane(int(k.String()[len(k.String())-1] - '0'))
	case key.Matches(k, m.keys.Prompts):
		m.view = viewPrompts
		if pn := m.focused(); pn != nil {
			return m.sizePane(pn)
		}
		return nil
	case key.Matches(k, m.keys.Tools):
		return m.showView(viewTools)
	case key.Matches(k, m.keys.Traffic):
		return m.showView(viewTraffic)
	case key.Matches(k, m.keys.Journal):
		return m.showView(viewJournal)
	case key.Matches(k, m.keys.Logs):
		return m.showView(viewLogs)
	case key.Matches(k, m.keys.Resources):
		if m.view == viewResources {
			return m.showView(viewTemplates)
		}
		return m.showView(viewResources)
	case key.Matches(k, m.keys.Templates):
		return m.showView(viewTemplates)
	case key.Matches(k, m.keys.Tasks):
		return m.showView(viewTasks)
	}
	if !m.typing() && key.Matches(k, m.keys.HelpQ) {
		m.showHelp = true
		return nil
	}
	switch m.view {
	case viewPrompts:
		return m.paneKey(k)
	case viewTools:
		return m.tools.key(m, k)
	case viewTraffic:
		return m.traffic.key(m, k)
	case viewJournal:
		return m.journal.key(m, k)
	case viewLogs:
		return m.logs.key(m, k)
	case viewResources:
		return m.resources.key(m, k)
	case viewTemplates:
		return m.templates.key(m, k)
	case viewTasks:
		return m.tasks.key(m, k)
	}
	return nil
}

// showView switches views and refreshes what the new one shows.
func (m *Model) showView(v viewID) tea.Cmd {
	m.view = v
	switch v {
	case viewTraffic:
		m.traffic.refresh(m)
	case viewLogs:
		m.logs.refresh(m)
	case viewJournal:
		return m.loadJournal()
	case viewTools:
		return m.tools.enter(m)
	case viewResources:
		return m.resources.enter(m)
	case viewTemplates:
		return tea.Batch(m.templates.enter(m), m.templates.resize(m))
	case viewTasks:
		return m.tasks.load(m)
	}
	return nil
}

// handleClick focuses the pane whose strip entry was clicked, or declines
// the focused prompt when its Decline button was.
func (m *Model) handleClick(c tea.MouseClickMsg) tea.Cmd {
	if c.Button != tea.MouseLeft {
		return nil
	}
	if c.Y != stripRow {
		if m.declineAt(c.X, c.Y) {
			m.focused().answer(question.Outcome{Kind: question.Decline})
		}
		return nil
	}
	for _, it := range m.stripLayout() {
		if c.X >= it.x0 && c.X < it.x1 {
			m.view = viewPrompts
			return m.focusPane(it.id)
		}
	}
	return nil
}

// declineAt reports whether screen cell (x, y) is on the focused open
// prompt's Decline button. It looks for the button in the rendered body
// instead of recomputing the layout, so it agrees with what is on screen
// whatever wraps. The button counts only on the pane's last line of text,
// the footer, where server text cannot be: a message that says "Decline
// ctrl+x" is not a button.
func (m *Model) declineAt(x, y int) bool {
	pn := m.focused()
	if m.view != viewPrompts || m.showHelp || pn == nil || !pn.open() || m.width == 0 {
		return false
	}
	lines := strings.Split(ansi.Strip(fitBody(m.renderPrompts(), m.width, m.bodyHeight())), "\n")
	last := -1
	for i := len(lines) - 1; i >= 0 && last < 0; i-- {
		if strings.IndexFunc(lines[i], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			last = i
		}
	}
	row := y - (stripRow + 1)
	if last < 0 || row != last {
		return false
	}
	i := strings.Index(lines[row], declineLabel)
	if i < 0 {
		return false
	}
	btn := m.st.Pane.Button
	x0 := ansi.StringWidth(lines[row][:i]) - btn.GetPaddingLeft()
	x1 := x0 + btn.GetPaddingLeft() + ansi.StringWidth(declineLabel) + btn.GetPaddingRight()
	return x >= x0 && x < x1
}
