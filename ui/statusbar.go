package ui

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The status bar: one badge per server and agent (the notice has lines
// of its own above it, notice.go). When they do not fit the width, every
// badge says less, a level at a time (statusLevel: a failure's reason is
// cut with "…" before it goes), then the names share what is left, each
// cut with "…"; only then is the bar cut at its end. So at 80 columns the demo's two
// servers and its agent are all on it, and 120 columns say everything.

// statusLevel is how much each badge says.
type statusLevel int

const (
	// statusFull: "● demo ready 2025-11-25 stateful", "● bot agent (alt+a)".
	statusFull statusLevel = iota
	// statusNoReady: "● demo 2025-11-25 stateful" (the glyph and its
	// colour say ready); a failure keeps its reason and how to retry.
	statusNoReady
	// statusKind: "● demo stateful", the era's kind without its version;
	// a failure keeps its reason, not the retry hint; "● bot alt+a".
	statusKind
	// statusCut: statusKind with the failures' reasons sharing what is
	// left, each cut with "…".
	statusCut
	// statusBare: names and states only ("✗ demo failed"); the agent
	// keeps its key.
	statusBare
)

// minStatusName is the fewest cells a name is cut to ("demo-…"), and
// minStatusReason a failure's reason ("transport d…").
const (
	minStatusName   = 6
	minStatusReason = 12
)

// statusFit is how the bar is drawn: its level, the widths names and
// reasons are cut to (0: whole), and plain
// (no styles: the steps measure the bar without rendering it, and only
// the one that fits is styled).
type statusFit struct {
	lv                 statusLevel
	nameMax, reasonMax int
	plain              bool
}

func (f statusFit) paint(st lipgloss.Style, text string) string {
	if f.plain {
		return text
	}
	return st.Render(text)
}

func (m *Model) renderStatus() string {
	width := 0
	for lv := statusFull; lv <= statusBare; lv++ {
		f := statusFit{lv: lv, plain: true}
		if lv == statusCut {
			if f.reasonMax = m.reasonShare(f); f.reasonMax < minStatusReason {
				continue
			}
		}
		if width = ansi.StringWidth(m.statusLine(f)); width <= m.width {
			f.plain = false
			return m.statusLine(f)
		}
	}
	// The names share what the bare badges leave.
	f := statusFit{lv: statusBare}
	if names := m.statusNames(); len(names) > 0 {
		rest := m.width - (width - sumWidths(names))
		f.nameMax = max(fairShare(names, rest), minStatusName)
	}
	return ansi.Truncate(m.statusLine(f), m.width, "…")
}

// reasonShare is how many cells each failure's reason may take at f for
// the bar to fit; 0 when there is no failure.
func (m *Model) reasonShare(f statusFit) int {
	var ws []int
	for _, s := range m.servers {
		if s.State == client.StateFailed || s.State == client.StateDisconnected {
			ws = append(ws, ansi.StringWidth(errText(s.Err)))
		}
	}
	for _, a := range m.agents {
		if a.State == client.StateFailed || a.State == client.StateDisconnected {
			ws = append(ws, ansi.StringWidth(errText(a.Err)))
		}
	}
	if len(ws) == 0 {
		return 0
	}
	f.reasonMax = 1 // each reason a lone "…"
	rest := m.width - (ansi.StringWidth(m.statusLine(f)) - len(ws))
	return fairShare(ws, rest)
}

// statusNames are the widths of the names on the bar, sanitized.
func (m *Model) statusNames() []int {
	out := make([]int, 0, len(m.servers)+len(m.agents))
	for _, s := range m.servers {
		out = append(out, ansi.StringWidth(untrusted.Line(s.Name)))
	}
	for _, a := range m.agents {
		out = append(out, ansi.StringWidth(untrusted.Line(a.Name)))
	}
	return out
}

func sumWidths(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}

// fairShare is the most cells each name may take so that together they
// take at most total: names shorter than the share keep their width and
// leave the rest to the longer ones.
func fairShare(widths []int, total int) int {
	ws := slices.Sorted(slices.Values(widths))
	for i, w := range ws {
		share := total / (len(ws) - i)
		if w > share {
			return share
		}
		total -= w
	}
	return ws[len(ws)-1]
}

// statusLine draws the bar as f says.
func (m *Model) statusLine(f statusFit) string {
	name := func(s string) string {
		s = untrusted.Line(s)
		if f.nameMax > 0 {
			s = ansi.Truncate(s, f.nameMax, "…")
		}
		return s
	}
	parts := make([]string, 0, len(m.servers)+len(m.agents)+1)
	for _, s := range m.servers {
		parts = append(parts, m.serverBadge(s, name(s.Name), f))
	}
	for _, a := range m.agents {
		parts = append(parts, m.agentBadge(a, name(a.Name), f))
	}
	if len(parts) == 0 {
		parts = append(parts, f.paint(m.st.Muted, "no servers"))
	}
	return f.paint(m.st.Status.Bar, strings.Join(parts, f.paint(m.st.Muted, " │ ")))
}

// serverBadge is a server on the status bar; name is sanitized already.
func (m *Model) serverBadge(s ServerStatus, name string, f statusFit) string {
	b := m.connBadge(s, name, f)
	if s.Auth != "" && f.lv < statusBare {
		b += f.paint(m.st.Muted, " · "+untrusted.Line(s.Auth))
	}
	return b
}

func (m *Model) connBadge(s ServerStatus, name string, f statusFit) string {
	st, lv := m.st.Status, f.lv
	switch s.State {
	case client.StateReady:
		detail := eraDetail(s, lv)
		if lv == statusFull {
			detail = strings.TrimSpace("ready " + detail)
		}
		if detail != "" {
			detail = " " + detail
		}
		return f.paint(st.Ready, "● "+name) + f.paint(m.st.Muted, detail)
	case client.StateConnecting:
		if lv == statusBare {
			return f.paint(st.Connecting, "◌ "+name)
		}
		return f.paint(st.Connecting, "◌ "+name) + f.paint(m.st.Muted, " connecting…")
	case client.StateFailed:
		return f.paint(st.Failed, "✗ "+name) + f.paint(m.st.Error, " failed"+failText(s.Err, f)) +
			f.paint(m.st.Muted, retryHint(lv, "retry"))
	case client.StateDisconnected:
		return f.paint(st.Disconnected, "⚡ "+name) + f.paint(m.st.Warning, " disconnected"+failText(s.Err, f)) +
			f.paint(m.st.Muted, retryHint(lv, "reconnect"))
	}
	return f.paint(m.st.Muted, "○ "+name+" "+s.State.String())
}

// eraDetail is what a ready server's badge says of its era at lv:
// "2025-11-25 stateful", then "stateful", then nothing.
func eraDetail(s ServerStatus, lv statusLevel) string {
	era := untrusted.Line(s.Era)
	if era == "" {
		era = untrusted.Line(s.Protocol)
	}
	switch lv {
	case statusFull, statusNoReady:
		return era
	case statusKind, statusCut:
		// The era label is "VERSION KIND" (client's eraLabel); a label
		// with no kind keeps its version.
		if _, kind, ok := strings.Cut(era, " "); ok {
			return kind
		}
		return era
	}
	return ""
}

// failText is a failure's reason on the badge, ": reason", down to none.
func failText(err error, f statusFit) string {
	switch {
	case f.lv == statusBare:
		return ""
	case f.reasonMax > 0:
		return ": " + ansi.Truncate(errText(err), f.reasonMax, "…")
	}
	return ": " + errText(err)
}

func retryHint(lv statusLevel, what string) string {
	if lv > statusNoReady {
		return ""
	}
	return " (F5, r: " + what + ")"
}

// agentBadge is an agent on the status bar; name is sanitized already.
// Its tab has no F-key, so the badge names its key at every level.
func (m *Model) agentBadge(a AgentStatus, name string, f statusFit) string {
	st, lv := m.st.Status, f.lv
	switch a.State {
	case client.StateReady:
		if lv >= statusKind {
			return f.paint(st.Ready, "● "+name) + f.paint(m.st.Muted, " alt+a")
		}
		return f.paint(st.Ready, "● "+name) + f.paint(m.st.Muted, " agent (alt+a)")
	case client.StateConnecting:
		if lv >= statusKind {
			return f.paint(st.Connecting, "◌ "+name) + f.paint(m.st.Muted, " alt+a")
		}
		return f.paint(st.Connecting, "◌ "+name) + f.paint(m.st.Muted, " agent starting… (alt+a)")
	case client.StateFailed:
		return f.paint(st.Failed, "✗ "+name) + f.paint(m.st.Error, " agent failed"+failText(a.Err, f))
	case client.StateDisconnected:
		return f.paint(st.Disconnected, "⚡ "+name) + f.paint(m.st.Warning, " agent gone"+failText(a.Err, f))
	}
	return f.paint(m.st.Muted, "○ "+name+" agent")
}

func errText(err error) string {
	if err == nil {
		return "no reason given"
	}
	return untrusted.Line(err.Error())
}
