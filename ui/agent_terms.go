package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// terminalLines is how many lines of its output a terminal shows; the
// panel shows the newest terminalsShown terminals.
const (
	terminalLines  = 4
	terminalsShown = 3
)

// terminalPanel draws the agent's terminals (--allow-terminal) above the
// prompt box, each with the end of its output, read at each frame: while
// a turn runs the view redraws (its spinner), so the output is live.
func terminalPanel(c *viewCtx, terms []AgentTerminal) []string {
	if len(terms) == 0 {
		return nil
	}
	st, w := c.st, max(c.width, 20)
	out := []string{st.Muted.Render(strings.Repeat("─", w))}
	if n := len(terms) - terminalsShown; n > 0 {
		out = append(out, st.Muted.Render(ansi.Truncate("  … "+strconv.Itoa(n)+" older terminals", w, "…")))
		terms = terms[n:]
	}
	for _, t := range terms {
		state, style := "running (alt+k kills it, alt+o shows it)", st.Info
		if t.Exited {
			state, style = untrusted.Line(t.Ended), st.Muted
		}
		// The state before the command line, which may be long.
		out = append(out, ansi.Truncate(st.Title.Render("▣ "+untrusted.Line(t.ID))+st.Muted.Render(" · ")+style.Render(state)+
			st.Muted.Render(" · "+untrusted.Line(t.Command)), w, "…"))
		lines := strings.Split(strings.TrimRight(strings.ReplaceAll(t.Output, "\r\n", "\n"), "\n"), "\n")
		if len(lines) > terminalLines {
			lines = lines[len(lines)-terminalLines:]
		}
		for _, l := range lines {
			if l != "" {
				out = append(out, st.Text.Render(ansi.Truncate("  "+untrusted.Line(l), w, "…")))
			}
		}
	}
	return out
}

// killNewest kills the newest running terminal of the agent.
func killNewest(c *viewCtx, agent string, terms []AgentTerminal) tea.Cmd {
	for i := len(terms) - 1; i >= 0; i-- {
		if t := terms[i]; !t.Exited {
			return killTerminal(c, agent, t.ID)
		}
	}
	return notice("no terminal of the agent's is running")
}

// killTerminal kills one of the agent's terminals for the person.
func killTerminal(c *viewCtx, agent, id string) tea.Cmd {
	eng := c.engine
	return func() tea.Msg {
		if err := eng.AgentKillTerminal(agent, id); err != nil {
			return noticeMsg("kill " + untrusted.Line(id) + ": " + err.Error())
		}
		return noticeMsg("killed " + untrusted.Line(id))
	}
}
