package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/forms/schema"
)

// argForm is an open argument form: a tool's arguments before tools/call,
// or a prompt template's before prompts/get. of is what they are for.
type argForm[T any] struct {
	id   int // from the id space panes use, so tag() routing never mixes them
	form *forms.Form
	of   T
}

// argHost is a view's one argument form and everything a form needs of
// the view around it: opening it with the terminal's background and the
// view's size, keys, routed messages, paste, background and resize. When
// the form is submitted and its content valid, it closes and submit runs
// what the arguments were for. Tools and prompt templates share it, so
// both forms behave alike.
type argHost[T any] struct {
	args   *argForm[T] // nil: no form is open
	submit func(m *Model, of T, args map[string]any) tea.Cmd
}

// openArgs opens the form of ti for of.
func (h *argHost[T]) openArgs(m *Model, ti *schema.ToolInput, of T) tea.Cmd {
	af := &argForm[T]{id: m.newID(), form: forms.NewToolArgs(ti, forms.Options{Theme: m.theme.Form}), of: of}
	h.args = af
	cmds := []tea.Cmd{tag(af.id, af.form.Init())}
	if m.bg != nil {
		cmds = append(cmds, tag(af.id, af.form.Update(m.bg)))
	}
	cmds = append(cmds, h.resize(m))
	return tea.Batch(cmds...)
}

// typing reports whether the form is open: its fields take the keys.
func (h *argHost[T]) typing() bool { return h.args != nil }

// argsKey handles a key while the form is open: esc closes it unless a
// select's filter is open, anything else goes to the form. It reports
// whether the form was open.
func (h *argHost[T]) argsKey(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	if h.args == nil {
		return nil, false
	}
	if key.Matches(k, m.keys.Back) && !h.args.form.Filtering() {
		h.args = nil
		return nil, true
	}
	return h.forward(m, k), true
}

// forward passes msg to the open form and runs submit once the form is
// submitted with valid content.
func (h *argHost[T]) forward(m *Model, msg tea.Msg) tea.Cmd {
	af := h.args
	if af == nil {
		return nil
	}
	cmd := tag(af.id, af.form.Update(msg))
	if !af.form.Submitted() {
		return cmd
	}
	args, err := af.form.Content()
	if err != nil {
		m.notice = "arguments refused: " + err.Error()
		return cmd
	}
	h.args = nil
	return tea.Batch(cmd, h.submit(m, af.of, args))
}

// routed delivers a message one of the form's commands produced; it
// reports whether the form is the one it is for.
func (h *argHost[T]) routed(m *Model, msg routedMsg) (tea.Cmd, bool) {
	if h.args == nil || h.args.id != msg.id {
		return nil, false
	}
	return h.forward(m, msg.msg), true
}

func (h *argHost[T]) paste(m *Model, msg tea.PasteMsg) tea.Cmd { return h.forward(m, msg) }

func (h *argHost[T]) background(msg tea.BackgroundColorMsg) tea.Cmd {
	if h.args == nil {
		return nil
	}
	return tag(h.args.id, h.args.form.Update(msg))
}

func (h *argHost[T]) resize(m *Model) tea.Cmd {
	if h.args == nil || m.width == 0 {
		return nil
	}
	return tag(h.args.id, h.args.form.SetSize(m.width-2, max(m.bodyHeight()-4, 3)))
}
