package forms

import (
	"slices"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// none is the index of the "(none)" choice, the answer "leave it out".
const none = -1

// boolField edits a boolean. With a default, or when required, it is a
// Yes/No Confirm and always has a value. An optional boolean without a
// default is a three-way choice instead, "(none)" first, because a Confirm
// cannot say "no answer" and the form must not send false on the person's
// behalf.
type boolField struct {
	p     *schema.Property
	yes   bool // Confirm state
	pick  int  // three-way state: none, 0 = No, 1 = Yes
	three bool
}

func newBoolField(p *schema.Property, tool bool) *boolField {
	f := &boolField{p: p, pick: none}
	start, _ := initial(p, tool)
	switch b, ok := start.(bool); {
	case ok:
		f.yes = b
	case !p.Required:
		f.three = true
	}
	return f
}

func (f *boolField) property() *schema.Property { return f.p }

func (f *boolField) build(theme huh.Theme) huh.Field {
	if !f.three {
		// Left: huh centres the buttons under the title and description,
		// which puts them 40 columns from the label under a long one.
		return themed(huh.NewConfirm(), theme).
			WithButtonAlignment(lipgloss.Left).
			Key(f.p.Name).
			Title(title(f.p)).
			Description(description(f.p)).
			Affirmative("Yes").
			Negative("No").
			Value(&f.yes)
	}
	return themed(huh.NewSelect[int](), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Inline(true).
		Value(&f.pick).
		Options(huh.NewOption("(none)", none), huh.NewOption("Yes", 1), huh.NewOption("No", 0))
}

func (f *boolField) value() (any, bool, error) {
	if !f.three {
		return answer(f.p, f.yes, true, nil)
	}
	if f.pick == none {
		return answer(f.p, nil, false, nil)
	}
	return answer(f.p, f.pick == 1, true, nil)
}

// enumField edits a single select. Its value is an index into the
// property's options (never the option's string, which could be "" or
// repeated), with none for "(none)": the first choice of an optional enum,
// and of a required enum without a default, where it stands for "choose
// one" so that the first option is never sent unseen.
type enumField struct {
	p    *schema.Property
	pick int
	sel  *huh.Select[int] // the last one built, for resize
	rows int              // options shown at once, 0 for all
}

func newEnumField(p *schema.Property, tool bool) *enumField {
	f := &enumField{p: p, pick: none}
	start, _ := initial(p, tool)
	if s, ok := start.(string); ok {
		f.pick = optionIndex(p.Options, s)
	}
	return f
}

func optionIndex(opts []schema.Option, v string) int {
	return slices.IndexFunc(opts, func(o schema.Option) bool { return o.Value == v })
}

// optionLabel is what a choice shows: its title, else its value.
func optionLabel(o schema.Option) string {
	if o.Label != "" {
		return untrusted.Line(o.Label)
	}
	return untrusted.Line(o.Value)
}

func (f *enumField) property() *schema.Property { return f.p }

func (f *enumField) build(theme huh.Theme) huh.Field {
	opts := make([]huh.Option[int], 0, len(f.p.Options)+1)
	if !f.p.Required || f.p.Default == nil {
		first := "(none)"
		if f.p.Required {
			first = "(choose one)"
		}
		opts = append(opts, huh.NewOption(first, none))
	}
	for i, o := range f.p.Options {
		opts = append(opts, huh.NewOption(optionLabel(o), i))
	}
	s := themed(huh.NewSelect[int](), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Value(&f.pick).
		Options(opts...).
		Validate(func(i int) error { _, _, err := f.read(i); return err })
	f.sel, f.rows = s, 0
	if len(opts) > filterAbove {
		// A long list scrolls in a window instead of filling the pane.
		f.rows = filterAbove
		f.resize(80)
	}
	return s
}

// resize fits the select's window under its header at inner width w.
func (f *enumField) resize(w int) {
	if f.rows > 0 && f.sel != nil {
		f.sel.Height(f.rows + headerHeight(f.p, w))
	}
}

func (f *enumField) value() (any, bool, error) { return f.read(f.pick) }

func (f *enumField) read(i int) (any, bool, error) {
	if i < 0 || i >= len(f.p.Options) {
		return answer(f.p, nil, false, nil)
	}
	return answer(f.p, f.p.Options[i].Value, true, nil)
}

// multiField edits a multi select; its value is the picked option indexes.
type multiField struct {
	p     *schema.Property
	picks []int
	ms    *huh.MultiSelect[int] // the last one built, for resize
	theme huh.Theme
	// labelW is the width its labels were last wrapped at (0: unwrapped).
	labelW int
}

func newMultiField(p *schema.Property, tool bool) *multiField {
	f := &multiField{p: p}
	start, _ := initial(p, tool)
	if ss, ok := start.([]string); ok {
		for _, s := range ss {
			if i := optionIndex(p.Options, s); i >= 0 && !slices.Contains(f.picks, i) {
				f.picks = append(f.picks, i)
			}
		}
	}
	return f
}

func (f *multiField) property() *schema.Property { return f.p }

func (f *multiField) build(theme huh.Theme) huh.Field {
	f.theme, f.labelW = theme, 0
	opts := f.options()
	// Value before Options: the other way round the cursor stays on row 0
	// instead of the first picked option (ui/AGENTS.md, charm v2 facts:
	// select).
	m := themed(huh.NewMultiSelect[int](), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Value(&f.picks).
		Options(opts...).
		Validate(func(picks []int) error { _, _, err := f.read(picks); return err })
	if f.p.MaxItems != nil && *f.p.MaxItems > 0 {
		m.Limit(*f.p.MaxItems)
	}
	f.ms = m
	f.resize(80)
	return m
}

// options are the choices, their labels wrapped at labelW: huh's multi
// select draws a label on one line, which its window then cuts at the
// field's edge (a select wraps its own).
func (f *multiField) options() []huh.Option[int] {
	opts := make([]huh.Option[int], len(f.p.Options))
	for i, o := range f.p.Options {
		label := optionLabel(o)
		if f.labelW > 0 && len(label) > f.labelW { // a cell takes a byte at least
			label = lipgloss.Wrap(label, f.labelW, wrapAt)
		}
		opts[i] = huh.NewOption(label, i)
	}
	return opts
}

// prefixWidth is what huh draws before a multi select's label: the cursor
// and the picked mark, the widest of either style.
func prefixWidth(theme huh.Theme) int {
	w := 0
	for _, s := range []huh.FieldStyles{theme.Theme(true).Focused, theme.Theme(true).Blurred} {
		w = max(w, lipgloss.Width(s.MultiSelectSelector.String())+
			max(lipgloss.Width(s.SelectedPrefix.String()), lipgloss.Width(s.UnselectedPrefix.String())))
	}
	return w
}

// resize wraps the labels at inner width w and gives the multi select
// its height: huh needs it set (without a Height it subtracts the header
// from the options' own height and hides the last options), and it
// counts lines, so the options in the window count theirs.
func (f *multiField) resize(w int) {
	if f.ms == nil {
		return
	}
	if lw := max(w-prefixWidth(f.theme), 10); lw != f.labelW {
		f.labelW = lw
		f.ms.Options(f.options()...)
	}
	rows := 0
	for _, o := range f.p.Options[:min(len(f.p.Options), filterAbove)] {
		rows++
		if l := optionLabel(o); len(l) > f.labelW {
			rows += lipgloss.Height(lipgloss.Wrap(l, f.labelW, wrapAt)) - 1
		}
	}
	f.ms.Height(rows + headerHeight(f.p, w))
}

func (f *multiField) value() (any, bool, error) { return f.read(f.picks) }

func (f *multiField) read(picks []int) (any, bool, error) {
	if len(picks) == 0 {
		return answer(f.p, nil, false, nil)
	}
	// Send in option order, whatever order they were toggled in.
	sorted := slices.Clone(picks)
	slices.Sort(sorted)
	out := make([]string, 0, len(sorted))
	for _, i := range slices.Compact(sorted) {
		if i >= 0 && i < len(f.p.Options) {
			out = append(out, f.p.Options[i].Value)
		}
	}
	return answer(f.p, out, true, nil)
}

// resizer is a field whose huh field's height depends on the width.
type resizer interface {
	// resize lays the field out for an inner width of w cells (the field's
	// width less its border and padding).
	resize(w int)
}

// headerHeight is the number of lines huh draws a select's title and
// description in at inner width w, which it counts in the field's Height.
func headerHeight(p *schema.Property, w int) int {
	w = max(w, 1)
	n := lipgloss.Height(lipgloss.Wrap(title(p), w, wrapAt))
	if d := description(p); d != "" {
		n += lipgloss.Height(lipgloss.Wrap(d, w, wrapAt))
	}
	return n
}

// wrapAt are the characters huh breaks lines after.
const wrapAt = ",.-; "
