package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	output  outputVerdict
}

// toolArgs is the call an argument form (or the JSON editor) is for.
type toolArgs struct {
	server, tool string
	// input is the tool's inputSchema, to build the form again from the
	// JSON editor.
	input json.RawMessage
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
	// args are the arguments as sent, asJSON whether they were written as
	// JSON text: calling again sends them the same way.
	args     map[string]any
	argsText string // args as one line of JSON, for the calls list
	asJSON   bool
	output   outputVerdict // what the tool's outputSchema says of res
	// drawn is the finished call drawn for drawnSt at drawnW (outcome).
	drawn   string
	drawnSt *themes.Styles
	drawnW  int
}

// toolsView lists a server's tools and the calls made from it.
type toolsView struct {
	serverLists[wire.Tool]
	argHost[*toolArgs]
	json    *argsJSON    // the arguments as JSON text, instead of the form
	details *toolDetails // a tool's details, instead of the list
	onCalls bool         // the person is in the calls list
	calls   []*call
	callSel int
	// asTask holds the person's choice, per server and tool, whether a
	// tool whose taskSupport is "optional" runs as a task.
	asTask map[[2]string]bool
	// last is each tool's last arguments, per server and tool, for the
	// session: its form opens with them.
	last map[[2]string]*call
	// outputs are the tools' outputSchemas, compiled once each.
	outputs map[[2]string]*outputSchema
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
	reading
} = (*toolsView)(nil)

