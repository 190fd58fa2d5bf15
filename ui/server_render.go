package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// What the server view draws. Every server string goes through
// themes/untrusted; what the engine passes of the configuration has no
// secret in it (TransportDetail).

// Bounds on what a server's declarations may take of the page: a hostile
// server may declare thousands of capabilities or icons.
const (
	capMaxMembers = 64 // members of a capabilities object shown
	capMaxParts   = 32 // flags shown of one member
	capMaxDepth   = 4  // nesting followed into a member
	capMaxValue   = 40 // bytes shown of a value that is not a flag
)

// liveLines are the top of the view, which follows the server as it goes:
// its state and why, how it is reached, its session, what is sent to it,
// its last failure and its last stderr lines. body is the view's height
// below the title.
func (v *serverView) liveLines(c *viewCtx, d *ServerDetail, body int) []string {
	st := c.st
	w := max(c.width, 20)
	const labelW = 11
	line := func(label, text string) string {
		return ansi.Truncate(st.Muted.Render(fmt.Sprintf("%-*s", labelW, label))+text, w, "…")
	}
	// wrapped shows a long plain text (an error) on up to three lines.
	wrapped := func(label, text string, style func(...string) string) []string {
		lines := strings.Split(ansi.Wrap(text, max(w-labelW, 10), ""), "\n")
		if len(lines) > 3 {
			lines = append(lines[:2], ansi.Truncate(lines[2], max(w-labelW-1, 9), "")+"…")
		}
		out := make([]string, len(lines))
		for i, l := range lines {
			if i > 0 {
				label = ""
			}
			out[i] = line(label, style(l))
		}
		return out
	}
	out := []string{line("status", v.stateText(c, d))}
	if d.Err != nil && (d.State == client.StateFailed || d.State == client.StateDisconnected) {
		out = append(out, wrapped("why", errText(d.Err), st.Error.Render)...)
	}
	out = append(out, line("transport", transportText(c, d)))
	if s := sessionText(c, d); s != "" {
		out = append(out, line("session", s))
	}
	if n := d.Transport.HeaderNames; len(n) > 0 {
		out = append(out, line("headers", untrusted.Line(strings.Join(n, ", "))+st.Muted.Render(" (values not shown)")))
	}
	if n := d.Transport.EnvNames; len(n) > 0 {
		out = append(out, line("env", untrusted.Line(strings.Join(n, ", "))+st.Muted.Render(" (values not shown)")))
	}
	if d.LastErr != nil && (d.Err == nil || d.Err.Error() != d.LastErr.Error()) {
		out = append(out, wrapped("last error", clock(c.now(), d.LastErrAt)+" "+errText(d.LastErr), st.Warning.Render)...)
	}
	tail, total := c.streams.stderrTail(d.Name, clamp(body/5, 2, 8))
	if len(tail) > 0 {
		out = append(out, line("stderr", st.Muted.Render(fmt.Sprintf("last %d of %d lines (F8 shows all)", len(tail), total))))
		for _, e := range tail {
			out = append(out, ansi.Truncate(st.Log.Stderr.Render("  "+untrusted.Line(e.Text)), w, "…"))
		}
	}
	return out
}

// stateText is where the server stands, as its status badge says it, with
// since when.
func (v *serverView) stateText(c *viewCtx, d *ServerDetail) string {
	st, now := c.st, c.now()
	if v.reconnecting[d.Name] {
		return st.Status.Connecting.Render("◌ reconnecting…")
	}
	switch d.State {
	case client.StateReady:
		how := firstNonEmpty(d.Era, d.Protocol)
		return st.Status.Ready.Render("● ready") + st.Muted.Render(" · "+untrusted.Line(how)+" · since "+clock(now, d.Session.Ready))
	case client.StateConnecting:
		return st.Status.Connecting.Render("◌ connecting…")
	case client.StateFailed:
		return st.Status.Failed.Render("✗ failed") + st.Muted.Render(" (r retries)")
	case client.StateDisconnected:
		at := ""
		if !d.Session.Ended.IsZero() {
			at = " at " + clock(now, d.Session.Ended)
		}
		return st.Status.Disconnected.Render("⚡ disconnected"+at) + st.Muted.Render(" (r reconnects)")
	case client.StateClosed:
		return st.Muted.Render("○ closed")
	}
	return st.Muted.Render(d.State.String())
}

