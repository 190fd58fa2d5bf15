package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// promptsView is the prompt panes: every prompt a server puts to the
// person is a pane, and the focused one is on screen, with up to three
// more beside it when there is room (tiles.go). The Model opens and ends
// panes on the engine's word (panes.go); this screen shows the panes and
// gives the focused one the keys, pastes and its form's messages.
type promptsView struct {
	panes []*pane // arrival order
	byKey map[question.Key]*pane
	byID  map[int]*pane
	focus int // id of the pane with focus, 0 = none
	// single: the person asked for one pane at a time (ctrl+s); else
	// tiles whenever two or more panes and the room allow.
	single bool
	start  int // index of the first pane on screen (tiling keeps it)
}

// The parts of a screen the prompts view has.
var _ interface {
	screen
	typist
	router
	paster
	backgrounder
	resizer
	badger
	fitted
} = (*promptsView)(nil)

func newPromptsView() *promptsView {
	return &promptsView{byKey: map[question.Key]*pane{}, byID: map[int]*pane{}}
}

func (p *promptsView) focused() *pane { return p.byID[p.focus] }

func (p *promptsView) indexOf(id int) int {
	for i, pn := range p.panes {
		if pn.id == id {
			return i
		}
	}
	return -1
}

// focusPane gives a pane focus and sizes the forms that come on screen
// with it (forms are sized lazily, so 200 hidden panes cost nothing on
// resize).
func (p *promptsView) focusPane(c *viewCtx, id int) tea.Cmd {
	if p.byID[id] == nil {
		return nil
	}
	p.focus = id
	return p.sizeShown(c)
}

// removePane drops an ended pane; the journal keeps its outcome. Focus
// moves to the next pane, preferring open ones.
func (p *promptsView) removePane(c *viewCtx, pn *pane) tea.Cmd {
	i := p.indexOf(pn.id)
	if i < 0 {
		return nil
	}
	p.panes = append(p.panes[:i], p.panes[i+1:]...)
	delete(p.byKey, pn.p.Key)
	delete(p.byID, pn.id)
	if p.focus != pn.id {
		return nil
	}
	p.focus = 0
	if len(p.panes) == 0 {
		return nil
	}
	for j := range p.panes {
		if o := p.panes[(i+j)%len(p.panes)]; o.open() {
			return p.focusPane(c, o.id)
		}
	}
	return p.focusPane(c, p.panes[min(i, len(p.panes)-1)].id)
}

// taskPane is the first open prompt pane of a task: those the engine
// names first, then any whose key or origin names the task.
func (p *promptsView) taskPane(t *client.Task) *pane {
	if qs := p.taskQuestions(t); len(qs) > 0 {
		return p.byKey[qs[0].Key]
	}
	return nil
}

// taskQuestions are a task's open questions (the task view's details
// list them): those the engine names first, then any whose key or origin
// names the task.
func (p *promptsView) taskQuestions(t *client.Task) []*question.Question {
	var out []*question.Question
	seen := map[int]bool{}
	add := func(pn *pane) {
		if pn != nil && pn.open() && !seen[pn.id] {
			seen[pn.id] = true
			out = append(out, pn.p)
		}
	}
	for _, k := range t.OpenPrompts {
		add(p.byKey[k])
	}
	for _, pn := range p.panes {
		if pr := pn.p; pr.Server == t.Server && (pr.Key.TaskID == t.ID || pr.Origin.TaskID == t.ID) {
			add(pn)
		}
	}
	return out
}

func (p *promptsView) enter(c *viewCtx) tea.Cmd { return p.sizeShown(c) }

// key handles the view's own keys (tiles.go), then a key for the focused
// pane.
func (p *promptsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := p.layoutKey(c, k); ok {
		return cmd
	}
	pn := p.focused()
	if pn == nil {
		return nil
	}
	if paneScrollKey(c, pn, k) { // panefit.go
		return nil
	}
	if !pn.open() {
		if key.Matches(k, c.keys.Dismiss) && pn.state == paneEnded {
			return p.removePane(c, pn)
		}
		cmd, _ := urlDoneKey(c, pn, k) // urlretry.go
		return cmd
	}
	answering := key.Matches(k, c.keys.Decline) || key.Matches(k, c.keys.Cancel) || k.Code == tea.KeyEnter
	if answering && !pn.armed(c.now(), c.opts.ArmDelay) {
		pn.note = "just arrived: read it first (keys that answer it are taken after a moment)"
		return nil
	}
	if pn.perm != nil {
		return permKey(c, pn, k) // agent_perm.go
	}
	switch {
	case key.Matches(k, c.keys.Decline):
		pn.answer(question.Outcome{Kind: question.Decline})
		return nil
	case key.Matches(k, c.keys.Cancel) && (pn.form == nil || !pn.form.Filtering()):
		pn.answer(question.Outcome{Kind: question.Cancel})
		return nil
	case key.Matches(k, c.keys.SaveMedia) && paneKindOf(pn.p.Kind).media:
		return saveMedia(c, pn) // sampling_save.go
	}
	if pn.form == nil {
		return urlKey(c, pn, k)
	}
	return formUpdate(pn, k)
}

