package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// toolDetails is one tool's details, shown instead of the list: all that
// tools/list said of it, a page at a time.
type toolDetails struct {
	server string
	tool   wire.Tool
	page   pager
}

// openDetails shows the selected tool's details.
func (t *toolsView) openDetails(c *viewCtx) tea.Cmd {
	tl := t.selected()
	if tl == nil {
		return nil
	}
	t.details = &toolDetails{server: t.server, tool: *tl}
	return nil
}

// detailsKey: Esc, q or d goes back to the list, Enter calls the tool,
// the rest is the pager's (scroll, search, wrap, copy).
func (t *toolsView) detailsKey(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km, d := c.keys, t.details
	if d.page.typingQuery() {
		cmd, _ := d.page.key(km, k, t.textRows(c))
		return cmd
	}
	switch {
	case key.Matches(k, km.Back, km.ToolDetails, km.CloseReader):
		t.details = nil
	case key.Matches(k, km.Select):
		t.details = nil
		// The list may have been loaded again meanwhile.
		if tl := t.selected(); tl == nil || tl.Name != d.tool.Name || t.server != d.server {
			return notice(untrusted.Line(d.tool.Name) + " is no longer under the cursor")
		}
		return t.open(c)
	default:
		cmd, _ := d.page.key(km, k, t.textRows(c))
		return cmd
	}
	return nil
}

// reading is the details' pager while they are shown: the Model gives it
// the wheel, and the keys while a search is typed.
func (t *toolsView) reading() *pager {
	if t.details == nil {
		return nil
	}
	return &t.details.page
}

func (t *toolsView) renderDetails(c *viewCtx) string {
	d, st := t.details, c.st
	head := st.Title.Render("Tool "+untrusted.Line(d.tool.Name)) +
		st.Muted.Render("  of "+untrusted.Line(d.server)+" · enter call · esc back")
	rows := t.textRows(c)
	d.page.set(st, c.width-2, func() string { return t.detailsText(c, d) })
	return head + "\n" + d.page.scrollHint(st, rows) + "\n" + d.page.view(rows)
}

