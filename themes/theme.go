package themes

import (
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Options change how a Palette becomes a Theme.
type Options struct {
	// NoColor draws no colours, only attributes (bold, underline, reverse).
	NoColor bool
}

// Theme is a Palette made into lipgloss styles for the UI and a matching
// huh theme for forms, for both light and dark backgrounds. Every style is
// built once in New: a Theme is immutable and safe for concurrent use, and
// handing out styles costs nothing per frame (huh asks its theme for styles
// on every lookup; rebuilding them was a third of the CPU of a frame).
type Theme struct {
	// Name is the palette's name.
	Name string
	// Form is the huh theme for forms; it returns cached styles.
	Form huh.Theme

	palette Palette
	noColor bool
	styles  [2]*Styles // [light, dark]
}

// New builds a Theme from a palette.
func New(p Palette, opts Options) *Theme {
	t := &Theme{Name: p.Name, palette: p, noColor: opts.NoColor}
	cf := &cachedForm{}
	for i, dark := range []bool{false, true} {
		t.styles[i] = newStyles(p, dark, opts.NoColor)
		cf.styles[i] = newFormStyles(p, dark, opts.NoColor)
	}
	t.Form = cf
	return t
}

// Palette returns the palette the theme was built from.
func (t *Theme) Palette() Palette { return t.palette }

// NoColor reports whether the theme draws without colour.
func (t *Theme) NoColor() bool { return t.noColor }

// Styles returns the UI styles for a dark or light background. The result
// is shared; callers must not modify it.
func (t *Theme) Styles(isDark bool) *Styles { return t.styles[idx(isDark)] }

func idx(isDark bool) int {
	if isDark {
		return 1
	}
	return 0
}

// cachedForm is a huh.Theme that hands out styles built once.
type cachedForm struct {
	styles [2]*huh.Styles
}

// Theme implements huh.Theme.
func (c *cachedForm) Theme(isDark bool) *huh.Styles { return c.styles[idx(isDark)] }

// newFormStyles derives huh's styles from the same palette, following the
// structure of huh.ThemeCharm so every field kind is covered.
func newFormStyles(p Palette, isDark, noColor bool) *huh.Styles {
	t := huh.ThemeBase(isDark)
	c := painter{p: p, isDark: isDark, noColor: noColor}
	button := lipgloss.NewStyle().Padding(0, 2).MarginRight(1)

	f := &t.Focused
	f.Base = f.Base.BorderStyle(lipgloss.ThickBorder())
	if !noColor {
		f.Base = f.Base.BorderForeground(p.Accent.pick(isDark))
	}
	f.Card = f.Base
	f.Title = c.fg(p.Accent).Bold(true)
	f.NoteTitle = c.fg(p.Accent).Bold(true).MarginBottom(1)
	f.Directory = c.fg(p.Accent)
	f.File = c.fg(p.Text)
	f.Description = c.fg(p.Muted)
	f.ErrorIndicator = c.fg(p.Error).SetString(" *")
	f.ErrorMessage = c.fg(p.Error).Bold(noColor).SetString(" *")
	f.SelectSelector = c.fg(p.Highlight).SetString("> ")
	f.NextIndicator = c.fg(p.Highlight).MarginLeft(1).SetString("→")
	f.PrevIndicator = c.fg(p.Highlight).MarginRight(1).SetString("←")
	f.Option = c.fg(p.Text)
	f.MultiSelectSelector = c.fg(p.Highlight).SetString("> ")
	f.SelectedOption = c.fg(p.Success).Bold(noColor)
	f.SelectedPrefix = c.fg(p.Success).SetString("[✓] ")
	f.UnselectedOption = c.fg(p.Text)
	f.UnselectedPrefix = c.fg(p.Muted).SetString("[ ] ")
	f.FocusedButton = button.Inherit(c.on(p.OnSurface, p.Accent)).Bold(true)
	f.BlurredButton = button.Inherit(c.fg(p.Text))
	if !noColor {
		f.BlurredButton = f.BlurredButton.Background(p.Surface.pick(isDark))
	}
	f.Next = f.FocusedButton
	f.TextInput.Cursor = c.fg(p.Highlight)
	f.TextInput.CursorText = lipgloss.NewStyle()
	f.TextInput.Placeholder = c.fg(p.Muted).Faint(noColor)
	f.TextInput.Prompt = c.fg(p.Highlight)
	f.TextInput.Text = c.fg(p.Text)

	t.Blurred = t.Focused
	t.Blurred.Base = t.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	t.Blurred.Card = t.Blurred.Base
	t.Blurred.NextIndicator = lipgloss.NewStyle()
	t.Blurred.PrevIndicator = lipgloss.NewStyle()
	t.Blurred.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
	t.Blurred.SelectSelector = lipgloss.NewStyle().SetString("  ")

	t.Group.Title = t.Focused.Title
	t.Group.Description = t.Focused.Description

	t.Help.ShortKey = c.fg(p.Muted)
	t.Help.ShortDesc = c.fg(p.Subtle)
	t.Help.ShortSeparator = c.fg(p.Subtle)
	t.Help.FullKey = c.fg(p.Muted)
	t.Help.FullDesc = c.fg(p.Subtle)
	t.Help.FullSeparator = c.fg(p.Subtle)
	t.Help.Ellipsis = c.fg(p.Subtle)
	return t
}
