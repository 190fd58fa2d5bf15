package ui

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// tasksMsg carries task snapshots: every task the engine follows (server
// ""), or one server's tasks/list.
type tasksMsg struct {
	server string
	tasks  []client.Task
	err    error
}

// taskCancelledMsg reports a tasks/cancel the person asked for.
type taskCancelledMsg struct {
	key taskKey
	err error
}

// taskKey names a task: ids are unique per server only, and a task we
// run for the server (ours) has an id of our own making.
type taskKey struct {
	server, id string
	ours       bool
}

func keyOf(t *client.Task) taskKey { return taskKey{t.Server, t.ID, t.Ours} }

// tasksView lists every task of every server, newest first. Snapshots
// come from client.TaskChanged events (lane 2), so the list is kept in
// every view, and from the engine when the view opens.
type tasksView struct {
	list   []client.Task // newest first
	cursor int
	// cancelling marks tasks whose tasks/cancel is on its way, until a
	// snapshot says CancelRequested.
	cancelling map[taskKey]bool
	detail     *taskKey // the task whose details are shown, nil: the list
	page       pager
}

func (tasksMsg) screenMsg()         {}
func (taskCancelledMsg) screenMsg() {}

// The parts of a screen the task view has.
var _ interface {
	screen
	updater
	loader
	spins
	badger
} = (*tasksView)(nil)

func newTasksView() *tasksView { return &tasksView{cancelling: map[taskKey]bool{}} }

func (v *tasksView) enter(c *viewCtx) tea.Cmd { return v.load(c) }

func (v *tasksView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tasksMsg:
		return v.loaded(msg)
	case taskCancelledMsg:
		return v.cancelled(msg)
	case eventMsg:
		if e, ok := msg.e.(client.TaskChanged); ok {
			v.put(e.Task)
		}
	}
	return nil
}

// spinning: the spinner turns while the server works on a task.
func (v *tasksView) spinning(*viewCtx) bool { return v.working() > 0 }

// badge counts the tasks not over yet.
func (v *tasksView) badge() int { return v.waiting() }

func (v *tasksView) showDetail(k taskKey) {
	if v.find(k) >= 0 {
		v.detail, v.page = &k, pager{}
	}
}

// live reports whether a task may still change: it is not over and the
// engine still follows it.
func live(t *client.Task) bool { return !t.Ended && !t.Lost && !t.Status.Terminal() }

// working counts the tasks the server is working on (the spinner runs
// for them while the view is on screen).
func (v *tasksView) working() int {
	n := 0
	for i := range v.list {
		if t := &v.list[i]; live(t) && t.Status != client.TaskInputRequired {
			n++
		}
	}
	return n
}

// waiting counts the tasks not over yet, for the tab's badge.
func (v *tasksView) waiting() int {
	n := 0
	for i := range v.list {
		if live(&v.list[i]) {
			n++
		}
	}
	return n
}

func (v *tasksView) find(k taskKey) int {
	return slices.IndexFunc(v.list, func(t client.Task) bool { return keyOf(&t) == k })
}

// newer reports whether snapshot a should replace b: a snapshot read
// from the engine may be older than an event already applied.
func newer(a, b *client.Task) bool {
	switch {
	case b.Ended && !a.Ended:
		return false
	case a.Polls != b.Polls:
		return a.Polls > b.Polls
	}
	return !a.LastUpdatedAt.Before(b.LastUpdatedAt)
}

// put applies one snapshot. A new task goes on top; the selection stays
// on the task it was on.
func (v *tasksView) put(t client.Task) {
	k := keyOf(&t)
	if t.CancelRequested || !live(&t) {
		delete(v.cancelling, k)
	}
	if i := v.find(k); i >= 0 {
		if newer(&t, &v.list[i]) {
			if t.Tool == "" {
				t.Tool = v.list[i].Tool // a listed task does not know it
			}
			v.list[i] = t
			if v.detail != nil && *v.detail == k {
				v.page = pager{} // the result may have come
			}
		}
		return
	}
	v.list = slices.Insert(v.list, 0, t)
	if len(v.list) > 1 {
		v.cursor++
	}
	v.trim()
}