// detailsText is everything tools/list said of the tool, sanitized:
// names, the description in full, the annotations in words with the
// spec's defaults for those not sent, how it runs as a task, its icons
// (as text: they are never fetched), both schemas and _meta.
func (t *toolsView) detailsText(c *viewCtx, d *toolDetails) string {
	st, tl := c.st, &d.tool
	san := untrusted.Line
	var b strings.Builder
	section := func(name string) { b.WriteString("\n" + st.Title.Render(name) + "\n") }
	row := func(name, value string) {
		b.WriteString("  " + st.Muted.Render(fmt.Sprintf("%-13s", name)) + " " + value + "\n")
	}
	row("name", san(tl.Name))
	if tl.Title != "" {
		row("title", san(tl.Title))
	}
	if tl.Annotations.Title != "" && tl.Annotations.Title != tl.Title {
		row("annot. title", san(tl.Annotations.Title))
	}

	section("Description")
	if tl.Description == "" {
		b.WriteString("  " + st.Muted.Render("(none)") + "\n")
	} else {
		b.WriteString(indent(st.Text.Render(untrusted.Text(tl.Description))) + "\n")
	}

	section("Annotations")
	b.WriteString("  " + st.Muted.Render("hints from the server, not guarantees; the spec's default when not sent") + "\n")
	a := tl.Annotations
	row("read-only", hint(st, a.ReadOnlyHint, false, "does not modify its environment", "may modify its environment"))
	destructive := hint(st, a.DestructiveHint, true, "may destroy or overwrite", "only adds")
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		// The spec gives it meaning only when readOnlyHint is false.
		destructive = st.Muted.Render("does not apply to a read-only tool")
		if a.DestructiveHint != nil {
			destructive += st.Muted.Render(fmt.Sprintf(" (sent: %v)", *a.DestructiveHint))
		}
	}
	row("destructive", destructive)
	idem := hint(st, a.IdempotentHint, false, "calling it again with the same arguments has no further effect", "each call may have its own effect")
	row("idempotent", idem)
	row("open world", hint(st, a.OpenWorldHint, true, "reaches an open world of outside entities", "works in a closed domain"))

	if app, ok := tl.App(); ok {
		section("MCP App")
		uri := st.Muted.Render("(none)")
		if app.ResourceURI != "" {
			uri = st.Text.Render(untrusted.Line(app.ResourceURI))
		}
		row("resourceUri", uri)
		vis := "model, app" + st.Muted.Render(" (default, not sent)")
		if app.Visibility != nil {
			vis = untrusted.Line(strings.Join(app.Visibility, ", "))
		}
		if app.AppOnly {
			vis += st.Muted.Render(" — called by its app only, not offered as an ordinary call")
		}
		row("visibility", vis)
	}

	section("Tasks")
	row("taskSupport", t.taskWords(c, d.server, tl))

	section("Icons")
	b.WriteString(iconsText(st, tl.Icons))

	section("Input schema")
	if len(bytes.TrimSpace(tl.InputSchema)) == 0 {
		b.WriteString("  " + st.Muted.Render("(none: no arguments)") + "\n")
	} else {
		b.WriteString(indent(st.Text.Render(prettyJSON(tl.InputSchema))) + "\n")
	}
	section("Output schema")
	if len(bytes.TrimSpace(tl.OutputSchema)) == 0 {
		b.WriteString("  " + st.Muted.Render("(none: results are not checked)") + "\n")
	} else {
		b.WriteString("  " + st.Muted.Render("every result that is not isError must carry structuredContent that conforms; elicit checks it") + "\n")
		b.WriteString(indent(st.Text.Render(prettyJSON(tl.OutputSchema))) + "\n")
	}
	if len(bytes.TrimSpace(tl.Meta)) > 0 {
		section("_meta")
		b.WriteString(indent(st.Text.Render(prettyJSON(tl.Meta))) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// indent sets a block two columns in, under its section title.
func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// hint is one annotation in words: yes or no and what that means, marked
// when it is the spec's default because the server sent none.
func hint(st *themes.Styles, v *bool, def bool, yes, no string) string {
	val, sent := def, v != nil
	if sent {
		val = *v
	}
	word, means := "no", no
	if val {
		word, means = "yes", yes
	}
	s := word + st.Muted.Render(" — "+means)
	if !sent {
		s += st.Muted.Render(" (default, not sent)")
	}
	return s
}

// taskWords says what the tool's execution.taskSupport is and how a call
// of it goes out from here.
func (t *toolsView) taskWords(c *viewCtx, server string, tl *wire.Tool) string {
	st := c.st
	ts := tl.Execution.TaskSupport
	word := untrusted.Line(ts)
	if ts == "" {
		word = client.TaskSupportForbidden + st.Muted.Render(" (default, not sent)")
	}
	can, must := t.taskChoice(c, server, tl)
	switch {
	case must:
		return word + st.Muted.Render(" — every call runs as a task")
	case can && t.runsAsTask(c, server, tl):
		return word + st.Muted.Render(" — calls run as a task (t in the list: as a plain call)")
	case can:
		return word + st.Muted.Render(" — calls run plain (t in the list: as a task)")
	case ts == client.TaskSupportOptional || ts == client.TaskSupportRequired:
		return word + st.Muted.Render(" — but "+untrusted.Line(server)+" does not run tools as tasks")
	}
	return word + st.Muted.Render(" — calls run plain")
}

// iconsText lists a tool's icons as text, one a line. They are never
// fetched: a URL from a server is not ours to load. A data: URI is shown
// by its type and size, not its bytes.
func iconsText(st *themes.Styles, raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "  " + st.Muted.Render("(none)") + "\n"
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return "  " + st.Warning.Render("not a list of icons; as sent:") + "\n" + st.Text.Render(prettyJSON(raw)) + "\n"
	}
	var b strings.Builder
	for i, it := range items {
		m, err := wire.ExactMembers(it)
		if err != nil {
			b.WriteString(fmt.Sprintf("  %d. ", i+1) + st.Warning.Render("not an icon object: ") + ansi.Truncate(untrusted.Line(string(it)), 80, "…") + "\n")
			continue
		}
		src, _, _ := wire.ExactString(m, "src")
		line := fmt.Sprintf("  %d. ", i+1) + iconSrc(src)
		for _, name := range []string{"mimeType", "theme"} {
			if v, ok, _ := wire.ExactString(m, name); ok && v != "" {
				line += st.Muted.Render("  "+name+" ") + untrusted.Line(v)
			}
		}
		var sizes []string
		if raw, ok := m["sizes"]; ok && json.Unmarshal(raw, &sizes) == nil && len(sizes) > 0 {
			line += st.Muted.Render("  sizes ") + untrusted.Line(strings.Join(sizes, " "))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// iconSrc is an icon's src as one line: a data: URI by its head and size.
func iconSrc(src string) string {
	if src == "" {
		return "(no src)"
	}
	if head, data, ok := strings.Cut(src, ","); ok && strings.HasPrefix(strings.ToLower(head), "data:") {
		return ansi.Truncate(untrusted.Line(head), 60, "…") + ",… (" + humanize.IBytes(uint64(len(data))) + ")"
	}
	return ansi.Truncate(untrusted.Line(src), 200, "…")
}
