package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The server's prompt templates (prompts/list, prompts/get). They are
// called "templates" here so they are not confused with the prompts a
// server puts to the person (elicitation), which are this UI's panes.

// templatesMsg carries one server's prompts/list.
type templatesMsg struct {
	server string
	items  []wire.Prompt
	err    error
}

// templateGotMsg carries a prompts/get result; seq drops stale ones.
type templateGotMsg struct {
	seq int
	res *wire.GetPromptResult
	err error
}

// templateGet is the prompts/get being run or shown.
type templateGet struct {
	seq    int
	server string
	tp     wire.Prompt
	args   map[string]string
	cancel context.CancelFunc
	busy   bool
	res    *wire.GetPromptResult
	err    error
	page   pager
}

// templatesView lists a server's prompt templates; Enter asks for the
// arguments (one field per argument, required ones marked) and shows
// what prompts/get returns.
type templatesView struct {
	serverLists[wire.Prompt]
	argHost[wire.Prompt]
	got *templateGet // nil: the list (or the form) is shown
	seq int
}

func (templatesMsg) screenMsg()   {}
func (templateGotMsg) screenMsg() {}

// The parts of a screen the templates view has.
var _ interface {
	screen
	typist
	router
	paster
	backgrounder
	resizer
	updater
} = (*templatesView)(nil)

func newTemplatesView() *templatesView {
	t := &templatesView{}
	t.initLists(func(eng Engine, ctx context.Context, server string) tea.Msg {
		items, err := eng.ListPrompts(ctx, server)
		return templatesMsg{server: server, items: items, err: err}
	})
	t.submit = func(c *viewCtx, tp wire.Prompt, content map[string]any) tea.Cmd {
		// Every field is a string: argsSchema makes them so.
		args := make(map[string]string, len(content))
		for k, v := range content {
			if s, ok := v.(string); ok {
				args[k] = s
			}
		}
		return t.get(c, tp, args)
	}
	t.completes = func(tp wire.Prompt) (string, wire.CompleteRef) {
		return t.server, wire.CompleteRef{Type: wire.RefPrompt, Name: tp.Name}
	}
	return t
}

// typing: the argument form's fields, or the list's filter, take the keys.
func (t *templatesView) typing() bool { return t.argHost.typing() || t.serverLists.typing() }

// enter loads the shown server's list and sizes a form left open.
func (t *templatesView) enter(c *viewCtx) tea.Cmd {
	return tea.Batch(t.serverLists.enter(c), t.resize(c))
}

func (t *templatesView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case templatesMsg:
		return t.loaded(c, msg.server, msg.items, msg.err)
	case templateGotMsg:
		t.gotDone(msg)
	case eventMsg:
		return t.listEvent(c, msg, "prompts", c.onScreen(t))
	}
	return nil
}

// argsSchema turns prompt arguments into a tool-style input schema of
// strings, so the argument form is the one tools use. Names and texts go
// through encoding/json, so server text cannot change the schema's shape.
func argsSchema(args []wire.PromptArgument) json.RawMessage {
	type prop struct {
		Type        string `json:"type"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
	}
	var doc struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required,omitempty"`
	}
	doc.Type = "object"
	// Properties are written member by member to keep the server's order.
	var b strings.Builder
	b.WriteByte('{')
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a.Name] {
			continue // a duplicate name would make an invalid object
		}
		seen[a.Name] = true
		if len(seen) > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(a.Name)
		p, _ := json.Marshal(prop{Type: "string", Title: a.Title, Description: a.Description})
		b.Write(name)
		b.WriteByte(':')
		b.Write(p)
		if a.Required {
			doc.Required = append(doc.Required, a.Name)
		}
	}
	b.WriteByte('}')
	doc.Properties = json.RawMessage(b.String())
	raw, _ := json.Marshal(doc)
	return raw
}

// open starts the selected template: with an argument form when it takes
// arguments, else at once.
func (t *templatesView) open(c *viewCtx) tea.Cmd {
	l := t.current()
	if l == nil || t.cursor >= len(l.items) {
		return nil
	}
	tp := l.items[t.cursor]
	if len(tp.Arguments) == 0 {
		return t.get(c, tp, nil)
	}
	ti, err := schema.ParseToolInput(argsSchema(tp.Arguments))
	if err != nil {
		return notice(fmt.Sprintf("%s: cannot build its argument form: %v", untrusted.Line(tp.Name), err))
	}
	return t.openArgs(c, ti, tp)
}