func newToolsView() *toolsView {
	t := &toolsView{asTask: map[[2]string]bool{}, last: map[[2]string]*call{}, outputs: map[[2]string]*outputSchema{}}
	t.initLists(func(eng Engine, ctx context.Context, server string) tea.Msg {
		tools, err := eng.Tools(ctx, server)
		return toolsMsg{server: server, tools: tools, err: err}
	})
	t.eager = true
	t.submit = func(c *viewCtx, a *toolArgs, args map[string]any) tea.Cmd {
		return t.start(c, callSpec{server: a.server, tool: a.tool, args: args, asTask: a.asTask})
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

// spinning: the spinner turns while a call runs, unless every running
// call waits on the person: a question to a person keeps nothing busy, and
// a spinner for it would redraw the screen ten times a second for as long
// as the question stays open (issue 25: 250-300 wake-ups a second).
func (t *toolsView) spinning(c *viewCtx) bool {
	for _, cl := range t.calls {
		if !cl.done && !t.waitsOnPerson(c, cl) {
			return true
		}
	}
	return false
}

// waitsOnPerson reports whether running call cl waits on a question to
// the person: its tool on its server has a question open for as many of
// our calls as run. A question names our request id, which the calls list
// does not know, so with fewer the calls cannot be told apart and spin.
func (t *toolsView) waitsOnPerson(c *viewCtx, cl *call) bool {
	if cl.done || cl.cancelling {
		return false
	}
	asking := c.askingCalls[askingCall{server: cl.server, tool: cl.tool}]
	if asking == 0 {
		return false
	}
	running := 0
	for _, o := range t.calls {
		if !o.done && o.server == cl.server && o.tool == cl.tool {
			running++
		}
	}
	return asking >= running
}

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
	tl := t.selected()
	if tl == nil {
		return nil
	}
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

// typing: a form field, the JSON text or the list's filter has the keys.
func (t *toolsView) typing() bool {
	return t.args != nil || t.json != nil || t.filter.editing
}

// key handles a key in the tools view: in the details, the JSON editor or
// the argument form when one is open, else in the list that has focus.
func (t *toolsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	switch {
	case t.details != nil:
		return t.detailsKey(c, k)
	case t.json != nil:
		return t.jsonKey(c, k)
	case t.args != nil && k.String() == "ctrl+r" && t.args.of.optional:
		// Not "t": that is text in a field.
		a := t.args.of
		a.asTask = !a.asTask
		t.asTask[[2]string{a.server, a.tool}] = a.asTask
		return nil
	case t.args != nil && key.Matches(k, km.ArgsJSON):
		return t.formToJSON(c)
	}
	if cmd, open := t.argsKey(c, k); open {
		return cmd
	}
	if t.onCalls {
		if moveCursor(km, k, &t.callSel, len(t.calls), callRows) {
			return nil
		}
	} else if cmd, ok := t.listKey(c, k); ok {
		return cmd
	}
	switch {
	case key.Matches(k, km.ToolsCalls):
		t.onCalls = !t.onCalls && len(t.calls) > 0
	case key.Matches(k, km.NextServer): // on the calls list; listKey takes it on the tools
		return t.nextServer(c)
	case key.Matches(k, km.Reconnect):
		return t.reconnect(c)
	case key.Matches(k, km.CancelCall):
		t.cancelSelected()
	case key.Matches(k, km.CallAgain):
		return t.callAgain(c)
	case key.Matches(k, km.Select) && t.onCalls:
		return t.readCall(c)
	case key.Matches(k, km.EditCall) && t.onCalls:
		return t.editCall(c)
	case key.Matches(k, km.Select):
		return t.open(c)
	case key.Matches(k, km.ToolDetails) && !t.onCalls:
		return t.openDetails(c)
	case key.Matches(k, km.TaskToggle) && !t.onCalls:
		return t.toggleTask(c)
	case key.Matches(k, km.OpenApp) && !t.onCalls:
		return t.openApp(c)
	}
	return nil
}

// callRows is how many calls the calls list shows, around its cursor.
const callRows = 4

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
// arguments (filled with those of its last call, if any), else at once.
func (t *toolsView) open(c *viewCtx) tea.Cmd {
	tl := t.selected()
	if tl == nil {
		return nil
	}
	var args map[string]any
	asJSON := false
	if last := t.last[[2]string{t.server, tl.Name}]; last != nil {
		args, asJSON = last.args, last.asJSON
	}
	return t.openFor(c, t.server, tl, args, asJSON)
}

// openFor opens the argument form of tl on server filled with args (nil:
// its defaults), or the JSON editor when asJSON or when args do not fit
// the form. A tool without arguments is called at once.
func (t *toolsView) openFor(c *viewCtx, server string, tl *wire.Tool, args map[string]any, asJSON bool) tea.Cmd {
	if cmd := appOnlyRefusal(tl); cmd != nil {
		return cmd
	}
	ti, err := schema.ParseToolInput(tl.InputSchema)
	if err != nil {
		return notice(fmt.Sprintf("%s: bad inputSchema: %v", untrusted.Line(tl.Name), err))
	}
	asTask := t.runsAsTask(c, server, tl)
	if len(ti.Fields) == 0 && !asJSON {
		return t.start(c, callSpec{server: server, tool: tl.Name, asTask: asTask})
	}
	can, must := t.taskChoice(c, server, tl)
	a := &toolArgs{server: server, tool: tl.Name, input: tl.InputSchema, optional: can && !must, asTask: asTask}
	if args == nil {
		return t.openArgs(c, ti, a)
	}
	if misfit := prefill(ti, args); len(misfit) > 0 || asJSON {
		note := ""
		if len(misfit) > 0 && !asJSON {
			note = "the last arguments do not fit the form (" + misfit[0] + "), so they are shown as JSON"
		}
		return t.openJSON(c, a, ti, args, note)
	}
	return t.openArgs(c, ti, a)
}

// callSpec is what a call sends, and how.
type callSpec struct {
	server, tool string
	args         map[string]any
	asTask       bool
	asJSON       bool // the arguments were written as JSON text
}

// start runs tools/call in a Cmd with its own cancellable context. The
// arguments are remembered for the tool's next form, and the result is
// checked against the tool's outputSchema in the Cmd.
func (t *toolsView) start(c *viewCtx, sp callSpec) tea.Cmd {
	if tl := t.toolOf(sp.server, sp.tool); tl != nil {
		if cmd := appOnlyRefusal(tl); cmd != nil {
			return cmd
		}
	}
	ctx, cancel := context.WithCancel(c.ctx)
	cl := &call{id: c.newID(), server: sp.server, tool: sp.tool, cancel: cancel, started: c.now(), asTask: sp.asTask,
		args: sp.args, argsText: argsLine(sp.args), asJSON: sp.asJSON}
	t.calls = append(t.calls, cl)
	t.callSel = len(t.calls) - 1
	t.last[[2]string{sp.server, sp.tool}] = cl
	out := t.outputSchemaOf(sp.server, sp.tool)
	eng, streams, id, now := c.engine, c.streams, cl.id, c.opts.Now
	server, tool, args, asTask := sp.server, sp.tool, sp.args, sp.asTask
	opts := CallOptions{AsTask: &asTask, OnProgress: func(p client.CallProgress) { streams.progress(id, p) }}
	return func() tea.Msg {
		defer cancel()
		res, err := eng.Call(ctx, server, tool, args, opts)
		msg := callDoneMsg{id: id, res: res, err: err, elapsed: now().Sub(cl.started)}
		if err == nil && res != nil {
			msg.output = out.judge(res)
		}
		return msg
	}
}

// argsLine is args as one line of JSON for the calls list ("" for none).
func argsLine(args map[string]any) string {
	if len(args) == 0 {
		return ""
	}
	b, err := json.Marshal(args)
	if err != nil {
		return ""
	}
	return string(b)
}

// callAgain calls again with the same arguments and task choice: the
// selected call in the calls list, else the selected tool's last call.
func (t *toolsView) callAgain(c *viewCtx) tea.Cmd {
	var cl *call
	if t.onCalls {
		if len(t.calls) == 0 {
			return nil
		}
		cl = t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	} else {
		tl := t.selected()
		if tl == nil {
			return nil
		}
		if cl = t.last[[2]string{t.server, tl.Name}]; cl == nil {
			return notice(untrusted.Line(tl.Name) + " was not called yet: enter calls it")
		}
	}
	return t.start(c, callSpec{server: cl.server, tool: cl.tool, args: cl.args, asTask: cl.asTask, asJSON: cl.asJSON})
}

// editCall opens the form of the selected call's tool with that call's
// arguments, to change them and call again.
func (t *toolsView) editCall(c *viewCtx) tea.Cmd {
	if len(t.calls) == 0 {
		return nil
	}
	cl := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	tl := t.toolOf(cl.server, cl.tool)
	if tl == nil {
		return notice(untrusted.Line(cl.server) + " no longer lists " + untrusted.Line(cl.tool) + ": a to call it again as it was")
	}
	if len(cl.args) == 0 && !cl.asJSON {
		if ti, err := schema.ParseToolInput(tl.InputSchema); err == nil && len(ti.Fields) == 0 {
			return notice(untrusted.Line(cl.tool) + " takes no arguments: a calls it again")
		}
	}
	args := cl.args
	if args == nil {
		args = map[string]any{}
	}
	return t.openFor(c, cl.server, tl, args, cl.asJSON)
}

// toolOf is tool as server's loaded list has it; nil when it is not there.
func (t *toolsView) toolOf(server, tool string) *wire.Tool {
	l := t.lists[server]
	if l == nil {
		return nil
	}
	for i := range l.items {
		if l.items[i].Name == tool {
			return &l.items[i]
		}
	}
	return nil
}

func (t *toolsView) callDone(msg callDoneMsg) {
	for _, cl := range t.calls {
		if cl.id == msg.id {
			cl.done, cl.res, cl.err, cl.elapsed, cl.output = true, msg.res, msg.err, msg.elapsed, msg.output
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

// progressBar draws a static bar (no animation: it redraws only when
// progress arrives).
func progressBar(st *themes.Styles, frac float64, width int) string {
	frac = max(0, min(frac, 1))
	full := int(frac * float64(width))
	return st.Success.Render(strings.Repeat("█", full)) + st.Muted.Render(strings.Repeat("░", width-full)) +
		st.Muted.Render(fmt.Sprintf(" %3.0f%%", frac*100))
}

// appOnlyRefusal is the notice for a tool only its MCP App may call
// (_meta.ui.visibility without "model"), nil for any other: such a tool
// is not offered as an ordinary call, it is called from its app.
func appOnlyRefusal(tl *wire.Tool) tea.Cmd {
	app, ok := tl.App()
	if !ok || !app.AppOnly {
		return nil
	}
	return notice(untrusted.Line(tl.Name) + " is called by its app only (visibility: app), not as an ordinary call; its app is " + untrusted.Line(app.ResourceURI))
}
