package themes

import "charm.land/lipgloss/v2"

// Styles are the lipgloss styles of the whole UI for one background
// (light or dark), grouped by the part of the screen that uses them.
// Components use only these semantic fields, never colours.
type Styles struct {
	IsDark bool

	// Text is ordinary text, Muted secondary text, Title a view title.
	Text, Muted, Title lipgloss.Style
	// State styles, for inline use.
	Success, Warning, Error, Info lipgloss.Style

	Tabs    TabStyles
	Pane    PaneStyles
	Strip   StripStyles
	List    ListStyles
	Traffic TrafficStyles
	Journal JournalStyles
	Status  StatusStyles
	Help    HelpStyles
	Log     LogStyles
	Reader  ReaderStyles
}

// ReaderStyles mark search matches in the pager: every match, and the one
// n/N moved to.
type ReaderStyles struct {
	Match, Current lipgloss.Style
}

// TabStyles draw the view switcher at the top.
type TabStyles struct {
	Bar, Active, Inactive lipgloss.Style
}

// PaneStyles draw a prompt pane.
type PaneStyles struct {
	// Frame is the pane's border; Focused the border of the pane with focus.
	Frame, Focused lipgloss.Style
	// Header is the first line (server, id); Server the server name in it;
	// Meta the origin and waiting time.
	Header, Server, Meta lipgloss.Style
	// Message is the server's question.
	Message lipgloss.Style
	// Ended is the notice that replaces an ended prompt.
	Ended lipgloss.Style
	// URL is a URL-mode link; Host its host part; Warn a warning about it.
	URL, Host, Warn lipgloss.Style
	// Footer is the key line at the bottom; Key a key in it, KeyDesc what
	// it does; Button a visible action (Decline).
	Footer, Key, KeyDesc, Button lipgloss.Style
}

// StripStyles draw the list of open prompts.
type StripStyles struct {
	Bar, Item, Active, Fresh, Ended, Count lipgloss.Style
}

// ListStyles draw selectable lists (tools, traffic rows, journal rows).
type ListStyles struct {
	Item, Selected, Desc, Badge lipgloss.Style
}

// TrafficStyles draw the traffic view.
type TrafficStyles struct {
	Time, In, Out, ServerRequest, Method, ID, Error lipgloss.Style
}

// JournalStyles colour the outcome buckets; Other is withdrawn,
// disconnected, invalid, abandoned and timeout.
type JournalStyles struct {
	Accept, Decline, Cancel, Other lipgloss.Style
}

// StatusStyles draw the server status line.
type StatusStyles struct {
	Bar, Connecting, Ready, Failed, Disconnected lipgloss.Style
}

// HelpStyles draw the help overlay.
type HelpStyles struct {
	Box, Section, Key, Desc lipgloss.Style
}

// LogStyles colour log lines by level; Stderr is a server's stderr.
type LogStyles struct {
	Debug, Info, Warn, Error, Stderr lipgloss.Style
}

// painter applies palette colours, or attributes only when colour is off.
type painter struct {
	p       Palette
	isDark  bool
	noColor bool
}