// formUpdate feeds a message to a pane's form and accepts once the form
// is submitted and its content validates.
func formUpdate(pn *pane, msg tea.Msg) tea.Cmd {
	cmd := tag(pn.id, pn.form.Update(msg))
	if pn.open() && pn.form.Submitted() {
		content, err := pn.form.Content()
		if err != nil {
			pn.note = "not sent: " + err.Error()
			return cmd
		}
		pn.note = ""
		pn.answer(paneKindOf(pn.p.Kind).accept(pn.p, content)) // kinds.go
	}
	return cmd
}

// failedServers says, on the empty questions screen, which servers failed
// to start and why: the error and the last lines the server wrote on
// stderr, where the reason usually is (a missing module, a bad flag).
func failedServers(c *viewCtx) string {
	var b strings.Builder
	for _, s := range c.servers {
		if s.State != client.StateFailed {
			continue
		}
		line := "\n  ✗ " + untrusted.Line(s.Name) + " failed: " + errText(s.Err)
		b.WriteString(c.st.Error.Render(ansi.Truncate(line, max(c.width, 20), "…")) + "\n")
		tail, _ := c.streams.stderrTail(s.Name, stderrTailLines)
		for _, e := range tail {
			b.WriteString(c.st.Muted.Render(ansi.Truncate("    "+untrusted.Line(e.Text), max(c.width, 20), "…")) + "\n")
		}
		if len(tail) > 0 {
			b.WriteString(c.st.Muted.Render("    (its stderr; F8 shows all of it, r in F5 retries)") + "\n")
		}
	}
	return b.String()
}

// stderrTailLines is how much of a failed server's stderr the empty
// questions screen shows.
const stderrTailLines = 6

// demoServerName is the serverInfo name of elicit's embedded demo, whose
// tools the empty questions screen can name.
const demoServerName = "elicit-demo"

// firstSteps is what the empty questions screen suggests trying first: on
// the demo a concrete tool on a named server, elsewhere the same steps
// with any tool. Each line is cut to the width, never wrapped.
func firstSteps(c *viewCtx) []string {
	for _, s := range c.servers {
		if s.State == client.StateReady && s.Info.Name == demoServerName {
			steps := []string{
				"  No questions yet. Try the deploy tool first:",
				"  F5 Tools, s until it shows " + untrusted.Line(s.Name) + ", ↓ to deploy, Enter twice.",
				"  Its question opens here (F4): enter accepts, ctrl+x declines, esc cancels.",
				"  Every tool works on the server that lists it; F7 shows how each question",
				"  ended, F1 every key.",
				"  palette has an MCP App: o on it in F5 opens it as a local page.",
			}
			if len(c.agents) > 0 {
				steps = append(steps, "  alt+a shows the ACP agent: a prompt there, and its questions open here too.")
			}
			return steps
		}
	}
	return []string{
		"  No questions. When a server asks you something, it appears here.",
		"  Try first: F5 Tools, pick a tool (↑↓; s for the next server), Enter calls it.",
		"  A question it asks opens here (F4); F1 shows every key.",
	}
}

// render draws the panes on screen in their frames (the focused one, or
// tiles), at exactly the body's size.
func (p *promptsView) render(c *viewCtx) string {
	pn := p.focused()
	if pn == nil {
		steps := firstSteps(c)
		for i, l := range steps {
			steps[i] = ansi.Truncate(l, max(c.width, 20), "…")
		}
		return failedServers(c) + c.st.Muted.Render("\n"+strings.Join(steps, "\n"))
	}
	return p.renderTiles(c, p.tiling(c))
}

func (p *promptsView) fitted() bool { return p.focused() != nil }

func (p *promptsView) typing() bool {
	pn := p.focused()
	return pn != nil && pn.open() && pn.form != nil
}

func (p *promptsView) routed(c *viewCtx, msg routedMsg) (tea.Cmd, bool) {
	pn := p.byID[msg.id]
	if pn == nil {
		return nil, false
	}
	if pn.form == nil || pn.state != paneOpen {
		return nil, true
	}
	return formUpdate(pn, msg.msg), true
}

func (p *promptsView) paste(c *viewCtx, msg tea.PasteMsg) tea.Cmd {
	if pn := p.focused(); pn != nil && pn.open() && pn.form != nil {
		return formUpdate(pn, msg)
	}
	return nil
}

func (p *promptsView) background(c *viewCtx, msg tea.BackgroundColorMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(p.panes))
	for _, pn := range p.panes {
		if pn.form != nil {
			cmds = append(cmds, tag(pn.id, pn.form.Update(msg)))
		}
	}
	return tea.Batch(cmds...)
}

func (p *promptsView) resize(c *viewCtx) tea.Cmd { return p.enter(c) }

// badge counts the open prompts.
func (p *promptsView) badge() int {
	n := 0
	for _, pn := range p.panes {
		if pn.open() {
			n++
		}
	}
	return n
}
