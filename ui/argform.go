package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/forms/schema"
)

// argForm is an open argument form: a tool's arguments before tools/call,
// or a prompt template's before prompts/get. of is what they are for.
type argForm[T any] struct {
	id   int // from the id space panes use, so tag() routing never mixes them
	form *forms.Form
	of   T
	comp *completer // nil: no completions for this form (complete.go)
}

// argHost is a view's one argument form and everything a form needs of
// the view around it: opening it with the terminal's background and the
// view's size, keys, routed messages, paste, background and resize. When
// the form is submitted and its content valid, it closes and submit runs
// what the arguments were for. Tools and prompt templates share it, so
// both forms behave alike.
type argHost[T any] struct {
	args   *argForm[T] // nil: no form is open
	submit func(c *viewCtx, of T, args map[string]any) tea.Cmd
	// completes, when set, names what of's fields complete against
	// (completion/complete): the server and the reference.
	completes func(of T) (server string, ref wire.CompleteRef)
}

// openArgs opens the form of ti for of.
func (h *argHost[T]) openArgs(c *viewCtx, ti *schema.ToolInput, of T) tea.Cmd {
	h.closeArgs()
	af := &argForm[T]{id: c.newID(), form: forms.NewToolArgs(ti, forms.Options{Theme: c.theme.Form}), of: of}
	if h.completes != nil {
		server, ref := h.completes(of)
		af.comp = newCompleter(c, server, ref)
	}
	h.args = af
	cmds := []tea.Cmd{tag(af.id, af.form.Init())}
	if c.bg != nil {
		cmds = append(cmds, tag(af.id, af.form.Update(c.bg)))
	}
	cmds = append(cmds, h.resize(c))
	return tea.Batch(cmds...)
}

// closeArgs closes the form, cancelling a completion request it has out.
func (h *argHost[T]) closeArgs() {
	if h.args != nil {
		h.args.comp.stop()
	}
	h.args = nil
}

// typing reports whether the form is open: its fields take the keys.
func (h *argHost[T]) typing() bool { return h.args != nil }

// argsKey handles a key while the form is open: a list of suggestions
// takes its keys first (esc closes it), then esc closes the form unless a
// select's filter is open, and anything else goes to the form. It reports
// whether the form was open.
func (h *argHost[T]) argsKey(c *viewCtx, k tea.KeyPressMsg) (tea.Cmd, bool) {
	af := h.args
	if af == nil {
		return nil, false
	}
	if cmd, ok := af.comp.completeKey(c, k, af.form, af.id); ok {
		return cmd, true
	}
	if key.Matches(k, c.keys.Back) && !af.form.Filtering() {
		h.closeArgs()
		return nil, true
	}
	return h.forward(c, k), true
}

// forward passes msg to the open form and runs submit once the form is
// submitted with valid content.
func (h *argHost[T]) forward(c *viewCtx, msg tea.Msg) tea.Cmd {
	af := h.args
	if af == nil {
		return nil
	}
	cmd := tag(af.id, af.form.Update(msg))
	if !af.form.Submitted() {
		return tea.Batch(cmd, af.comp.follow(af.form, af.id))
	}
	args, err := af.form.Content()
	if err != nil {
		return tea.Batch(cmd, notice("arguments refused: "+err.Error()))
	}
	h.closeArgs()
	return tea.Batch(cmd, h.submit(c, af.of, args))
}

// routed delivers a message one of the form's commands produced; it
// reports whether the form is the one it is for.
func (h *argHost[T]) routed(c *viewCtx, msg routedMsg) (tea.Cmd, bool) {
	af := h.args
	if af == nil || af.id != msg.id {
		return nil, false
	}
	switch m := msg.msg.(type) {
	case completeDueMsg:
		return af.comp.due(c, m, af.form, af.id), true
	case completeGotMsg:
		return af.comp.got(c, m, af.form, af.id), true
	}
	return h.forward(c, msg.msg), true
}

func (h *argHost[T]) paste(c *viewCtx, msg tea.PasteMsg) tea.Cmd { return h.forward(c, msg) }

func (h *argHost[T]) background(c *viewCtx, msg tea.BackgroundColorMsg) tea.Cmd {
	if h.args == nil {
		return nil
	}
	return tag(h.args.id, h.args.form.Update(msg))
}

func (h *argHost[T]) resize(c *viewCtx) tea.Cmd {
	if h.args == nil || c.width == 0 {
		return nil
	}
	rows := c.bodyHeight() - 4
	if h.args.comp != nil {
		rows -= completeRows + 2 // the list of suggestions goes under the form
	}
	return tag(h.args.id, h.args.form.SetSize(c.width-2, max(rows, 3)))
}

// argsView draws the open form and, under it, its suggestions.
func (h *argHost[T]) argsView(c *viewCtx) string {
	af := h.args
	if l := af.comp.view(c); l != "" {
		return af.form.View() + "\n\n" + l
	}
	return af.form.View()
}

// completeHint is what the form's head says about suggestions ("" when
// the server offers none).
func (h *argHost[T]) completeHint() string { return h.args.comp.hint() }
