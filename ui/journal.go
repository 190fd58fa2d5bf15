package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// journalMsg carries a snapshot of the engine's journal.
type journalMsg struct {
	entries  []question.JournalEntry
	byServer map[string]question.Counts
}

// journalView shows every prompt's outcome in its own bucket, newest
// first, and the counts per server (a cancel is never folded into a
// decline, so a climbing cancel rate shows).
type journalView struct {
	entries  []question.JournalEntry
	byServer map[string]question.Counts
	offset   int
}

func (journalMsg) screenMsg() {}

// The parts of a screen the journal view has.
var _ interface {
	screen
	updater
	loader
} = (*journalView)(nil)

// load snapshots the journal in a Cmd.
func (j *journalView) load(c *viewCtx) tea.Cmd {
	eng := c.engine
	return func() tea.Msg {
		j := eng.Journal()
		if j == nil {
			return journalMsg{}
		}
		return journalMsg{entries: j.Entries(), byServer: j.CountsByServer()}
	}
}

func (j *journalView) enter(c *viewCtx) tea.Cmd { return j.load(c) }

// update takes a snapshot, and asks for a new one whenever a prompt ends.
func (j *journalView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case journalMsg:
		j.set(msg)
	case eventMsg:
		if _, ok := msg.e.(client.PromptResolved); ok {
			return j.load(c)
		}
	}
	return nil
}

func (j *journalView) set(msg journalMsg) {
	j.entries, j.byServer = msg.entries, msg.byServer
	j.offset = min(j.offset, max(len(j.entries)-1, 0))
}

func (j *journalView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, c.keys.Down):
		j.offset = min(j.offset+1, max(len(j.entries)-1, 0))
	case key.Matches(k, c.keys.Up):
		j.offset = max(j.offset-1, 0)
	case key.Matches(k, c.keys.Top):
		j.offset = 0
	}
	return nil
}

func (j *journalView) kindStyle(st *themes.Styles, k question.OutcomeKind) lipgloss.Style {
	switch k {
	case question.Accept:
		return st.Journal.Accept
	case question.Decline:
		return st.Journal.Decline
	case question.Cancel:
		return st.Journal.Cancel
	}
	return st.Journal.Other
}

func (j *journalView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	b.WriteString(st.Title.Render("Journal") + st.Muted.Render("  every prompt's outcome; counts per server") + "\n")
	servers := make([]string, 0, len(j.byServer))
	for s := range j.byServer {
		servers = append(servers, s)
	}
	sort.Strings(servers)
	for _, s := range servers {
		n := j.byServer[s]
		line := fmt.Sprintf("%-16s", untrusted.Line(s))
		for _, k := range question.OutcomeKinds {
			if v := n[k]; v > 0 || k <= question.Cancel {
				line += " " + j.kindStyle(st, k).Render(fmt.Sprintf("%s %d", k, v))
			}
		}
		if t := n.Total(); t > 0 {
			line += st.Muted.Render(fmt.Sprintf("   cancel rate %d%%", n[question.Cancel]*100/t))
		}
		b.WriteString(line + "\n")
	}
	if len(j.entries) == 0 {
		b.WriteString(st.Muted.Render("\nno questions have ended yet"))
		return b.String()
	}
	b.WriteString("\n")
	rows := c.bodyHeight() - len(servers) - 3
	for i := len(j.entries) - 1 - j.offset; i >= 0 && rows > 0; i, rows = i-1, rows-1 {
		e := j.entries[i]
		line := st.Muted.Render(e.At.Format("15:04:05")) + " " +
			j.kindStyle(st, e.Kind).Render(fmt.Sprintf("%-12s", e.Kind)) + " " +
			untrusted.Line(e.Key.String()) + st.Muted.Render("  "+originText(e.Origin)+
			"  after "+e.Latency.Round(time.Millisecond).String())
		if e.Reason != "" {
			line += st.Muted.Render("  " + untrusted.Line(e.Reason))
		}
		b.WriteString(ansi.Truncate(line, c.width, "…") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
