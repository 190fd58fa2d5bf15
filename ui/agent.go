package ui

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// agentView is an ACP agent's session: the transcript of its turns as
// they stream in (message and thought chunks, tool calls with their
// content, unknown updates said plainly), its plan, mode, commands and
// usage, and a prompt box. Enter sends a prompt (session/prompt); Esc
// while a turn runs stops it (session/cancel), and the turn shows
// "cancelled" only when the agent's stopReason says so. The agent's
// questions are prompt panes like a server's (F4).
type agentView struct {
	cur   string // the agent shown
	input textinput.Model
	// turns are the turns under way, by agent.
	turns map[string]*agentTurn
	// scroll is how many lines the transcript is scrolled up from its
	// end; 0 follows it.
	scroll int

	snap  agentSnap
	lines []string
	drawn struct { // what lines were drawn for
		of      string
		version uint64
		width   int
		st      *themes.Styles
	}
	styled *themes.Styles // the styles the input was given
	// picker is the mode and config picker (alt+m).
	picker agentPicker
	// sessions is the session list (alt+h).
	sessions agentSessions
	// termPanes are the agent's terminals as panes (alt+o).
	termPanes termPanes
}

// agentTurn is one turn under way.
type agentTurn struct {
	stopping bool // session/cancel sent, the stopReason not yet in
	// abandoned: a second esc abandoned the prompt ($/cancel_request).
	abandoned bool
}

// agentsChangedMsg says an agent's state changed (Bridge.AgentsChanged).
type agentsChangedMsg struct{}

// agentsMsg is the engine's agent list.
type agentsMsg []AgentStatus

// agentTurnDoneMsg is how a turn ended.
type agentTurnDoneMsg struct {
	agent string
	end   AgentTurnEnd
	err   error
}

// agentStopMsg says session/cancel went out (or could not).
type agentStopMsg struct {
	agent string
	err   error
}

func (agentTurnDoneMsg) screenMsg() {}
func (agentStopMsg) screenMsg()     {}

// The parts of a screen the agent view has.
var _ interface {
	screen
	typist
	paster
	updater
	loader
	spins
	badger
} = (*agentView)(nil)

func newAgentView() *agentView {
	in := textinput.New()
	in.Placeholder = "a prompt for the agent (enter sends)"
	in.Prompt = "› "
	in.CharLimit = 64 << 10
	// The agent's commands complete after "/" (tab takes one).
	in.ShowSuggestions = true
	v := &agentView{input: in, turns: map[string]*agentTurn{}}
	v.input.Focus()
	return v
}

func (v *agentView) load(c *viewCtx) tea.Cmd { return loadAgents(c.engine) }

func loadAgents(eng Engine) tea.Cmd {
	return func() tea.Msg { return agentsMsg(eng.Agents()) }
}

func (v *agentView) enter(c *viewCtx) tea.Cmd {
	v.restyle(c)
	return loadAgents(c.engine)
}

func (v *agentView) restyle(c *viewCtx) {
	if v.styled == c.st {
		return
	}
	v.styled = c.st
	s := textinput.DefaultStyles(c.st.IsDark)
	// A steady cursor: a blinking one would redraw twice a second while
	// the person reads a long turn.
	s.Cursor.Blink = false
	v.input.SetStyles(s)
}

// commandSuggestions are the agent's commands as the prompt box
// completes them ("/name "), its names made safe to draw: they are the
// agent's.
func commandSuggestions(cmds []AgentCommand) []string {
	out := make([]string, 0, len(cmds))
	for _, c := range cmds {
		if name := untrusted.Line(c.Name); name != "" && !strings.ContainsAny(name, " \t") {
			out = append(out, "/"+name+" ")
		}
	}
	return out
}

// agent is the status of the agent shown; the first when none is chosen.
func (v *agentView) agent(c *viewCtx) (AgentStatus, bool) {
	for _, a := range c.agents {
		if a.Name == v.cur {
			return a, true
		}
	}
	if len(c.agents) > 0 {
		v.cur = c.agents[0].Name
		return c.agents[0], true
	}
	return AgentStatus{}, false
}

