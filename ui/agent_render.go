package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// How an agent's transcript is drawn: every entry into lines cut or
// wrapped to the width, so the view scrolls by line. All text here is the
// agent's and goes through themes/untrusted.

// transcriptLines draws the entries at width w.
func transcriptLines(st *themes.Styles, entries []agentEntry, w int) []string {
	w = max(w, 20)
	var out []string
	for i, e := range entries {
		if i > 0 && (e.kind == entryUser || entries[i-1].kind != e.kind || e.kind == entryTool) {
			out = append(out, "")
		}
		out = append(out, entryLines(st, e, w)...)
	}
	return out
}

func entryLines(st *themes.Styles, e agentEntry, w int) []string {
	switch e.kind {
	case entryUser:
		return wrapStyled(st.Title, "› "+untrusted.Text(e.text), w)
	case entryMessage:
		return append(wrapStyled(st.Text, untrusted.Text(e.text), w), cutLine(st, e.cut)...)
	case entryThought:
		return append(wrapStyled(st.Muted.Italic(true), "thinking: "+untrusted.Text(e.text), w), cutLine(st, e.cut)...)
	case entryTool:
		return toolLines(st, e.tool, w)
	case entryOther:
		switch e.label {
		case "mode":
			return []string{st.Muted.Render(ansi.Truncate("mode → "+untrusted.Line(e.text), w, "…"))}
		case "config":
			return []string{st.Muted.Render(ansi.Truncate("config options changed (alt+m shows them)", w, "…"))}
		}
		// Unknown kinds are said plainly, as sent: never an error.
		return []string{st.Muted.Render(ansi.Truncate("update "+untrusted.Line(e.label)+": "+oneLineJSON(e.text), w, "…"))}
	case entryNotice, entryCompaction:
		style := st.Muted
		if e.warn {
			style = st.Warning
		}
		if e.kind == entryNotice {
			return wrapStyled(style, "notice "+untrusted.Text(e.text), w)
		}
		return []string{style.Render(ansi.Truncate("compaction "+untrusted.Line(e.text), w, "…"))}
	case entrySummary:
		return append(wrapStyled(st.Muted.Italic(true), "compaction summary: "+untrusted.Text(e.text), w), cutLine(st, e.cut)...)
	case entryTurnEnd:
		style := st.Success
		if e.warn {
			style = st.Warning
		}
		return wrapStyled(style, "■ "+e.text, w)
	case entryAction:
		style := st.Muted
		if e.warn {
			style = st.Warning
		}
		return wrapStyled(style, "· "+untrusted.Text(e.text), w)
	case entryNote:
		style := st.Muted
		if e.warn {
			style = st.Error
		}
		return wrapStyled(style, e.text, w)
	}
	return nil
}

func cutLine(st *themes.Styles, cut int) []string {
	if cut == 0 {
		return nil
	}
	return []string{st.Muted.Render(fmt.Sprintf("… (%d bytes more, not kept)", cut))}
}

