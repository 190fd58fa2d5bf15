package forms

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Options configures a Form.
type Options struct {
	// Message is the server's message, shown above the fields. It is
	// sanitized here; pass it as received.
	Message string
	// Theme styles the form. nil means huh's Charm theme behind a cache;
	// a theme passed here should cache its Styles per background itself,
	// because huh asks for them on every style lookup.
	Theme huh.Theme
	// Width fixes the form's width; 0 lets WindowSizeMsg and SetSize
	// decide.
	Width int
	// ShowHelp shows huh's key help under the fields.
	ShowHelp bool
}

// Form is one huh form built from a schema, with a typed reader per field.
// It is a bubbletea component, not a tea.Model: the parent calls Update
// and View, and runs the commands it returns (tagged per pane when several
// forms are open; ui/AGENTS.md, charm v2 facts: tagging). A Form is used
// from one goroutine.
type Form struct {
	opts     Options
	theme    *themeSwitch
	fields   []field
	message  string                     // sanitized
	refused  string                     // why the last submit was not accepted
	validate func(map[string]any) error // the whole-content check
	form     *huh.Form
	// groups and content, when set, lay out and read a form that is not
	// one flat group of fields (NewSampling).
	groups  func(f *Form) []*huh.Group
	content func(f *Form) (map[string]any, error)

	// Replayed into a rebuilt huh form.
	bg   *tea.BackgroundColorMsg
	size *tea.WindowSizeMsg

	submitted bool
}

// New builds the form for an elicitation schema. Defaults are pre-filled
// and are part of the content even if the person never visits the field.
func New(s *schema.Schema, opts Options) *Form {
	fields := make([]field, 0, len(s.Properties))
	for _, p := range s.Properties {
		fields = append(fields, newField(p, false))
	}
	return newForm(fields, s.Validate, opts)
}

// NewToolArgs builds the form for a tool call's arguments: the same fields
// as New, plus List (one item per line, or commas for numbers and
// booleans, or a JSON array) and JSON (a JSON text field checked against
// its sub-schema). Required arguments come first. Defaults are pre-filled;
// an example pre-fills a required argument without a default and is only
// a placeholder for an optional one.
func NewToolArgs(ti *schema.ToolInput, opts Options) *Form {
	fields := make([]field, 0, len(ti.Fields))
	for _, p := range ti.Fields {
		if p.Required {
			fields = append(fields, newField(p, true))
		}
	}
	for _, p := range ti.Fields {
		if !p.Required {
			fields = append(fields, newField(p, true))
		}
	}
	return newForm(fields, ti.Validate, opts)
}

func newForm(fields []field, validate func(map[string]any) error, opts Options) *Form {
	f := &Form{
		opts:     opts,
		theme:    &themeSwitch{cur: opts.Theme},
		fields:   fields,
		message:  strings.TrimSpace(untrusted.Text(opts.Message)),
		validate: validate,
	}
	if opts.Theme == nil {
		f.theme.cur = defaultTheme()
	}
	f.form = f.build()
	return f
}

// build makes a huh form around the fields' current values. The message
// is the group's title, so it stays in view while the fields scroll.
func (f *Form) build() *huh.Form {
	var groups []*huh.Group
	if f.groups != nil {
		groups = f.groups(f)
	} else {
		hf := make([]huh.Field, 0, len(f.fields)+1)
		if len(f.fields) == 0 {
			// A group needs a field to focus: a Note with a button to submit.
			hf = append(hf, themed(huh.NewNote(), f.theme).Title("Nothing to fill in.").Next(true).NextLabel("Submit"))
		}
		for _, fl := range f.fields {
			hf = append(hf, fl.build(f.theme))
		}
		groups = []*huh.Group{titled(huh.NewGroup(hf...), f)}
	}
	km := huh.NewDefaultKeyMap()
	// ctrl+c would abort the form, a state the parent cannot tell from a
	// decision; quitting and Esc are the parent's keys.
	km.Quit.SetEnabled(false)
	form := huh.NewForm(groups...).
		WithTheme(f.theme).
		WithKeyMap(km).
		WithShowHelp(f.opts.ShowHelp).
		WithShowErrors(true)
	if f.opts.Width > 0 {
		form.WithWidth(f.opts.Width)
	}
	f.resize(f.width())
	return form
}

// titled gives the form's first group its title: the message, and why
// the last submit was refused.
func titled(group *huh.Group, f *Form) *huh.Group {
	if f.message != "" {
		group.Title(f.message + "\n")
	}
	if f.refused != "" {
		group.Description("⚠ Not sent: " + f.refused + "\n")
	}
	return group
}

// width is the width the fields are laid out at.
func (f *Form) width() int {
	switch {
	case f.opts.Width > 0:
		return f.opts.Width
	case f.size != nil:
		return f.size.Width
	}
	return 80 // huh's default group width
}