// get runs prompts/get in a Cmd with its own context.
func (t *templatesView) get(c *viewCtx, tp wire.Prompt, args map[string]string) tea.Cmd {
	t.seq++
	ctx, cancel := context.WithCancel(c.ctx)
	g := &templateGet{seq: t.seq, server: t.server, tp: tp, args: args, cancel: cancel, busy: true}
	t.got = g
	eng, seq, server, name := c.engine, g.seq, g.server, tp.Name
	return func() tea.Msg {
		defer cancel()
		res, err := eng.GetPrompt(ctx, server, name, args)
		return templateGotMsg{seq: seq, res: res, err: err}
	}
}

func (t *templatesView) gotDone(msg templateGotMsg) {
	g := t.got
	if g == nil || g.seq != msg.seq {
		return
	}
	g.busy, g.res, g.err = false, msg.res, msg.err
	g.page = pager{}
}

// close goes back to the list, cancelling a prompts/get still running.
func (t *templatesView) close() {
	if t.got != nil && t.got.busy {
		t.got.cancel()
	}
	t.got = nil
	t.closeArgs()
}

func (t *templatesView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if cmd, open := t.argsKey(c, k); open {
		return cmd
	}
	if t.got != nil {
		if !t.got.page.typingQuery() && key.Matches(k, km.Back, km.Select) {
			t.close()
			return nil
		}
		cmd, _ := t.got.page.key(km, k, t.textRows(c))
		return cmd
	}
	if cmd, ok := t.listKey(c, k); ok {
		return cmd
	}
	if key.Matches(k, km.GetPrompt) {
		return t.open(c)
	}
	return nil
}

func (t *templatesView) render(c *viewCtx) string {
	st := c.st
	if t.args != nil {
		tp := t.args.of
		head := wrapLine(st.Title.Render("arguments for "+untrusted.Line(tp.Name))+st.Muted.Render("  (* required"+t.completeHint()+"; esc closes)"), c.width)
		if tp.Description != "" {
			head += "\n" + st.Muted.Render(untrusted.Line(tp.Description))
		}
		return head + "\n" + t.argsView(c)
	}
	if t.got != nil {
		return t.renderGot(c, t.got)
	}
	return t.renderList(c, listWords{title: "Prompts of", hints: "s next server · enter get",
		noun: "prompt templates", method: "prompts/list", none: "this server has no prompt templates"},
		func(tp *wire.Prompt, selected bool) string { return templateLine(c, tp, selected) })
}

// templateLine is one row: name (and title), its arguments, description.
func templateLine(c *viewCtx, tp *wire.Prompt, selected bool) string {
	st := c.st
	san := untrusted.Line
	line := san(tp.Name)
	if tp.Title != "" {
		line += " — " + san(tp.Title)
	}
	if len(tp.Arguments) > 0 {
		names := make([]string, 0, len(tp.Arguments))
		for _, a := range tp.Arguments {
			n := san(a.Name)
			if a.Required {
				n += "*"
			}
			names = append(names, n)
		}
		line += " " + st.List.Badge.Render("("+strings.Join(names, ", ")+")")
	}
	if tp.Description != "" {
		line += "  " + st.List.Desc.Render(san(tp.Description))
	}
	return listLine(c, line, selected)
}

func (t *templatesView) renderGot(c *viewCtx, g *templateGet) string {
	st := c.st
	head := st.Title.Render("prompts/get "+untrusted.Line(g.tp.Name)) +
		st.Muted.Render("  ("+untrusted.Line(g.server)+"; esc back)")
	switch {
	case g.busy:
		return head + "\n" + st.Muted.Render("getting…")
	case g.err != nil:
		return head + "\n" + st.Error.Render("prompts/get failed: "+errText(g.err))
	case g.res == nil:
		return head + "\n" + st.Muted.Render("(empty result)")
	}
	rows := t.textRows(c)
	res := g.res
	g.page.set(st, c.width-2, func() string {
		var b strings.Builder
		if res.Description != "" {
			b.WriteString(st.Muted.Render(untrusted.Text(res.Description)) + "\n\n")
		}
		if len(res.Messages) == 0 {
			b.WriteString(st.Muted.Render("(no messages)"))
		}
		for i, msg := range res.Messages {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(st.List.Badge.Render("["+untrusted.Line(orDash(msg.Role))+"]") + "\n")
			b.WriteString(renderBlock(st, st.Text, msg.Content, c.width-2))
		}
		return b.String()
	})
	return g.page.headed(st, head, c.width, rows)
}

// reading is the prompt result's pager while one is shown.
func (t *templatesView) reading() *pager {
	if t.got == nil || t.args != nil {
		return nil
	}
	return &t.got.page
}