// maxTasks bounds the list; beyond it the oldest tasks that are over
// are forgotten (the engine forgets them too).
const maxTasks = 1000

func (v *tasksView) trim() {
	for i := len(v.list) - 1; i >= 0 && len(v.list) > maxTasks; i-- {
		if t := &v.list[i]; !live(t) && (v.detail == nil || *v.detail != keyOf(t)) {
			v.list = slices.Delete(v.list, i, i+1)
			if v.cursor > i || v.cursor >= len(v.list) {
				v.cursor = max(v.cursor-1, 0)
			}
		}
	}
}

// putAll applies many snapshots and keeps the newest first.
func (v *tasksView) putAll(ts []client.Task) {
	var sel *taskKey
	if v.cursor < len(v.list) {
		k := keyOf(&v.list[v.cursor])
		sel = &k
	}
	for _, t := range ts {
		v.put(t)
	}
	slices.SortStableFunc(v.list, func(a, b client.Task) int { return b.CreatedAt.Compare(a.CreatedAt) })
	v.cursor = 0
	if sel != nil {
		v.cursor = max(v.find(*sel), 0)
	}
}

// load reads every task the engine follows.
func (v *tasksView) load(c *viewCtx) tea.Cmd {
	eng := c.engine
	return func() tea.Msg { return tasksMsg{tasks: eng.Tasks()} }
}

// listAll asks every ready server for its tasks (tasks/list).
func (v *tasksView) listAll(c *viewCtx) tea.Cmd {
	eng, ctx := c.engine, c.ctx
	var cmds []tea.Cmd
	for _, s := range c.servers {
		if s.State != client.StateReady {
			continue
		}
		name := s.Name
		cmds = append(cmds, func() tea.Msg {
			ts, err := eng.ListTasks(ctx, name)
			return tasksMsg{server: name, tasks: ts, err: err}
		})
	}
	return tea.Batch(cmds...)
}

func (v *tasksView) loaded(msg tasksMsg) tea.Cmd {
	v.putAll(msg.tasks)
	switch {
	case errors.Is(msg.err, client.ErrNoTasks):
		return notice("tasks/list on " + msg.server + ": not available (" + msg.err.Error() + ")")
	case msg.err != nil:
		return notice("tasks/list on " + msg.server + ": " + msg.err.Error())
	case msg.server != "":
		return notice(fmt.Sprintf("%s lists %d tasks", msg.server, len(msg.tasks)))
	}
	return nil
}

func (v *tasksView) cancelled(msg taskCancelledMsg) tea.Cmd {
	if msg.err == nil {
		return nil // the task's next snapshot tells
	}
	delete(v.cancelling, msg.key)
	return notice(fmt.Sprintf("tasks/cancel %s on %s: %v", msg.key.id, msg.key.server, msg.err))
}

func (v *tasksView) selected() *client.Task {
	if v.cursor < 0 || v.cursor >= len(v.list) {
		return nil
	}
	return &v.list[v.cursor]
}

func (v *tasksView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if v.detail != nil {
		if v.page.typingQuery() {
			cmd, _ := v.page.key(km, k, v.textRows(c))
			return cmd
		}
		switch {
		case key.Matches(k, km.Back, km.Select):
			v.detail = nil
		case key.Matches(k, km.CancelTask):
			return v.cancel(c, *v.detail)
		case key.Matches(k, km.TaskPrompt):
			return v.jump(c, *v.detail)
		default:
			cmd, _ := v.page.key(km, k, v.textRows(c))
			return cmd
		}
		return nil
	}
	switch {
	case moveCursor(km, k, &v.cursor, len(v.list), v.listRows(c)):
	case key.Matches(k, km.Select):
		// Its details, as the hint says, also when it waits on a
		// question: they list it, and answering is p, an explicit step
		// into the questions view. Enter went to the question, where
		// Esc, meant as "back", sent cancel (issue 26).
		if t := v.selected(); t != nil {
			v.showDetail(keyOf(t))
		}
	case key.Matches(k, km.CancelTask):
		if t := v.selected(); t != nil {
			return v.cancel(c, keyOf(t))
		}
	case key.Matches(k, km.TaskPrompt):
		if t := v.selected(); t != nil {
			return v.jump(c, keyOf(t))
		}
	case key.Matches(k, km.ListTasks):
		return v.listAll(c)
	}
	return nil
}

