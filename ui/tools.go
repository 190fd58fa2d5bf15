package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes"
)

// toolsMsg carries one server's tool list.
type toolsMsg struct {
	server string
	tools  []client.Tool
	err    error
}

// callDoneMsg carries a finished call.
type callDoneMsg struct {
	id      int
	res     *client.CallToolResult
	err     error
	elapsed time.Duration
}

// toolArgs is the call an argument form is for.
type toolArgs struct {
	server, tool string
	// optional: the tool may run as a task or not; asTask is the choice.
	optional, asTask bool
}

// call is one tools/call the person started.
type call struct {
	id           int
	server, tool string
	cancel       context.CancelFunc
	started      time.Time
	done         bool
	cancelling   bool
	res          *client.CallToolResult
	err          error
	elapsed      time.Duration
	prog         client.CallProgress
	asTask       bool
}

// toolsView lists a server's tools and the calls made from it.
type toolsView struct {
	serverLists[client.Tool]
	onCalls bool // selection is in the calls list
	argHost[*toolArgs]
	calls   []*call
	callSel int
	// asTask holds the person's choice, per server and tool, whether a
	// tool whose taskSupport is "optional" runs as a task.
	asTask map[[2]string]bool
}

func (t *toolsView) init() {
	t.initLists(viewTools, func(eng Engine, ctx context.Context, server string) tea.Msg {
		tools, err := eng.Tools(ctx, server)
		return toolsMsg{server: server, tools: tools, err: err}
	})
	t.eager = true
	t.asTask = map[[2]string]bool{}
	t.submit = func(m *Model, a *toolArgs, args map[string]any) tea.Cmd {
		return t.start(m, a.server, a.tool, args, a.asTask)
	}
}

// taskChoice says, by client's rule, whether a call of tl on server may
// or must run as a task.
func (t *toolsView) taskChoice(m *Model, server string, tl *client.Tool) (can, must bool) {
	return client.TaskChoice(tl.Execution.TaskSupport, serverCaps(m.servers, server))
}

// runsAsTask says whether a call of tl goes out as a task: when it must;
// when it may, as the person chose, by default yes.
func (t *toolsView) runsAsTask(m *Model, server string, tl *client.Tool) bool {
	can, must := t.taskChoice(m, server, tl)
	if must || !can {
		return must
	}
	if v, ok := t.asTask[[2]string{server, tl.Name}]; ok {
		return v
	}
	return true
}

// toggleTask flips the selected tool's choice, where it has one.
func (t *toolsView) toggleTask(m *Model) {
	l := t.current()
	if l == nil || t.cursor >= len(l.items) {
		return
	}
	tl := &l.items[t.cursor]
	if can, must := t.taskChoice(m, t.server, tl); !can || must {
		m.notice = themes.SanitizeLine(tl.Name) + ": only a tool whose taskSupport is optional can choose"
		if tl.Execution.TaskSupport == client.TaskSupportOptional {
			m.notice = themes.SanitizeLine(tl.Name) + ": " + themes.SanitizeLine(t.server) + " does not run tools as tasks"
		}
		return
	}
	t.asTask[[2]string{t.server, tl.Name}] = !t.runsAsTask(m, t.server, tl)
}

func (t *toolsView) running() int {
	n := 0
	for _, c := range t.calls {
		if !c.done {
			n++
		}
	}
	return n
}

func (m *Model) handleTools(msg toolsMsg) tea.Cmd {
	m.tools.loaded(msg.server, msg.tools, msg.err)
	return nil
}

// key handles a key in the tools view.
func (t *toolsView) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	if a := t.args; a != nil && k.String() == "ctrl+r" && a.of.optional {
		// Not "t": that is text in a field.
		a.of.asTask = !a.of.asTask
		t.asTask[[2]string{a.of.server, a.of.tool}] = a.of.asTask
		return nil
	}
	if cmd, open := t.argsKey(m, k); open {
		return cmd
	}
	km := m.keys
	if t.onCalls {
		if key.Matches(k, km.Up, km.Down) {
			d := 1
			if key.Matches(k, km.Up) {
				d = -1
			}
			t.callSel = clamp(t.callSel+d, 0, len(t.calls)-1)
			return nil
		}
	} else if cmd, ok := t.listKey(m, k); ok {
		return cmd
	}
	switch {
	case k.String() == "tab":
		t.onCalls = !t.onCalls && len(t.calls) > 0
	case key.Matches(k, km.NextServer): // on the calls list; listKey takes it on the tools
		return t.nextServer(m)
	case key.Matches(k, km.Reconnect):
		return t.reconnect(m)
	case key.Matches(k, km.CancelCall):
		t.cancelSelected()
	case key.Matches(k, km.Select) && !t.onCalls:
		return t.open(m)
	case key.Matches(k, km.TaskToggle) && !t.onCalls:
		t.toggleTask(m)
	}
	return nil
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

