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
	entries    []question.JournalEntry
	byServer   map[string]question.Counts
	sampling   map[string]question.Counts
	permission map[string]map[string]int
}

// journalView shows every prompt's outcome in its own bucket, newest
// first, and the counts per server (a cancel is never folded into a
// decline, so a climbing cancel rate shows). Sampling questions have
// their own buckets, on a line of their own under the server's.
type journalView struct {
	entries  []question.JournalEntry
	byServer map[string]question.Counts
	sampling map[string]question.Counts
	// permission are an ACP agent's permission requests by bucket: the
	// option kind chosen, or how they ended without one (journal_acp.go).
	permission map[string]map[string]int
	offset     int
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
		return journalMsg{entries: j.Entries, byServer: j.ByServer, sampling: j.Sampling, permission: j.Permission}
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
	j.entries, j.byServer, j.sampling, j.permission = msg.entries, msg.byServer, msg.sampling, msg.permission
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
	servers := make([]string, 0, len(j.byServer)+len(j.sampling))
	for s := range j.byServer {
		servers = append(servers, s)
	}
	for s := range j.sampling {
		if _, dup := j.byServer[s]; !dup {
			servers = append(servers, s)
		}
	}
	for s := range j.permission {
		if _, dup := j.byServer[s]; !dup {
			if _, dup := j.sampling[s]; !dup {
				servers = append(servers, s)
			}
		}
	}
	sort.Strings(servers)
	lines := 0
	for _, s := range servers {
		if n, ok := j.byServer[s]; ok {
			b.WriteString(j.countsLine(st, fmt.Sprintf("%-16s", untrusted.Line(s)), n) + "\n")
			lines++
		}
		if n := j.sampling[s]; n.Total() > 0 {
			label := fmt.Sprintf("%-16s", "  sampling")
			if _, ok := j.byServer[s]; !ok {
				label = fmt.Sprintf("%-16s", untrusted.Line(s)+" sampling")
			}
			b.WriteString(j.countsLine(st, label, n) + "\n")
			lines++
		}
		if n := j.permission[s]; len(n) > 0 {
			label := fmt.Sprintf("%-16s", "  permission")
			if _, ok := j.byServer[s]; !ok {
				label = fmt.Sprintf("%-16s", untrusted.Line(s)+" permission")
			}
			b.WriteString(ansi.Truncate(permissionLine(st, label, n), c.width, "…") + "\n")
			lines++
		}
	}
	if len(j.entries) == 0 {
		b.WriteString(st.Muted.Render("\nno questions have ended yet"))
		return b.String()
	}
	b.WriteString("\n")
	rows := c.bodyHeight() - lines - 3
	for i := len(j.entries) - 1 - j.offset; i >= 0 && rows > 0; i, rows = i-1, rows-1 {
		e := j.entries[i]
		line := st.Muted.Render(e.At.Format("15:04:05")) + " " +
			j.kindStyle(st, e.Kind).Render(fmt.Sprintf("%-12s", e.Kind)) + " " + askedTag(st, e) + permissionTag(st, e) +
			untrusted.Line(e.Key.String()) + st.Muted.Render("  "+originText(e.Origin)+
			"  after "+e.Latency.Round(time.Millisecond).String())
		if e.Reason != "" {
			line += st.Muted.Render("  " + untrusted.Line(e.Reason))
		}
		b.WriteString(ansi.Truncate(line, c.width, "…") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// countsLine is one line of buckets: every kind that happened, and the
// three a person chooses always.
func (j *journalView) countsLine(st *themes.Styles, label string, n question.Counts) string {
	line := label
	for _, k := range question.OutcomeKinds {
		if v := n[k]; v > 0 || k <= question.Cancel {
			line += " " + j.kindStyle(st, k).Render(fmt.Sprintf("%s %d", k, v))
		}
	}
	if t := n.Total(); t > 0 {
		line += st.Muted.Render(fmt.Sprintf("   cancel rate %d%%", n[question.Cancel]*100/t))
	}
	return line
}

// askedTag marks an entry of a kind other than elicitation in the list
// (kinds.go); elicitation is the default and goes unmarked.
func askedTag(st *themes.Styles, e question.JournalEntry) string {
	if t := paneKindOf(e.Asked).tag; t != "" {
		return st.Muted.Render(t + " ")
	}
	return ""
}
