package ui

import (
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/client/question"
)

// handleKey applies global bindings first (they avoid every key a form
// field uses), then hands the key to the current view.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	quit := key.Matches(k, m.keys.Quit)
	if !quit {
		m.quitAsked = false // any other key withdraws the question
	}
	if m.showHelp {
		// Any key closes the overlay, except quit and the ones that
		// scroll it.
		switch {
		case quit:
			return m.quit()
		case k.Code == tea.KeyUp:
			m.scrollHelp(-1)
		case k.Code == tea.KeyDown:
			m.scrollHelp(+1)
		case k.Code == tea.KeyPgUp:
			m.scrollHelp(-max(m.bodyHeight()-4, 1))
		case k.Code == tea.KeyPgDown:
			m.scrollHelp(max(m.bodyHeight()-4, 1))
		default:
			m.showHelp, m.helpScroll = false, 0
		}
		return nil
	}
	switch {
	case quit:
		return m.quit()
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	case key.Matches(k, m.keys.NextPane):
		return m.cyclePane(+1)
	case key.Matches(k, m.keys.PrevPane):
		return m.cyclePane(-1)
	case key.Matches(k, m.keys.JumpPane):
		return m.jumpPane(int(k.String()[len(k.String())-1] - '0'))
	}
	if v, ok := m.tabFor(k); ok {
		return m.showView(v)
	}
	if !m.typing() && key.Matches(k, m.keys.HelpQ) {
		m.showHelp = true
		return nil
	}
	if cmd, ok := m.readerKey(k); ok {
		return cmd
	}
	return m.shown.key(&m.viewCtx, k)
}

// quit quits, asking once first when questions are open: quitting ends
// them abandoned (each answered cancel), which a stray ctrl+c should not
// do to a question someone was about to answer.
func (m *Model) quit() tea.Cmd {
	n := 0
	for _, pn := range m.prompts.panes {
		if pn.open() {
			n++
		}
	}
	if n == 0 || m.quitAsked {
		return tea.Quit
	}
	m.quitAsked = true
	q := "1 question is"
	if n > 1 {
		q = fmt.Sprintf("%d questions are", n)
	}
	m.notice = q + " open: ctrl+c again quits, and they end abandoned (answered cancel); any other key stays"
	return nil
}

// handleClick focuses the pane whose strip entry was clicked, or declines
// the focused prompt when its Decline button was.
func (m *Model) handleClick(c tea.MouseClickMsg) tea.Cmd {
	if c.Button != tea.MouseLeft {
		return nil
	}
	if c.Y != stripRow {
		if pn := m.prompts.focused(); m.declineAt(c.X, c.Y) && pn.armed(m.now(), m.opts.ArmDelay) {
			pn.answer(question.Outcome{Kind: question.Decline})
		}
		return nil
	}
	for _, it := range m.stripLayout() {
		if c.X >= it.x0 && c.X < it.x1 {
			m.setView(viewPrompts)
			return m.prompts.focusPane(&m.viewCtx, it.id)
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
	pn := m.prompts.focused()
	if m.view != viewPrompts || m.showHelp || pn == nil || !pn.open() || m.width == 0 {
		return false
	}
	lines := strings.Split(ansi.Strip(fitBody(m.prompts.render(&m.viewCtx), m.width, m.bodyHeight())), "\n")
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