func (v *agentView) typing() bool { return true }

func (v *agentView) spinning(*viewCtx) bool { return v.turns[v.cur] != nil }

// badge counts the turns under way.
func (v *agentView) badge() int { return len(v.turns) }

func (v *agentView) paste(c *viewCtx, msg tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(msg)
	return cmd
}

func (v *agentView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case agentsMsg:
		v.agent(c)
	case agentTurnDoneMsg:
		delete(v.turns, msg.agent)
	case agentSessionsMsg:
		v.sessionsMsg(msg)
	case agentOpenedMsg:
		v.sessions.opening = ""
		if msg.err != nil {
			return notice("the session did not open: " + errText(msg.err))
		}
	case agentStopMsg:
		if msg.err != nil {
			if t := v.turns[msg.agent]; t != nil {
				t.stopping = false
			}
			return notice("stop: " + msg.err.Error())
		}
	}
	return nil
}

func (v *agentView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	a, ok := v.agent(c)
	if !ok {
		return nil
	}
	body := max(c.bodyHeight()-4, 1)
	if v.picker.open {
		return v.pickerKey(c, a, k)
	}
	if v.sessions.open {
		return v.sessionsKey(c, a, k)
	}
	if v.termPanes.open {
		return v.termPanesKey(c, a, k)
	}
	switch {
	case key.Matches(k, c.keys.AgentTermPanes):
		return v.openTermPanes(c, a)
	case key.Matches(k, c.keys.AgentSessions):
		return v.openSessions(c, a)
	case key.Matches(k, c.keys.AgentKillTerm):
		return killNewest(c, a.Name, c.engine.AgentTerminals(a.Name))
	case key.Matches(k, c.keys.AgentSettings):
		if len(pickRows(a)) == 0 {
			return notice("the agent's session has no modes or config options to set")
		}
		v.picker = agentPicker{open: true, pick: map[int]int{}}
		return nil
	case key.Matches(k, c.keys.AgentStop):
		if t := v.turns[a.Name]; t != nil {
			if t.abandoned {
				return notice("the prompt was abandoned; waiting (bounded) for the agent's answer")
			}
			if t.stopping {
				t.abandoned = true
				return v.abandon(c, a.Name)
			}
			t.stopping = true
			return v.stop(c, a.Name)
		}
		v.input.SetValue("")
		return nil
	case key.Matches(k, c.keys.AgentSend):
		return v.send(c, a)
	case key.Matches(k, c.keys.AgentNext):
		v.next(c)
		return nil
	case key.Matches(k, c.keys.AgentRestart):
		if v.turns[a.Name] != nil {
			return notice("a turn is under way: esc stops it first")
		}
		eng, logs, name := c.engine, c.agentLogs, a.Name
		return func() tea.Msg {
			logs.note(name, agentEntry{kind: entryNote, text: "restart: the agent is started again, in a new session"})
			if err := eng.AgentRestart(name); err != nil {
				return noticeMsg("restart: " + err.Error())
			}
			return nil
		}
	case key.Matches(k, c.keys.PageUp):
		v.scroll += body
		return nil
	case key.Matches(k, c.keys.PageDown):
		v.scroll = max(v.scroll-body, 0)
		return nil
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(k)
	return cmd
}

// next shows the next agent.
func (v *agentView) next(c *viewCtx) {
	for i, a := range c.agents {
		if a.Name == v.cur {
			v.cur = c.agents[(i+1)%len(c.agents)].Name
			v.scroll = 0
			return
		}
	}
}

// send starts a turn with the prompt box's text. The person's prompt and
// the turn's end go into the transcript from the turn's command, around
// the engine's updates, so they stand in the order they happened.
func (v *agentView) send(c *viewCtx, a AgentStatus) tea.Cmd {
	text := strings.TrimSpace(v.input.Value())
	switch {
	case text == "":
		return nil
	case v.turns[a.Name] != nil:
		return notice("a turn is under way: wait for it, or esc stops it")
	case v.sessions.opening == a.Name:
		return notice("the session is opening: wait for it")
	case a.State != client.StateReady || a.SessionID == "":
		return notice(untrusted.Line(a.Name) + " is not ready: " + agentStateText(a))
	}
	v.input.SetValue("")
	v.scroll = 0
	v.turns[a.Name] = &agentTurn{}
	eng, ctx, logs, name := c.engine, c.ctx, c.agentLogs, a.Name
	return func() tea.Msg {
		logs.note(name, agentEntry{kind: entryUser, text: text})
		end, err := eng.AgentPrompt(ctx, name, text)
		logs.note(name, turnEndEntry(end, err))
		return agentTurnDoneMsg{agent: name, end: end, err: err}
	}
}

// stop sends session/cancel for the agent's turn.
func (v *agentView) stop(c *viewCtx, name string) tea.Cmd {
	eng, logs := c.engine, c.agentLogs
	return func() tea.Msg {
		logs.note(name, agentEntry{kind: entryNote,
			text: "stop: session/cancel sent and the turn's open questions answered; waiting for the agent's stopReason…"})
		return agentStopMsg{agent: name, err: eng.AgentStop(name)}
	}
}

// abandon is a second stop: $/cancel_request for the prompt at once.
func (v *agentView) abandon(c *viewCtx, name string) tea.Cmd {
	eng, logs := c.engine, c.agentLogs
	return func() tea.Msg {
		logs.note(name, agentEntry{kind: entryNote,
			text: "stop again: the prompt abandoned ($/cancel_request); not waiting for the stopReason"})
		return agentStopMsg{agent: name, err: eng.AgentAbandon(name)}
	}
}

// turnEndEntry says how a turn ended: "cancelled" only when the agent
// said so (a stopReason cancelled, or -32800 for the prompt).
func turnEndEntry(end AgentTurnEnd, err error) agentEntry {
	switch {
	case err != nil:
		return agentEntry{kind: entryTurnEnd, warn: true, text: "the turn failed: " + errText(err)}
	case end.RequestCancelled:
		return agentEntry{kind: entryTurnEnd, label: "cancelled", warn: true, text: "cancelled (the agent answered the prompt -32800)"}
	case end.StopReason == "end_turn":
		return agentEntry{kind: entryTurnEnd, label: end.StopReason, text: "end_turn"}
	case end.StopReason == "cancelled":
		return agentEntry{kind: entryTurnEnd, label: end.StopReason, warn: true, text: "cancelled (stopReason cancelled)"}
	}
	return agentEntry{kind: entryTurnEnd, label: end.StopReason, warn: true, text: "stopReason " + untrusted.Line(end.StopReason)}
}

func agentStateText(a AgentStatus) string {
	switch a.State {
	case client.StateReady:
		if a.SessionID == "" {
			return "opening a session…"
		}
		return "ready"
	case client.StateConnecting:
		return "starting…"
	case client.StateFailed:
		return "failed: " + errText(a.Err)
	case client.StateDisconnected:
		return "disconnected: " + errText(a.Err)
	}
	return a.State.String()
}

// render draws the header, the transcript's end (or where it is scrolled
// to), the plan, the prompt box and the keys.
func (v *agentView) render(c *viewCtx) string {
	st := c.st
	a, ok := v.agent(c)
	if !ok {
		return "\n" + wrapped(st.Muted, `No ACP agents. Start one with elicit acp -- AGENT ARGS…, or give a config entry {"type": "acp", "command": …} beside the servers.`, c.width)
	}
	v.restyle(c)
	w, h := c.width, c.bodyHeight()
	if n := c.agentLogs.version(a.Name); n != v.snap.version || v.drawn.of != a.Name {
		v.snap = c.agentLogs.snapshot(a.Name)
		v.input.SetSuggestions(commandSuggestions(v.snap.commands))
	}
	head := v.header(c, a)
	if v.drawn.of != a.Name || v.drawn.version != v.snap.version || v.drawn.width != w || v.drawn.st != st {
		v.lines = transcriptLines(st, v.snap.entries, w)
		v.drawn.of, v.drawn.version, v.drawn.width, v.drawn.st = a.Name, v.snap.version, w, st
	}
	var plan []string
	if len(v.snap.plan) > 0 {
		plan = append([]string{st.Muted.Render(strings.Repeat("─", max(w, 1)))}, planLines(st, v.snap.plan, w)...)
		if len(plan) > 7 {
			plan = append(plan[:6], st.Muted.Render(fmt.Sprintf("  … %d more", len(plan)-6)))
		}
	}
	v.input.SetWidth(max(w-4, 10))
	terms := c.engine.AgentTerminals(a.Name)
	if !v.termPanes.open {
		plan = append(plan, terminalPanel(c, terms)...)
	}
	bottom := append(plan, v.input.View(), v.footer(c, a))
	switch {
	case v.termPanes.open:
		bottom = append(plan, termPanesFooter(c))
	case v.picker.open:
		bottom = append(plan, v.pickerLines(c, a)...)
	case v.sessions.open && v.sessions.agent == a.Name:
		bottom = append(plan, v.sessionsLines(c, a)...)
	}
	room := max(h-len(head)-len(bottom), 1)
	if v.termPanes.open {
		if panes := v.termPaneLines(c, terms, w, room); panes != nil {
			return strings.Join(append(append(head, panes...), bottom...), "\n")
		}
		bottom = append(plan, terminalPanel(c, terms)...)
		bottom = append(bottom, v.input.View(), v.footer(c, a))
		room = max(h-len(head)-len(bottom), 1)
	}
	lines := v.lines
	if len(lines) == 0 {
		lines = strings.Split(st.Muted.Render(emptyTranscript(a)), "\n")
	}
	v.scroll = min(v.scroll, max(len(lines)-room, 0))
	end := len(lines) - v.scroll
	start := max(end-room, 0)
	shown := lines[start:end]
	if v.scroll > 0 {
		shown = append(shown[:len(shown)-1:len(shown)-1], st.Muted.Render(fmt.Sprintf("↓ %d lines below (pgdn)", v.scroll)))
	}
	out := make([]string, 0, h)
	out = append(out, head...)
	out = append(out, shown...)
	for len(out) < h-len(bottom) {
		out = append(out, "")
	}
	out = append(out, bottom...)
	return strings.Join(out, "\n")
}

func emptyTranscript(a AgentStatus) string {
	if a.State != client.StateReady || a.SessionID == "" {
		return "  " + untrusted.Line(a.Name) + ": " + agentStateText(a)
	}
	if a.Info.Name == demoAgentInfoName {
		return "  Nothing yet: write a prompt below, enter sends it.\n" +
			"  The demo agent plays a scene per prompt: permission, question, toolq (a\n" +
			"  question in a tool call), withdraw, long (esc stops it), updates, refuse,\n" +
			"  crash; write, read (its files); terminal, ticker (alt+o: panes); notice,\n" +
			"  compact, named, blocks, commands (then /echo); alt+m mode and config,\n" +
			"  alt+h its sessions. Anything else is echoed."
	}
	return "  Nothing yet: write a prompt below, enter sends it."
}

// demoAgentInfoName is the agentInfo name of elicit's embedded demo
// agent, whose scenes the empty transcript can name.
const demoAgentInfoName = "elicit-demo-agent"

// header is the agent's name and who it says it is, where it stands, its
// session, mode, usage and commands.
func (v *agentView) header(c *viewCtx, a AgentStatus) []string {
	st := c.st
	name := st.Title.Render(untrusted.Line(a.Name))
	if a.Info.Name != "" {
		self := untrusted.Line(a.Info.Name)
		if a.Info.Title != "" {
			self = untrusted.Line(a.Info.Title)
		}
		if a.Info.Version != "" {
			self += " " + untrusted.Line(a.Info.Version)
		}
		name += st.Muted.Render(" (" + self + ")")
	}
	state := agentStateText(a)
	style := st.Success
	switch {
	case v.turns[a.Name] != nil && v.turns[a.Name].stopping:
		state, style = c.spin.view()+" stopping: waiting for the agent's stopReason", st.Warning
	case v.turns[a.Name] != nil:
		state, style = c.spin.view()+" working", st.Info
	case a.State == client.StateFailed || a.State == client.StateDisconnected:
		style = st.Error
	case a.State != client.StateReady:
		style = st.Muted
	}
	parts := []string{name, style.Render(state)}
	if n := c.openBy[a.Name]; n > 0 {
		q := "1 question"
		if n > 1 {
			q = fmt.Sprintf("%d questions", n)
		}
		parts = append(parts, st.Warning.Bold(true).Render(q+" for you (F4)"))
	}
	if len(c.agents) > 1 {
		parts = append(parts, st.Muted.Render(fmt.Sprintf("%d agents: ctrl+s next", len(c.agents))))
	}
	line1 := ansi.Truncate(strings.Join(parts, st.Muted.Render(" · ")), c.width, "…")
	var meta []string
	if a.SessionID != "" {
		meta = append(meta, "session "+untrusted.Line(a.SessionID))
	}
	if mode := cmp.Or(v.snap.mode, a.Mode); mode != "" {
		meta = append(meta, "mode "+untrusted.Line(mode))
	}
	if u := v.snap.usage; u != nil {
		s := fmt.Sprintf("usage %d/%d", u.Used, u.Size)
		if u.Size > 0 {
			s += fmt.Sprintf(" (%d%%)", u.Used*100/u.Size)
		}
		if u.Cost != "" {
			s += " " + untrusted.Line(u.Cost)
		}
		meta = append(meta, s)
	}
	if n := len(v.snap.commands); n > 0 {
		names := make([]string, 0, n)
		for _, cmd := range v.snap.commands {
			names = append(names, "/"+untrusted.Line(cmd.Name))
		}
		meta = append(meta, "commands "+strings.Join(names, " "))
	}
	if a.Cwd != "" {
		meta = append(meta, "cwd "+untrusted.Line(a.Cwd))
	}
	line2 := st.Muted.Render(ansi.Truncate(strings.Join(meta, " · "), c.width, "…"))
	return []string{line1, line2, st.Muted.Render(strings.Repeat("─", max(c.width, 1)))}
}

func (v *agentView) footer(c *viewCtx, a AgentStatus) string {
	st := c.st
	k := func(key, desc string) string { return st.Pane.Key.Render(key) + " " + st.Pane.KeyDesc.Render(desc) }
	parts := []string{k("enter", "send")}
	switch t := v.turns[a.Name]; {
	case t != nil && t.stopping && !t.abandoned:
		parts = []string{k("esc", "again: abandon the prompt")}
	case t != nil && !t.stopping:
		parts = []string{k("esc", "stop the turn")}
	case t != nil:
		parts = nil
	}
	parts = append(parts, k("pgup/pgdn", "scroll"), k("F4", "its questions"))
	if a.Can.List && a.SessionID != "" && a.State == client.StateReady && v.turns[a.Name] == nil {
		parts = append(parts, k("alt+h", "sessions"))
	}
	if a.State == client.StateFailed || a.State == client.StateDisconnected {
		parts = append([]string{k("ctrl+r", "start it again")}, parts...)
	}
	if len(c.agents) > 1 {
		parts = append(parts, k("ctrl+s", "next agent"))
	}
	return ansi.Truncate(strings.Join(parts, "  "), c.width, "…")
}
