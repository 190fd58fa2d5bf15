package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// agentSessions is the agent view's session list (alt+h): the agent's
// sessions (session/list, every page), in place of the prompt box; enter
// loads one (session/load: its history replayed into the transcript), r
// resumes one (session/resume), d deletes one (session/delete) once the
// person says y. Each is offered only when the agent declares it.
type agentSessions struct {
	open    bool
	agent   string
	loading bool
	list    []AgentSession
	err     error
	row     int
	// deleting is the session a delete waits on the person's y for.
	deleting string
	// opening is the agent a load or resume is under way for (no
	// prompt meanwhile); it outlives the list.
	opening string
}

// agentSessionsMsg is a session/list's answer.
type agentSessionsMsg struct {
	agent string
	list  []AgentSession
	err   error
}

// agentOpenedMsg says a load or resume ended.
type agentOpenedMsg struct {
	agent string
	err   error
}

func (agentSessionsMsg) screenMsg() {}
func (agentOpenedMsg) screenMsg()   {}

// openSessions opens the list and asks the agent for it.
func (v *agentView) openSessions(c *viewCtx, a AgentStatus) tea.Cmd {
	switch {
	case !a.Can.List:
		return notice(untrusted.Line(a.Name) + " does not declare session/list (sessionCapabilities.list)")
	case v.turns[a.Name] != nil:
		return notice("a turn is under way: wait for it, or esc stops it")
	case v.sessions.opening != "":
		return notice("a session is opening: wait for it")
	case a.SessionID == "":
		return notice(untrusted.Line(a.Name) + " is not ready: " + agentStateText(a))
	}
	v.sessions = agentSessions{open: true, agent: a.Name, loading: true}
	return listSessions(c, a.Name)
}

func listSessions(c *viewCtx, name string) tea.Cmd {
	eng := c.engine
	return func() tea.Msg {
		list, err := eng.AgentSessions(name)
		if err != nil {
			err = fmt.Errorf("session/list: %w", err)
		}
		return agentSessionsMsg{agent: name, list: list, err: err}
	}
}

// sessionsMsg takes the list's answer.
func (v *agentView) sessionsMsg(msg agentSessionsMsg) {
	s := &v.sessions
	if !s.open || s.agent != msg.agent {
		return
	}
	s.loading, s.list, s.err = false, msg.list, msg.err
	s.row = min(s.row, max(len(s.list)-1, 0))
}

// sessionsKey handles a key while the list is open.
func (v *agentView) sessionsKey(c *viewCtx, a AgentStatus, k tea.KeyPressMsg) tea.Cmd {
	s := &v.sessions
	if s.agent != a.Name {
		s.open = false
		return nil
	}
	if s.deleting != "" {
		id := s.deleting
		s.deleting = ""
		if k.Code != 'y' {
			return notice("kept session " + untrusted.Line(id))
		}
		s.loading = true
		eng, name := c.engine, a.Name
		return func() tea.Msg {
			derr := eng.AgentDeleteSession(name, id)
			list, err := eng.AgentSessions(name)
			if derr != nil {
				err = fmt.Errorf("session/delete %s: %w", id, derr)
			} else if err != nil {
				err = fmt.Errorf("session/list: %w", err)
			}
			return agentSessionsMsg{agent: name, list: list, err: err}
		}
	}
	if key.Matches(k, c.keys.AgentStop) || key.Matches(k, c.keys.AgentSessions) {
		s.open = false
		return nil
	}
	if s.loading || len(s.list) == 0 {
		return nil
	}
	sel := s.list[s.row]
	switch k.Code {
	case tea.KeyUp:
		s.row = (s.row - 1 + len(s.list)) % len(s.list)
	case tea.KeyDown, tea.KeyTab:
		s.row = (s.row + 1) % len(s.list)
	case tea.KeyEnter:
		if !a.Can.Load {
			return notice(untrusted.Line(a.Name) + " does not declare session/load (loadSession)")
		}
		return v.reopen(c, a.Name, sel.ID, true)
	case 'r':
		if !a.Can.Resume {
			return notice(untrusted.Line(a.Name) + " does not declare session/resume (sessionCapabilities.resume)")
		}
		return v.reopen(c, a.Name, sel.ID, false)
	case 'd':
		if !a.Can.Delete {
			return notice(untrusted.Line(a.Name) + " does not declare session/delete (sessionCapabilities.delete)")
		}
		s.deleting = sel.ID
	}
	return nil
}

// reopen loads or resumes session id: the list closes and the transcript
// says so before the history the agent replays.
func (v *agentView) reopen(c *viewCtx, name, id string, load bool) tea.Cmd {
	v.sessions.open, v.sessions.opening = false, name
	v.scroll = 0
	eng, logs := c.engine, c.agentLogs
	what := "resume"
	if load {
		what = "load"
	}
	return func() tea.Msg {
		logs.note(name, agentEntry{kind: entryNote, text: what + ": session " + untrusted.Line(id)})
		return agentOpenedMsg{agent: name, err: eng.AgentOpenSession(name, id, load)}
	}
}

// sessionsLines draw the list in place of the prompt box.
func (v *agentView) sessionsLines(c *viewCtx, a AgentStatus) []string {
	st, s := c.st, &v.sessions
	var keys []string
	if a.Can.Load {
		keys = append(keys, "enter load")
	}
	if a.Can.Resume {
		keys = append(keys, "r resume")
	}
	if a.Can.Delete {
		keys = append(keys, "d delete")
	}
	keys = append(keys, "esc close")
	out := []string{st.Title.Render("Sessions") + st.Muted.Render("  ↑↓ "+strings.Join(keys, "  "))}
	switch {
	case s.loading:
		return append(out, st.Muted.Render("  session/list…"))
	case s.err != nil:
		out = append(out, wrapStyled(st.Warning, "  "+errText(s.err), c.width)...)
	case len(s.list) == 0:
		return append(out, st.Muted.Render("  the agent lists no sessions"))
	}
	// A window of at most 8 rows around the selection.
	start := max(min(s.row-3, len(s.list)-8), 0)
	for i := start; i < min(start+8, len(s.list)); i++ {
		e := s.list[i]
		mark, style := "  ", st.Text
		if i == s.row {
			mark, style = "▸ ", st.Title
		}
		line := mark + untrusted.Line(e.ID)
		if e.ID == a.SessionID {
			line += " (open)"
		}
		for _, part := range []string{e.Title, e.UpdatedAt, e.Cwd} {
			if part != "" {
				line += " · " + untrusted.Line(part)
			}
		}
		out = append(out, ansi.Truncate(style.Render(line), c.width, "…"))
	}
	if n := len(s.list); n > 8 {
		out = append(out, st.Muted.Render(fmt.Sprintf("  %d sessions", n)))
	}
	if s.deleting != "" {
		out = append(out, wrapStyled(st.Warning, "delete session "+untrusted.Line(s.deleting)+"? y deletes it, any other key keeps it", c.width)...)
	}
	return out
}