// clock is t as a time of day, with its date when it is not today.
func clock(now, t time.Time) string {
	switch {
	case t.IsZero():
		return "-"
	case t.Format(time.DateOnly) != now.Format(time.DateOnly):
		return t.Format(time.DateTime)
	}
	return t.Format(time.TimeOnly)
}

// transportText is how the server is reached: the command (and its
// process) or the URL.
func transportText(c *viewCtx, d *ServerDetail) string {
	st, t, conn := c.st, &d.Transport, d.Session.Conn
	san := untrusted.Line
	switch t.Kind {
	case "in-process":
		return "in-process" + st.Muted.Render(" (the embedded demo server)")
	case "stdio":
		s := "stdio " + san(strings.Join(append([]string{t.Command}, t.Args...), " "))
		if conn.Pid > 0 {
			pid := fmt.Sprintf(" · pid %d", conn.Pid)
			if !d.Session.Ended.IsZero() {
				pid += " (exited)"
			}
			s += st.Muted.Render(pid)
		}
		if t.Dir != "" {
			s += st.Muted.Render(" · in " + san(t.Dir))
		}
		return s
	}
	return san(t.Kind) + " " + st.Pane.URL.Render(san(t.URL))
}

// sessionText is how an HTTP connection speaks and its session: stateful
// with Streamable HTTP's Mcp-Session-Id and the standalone GET stream,
// stateless, or HTTP+SSE and where it posts; "" for the others.
func sessionText(c *viewCtx, d *ServerDetail) string {
	st, conn := c.st, d.Session.Conn
	ended := ""
	if !d.Session.Ended.IsZero() {
		ended = st.Muted.Render(" (ended)")
	}
	switch {
	case conn.Kind == "HTTP+SSE":
		s := "HTTP+SSE (2024-11-05)"
		if d.Session.LegacySSE {
			s = st.Warning.Render("fell back to HTTP+SSE (2024-11-05)")
		}
		if conn.Endpoint != "" {
			s += st.Muted.Render(" · posts to ") + untrusted.Line(conn.Endpoint)
		}
		return s + ended
	case conn.Kind != "Streamable HTTP":
		return ""
	case conn.Stateless:
		return "stateless" + st.Muted.Render(" · no session in the 2026-07-28 era · POST only")
	}
	s := "stateful" + st.Muted.Render(" · ")
	if conn.SessionID != "" {
		s += "Mcp-Session-Id " + untrusted.Line(conn.SessionID)
	} else {
		s += st.Muted.Render("no Mcp-Session-Id")
	}
	switch {
	case ended != "":
	case conn.GETStream:
		s += st.Muted.Render(" · GET stream")
	default:
		s += st.Muted.Render(" · no GET stream")
	}
	return s + ended
}