func (t *toolsView) reconnect(m *Model) tea.Cmd {
	server, eng, ctx := t.server, m.engine, m.ctx
	if server == "" {
		return nil
	}
	return func() tea.Msg {
		if err := eng.Reconnect(ctx, server); err != nil {
			return noticeMsg(fmt.Sprintf("reconnect %s: %v", server, err))
		}
		return noticeMsg("reconnecting " + server + "…")
	}
}

// cancelSelected cancels the selected running call: the engine sends
// notifications/cancelled when its context ends.
func (t *toolsView) cancelSelected() {
	if len(t.calls) == 0 {
		return
	}
	c := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	if !t.onCalls {
		// From the tool list, x cancels the newest running call.
		for i := len(t.calls) - 1; i >= 0; i-- {
			if !t.calls[i].done {
				c = t.calls[i]
				break
			}
		}
	}
	if !c.done && !c.cancelling {
		c.cancelling = true
		c.cancel()
	}
}

// open starts the selected tool: with an argument form when it takes
// arguments, else at once.
func (t *toolsView) open(m *Model) tea.Cmd {
	l := t.current()
	if l == nil || t.cursor >= len(l.items) {
		return nil
	}
	tl := l.items[t.cursor]
	ti, err := schema.ParseToolInput(tl.InputSchema)
	if err != nil {
		m.notice = fmt.Sprintf("%s: bad inputSchema: %v", tl.Name, err)
		return nil
	}
	asTask := t.runsAsTask(m, t.server, &tl)
	if len(ti.Fields) == 0 {
		return t.start(m, t.server, tl.Name, nil, asTask)
	}
	can, must := t.taskChoice(m, t.server, &tl)
	return t.openArgs(m, ti, &toolArgs{server: t.server, tool: tl.Name, optional: can && !must, asTask: asTask})
}

// start runs tools/call in a Cmd with its own cancellable context.
func (t *toolsView) start(m *Model, server, tool string, args map[string]any, asTask bool) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	c := &call{id: m.newID(), server: server, tool: tool, cancel: cancel, started: m.now(), asTask: asTask}
	t.calls = append(t.calls, c)
	t.callSel = len(t.calls) - 1
	eng, streams, id, now := m.engine, m.bridge.streams, c.id, m.opts.Now
	opts := CallOptions{AsTask: &asTask, OnProgress: func(p client.CallProgress) { streams.progress(id, p) }}
	return func() tea.Msg {
		defer cancel()
		res, err := eng.Call(ctx, server, tool, args, opts)
		return callDoneMsg{id: id, res: res, err: err, elapsed: now().Sub(c.started)}
	}
}

func (m *Model) handleCallDone(msg callDoneMsg) tea.Cmd {
	for _, c := range m.tools.calls {
		if c.id == msg.id {
			c.done, c.res, c.err, c.elapsed = true, msg.res, msg.err, msg.elapsed
		}
	}
	return nil
}

func (t *toolsView) applyProgress(m *Model) {
	if t.running() == 0 {
		return
	}
	latest := m.bridge.streams.takeProgress()
	for _, c := range t.calls {
		if p, ok := latest[c.id]; ok {
			c.prog = p
		}
	}
}

// render draws the tool list (or the argument form) and the calls.
// toolWords are what the tools view calls its list.
var toolWords = listWords{title: "Tools of",
	hints: "s next server · enter call · x cancel call · tab calls · r reconnect · t as a task",
	noun:  "tools", method: "tools/list", none: "this server has no tools"}

func (t *toolsView) render(m *Model) string {
	st := m.st
	var b strings.Builder
	b.WriteString(t.renderTitle(m, toolWords) + "\n")
	if t.args != nil {
		a := t.args.of
		head := "arguments for " + themes.SanitizeLine(a.tool) + " (esc closes)"
		switch {
		case a.optional && a.asTask:
			head += " · runs as a task (ctrl+r: as a plain call)"
		case a.optional:
			head += " · runs as a plain call (ctrl+r: as a task)"
		case a.asTask:
			head += " · runs as a task"
		}
		b.WriteString(st.Muted.Render(head) + "\n")
		b.WriteString(t.args.form.View())
		return b.String()
	}
	half := max(m.bodyHeight()/2-1, 3)
	b.WriteString(t.renderRows(m, toolWords, half, func(tl *client.Tool, selected bool) string {
		return t.toolLine(m, tl, selected && !t.onCalls)
	}))
	b.WriteString("\n" + t.renderCalls(m, m.bodyHeight()-half-2))
	return b.String()
}