// wrapStyled wraps text to w and styles each line.
func wrapStyled(style lipgloss.Style, text string, w int) []string {
	text = strings.TrimRight(text, "\n")
	lines := strings.Split(ansi.Wrap(text, w, ""), "\n")
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// oneLineJSON is raw JSON on one line, sanitized.
func oneLineJSON(raw string) string {
	b, _ := untrusted.JSON([]byte(raw))
	var v any
	if json.Unmarshal(b, &v) == nil {
		if c, err := json.Marshal(v); err == nil {
			b = c
		}
	}
	return untrusted.Line(string(b))
}

// toolKindIcon is a tool call's kind as a mark.
func toolKindIcon(kind string) string {
	switch kind {
	case "read":
		return "⎘"
	case "edit":
		return "✎"
	case "delete":
		return "✗"
	case "move":
		return "⇄"
	case "search":
		return "⌕"
	case "execute":
		return "▶"
	case "think":
		return "…"
	case "fetch":
		return "⇣"
	}
	return "•"
}

// statusStyle colours a tool call's or a plan entry's status.
func statusStyle(st *themes.Styles, status string) lipgloss.Style {
	switch status {
	case "completed":
		return st.Success
	case "failed":
		return st.Error
	case "in_progress":
		return st.Info
	}
	return st.Muted
}

// toolLines draws one tool call: its kind, title and status, where it
// works (locations) and what it produced (content: text, diffs drawn as
// diffs, terminals by id).
func toolLines(st *themes.Styles, t AgentToolCall, w int) []string {
	kind := t.Kind
	if kind == "" {
		kind = "other"
	}
	status := t.Status
	if status == "" {
		status = "pending"
	}
	title := t.Title
	if title == "" {
		title = t.ID
	}
	if t.Name != "" {
		title += " (" + t.Name + ")"
	}
	head := st.Text.Render(toolKindIcon(kind)+" ") + st.Title.Render(untrusted.Line(title)) +
		st.Muted.Render(" · "+untrusted.Line(kind)+" · ") + statusStyle(st, status).Render(untrusted.Line(status))
	out := []string{ansi.Truncate(head, w, "…")}
	for _, loc := range toolLocations(t.Locations) {
		out = append(out, st.Muted.Render(ansi.Truncate("  at "+loc, w, "…")))
	}
	out = append(out, toolContent(st, t.Content, w)...)
	return out
}

// toolLocations reads locations[] ({path, line}) as "path:line".
func toolLocations(raw []byte) []string {
	if len(raw) == 0 {
		return nil
	}
	var locs []struct {
		Path string `json:"path"`
		Line *int   `json:"line"`
	}
	if json.Unmarshal(raw, &locs) != nil {
		return []string{oneLineJSON(string(raw))}
	}
	out := make([]string, 0, len(locs))
	for _, l := range locs {
		s := untrusted.Line(l.Path)
		if l.Line != nil {
			s += fmt.Sprintf(":%d", *l.Line)
		}
		out = append(out, s)
	}
	return out
}

// toolContentLines bounds how much of one tool call's content is drawn.
const toolContentLines = 40

// toolContent draws content[]: {type:"content", content:ContentBlock},
// {type:"diff", path, oldText, newText}, {type:"terminal", terminalId};
// another type is said plainly.
func toolContent(st *themes.Styles, raw []byte, w int) []string {
	if len(raw) == 0 {
		return nil
	}
	var items []struct {
		Type    string  `json:"type"`
		Path    string  `json:"path"`
		OldText *string `json:"oldText"`
		NewText string  `json:"newText"`
		Term    string  `json:"terminalId"`
		Content *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return []string{st.Muted.Render(ansi.Truncate("  content: "+oneLineJSON(string(raw)), w, "…"))}
	}
	var out []string
	for _, it := range items {
		switch it.Type {
		case "content":
			if it.Content != nil && it.Content.Type == "text" {
				for _, l := range wrapStyled(st.Text, untrusted.Text(it.Content.Text), w-2) {
					out = append(out, "  "+l)
				}
			} else if it.Content != nil {
				out = append(out, st.Muted.Render("  ["+untrusted.Line(it.Content.Type)+" content]"))
			}
		case "diff":
			out = append(out, diffLines(st, it.Path, it.OldText, it.NewText, w)...)
		case "terminal":
			out = append(out, st.Muted.Render("  terminal "+untrusted.Line(it.Term)))
		default:
			out = append(out, st.Muted.Render(ansi.Truncate("  "+untrusted.Line(it.Type)+" content", w, "…")))
		}
	}
	if len(out) > toolContentLines {
		n := len(out) - toolContentLines
		out = append(out[:toolContentLines], st.Muted.Render(fmt.Sprintf("  … %d more lines", n)))
	}
	return out
}

// diffLines draws a diff of a file: the path, then removed lines in the
// error colour and added ones in the success colour, with unchanged
// lines around the changes as context. oldText nil is a new file.
func diffLines(st *themes.Styles, path string, oldText *string, newText string, w int) []string {
	head := "  diff " + untrusted.Line(path)
	if oldText == nil {
		head += " (new file)"
	}
	out := []string{st.Info.Render(ansi.Truncate(head, w, "…"))}
	var old []string
	if oldText != nil {
		old = splitLines(*oldText)
	}
	for _, d := range lineDiff(old, splitLines(newText), 2) {
		text := ansi.Truncate(d.mark+" "+untrusted.Line(d.text), w-2, "…")
		switch d.mark {
		case "-":
			out = append(out, "  "+st.Error.Render(text))
		case "+":
			out = append(out, "  "+st.Success.Render(text))
		default:
			out = append(out, "  "+st.Muted.Render(text))
		}
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// diffLine is one line of a diff: mark "-", "+", " " (context) or "…"
// (unchanged lines left out).
type diffLine struct{ mark, text string }

// diffMaxCells bounds the LCS table: beyond it the whole old text is
// drawn removed and the new added, which is still a true diff.
const diffMaxCells = 1 << 20

// lineDiff diffs a and b by line (longest common subsequence), keeping
// ctx unchanged lines around each change.
func lineDiff(a, b []string, ctx int) []diffLine {
	var all []diffLine
	if (len(a)+1)*(len(b)+1) > diffMaxCells {
		for _, l := range a {
			all = append(all, diffLine{"-", l})
		}
		for _, l := range b {
			all = append(all, diffLine{"+", l})
		}
		return all
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			all = append(all, diffLine{" ", a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			all = append(all, diffLine{"-", a[i]})
			i++
		default:
			all = append(all, diffLine{"+", b[j]})
			j++
		}
	}
	// Keep ctx lines of context around changes; fold the rest.
	keep := make([]bool, len(all))
	for k, d := range all {
		if d.mark != " " {
			for q := max(k-ctx, 0); q <= min(k+ctx, len(all)-1); q++ {
				keep[q] = true
			}
		}
	}
	var out []diffLine
	for k, d := range all {
		switch {
		case keep[k]:
			out = append(out, d)
		case len(out) == 0 || out[len(out)-1].mark != "…":
			out = append(out, diffLine{"…", ""})
		}
	}
	return out
}

// planLines draws the plan: each entry's status mark, its text and its
// priority when not medium.
func planLines(st *themes.Styles, plan []AgentPlanEntry, w int) []string {
	out := make([]string, 0, len(plan)+1)
	done := 0
	for _, e := range plan {
		if e.Status == "completed" {
			done++
		}
	}
	out = append(out, st.Title.Render(fmt.Sprintf("Plan %d/%d", done, len(plan))))
	for _, e := range plan {
		mark := "○"
		switch e.Status {
		case "completed":
			mark = "✓"
		case "in_progress":
			mark = "◐"
		}
		line := mark + " " + untrusted.Line(e.Content)
		if e.Priority != "" && e.Priority != "medium" {
			line += " (" + untrusted.Line(e.Priority) + ")"
		}
		out = append(out, statusStyle(st, e.Status).Render(ansi.Truncate(line, w, "…")))
	}
	return out
}
