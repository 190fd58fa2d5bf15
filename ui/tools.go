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
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// toolsMsg carries one server's tool list.
type toolsMsg struct {
	server string
	tools  []wire.Tool
	err    error
}

// callDoneMsg carries a finished call.
type callDoneMsg struct {
	id      int
	res     *wire.CallToolResult
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
	res          *wire.CallToolResult
	err          error
	elapsed      time.Duration
	prog         client.CallProgress
	asTask       bool
	// drawn is the finished call drawn for drawnSt at drawnW (outcome).
	drawn   string
	drawnSt *themes.Styles
	drawnW  int
}

// toolsView lists a server's tools and the calls made from it.
type toolsView struct {
	serverLists[wire.Tool]
	argHost[*toolArgs]
	onCalls bool // selection is in the calls list
	calls   []*call
	callSel int
	// asTask holds the person's choice, per server and tool, whether a
	// tool whose taskSupport is "optional" runs as a task.
	asTask map[[2]string]bool
}

func (toolsMsg) screenMsg()    {}
func (callDoneMsg) screenMsg() {}

// The parts of a screen the tools view has.
var _ interface {
	screen
	typist
	router
	paster
	backgrounder
	resizer
	updater
	spins
} = (*toolsView)(nil)

func newToolsView() *toolsView {
	t := &toolsView{asTask: map[[2]string]bool{}}
	t.initLists(func(eng Engine, ctx context.Context, server string) tea.Msg {
		tools, err := eng.Tools(ctx, server)
		return toolsMsg{server: server, tools: tools, err: err}
	})
	t.eager = true
	t.submit = func(c *viewCtx, a *toolArgs, args map[string]any) tea.Cmd {
		return t.start(c, a.server, a.tool, args, a.asTask)
	}
	return t
}

func (t *toolsView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case toolsMsg:
		return t.loaded(c, msg.server, msg.tools, msg.err)
	case callDoneMsg:
		t.callDone(msg)
	case serversMsg:
		// The list is kept loaded: calls start from it.
		return t.enter(c)
	case eventMsg:
		return t.listEvent(c, msg, "tools", c.onScreen(t))
	case streamsChangedMsg:
		t.applyProgress(c)
	}
	return nil
}

// spinning: the spinner turns while a call runs.
func (t *toolsView) spinning() bool { return t.running() > 0 }

// taskChoice says, by client's rule, whether a call of tl on server may
// or must run as a task.
func (t *toolsView) taskChoice(c *viewCtx, server string, tl *wire.Tool) (can, must bool) {
	return client.TaskChoice(tl.Execution.TaskSupport, serverCaps(c.servers, server))
}

// runsAsTask says whether a call of tl goes out as a task: when it must;
// when it may, as the person chose, by default yes.
func (t *toolsView) runsAsTask(c *viewCtx, server string, tl *wire.Tool) bool {
	can, must := t.taskChoice(c, server, tl)
	if must || !can {
		return must
	}
	if v, ok := t.asTask[[2]string{server, tl.Name}]; ok {
		return v
	}
	return true
}

// toggleTask flips the selected tool's choice, where it has one.
func (t *toolsView) toggleTask(c *viewCtx) tea.Cmd {
	l := t.current()
	if l == nil || t.cursor >= len(l.items) {
		return nil
	}
	tl := &l.items[t.cursor]
	if can, must := t.taskChoice(c, t.server, tl); !can || must {
		if tl.Execution.TaskSupport == client.TaskSupportOptional {
			return notice(untrusted.Line(tl.Name) + ": " + untrusted.Line(t.server) + " does not run tools as tasks")
		}
		return notice(untrusted.Line(tl.Name) + ": only a tool whose taskSupport is optional can choose")
	}
	t.asTask[[2]string{t.server, tl.Name}] = !t.runsAsTask(c, t.server, tl)
	return nil
}

func (t *toolsView) running() int {
	n := 0
	for _, cl := range t.calls {
		if !cl.done {
			n++
		}
	}
	return n
}