// cancel sends tasks/cancel for a task that is not over.
func (v *tasksView) cancel(c *viewCtx, k taskKey) tea.Cmd {
	i := v.find(k)
	if i < 0 {
		return nil
	}
	t := &v.list[i]
	eng, ctx := c.engine, c.ctx
	switch {
	case !live(t):
		return notice("task " + k.id + " is over already")
	case v.cancelling[k] || t.CancelRequested:
		return nil
	}
	v.cancelling[k] = true
	return func() tea.Msg { return taskCancelledMsg{key: k, err: eng.CancelTask(ctx, k.server, k.id)} }
}

// jump shows a task's first open prompt: the Model has the panes.
func (v *tasksView) jump(c *viewCtx, k taskKey) tea.Cmd {
	i := v.find(k)
	if i < 0 {
		return nil
	}
	t := v.list[i]
	return func() tea.Msg { return showTaskPromptMsg{task: t} }
}

func (v *tasksView) listRows(c *viewCtx) int { return max(c.bodyHeight()-1, 1) }
func (v *tasksView) textRows(c *viewCtx) int { return max(c.bodyHeight()-6, 1) }

func (v *tasksView) render(c *viewCtx) string {
	st := c.st
	if v.detail != nil {
		if i := v.find(*v.detail); i >= 0 {
			return v.renderDetail(c, &v.list[i])
		}
		v.detail = nil
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(fmt.Sprintf("Tasks: %d, %d not over", len(v.list), v.waiting())) +
		st.Muted.Render("   enter details · x cancel · p its prompt · r tasks/list") + "\n")
	if len(v.list) == 0 {
		b.WriteString(st.Muted.Render("no tasks yet: a tool marked [task …] in F5 runs as one"))
		return b.String()
	}
	rows := v.listRows(c)
	lo := listTop(v.cursor, rows, len(v.list))
	now := c.now()
	for i := lo; i < min(lo+rows, len(v.list)); i++ {
		line := ansi.Truncate(v.line(c, &v.list[i], now), c.width-2, "…")
		if i == v.cursor {
			line = st.List.Selected.Render("› " + ansi.Strip(line))
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// taskGlyph is a task's status mark and colour. The spinner shows only
// while it runs (the view is on screen and something works); otherwise
// a working task shows a still ⠿.
func taskGlyph(c *viewCtx, t *client.Task) (string, lipgloss.Style) {
	st := c.st
	switch {
	case t.Lost:
		return "⚠", st.Error
	case t.Status == client.TaskCompleted:
		return "✓", st.Success
	case t.Status == client.TaskFailed:
		return "✗", st.Error
	case t.Status == client.TaskCancelled:
		return "⊘", st.Warning
	case t.Status == client.TaskInputRequired:
		return "?", st.Warning
	case c.spin.running:
		return c.spin.view(), st.Info
	}
	return "⠿", st.Info
}

func taskStatusText(t *client.Task) string {
	switch {
	case t.Lost:
		return "lost"
	case t.Status == "":
		return "unknown"
	}
	return strings.ReplaceAll(string(t.Status), "_", " ")
}

// line is one task: mark, server, id, tool, status, cancel state, age,
// TTL left, polling, and the server's status message.
func (v *tasksView) line(c *viewCtx, t *client.Task, now time.Time) string {
	st := c.st
	san := untrusted.Line
	glyph, style := taskGlyph(c, t)
	what := st.Text.Render(san(cmp.Or(t.Tool, "?")))
	if t.Ours {
		// The server's request, which we run as a task of ours.
		what = st.Info.Render("ours") + " " + st.Text.Render(san(t.Method))
		if t.Tool != "" {
			what += st.Muted.Render(" for " + san(t.Tool))
		}
	}
	s := style.Render(glyph+" "+fmt.Sprintf("%-14s", taskStatusText(t))) + " " +
		st.Muted.Render(san(t.Server)+" ") + san(t.ID) + "  " + what
	switch {
	case t.CancelRequested:
		s += st.Warning.Render("  ⊘ cancel requested")
	case v.cancelling[keyOf(t)]:
		s += st.Warning.Render("  ⊘ cancelling…")
	}
	s += st.Muted.Render("  " + taskTimes(t, now))
	if t.StatusMessage != "" {
		s += "  " + st.List.Desc.Render(san(t.StatusMessage))
	}
	return s
}

// taskTimes is "age 3m · ttl 57m · poll 2s ×14".
func taskTimes(t *client.Task, now time.Time) string {
	parts := make([]string, 0, 3)
	if !t.CreatedAt.IsZero() {
		parts = append(parts, "age "+shortDur(now.Sub(t.CreatedAt)))
	}
	if left, ok := t.TTLLeft(now); ok {
		parts = append(parts, "ttl "+shortDur(left))
	}
	poll := "poll"
	if t.PollInterval > 0 {
		poll += " " + shortDur(t.PollInterval)
	}
	parts = append(parts, fmt.Sprintf("%s ×%d", poll, t.Polls))
	return strings.Join(parts, " · ")
}

// shortDur rounds a duration for a list: 850ms, 12s, 3m04s, 2h05m, 3d4h.
func shortDur(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%dd%dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
}

// renderDetail shows one task: its line, design and times, why it
// failed, and its result through the results renderer.
func (v *tasksView) renderDetail(c *viewCtx, t *client.Task) string {
	st := c.st
	san := untrusted.Line
	now := c.now()
	var b strings.Builder
	b.WriteString(wrapLine(st.Title.Render("Task "+san(t.ID))+st.Muted.Render(" of "+san(t.Server)+
		"  (esc back · x cancel · p its prompt)"), c.width) + "\n")
	b.WriteString(wrapLine(v.line(c, t, now), c.width) + "\n")
	meta := "design " + san(cmp.Or(string(t.Design), "?"))
	if t.Ours {
		meta += " · ours: the server asked us (" + san(t.Method) + ") and polls us for it"
	}
	if !t.LastUpdatedAt.IsZero() {
		meta += " · updated " + shortDur(now.Sub(t.LastUpdatedAt)) + " ago"
	}
	b.WriteString(wrapped(st.Muted, meta, c.width) + "\n")
	if qs := c.taskQuestions(t); len(qs) > 0 {
		// The questions it waits on, in full; answering them is a step
		// into the questions view (p), never a key of this one.
		for _, q := range qs {
			b.WriteString(wrapped(st.Warning, "? open question: "+untrusted.Line(q.Message), c.width) + "\n")
		}
		b.WriteString(wrapped(st.Muted, c.keys.TaskPrompt.Help().Key+" answers it in the questions view", c.width) + "\n")
	}
	if t.StatusMessage != "" {
		// In full: the row cuts it.
		b.WriteString(wrapped(st.Text, "status message: "+untrusted.Text(t.StatusMessage), c.width) + "\n")
	}
	if t.ImmediateResponse != "" {
		b.WriteString(st.Muted.Render("immediate response: ") + st.Text.Render(san(t.ImmediateResponse)) + "\n")
	}
	if t.Err != nil {
		b.WriteString(st.Error.Render(errText(t.Err)) + "\n")
	}
	switch {
	case t.Result != nil:
		rows := v.textRows(c)
		res := t.Result
		v.page.set(st, c.width-2, func() string { return renderResult(st, res, c.width-2) })
		b.WriteString(st.Title.Render("result") + v.page.scrollHint(st, rows) + "\n" + v.page.view(rows))
	case live(t):
		b.WriteString(st.Muted.Render("no result yet: the task is " + taskStatusText(t)))
	case t.Err == nil:
		b.WriteString(st.Muted.Render("(no result)"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// reading is the task result's pager while a task is shown.
func (v *tasksView) reading() *pager {
	if v.detail == nil {
		return nil
	}
	return &v.page
}