func (c painter) fg(pair Pair) lipgloss.Style {
	if c.noColor {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(pair.pick(c.isDark))
}

// on draws text of pair fg on the surface; without colour it reverses, so
// a selected row is still visible.
func (c painter) on(fg, bg Pair) lipgloss.Style {
	if c.noColor {
		return lipgloss.NewStyle().Reverse(true)
	}
	return lipgloss.NewStyle().Foreground(fg.pick(c.isDark)).Background(bg.pick(c.isDark))
}

func (c painter) border(pair Pair, b lipgloss.Border) lipgloss.Style {
	s := lipgloss.NewStyle().Border(b)
	if c.noColor {
		return s
	}
	return s.BorderForeground(pair.pick(c.isDark))
}

func newStyles(p Palette, isDark, noColor bool) *Styles {
	c := painter{p: p, isDark: isDark, noColor: noColor}
	s := &Styles{IsDark: isDark}
	s.Text = c.fg(p.Text)
	s.Muted = c.fg(p.Muted).Faint(noColor)
	s.Title = c.fg(p.Accent).Bold(true)
	s.Success = c.fg(p.Success)
	s.Warning = c.fg(p.Warning).Bold(true)
	s.Error = c.fg(p.Error).Bold(true)
	s.Info = c.fg(p.Info)

	s.Tabs = TabStyles{
		Bar:      lipgloss.NewStyle(),
		Active:   c.on(p.OnSurface, p.Accent).Bold(true).Padding(0, 1),
		Inactive: c.fg(p.Muted).Padding(0, 1),
	}
	if noColor {
		s.Tabs.Inactive = s.Tabs.Inactive.Reverse(false)
	}

	s.Pane = PaneStyles{
		// The focused frame is thick, so focus shows without colour too.
		Frame:   c.border(p.Subtle, lipgloss.RoundedBorder()).Padding(0, 1),
		Focused: c.border(p.Accent, lipgloss.ThickBorder()).Padding(0, 1),
		Header:  c.fg(p.Text).Bold(true),
		Server:  c.fg(p.Accent).Bold(true),
		Meta:    c.fg(p.Muted),
		Message: c.fg(p.Text),
		Ended:   c.fg(p.Warning).Bold(true),
		URL:     c.fg(p.Info).Underline(true),
		Host:    c.on(p.OnSurface, p.Highlight).Bold(true).Underline(true),
		Warn:    c.fg(p.Warning).Bold(true),
		Footer:  c.fg(p.Muted),
		Key:     c.fg(p.Highlight).Bold(true),
		KeyDesc: c.fg(p.Muted),
		Button:  c.on(p.OnSurface, p.Error).Padding(0, 1),
	}

	s.Strip = StripStyles{
		Bar:    lipgloss.NewStyle(),
		Item:   c.fg(p.Muted).Padding(0, 1),
		Active: c.on(p.OnSurface, p.Surface).Bold(true).Padding(0, 1),
		Fresh:  c.fg(p.Highlight).Bold(true).Padding(0, 1),
		Ended:  c.fg(p.Subtle).Strikethrough(true).Padding(0, 1),
		Count:  c.fg(p.Accent).Bold(true),
	}
	if noColor {
		s.Strip.Active = s.Strip.Active.Reverse(true)
		s.Strip.Fresh = s.Strip.Fresh.Underline(true)
	}

	s.List = ListStyles{
		Item:     c.fg(p.Text),
		Selected: c.on(p.OnSurface, p.Surface).Bold(true),
		Desc:     c.fg(p.Muted),
		Badge:    c.fg(p.Info),
	}

	s.Traffic = TrafficStyles{
		Time:          c.fg(p.Muted),
		In:            c.fg(p.Success),
		Out:           c.fg(p.Info),
		ServerRequest: c.fg(p.Highlight).Bold(true),
		Method:        c.fg(p.Text),
		ID:            c.fg(p.Muted),
		Error:         c.fg(p.Error).Bold(true),
	}

	s.Journal = JournalStyles{
		Accept:  c.fg(p.Success),
		Decline: c.fg(p.Warning),
		Cancel:  c.fg(p.Error),
		Other:   c.fg(p.Muted),
	}

	s.Reader = ReaderStyles{
		Match:   c.on(p.OnSurface, p.Highlight),
		Current: c.on(p.OnSurface, p.Accent).Bold(true),
	}
	if noColor {
		s.Reader.Match = lipgloss.NewStyle().Underline(true)
		s.Reader.Current = lipgloss.NewStyle().Reverse(true).Bold(true)
	}

	s.Status = StatusStyles{
		Bar:          c.fg(p.Text),
		Connecting:   c.fg(p.Info),
		Ready:        c.fg(p.Success),
		Failed:       c.fg(p.Error).Bold(true),
		Disconnected: c.fg(p.Warning).Bold(true),
	}

	s.Help = HelpStyles{
		Box:     c.border(p.Accent, lipgloss.RoundedBorder()).Padding(0, 1),
		Section: c.fg(p.Accent).Bold(true),
		Key:     c.fg(p.Highlight).Bold(true),
		Desc:    c.fg(p.Text),
	}

	s.Log = LogStyles{
		Debug:  c.fg(p.Muted),
		Info:   c.fg(p.Text),
		Warn:   c.fg(p.Warning),
		Error:  c.fg(p.Error).Bold(true),
		Stderr: c.fg(p.Muted),
	}
	return s
}