// resize lets fields that size themselves (multi selects, long selects)
// fit their header at width w.
func (f *Form) resize(w int) {
	st := f.theme.Theme(true)
	frame := max(st.Focused.Base.GetHorizontalFrameSize(), st.Blurred.Base.GetHorizontalFrameSize())
	for _, fl := range f.fields {
		if r, ok := fl.(resizer); ok {
			r.resize(w - frame)
		}
	}
}

// Init starts the form: it focuses the first field. Its command must be
// run; without it keys are ignored.
func (f *Form) Init() tea.Cmd { return f.form.Init() }

// Update passes msg to the form and returns the command to run. When the
// person submits, the content is checked against the schema once more; if
// it is refused, the form is rebuilt with the values kept and the reason
// shown above the fields, and Submitted stays false.
//
// A cursor blink is dropped: huh v2.0.3 never shows one. Input.View and
// Text.View call SetStyles on their bubbles field at every render, which
// sets the virtual cursor's mode again and with it IsBlinked = false, so
// the focused cursor is drawn solid whatever the blink said
// (TestHuhNeverShowsABlink). Passing the blink on only re-armed a 530 ms
// timer and redrew an unchanged screen, twice a second for as long as a
// form had focus: the idle TUI's largest source of wake-ups after the
// renderer's (BENCHMARKS.md, "Idle"). Without it the cursor arms one blink
// when it moves, and that blink ends here.
func (f *Form) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case cursor.BlinkMsg:
		return nil
	case tea.BackgroundColorMsg:
		f.bg = &m
	case tea.WindowSizeMsg:
		f.size = &m
		f.resize(f.width())
	}
	if f.submitted {
		return nil
	}
	model, cmd := f.form.Update(msg)
	if hf, ok := model.(*huh.Form); ok {
		f.form = hf
	}
	if f.form.State != huh.StateCompleted {
		return cmd
	}
	if _, err := f.Content(); err != nil {
		f.refused = untrusted.Line(err.Error())
		return tea.Batch(cmd, f.rebuild())
	}
	f.submitted = true
	return cmd
}

// rebuild replaces the huh form after a refused submit and replays what
// the old one had learnt about the terminal.
func (f *Form) rebuild() tea.Cmd {
	f.form = f.build()
	cmds := []tea.Cmd{f.form.Init()}
	if f.bg != nil {
		_, c := f.form.Update(*f.bg)
		cmds = append(cmds, c)
	}
	if f.size != nil {
		_, c := f.form.Update(*f.size)
		cmds = append(cmds, c)
	}
	return tea.Sequence(cmds...)
}

// View renders the form; "" once it is submitted.
func (f *Form) View() string {
	if f.submitted {
		return ""
	}
	return f.form.View()
}

// Submitted reports whether the person completed the form and its content
// passed validation: Content then returns what to send.
func (f *Form) Submitted() bool { return f.submitted }

// Filtering reports whether the focused field is a select with its filter
// open; Esc then belongs to the field (it closes the filter) rather than
// to the parent (cancel).
func (f *Form) Filtering() bool {
	fl, ok := f.form.GetFocusedField().(interface{ GetFiltering() bool })
	return ok && fl.GetFiltering()
}

// Content returns the answer as typed JSON values (string, float64, int64,
// bool, []string, []any, decoded JSON), leaving out optional fields that
// are empty, and checks it against the schema the server sent. It can be
// called at any time; it never returns content that fails the check.
func (f *Form) Content() (map[string]any, error) {
	if f.content != nil {
		return f.content(f)
	}
	out := make(map[string]any, len(f.fields))
	for _, fl := range f.fields {
		v, ok, err := fl.value()
		if err != nil {
			return nil, err
		}
		if ok {
			out[fl.property().Name] = v
		}
	}
	if err := f.validate(out); err != nil {
		return nil, fmt.Errorf("content does not fit the schema: %w", err)
	}
	return out, nil
}

// SetSize lays the form out for a pane of w×h cells. The width is kept
// when Options.Width fixed it.
func (f *Form) SetSize(w, h int) tea.Cmd {
	return f.Update(tea.WindowSizeMsg{Width: w, Height: h})
}

// SetTheme restyles the form; nil means the default theme. Run the
// returned command like any other.
func (f *Form) SetTheme(t huh.Theme) tea.Cmd {
	if t == nil {
		t = defaultTheme()
	}
	f.theme.cur = t
	// A multi select's labels wrap at the width its theme's marks leave.
	f.resize(f.width())
	// huh renders into its viewport on Update; a message no field knows
	// makes it render again with the new styles.
	return f.Update(restyleMsg{})
}

// restyleMsg asks huh to render again.
type restyleMsg struct{}

// Huh returns the underlying huh form, for what this type does not cover.
// Rebuilding after a refused submit replaces it, so do not keep it.
func (f *Form) Huh() *huh.Form { return f.form }
