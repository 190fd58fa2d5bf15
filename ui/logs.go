package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// logLevels are the syslog levels of logging/setLevel, lowest first.
func logLevels() []string { return wire.LogLevels() }

// logView shows server stderr, notifications/message and engine notices.
type logView struct {
	server  string // "" = all
	rows    []LogEntry
	total   int
	picking bool // the level picker is open
	level   int  // picker cursor
}

func (l *logView) refresh(c *viewCtx) {
	l.rows, l.total = c.streams.logWindow(l.server, 0, max(c.bodyHeight()-2, 1))
}

// The parts of a screen the log view has.
var _ interface {
	screen
	updater
} = (*logView)(nil)

func (l *logView) enter(c *viewCtx) tea.Cmd {
	l.refresh(c)
	return nil
}

// update refreshes the window when the ring grew, and records an engine
// notice as a log line (lane 2 → the log ring), shown or not.
func (l *logView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case streamsChangedMsg:
		if c.onScreen(l) {
			l.refresh(c)
		}
	case eventMsg:
		if n, ok := msg.e.(client.Notice); ok {
			c.streams.pushLog(LogEntry{Time: n.Time, Server: n.Server, Level: "notice", Logger: "elicit", Text: n.Text})
		}
	}
	return nil
}

func (l *logView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if l.picking {
		levels := logLevels()
		switch {
		case key.Matches(k, km.Up):
			l.level = max(l.level-1, 0)
		case key.Matches(k, km.Down):
			l.level = min(l.level+1, len(levels)-1)
		case key.Matches(k, km.Back):
			l.picking = false
		case key.Matches(k, km.Select):
			l.picking = false
			return l.setLevel(c, levels[l.level])
		}
		return nil
	}
	switch {
	case key.Matches(k, km.Select):
		return l.read(c)
	case key.Matches(k, km.NextServer):
		l.server = nextServerName(c.servers, l.server)
		l.refresh(c)
	case key.Matches(k, km.LogLevel):
		if l.server == "" {
			return notice("pick a server first (s), then l to set its log level")
		}
		l.picking = true
	}
	return nil
}

// readAll bounds what the log reader holds: the newest entries up to
// these many and these bytes (the ring keeps up to 64 MiB).
const (
	readAllEntries = 20_000
	readAllBytes   = 8 << 20
)

// read opens the log (this server's, or all) in the reader, from its
// newest line: the whole of each line, wrapped, searchable.
func (l *logView) read(c *viewCtx) tea.Cmd {
	rows, total := c.streams.logWindow(l.server, 0, readAllEntries)
	from, size := len(rows), 0
	for from > 0 && size+len(rows[from-1].Text) <= readAllBytes {
		from--
		size += len(rows[from].Text)
	}
	rows = rows[from:]
	who := "all servers"
	if l.server != "" {
		who = untrusted.Line(l.server)
	}
	title := fmt.Sprintf("Logs of %s: %d lines", who, total)
	if len(rows) < total {
		title += fmt.Sprintf(", the newest %d here", len(rows))
	}
	return openReaderAtEnd(title, func(st *themes.Styles, _ int) string {
		var b strings.Builder
		for _, e := range rows {
			ls := l.style(st, e.Level)
			b.WriteString(st.Muted.Render(e.Time.Format("15:04:05")) + " " + st.Muted.Render(untrusted.Line(e.Server)) + " " +
				ls.Render(fmt.Sprintf("%-7s", untrusted.Line(e.Level))) + " " + ls.Render(untrusted.Line(e.Text)))
			if e.Cut > 0 {
				b.WriteString(st.Warning.Render(" " + moreNote(e.Cut)))
			}
			b.WriteByte('\n')
		}
		if len(rows) == 0 {
			b.WriteString(st.Muted.Render("nothing logged yet"))
		}
		return b.String()
	})
}

func (l *logView) setLevel(c *viewCtx, level string) tea.Cmd {
	eng, ctx, server := c.engine, c.ctx, l.server
	return func() tea.Msg {
		if err := eng.SetLogLevel(ctx, server, level); err != nil {
			return noticeMsg(fmt.Sprintf("logging/setLevel %s on %s: %v", level, server, err))
		}
		return noticeMsg(fmt.Sprintf("%s log level set to %s", server, level))
	}
}

func (l *logView) style(st *themes.Styles, level string) lipgloss.Style {
	switch level {
	case "debug":
		return st.Log.Debug
	case "stderr":
		return st.Log.Stderr
	case "warning", "notice":
		return st.Log.Warn
	case "error", "critical", "alert", "emergency":
		return st.Log.Error
	}
	return st.Log.Info
}

func (l *logView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	who := "all servers"
	if l.server != "" {
		who = untrusted.Line(l.server)
	}
	b.WriteString(st.Title.Render(fmt.Sprintf("Logs: %d lines", l.total)) +
		st.Muted.Render(" ("+who+")  enter read all · s server · l log level") + "\n")
	if l.picking {
		b.WriteString(st.Title.Render("log level for "+who+" (enter sets, esc closes)") + "\n")
		for i, lv := range logLevels() {
			if i == l.level {
				b.WriteString(st.List.Selected.Render("› "+lv) + "\n")
			} else {
				b.WriteString("  " + lv + "\n")
			}
		}
		return b.String()
	}
	if len(l.rows) == 0 {
		b.WriteString(st.Muted.Render("nothing logged yet"))
	}
	w := c.width
	for _, e := range l.rows {
		// Only what the row can show is sanitized and measured: a line
		// may be a 64 KiB prefix of megabytes.
		line := st.Muted.Render(e.Time.Format("15:04:05")) + " " + st.Muted.Render(untrusted.Line(rowText(e.Server, w))) + " " +
			l.style(st, e.Level).Render(fmt.Sprintf("%-7s", untrusted.Line(rowText(e.Level, w)))) + " " +
			l.style(st, e.Level).Render(untrusted.Line(rowText(e.Text, w)))
		if e.Dropped > 0 {
			line += st.Warning.Render(fmt.Sprintf(" (+%d dropped)", e.Dropped))
		}
		if e.Cut == 0 {
			b.WriteString(ansi.Truncate(line, w, "…") + "\n")
			continue
		}
		more := " " + moreNote(e.Cut)
		b.WriteString(ansi.Truncate(line, max(w-ansi.StringWidth(more), 0), "") + st.Warning.Render(more) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