// key handles a key in the tools view.
func (t *toolsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	if a := t.args; a != nil && k.String() == "ctrl+r" && a.of.optional {
		// Not "t": that is text in a field.
		a.of.asTask = !a.of.asTask
		t.asTask[[2]string{a.of.server, a.of.tool}] = a.of.asTask
		return nil
	}
	if cmd, open := t.argsKey(c, k); open {
		return cmd
	}
	km := c.keys
	if t.onCalls {
		if key.Matches(k, km.Select) {
			return t.readCall(c)
		}
		if key.Matches(k, km.Up, km.Down) {
			d := 1
			if key.Matches(k, km.Up) {
				d = -1
			}
			t.callSel = clamp(t.callSel+d, 0, len(t.calls)-1)
			return nil
		}
	} else if cmd, ok := t.listKey(c, k); ok {
		return cmd
	}
	switch {
	case k.String() == "tab":
		t.onCalls = !t.onCalls && len(t.calls) > 0
	case key.Matches(k, km.NextServer): // on the calls list; listKey takes it on the tools
		return t.nextServer(c)
	case key.Matches(k, km.Reconnect):
		return t.reconnect(c)
	case key.Matches(k, km.CancelCall):
		t.cancelSelected()
	case key.Matches(k, km.Select) && !t.onCalls:
		return t.open(c)
	case key.Matches(k, km.TaskToggle) && !t.onCalls:
		return t.toggleTask(c)
	}
	return nil
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

func (t *toolsView) reconnect(c *viewCtx) tea.Cmd {
	server, eng, ctx := t.server, c.engine, c.ctx
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
	cl := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	if !t.onCalls {
		// From the tool list, x cancels the newest running call.
		for i := len(t.calls) - 1; i >= 0; i-- {
			if !t.calls[i].done {
				cl = t.calls[i]
				break
			}
		}
	}
	if !cl.done && !cl.cancelling {
		cl.cancelling = true
		cl.cancel()
	}
}

// open starts the selected tool: with an argument form when it takes
// arguments, else at once.
func (t *toolsView) open(c *viewCtx) tea.Cmd {
	l := t.current()
	if l == nil || t.cursor >= len(l.items) {
		return nil
	}
	tl := l.items[t.cursor]
	ti, err := schema.ParseToolInput(tl.InputSchema)
	if err != nil {
		return notice(fmt.Sprintf("%s: bad inputSchema: %v", tl.Name, err))
	}
	asTask := t.runsAsTask(c, t.server, &tl)
	if len(ti.Fields) == 0 {
		return t.start(c, t.server, tl.Name, nil, asTask)
	}
	can, must := t.taskChoice(c, t.server, &tl)
	return t.openArgs(c, ti, &toolArgs{server: t.server, tool: tl.Name, optional: can && !must, asTask: asTask})
}

// start runs tools/call in a Cmd with its own cancellable context.
func (t *toolsView) start(c *viewCtx, server, tool string, args map[string]any, asTask bool) tea.Cmd {
	ctx, cancel := context.WithCancel(c.ctx)
	cl := &call{id: c.newID(), server: server, tool: tool, cancel: cancel, started: c.now(), asTask: asTask}
	t.calls = append(t.calls, cl)
	t.callSel = len(t.calls) - 1
	eng, streams, id, now := c.engine, c.streams, cl.id, c.opts.Now
	opts := CallOptions{AsTask: &asTask, OnProgress: func(p client.CallProgress) { streams.progress(id, p) }}
	return func() tea.Msg {
		defer cancel()
		res, err := eng.Call(ctx, server, tool, args, opts)
		return callDoneMsg{id: id, res: res, err: err, elapsed: now().Sub(cl.started)}
	}
}

func (t *toolsView) callDone(msg callDoneMsg) {
	for _, cl := range t.calls {
		if cl.id == msg.id {
			cl.done, cl.res, cl.err, cl.elapsed = true, msg.res, msg.err, msg.elapsed
		}
	}
}

func (t *toolsView) applyProgress(c *viewCtx) {
	if t.running() == 0 {
		return
	}
	latest := c.streams.takeProgress()
	for _, cl := range t.calls {
		if p, ok := latest[cl.id]; ok {
			cl.prog = p
		}
	}
}

// render draws the tool list (or the argument form) and the calls.
// toolWords are what the tools view calls its list.
var toolWords = listWords{title: "Tools of",
	hints: "s next server · enter call · x cancel call · tab calls (enter reads a result) · r reconnect · t as a task",
	noun:  "tools", method: "tools/list", none: "this server has no tools"}

func (t *toolsView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	b.WriteString(t.renderTitle(c, toolWords) + "\n")
	if t.args != nil {
		a := t.args.of
		head := "arguments for " + untrusted.Line(a.tool) + " (esc closes)"
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
	half := max(c.bodyHeight()/2-1, 3)
	b.WriteString(t.renderRows(c, toolWords, half, func(tl *wire.Tool, selected bool) string {
		return t.toolLine(c, tl, selected && !t.onCalls)
	}))
	b.WriteString("\n" + t.renderCalls(c, c.bodyHeight()-half-2))
	return b.String()
}

// toolLine is one row: name (and title), how it runs as a task, and its
// description.
func (t *toolsView) toolLine(c *viewCtx, tl *wire.Tool, selected bool) string {
	st := c.st
	line := untrusted.Line(tl.Name)
	if title := firstNonEmpty(tl.Title, tl.Annotations.Title); title != "" {
		line += " — " + untrusted.Line(title)
	}
	can, must := t.taskChoice(c, t.server, tl)
	switch ts := tl.Execution.TaskSupport; {
	case can && !must && t.runsAsTask(c, t.server, tl):
		line += " " + st.List.Badge.Render("[task optional: on]")
	case can && !must || ts == client.TaskSupportOptional:
		line += " " + st.List.Badge.Render("[task optional: off]")
	case ts != "" && ts != client.TaskSupportForbidden:
		// Required, or a value this client does not know, as sent.
		line += " " + st.List.Badge.Render("[task "+untrusted.Line(ts)+"]")
	}
	line += "  " + st.List.Desc.Render(untrusted.Line(tl.Description))
	return listLine(c, line, selected)
}

func (t *toolsView) renderCalls(c *viewCtx, rows int) string {
	st := c.st
	if len(t.calls) == 0 {
		return st.Muted.Render("no calls yet")
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(fmt.Sprintf("Calls (%d running)", t.running())) + "\n")
	// The newest few calls, then the selected call's result.
	lo := max(len(t.calls)-4, 0)
	for i := lo; i < len(t.calls); i++ {
		cl := t.calls[i]
		line := t.callLine(c, cl)
		if i == t.callSel && t.onCalls {
			line = st.List.Selected.Render("› " + ansi.Strip(line))
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	if sel := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]; sel.done {
		out := sel.outcome(st, c.width)
		room := max(rows-len(t.calls[lo:])-1, 2)
		if n := strings.Count(out, "\n") + 1; n > room {
			more := fmt.Sprintf("… %d more lines: ", n-room+1)
			if t.onCalls {
				more += "enter reads all of it"
			} else {
				more += "tab, then enter, reads all of it"
			}
			out = clipLines(out, room-1) + "\n" + st.Warning.Render(more)
		}
		b.WriteString(out)
	}
	return b.String()
}

// outcome draws a finished call's result or error, once per styles and
// width: a result can be large, and a redraw must not render it again.
func (cl *call) outcome(st *themes.Styles, width int) string {
	if cl.drawn != "" && cl.drawnSt == st && cl.drawnW == width {
		return cl.drawn
	}
	switch {
	case cl.err != nil:
		cl.drawn = st.Error.Render(errText(cl.err))
	case cl.res != nil:
		cl.drawn = renderResult(st, cl.res, width)
	default:
		cl.drawn = st.Muted.Render("(no result)")
	}
	cl.drawnSt, cl.drawnW = st, width
	return cl.drawn
}

// readCall opens the selected finished call's result in the reader.
func (t *toolsView) readCall(c *viewCtx) tea.Cmd {
	if len(t.calls) == 0 {
		return nil
	}
	cl := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	if !cl.done {
		return notice("the call is still running")
	}
	title := "Result of " + untrusted.Line(cl.server) + "/" + untrusted.Line(cl.tool) + " (" + cl.elapsed.Truncate(time.Millisecond).String() + ")"
	return openReader(title, func(st *themes.Styles, width int) string {
		// Its own copy: the reader wraps what the call list clips.
		return (&call{res: cl.res, err: cl.err, done: true}).outcome(st, width)
	})
}

func (t *toolsView) callLine(c *viewCtx, cl *call) string {
	st := c.st
	name := untrusted.Line(cl.server) + "/" + untrusted.Line(cl.tool)
	if cl.asTask {
		name += st.List.Badge.Render(" [task]")
	}
	switch {
	case !cl.done && cl.cancelling:
		return c.spin.view() + " " + name + st.Warning.Render("  cancellation requested…")
	case !cl.done:
		s := c.spin.view() + " " + name + st.Muted.Render(fmt.Sprintf("  %s", c.now().Sub(cl.started).Truncate(time.Second)))
		if cl.prog.Total > 0 {
			s += "  " + progressBar(st, cl.prog.Progress/cl.prog.Total, 24)
		} else if cl.prog.Progress > 0 {
			s += st.Muted.Render(fmt.Sprintf("  %g", cl.prog.Progress))
		}
		if cl.prog.Message != "" {
			s += "  " + st.Muted.Render(untrusted.Line(cl.prog.Message))
		}
		return s
	case cl.cancelling:
		return st.Warning.Render("⊘ ") + name + st.Warning.Render("  cancelled")
	case cl.err != nil:
		return st.Error.Render("✗ ") + name + st.Error.Render("  "+ansi.Truncate(errText(cl.err), 60, "…"))
	case cl.res != nil && cl.res.IsError:
		return st.Error.Render("✗ ") + name + st.Error.Render("  isError") + st.Muted.Render("  "+cl.elapsed.Truncate(time.Millisecond).String())
	}
	return st.Success.Render("✓ ") + name + st.Muted.Render("  "+cl.elapsed.Truncate(time.Millisecond).String())
}

// progressBar draws a static bar (no animation: it redraws only when
// progress arrives).
func progressBar(st *themes.Styles, frac float64, width int) string {
	frac = max(0, min(frac, 1))
	full := int(frac * float64(width))
	return st.Success.Render(strings.Repeat("█", full)) + st.Muted.Render(strings.Repeat("░", width-full)) +
		st.Muted.Render(fmt.Sprintf(" %3.0f%%", frac*100))
}