// renderServerPage is the pager's text, for a pager w wide: what the
// session settled, which changes only with a new session. Long texts are
// wrapped here, under their indent.
func renderServerPage(c *viewCtx, d *ServerDetail, w int) string {
	st := c.st
	sess := &d.Session
	if sess.Protocol == "" {
		return st.Muted.Render("No session yet: the server has said nothing of itself.")
	}
	var b strings.Builder
	head := func(s string) { b.WriteString(st.Title.Render(s) + "\n") }
	row := func(label, text string) {
		b.WriteString(st.Muted.Render(fmt.Sprintf("  %-13s ", label)) + text + "\n")
	}
	if !sess.Ended.IsZero() {
		b.WriteString(st.Warning.Render("The session ended at "+clock(c.now(), sess.Ended)+"; this is what it said.") + "\n")
	}

	head("serverInfo")
	info := &sess.ServerInfo
	row("name", untrusted.Line(orDash(info.Name)))
	if info.Title != "" {
		row("title", untrusted.Line(info.Title))
	}
	row("version", untrusted.Line(orDash(info.Version)))
	if info.WebsiteURL != "" {
		row("website", st.Pane.URL.Render(untrusted.Line(info.WebsiteURL))+st.Muted.Render(" (not opened)"))
	}
	if info.Description != "" {
		row("description", indentRest(ansi.Wrap(untrusted.Text(info.Description), max(w-18, 20), ""), 18))
	}
	if len(info.Icons) > 0 {
		b.WriteString(st.Muted.Render("  icons") + "\n" + indentAll(strings.TrimRight(iconsText(st, info.Icons), "\n"), 2) + "\n")
	}
	row("protocol", untrusted.Line(sess.Protocol))

	head("server capabilities")
	capRows(c, &b, sess.Caps.Raw, []string{"tools", "resources", "prompts", "logging", "completions", "tasks", "extensions", "experimental"})

	if where := "initialize"; sess.ClientCaps != nil {
		if strings.HasSuffix(sess.Era, "stateless") {
			where = "every request's _meta"
		}
		head("elicit declared " + st.Muted.Render("("+where+")"))
		capRows(c, &b, sess.ClientCaps, []string{"elicitation", "sampling", "roots", "tasks", "extensions"})
	}

	head("instructions")
	if sess.Instructions == "" {
		b.WriteString(st.Muted.Render("  (none)") + "\n")
	} else {
		b.WriteString(indentAll(ansi.Wrap(untrusted.Text(sess.Instructions), max(w-2, 20), ""), 2) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// capRows writes a capabilities object one member a row, with what it
// declares inside (capabilityLines).
func capRows(c *viewCtx, b *strings.Builder, raw json.RawMessage, first []string) {
	st := c.st
	lines, ok := capabilityLines(raw, first)
	switch {
	case !ok:
		b.WriteString(st.Error.Render("  not a JSON object: ") + st.Muted.Render(untrusted.Line(ansi.Truncate(string(raw), 60, "…"))) + "\n")
		return
	case len(lines) == 0:
		b.WriteString(st.Muted.Render("  (none)") + "\n")
		return
	}
	for _, l := range lines {
		name := untrusted.Line(l.name)
		if l.detail == "" {
			b.WriteString("  " + name + "\n")
			continue
		}
		b.WriteString("  " + fmt.Sprintf("%-13s", name) + " " + st.List.Badge.Render(untrusted.Line(l.detail)) + "\n")
	}
}

// capLine is one declared capability: its member, and what it declares
// inside ("listChanged", "list, cancel, requests.tools.call").
type capLine struct{ name, detail string }

// capabilityLines lists the members of a capabilities object, those named
// in first in that order, then the rest sorted. Inside a member, a flag
// that is true or an empty object is shown by its name, nested objects as
// dotted paths, anything else as name=value. ok is false when raw is not
// an object. Lengths are bounded (capMax*).
func capabilityLines(raw json.RawMessage, first []string) (lines []capLine, ok bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, true
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return nil, false
	}
	names := make([]string, 0, len(top))
	for _, n := range first {
		if _, ok := top[n]; ok {
			names = append(names, n)
		}
	}
	rest := make([]string, 0, len(top))
	for n := range top {
		if !slices.Contains(first, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	names = append(names, rest...)
	for _, n := range names[:min(len(names), capMaxMembers)] {
		var parts []string
		flattenCap(&parts, "", top[n], 0)
		lines = append(lines, capLine{name: n, detail: strings.Join(parts, ", ")})
	}
	if more := len(names) - capMaxMembers; more > 0 {
		lines = append(lines, capLine{name: fmt.Sprintf("… and %d more", more)})
	}
	return lines, true
}

// flattenCap adds what v declares under prefix to parts.
func flattenCap(parts *[]string, prefix string, v json.RawMessage, depth int) {
	add := func(s string) {
		switch {
		case len(*parts) < capMaxParts:
			*parts = append(*parts, s)
		case len(*parts) == capMaxParts:
			*parts = append(*parts, "…")
		}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) == nil && obj != nil {
		if len(obj) == 0 {
			if prefix != "" {
				add(prefix)
			}
			return
		}
		if depth >= capMaxDepth {
			add(prefix + ".…")
			return
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flattenCap(parts, p, obj[k], depth+1)
		}
		return
	}
	val := string(bytes.TrimSpace(v))
	switch {
	case val == "true" && prefix != "":
		add(prefix)
	case val == "true":
	case prefix == "":
		add(ansi.Truncate(val, capMaxValue, "…"))
	default:
		add(prefix + "=" + ansi.Truncate(val, capMaxValue, "…"))
	}
}

// indentAll indents every line of s by n spaces.
func indentAll(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

// indentRest indents every line of s but the first by n spaces (the first
// follows a label).
func indentRest(s string, n int) string {
	return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", n))
}
