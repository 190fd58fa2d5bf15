package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/themes"
)

// reader is a pager over the whole body, opened by a screen for one long
// text (a tool result, a frame, the log): the one place such texts are
// read, with the pager's keys. Each tab keeps its own reader, so a person
// who looks at another view and comes back finds it as they left it.
// Esc or q closes it.
type reader struct {
	title  string
	render func(st *themes.Styles, width int) string
	page   pager
	// atEnd: the text is read from its end (a log); placed: done once.
	atEnd, placed bool
}

// readMsg asks the Model to open a reader on the screen on show.
type readMsg struct {
	title  string
	render func(st *themes.Styles, width int) string
	atEnd  bool
}

// openReader is the command a screen returns to show a long text in the
// reader. render is called once per styles and width; title is drawn
// as given (the caller sanitizes server text in it).
func openReader(title string, render func(st *themes.Styles, width int) string) tea.Cmd {
	return func() tea.Msg { return readMsg{title: title, render: render} }
}

// openReaderAtEnd is openReader for a text read from its end (a log).
func openReaderAtEnd(title string, render func(st *themes.Styles, width int) string) tea.Cmd {
	return func() tea.Msg { return readMsg{title: title, render: render, atEnd: true} }
}

// reading is a screen that shows a pager of its own (a resource, a
// prompt's result, a task's result): the Model gives that pager the
// wheel, and the keys while a search query is typed.
type reading interface{ reading() *pager }

func (m *Model) handleRead(msg readMsg) {
	if m.readers == nil {
		m.readers = map[viewID]*reader{}
	}
	m.readers[m.view] = &reader{title: msg.title, render: msg.render, atEnd: msg.atEnd}
}

// openPager is the pager on screen, in a reader or in the screen's own
// body; nil when there is none.
func (m *Model) openPager() *pager {
	if m.showHelp {
		return nil
	}
	if rd := m.readers[m.view]; rd != nil {
		return &rd.page
	}
	if r, ok := m.shown.(reading); ok {
		return r.reading()
	}
	return nil
}

// readerKey handles a key while the screen on show has a reader open; it
// reports whether the reader took it.
func (m *Model) readerKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	rd := m.readers[m.view]
	if rd == nil {
		return nil, false
	}
	if !rd.page.typingQuery() && key.Matches(k, m.keys.Back, m.keys.CloseReader) {
		delete(m.readers, m.view)
		return nil, true
	}
	cmd, _ := rd.page.key(m.keys, k, m.readerRows())
	return cmd, true
}

// readerRows is how many lines of text the reader shows: the body less
// its title and hint lines.
func (m *Model) readerRows() int { return max(m.bodyHeight()-2, 1) }

// renderReader draws the reader of the screen on show.
func (m *Model) renderReader(rd *reader) string {
	st, w := m.st, m.width
	rd.page.set(st, w, func() string { return rd.render(st, w) })
	rows := m.readerRows()
	if rd.atEnd && !rd.placed {
		rd.page.offset, rd.placed = rd.page.maxOffset(rows), true
	}
	return st.Title.Render(rd.title) + st.Muted.Render("  esc back") + "\n" +
		rd.page.scrollHint(st, rows) + "\n" + rd.page.view(rows)
}

// handleWheel scrolls the pager on screen.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	if p := m.openPager(); p != nil {
		p.wheel(msg)
		return nil
	}
	m.wheelPane(msg) // panefit.go
	return nil
}