// toolLine is one row: name (and title), how it runs as a task, and its
// description.
func (t *toolsView) toolLine(m *Model, tl *client.Tool, selected bool) string {
	st := m.st
	line := themes.SanitizeLine(tl.Name)
	if title := firstNonEmpty(tl.Title, tl.Annotations.Title); title != "" {
		line += " — " + themes.SanitizeLine(title)
	}
	can, must := t.taskChoice(m, t.server, tl)
	switch ts := tl.Execution.TaskSupport; {
	case can && !must && t.runsAsTask(m, t.server, tl):
		line += " " + st.List.Badge.Render("[task optional: on]")
	case can && !must || ts == client.TaskSupportOptional:
		line += " " + st.List.Badge.Render("[task optional: off]")
	case ts != "" && ts != client.TaskSupportForbidden:
		// Required, or a value this client does not know, as sent.
		line += " " + st.List.Badge.Render("[task "+themes.SanitizeLine(ts)+"]")
	}
	line += "  " + st.List.Desc.Render(themes.SanitizeLine(tl.Description))
	return listLine(m, line, selected)
}

func (t *toolsView) renderCalls(m *Model, rows int) string {
	st := m.st
	if len(t.calls) == 0 {
		return st.Muted.Render("no calls yet")
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(fmt.Sprintf("Calls (%d running)", t.running())) + "\n")
	// The newest few calls, then the selected call's result.
	lo := max(len(t.calls)-4, 0)
	for i := lo; i < len(t.calls); i++ {
		c := t.calls[i]
		line := t.callLine(m, c)
		if i == t.callSel && t.onCalls {
			line = st.List.Selected.Render("› " + ansi.Strip(line))
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	if sel := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]; sel.done {
		out := ""
		switch {
		case sel.err != nil:
			out = st.Error.Render(errText(sel.err))
		case sel.res != nil:
			out = renderResult(st, sel.res, m.width)
		}
		b.WriteString(clipLines(out, max(rows-len(t.calls[lo:])-1, 2)))
	}
	return b.String()
}

func (t *toolsView) callLine(m *Model, c *call) string {
	st := m.st
	name := themes.SanitizeLine(c.server) + "/" + themes.SanitizeLine(c.tool)
	if c.asTask {
		name += st.List.Badge.Render(" [task]")
	}
	switch {
	case !c.done && c.cancelling:
		return m.spin.view() + " " + name + st.Warning.Render("  cancellation requested…")
	case !c.done:
		s := m.spin.view() + " " + name + st.Muted.Render(fmt.Sprintf("  %s", m.now().Sub(c.started).Truncate(time.Second)))
		if c.prog.Total > 0 {
			s += "  " + progressBar(st, c.prog.Progress/c.prog.Total, 24)
		} else if c.prog.Progress > 0 {
			s += st.Muted.Render(fmt.Sprintf("  %g", c.prog.Progress))
		}
		if c.prog.Message != "" {
			s += "  " + st.Muted.Render(themes.SanitizeLine(c.prog.Message))
		}
		return s
	case c.cancelling:
		return st.Warning.Render("⊘ ") + name + st.Warning.Render("  cancelled")
	case c.err != nil:
		return st.Error.Render("✗ ") + name + st.Error.Render("  "+ansi.Truncate(errText(c.err), 60, "…"))
	case c.res != nil && c.res.IsError:
		return st.Error.Render("✗ ") + name + st.Error.Render("  isError") + st.Muted.Render("  "+c.elapsed.Truncate(time.Millisecond).String())
	}
	return st.Success.Render("✓ ") + name + st.Muted.Render("  "+c.elapsed.Truncate(time.Millisecond).String())
}

// progressBar draws a static bar (no animation: it redraws only when
// progress arrives).
func progressBar(st *themes.Styles, frac float64, width int) string {
	frac = max(0, min(frac, 1))
	full := int(frac * float64(width))
	return st.Success.Render(strings.Repeat("█", full)) + st.Muted.Render(strings.Repeat("░", width-full)) +
		st.Muted.Render(fmt.Sprintf(" %3.0f%%", frac*100))
}
