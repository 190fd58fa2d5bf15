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
	picking string // the server whose level the picker sets; "" = closed
	level   int    // picker cursor
	// levels are the levels set this session, by server, until it is
	// no longer ready (a new session starts with none).
	levels map[string]string
}

// levelSetMsg says the server took the level.
type levelSetMsg struct{ server, level string }

func (levelSetMsg) screenMsg() {}

func (l *logView) refresh(c *viewCtx) {
	rows := c.bodyHeight() - 2
	if h, _ := l.hint(c); h != "" {
		rows--
	}
	l.rows, l.total = c.streams.logWindow(l.server, 0, max(rows, 1))
}

// levelTarget is the server l sets the level of: the one shown, else the
// only server, else the only one that declares logging; "" when it is not
// obvious.
func (l *logView) levelTarget(c *viewCtx) string {
	if l.server != "" {
		return l.server
	}
	if len(c.servers) == 1 {
		return c.servers[0].Name
	}
	target := ""
	for _, s := range c.servers {
		if s.Caps.Logging {
			if target != "" {
				return ""
			}
			target = s.Name
		}
	}
	return target
}

// hint is the line under the header about the level of the server l
// sets: that it declares no logging, that it has no level set yet (many
// servers send nothing until one is), or the level set. None while the
// server is not ready (its capabilities are not known) or l has no
// obvious server.
func (l *logView) hint(c *viewCtx) (line string, warn bool) {
	target := l.levelTarget(c)
	for _, s := range c.servers {
		if target == "" || s.Name != target || s.State != client.StateReady {
			continue
		}
		name := untrusted.Line(target)
		switch lv := l.levels[target]; {
		case !s.Caps.Logging:
			return name + " does not declare logging: its stderr and elicit's notes show here", false
		case lv == "":
			return name + ": no log level set; many servers log nothing until one is (l)", true
		default:
			return name + " sends log messages from " + lv + " up (l changes it)", false
		}
	}
	return "", false
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
		switch e := msg.e.(type) {
		case client.Notice:
			c.streams.pushLog(LogEntry{Time: e.Time, Server: e.Server, Level: "note", Text: e.Text, Ours: true})
		case client.ServerStateChanged:
			if e.State != client.StateReady {
				delete(l.levels, e.Server)
			}
		}
	case levelSetMsg:
		if l.levels == nil {
			l.levels = map[string]string{}
		}
		l.levels[msg.server] = msg.level
		if c.onScreen(l) {
			l.refresh(c)
		}
		return notice(fmt.Sprintf("%s log level set to %s", untrusted.Line(msg.server), msg.level))
	}
	return nil
}

func (l *logView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if l.picking != "" {
		levels := logLevels()
		switch {
		case key.Matches(k, km.Up):
			l.level = max(l.level-1, 0)
		case key.Matches(k, km.Down):
			l.level = min(l.level+1, len(levels)-1)
		case key.Matches(k, km.Back):
			l.picking = ""
		case key.Matches(k, km.Select):
			server := l.picking
			l.picking = ""
			return l.setLevel(c, server, levels[l.level])
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
		target := l.levelTarget(c)
		if target == "" {
			return notice("pick a server first (s), then l to set its log level")
		}
		if caps := serverCaps(c.servers, target); !caps.Logging {
			return notice(untrusted.Line(target) + " does not declare logging, so it takes no log level")
		}
		l.picking = target
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
	cols := l.columns(c)
	return openReaderAtEnd(title, func(st *themes.Styles, _ int) string {
		var b strings.Builder
		for _, e := range rows {
			b.WriteString(cols.row(st, &e, -1))
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

func (l *logView) setLevel(c *viewCtx, server, level string) tea.Cmd {
	eng, ctx := c.engine, c.ctx
	return func() tea.Msg {
		if err := eng.SetLogLevel(ctx, server, level); err != nil {
			return noticeMsg(fmt.Sprintf("logging/setLevel %s on %s: %v", level, untrusted.Line(server), err))
		}
		return levelSetMsg{server: server, level: level}
	}
}

// logColumns lays out a log row: when, whose, level, text. Whose is the
// server for what the server sent (notifications/message, stderr), and
// "elicit" for elicit's own notes, which name the server they are about
// when the view shows several. The columns are as wide as the longest
// server name (up to 20) and the longest syslog level, so every row
// lines up (a level that is none of them is shown whole, out of line).
type logColumns struct {
	who, level int
	about      bool // elicit's notes say which server they are about
}

const ourName = "elicit"

func (l *logView) columns(c *viewCtx) logColumns {
	lc := logColumns{who: len(ourName), about: l.server == "" && len(c.servers) > 1}
	for _, s := range c.servers {
		lc.who = max(lc.who, min(ansi.StringWidth(untrusted.Line(s.Name)), 20))
	}
	for _, lv := range append(logLevels(), "stderr") {
		lc.level = max(lc.level, len(lv))
	}
	return lc
}

// row draws e in width columns (the text is cut to what they can show:
// a line may be a 64 KiB prefix of megabytes), or whole when width < 0.
func (lc logColumns) row(st *themes.Styles, e *LogEntry, width int) string {
	text := func(s string) string {
		if width < 0 {
			return untrusted.Line(s)
		}
		return untrusted.Line(rowText(s, width))
	}
	ls := logStyle(st, e.Level)
	who, whoSt := text(e.Server), st.Muted
	if e.Ours {
		who, whoSt, ls = ourName, st.Title, st.Log.Info
	}
	who = ansi.Truncate(who, lc.who, "…")
	body := ls.Render(text(e.Text))
	switch {
	case e.Ours && lc.about && e.Server != "":
		body = st.Muted.Render(text(e.Server)+": ") + body
	case e.Logger != "":
		body = st.Muted.Render(text(e.Logger)+": ") + body
	}
	return st.Muted.Render(e.Time.Format("15:04:05")) + " " +
		whoSt.Render(who) + strings.Repeat(" ", max(lc.who-ansi.StringWidth(who), 0)) + " " +
		ls.Render(fmt.Sprintf("%-*s", lc.level, text(e.Level))) + " " + body
}

func logStyle(st *themes.Styles, level string) lipgloss.Style {
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
	lines := "lines"
	if l.total == 1 {
		lines = "line"
	}
	b.WriteString(st.Title.Render(fmt.Sprintf("Logs: %d %s", l.total, lines)) +
		st.Muted.Render(" ("+who+")  enter read all · s server · l log level") + "\n")
	if h, warn := l.hint(c); warn {
		b.WriteString(st.Warning.Render(h) + "\n")
	} else if h != "" {
		b.WriteString(st.Muted.Render(h) + "\n")
	}
	if l.picking != "" {
		b.WriteString(st.Title.Render("log level for "+untrusted.Line(l.picking)+" (enter sets, esc closes)") + "\n")
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
	cols := l.columns(c)
	for _, e := range l.rows {
		line := cols.row(st, &e, w)
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
