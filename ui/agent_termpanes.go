package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// termPanes shows the agent's terminals as panes (alt+o) in place of the
// transcript: each a frame with its state, its command line and its
// output (the end the engine keeps, bounded), live while it runs; two
// side by side from 120 cells. tab and ←→ move the focus, k kills the
// focused one, pgup/pgdn scroll its output, esc (or alt+o) goes back to
// the transcript. The panel above the prompt box stays the overview.
type termPanes struct {
	open  bool
	focus string // the focused terminal's id
	// scroll is how many lines the focused pane's output is scrolled up.
	scroll int
}

// termPanesWide is the width from which two panes stand side by side.
const termPanesWide = 120

// focused is the index of the focused terminal in terms (the newest
// when the focus is on none of them).
func (p *termPanes) focused(terms []AgentTerminal) int {
	for i, t := range terms {
		if t.ID == p.focus {
			return i
		}
	}
	if len(terms) == 0 {
		return -1
	}
	p.focus, p.scroll = terms[len(terms)-1].ID, 0
	return len(terms) - 1
}

// openTermPanes opens the panes on the newest terminal.
func (v *agentView) openTermPanes(c *viewCtx, a AgentStatus) tea.Cmd {
	terms := c.engine.AgentTerminals(a.Name)
	if len(terms) == 0 {
		return notice(untrusted.Line(a.Name) + " has no terminals (elicit acp --allow-terminal lets it run some)")
	}
	v.termPanes = termPanes{open: true, focus: terms[len(terms)-1].ID}
	return nil
}

// termPanesKey handles a key while the panes are open.
func (v *agentView) termPanesKey(c *viewCtx, a AgentStatus, k tea.KeyPressMsg) tea.Cmd {
	p := &v.termPanes
	terms := c.engine.AgentTerminals(a.Name)
	i := p.focused(terms)
	if i < 0 || key.Matches(k, c.keys.AgentStop) || key.Matches(k, c.keys.AgentTermPanes) {
		p.open = false
		return nil
	}
	move := func(d int) {
		p.focus, p.scroll = terms[(i+d+len(terms))%len(terms)].ID, 0
	}
	switch {
	case k.Code == tea.KeyTab || k.Code == tea.KeyRight:
		move(1)
	case k.Code == tea.KeyLeft || k.Code == tea.KeyTab && k.Mod == tea.ModShift:
		move(-1)
	case key.Matches(k, c.keys.PageUp):
		p.scroll += max(c.bodyHeight()/2, 1)
	case key.Matches(k, c.keys.PageDown):
		p.scroll = max(p.scroll-max(c.bodyHeight()/2, 1), 0)
	case k.Code == 'k' || key.Matches(k, c.keys.AgentKillTerm):
		t := terms[i]
		if t.Exited {
			return notice(untrusted.Line(t.ID) + " is not running: " + untrusted.Line(t.Ended))
		}
		return killTerminal(c, a.Name, t.ID)
	}
	return nil
}

// termPaneLines draw the panes in h rows of width w.
func (v *agentView) termPaneLines(c *viewCtx, terms []AgentTerminal, w, h int) []string {
	p := &v.termPanes
	i := p.focused(terms)
	if i < 0 {
		p.open = false
		return nil
	}
	shown := []int{i}
	if w >= termPanesWide && len(terms) > 1 {
		// The focused one and the one after it (before it, for the last).
		if i+1 < len(terms) {
			shown = []int{i, i + 1}
		} else {
			shown = []int{i - 1, i}
		}
	}
	pw := w / len(shown)
	cols := make([][]string, len(shown))
	for n, j := range shown {
		frame, scroll := c.st.Pane.Frame, 0
		if j == i {
			frame, scroll = c.st.Pane.Focused, p.scroll
		}
		title := fmt.Sprintf("%d/%d %s", j+1, len(terms), untrusted.Line(terms[j].ID))
		iw, ih := paneInnerOf(pw, h)
		body, used := termPaneBody(c, terms[j], iw, ih, scroll)
		if j == i {
			p.scroll = used
		}
		cols[n] = strings.Split(drawTitledFrame(frame, title, body, pw, h), "\n")
	}
	out := cols[0]
	for _, col := range cols[1:] {
		for r := range out {
			out[r] += col[r]
		}
	}
	return out
}

// termPaneBody is a pane's inside: the state and command, then the end
// of its output scrolled up by scroll lines (returned as kept in bounds).
// The output is the command's: every line through untrusted, a
// carriage return's overwritten text left out as a terminal would.
func termPaneBody(c *viewCtx, t AgentTerminal, w, h, scroll int) (string, int) {
	st := c.st
	state, style := "running · k kills it", st.Info
	if t.Exited {
		state, style = untrusted.Line(t.Ended), st.Muted
	}
	head := []string{style.Render(ansi.Truncate(state, w, "…")), st.Muted.Render(ansi.Truncate("$ "+untrusted.Line(t.Command), w, "…"))}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(strings.ReplaceAll(t.Output, "\r\n", "\n"), "\n"), "\n") {
		if k := strings.LastIndexByte(l, '\r'); k >= 0 {
			l = l[k+1:]
		}
		for _, wl := range strings.Split(ansi.Hardwrap(untrusted.Line(l), w, false), "\n") {
			out = append(out, st.Text.Render(wl))
		}
	}
	if len(out) == 1 && out[0] == st.Text.Render("") {
		out = []string{st.Muted.Render("(no output yet)")}
	}
	room := max(h-len(head), 1)
	scroll = min(scroll, max(len(out)-room, 0))
	end := len(out) - scroll
	win := out[max(end-room, 0):end]
	if scroll > 0 {
		win = append(win[:len(win)-1:len(win)-1], st.Muted.Render(fmt.Sprintf("↓ %d lines below (pgdn)", scroll)))
	}
	return strings.Join(append(head, win...), "\n"), scroll
}

// termPanesFooter is the keys line while the panes are open.
func termPanesFooter(c *viewCtx) string {
	st := c.st
	k := func(key, desc string) string { return st.Pane.Key.Render(key) + " " + st.Pane.KeyDesc.Render(desc) }
	return ansi.Truncate(strings.Join([]string{k("tab/←→", "next terminal"), k("k", "kill it"), k("pgup/pgdn", "scroll"),
		k("esc", "back to the transcript")}, "  "), c.width, "…")
}
