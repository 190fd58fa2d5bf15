package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// toolWords are what the tools view calls its list; the hints are
// toolHints', which depend on what the selected tool can do.
var toolWords = listWords{title: "Tools of", noun: "tools", method: "tools/list", none: "this server has no tools"}

// toolHints are the keys of the tools list that do something now, most
// used first (the line is cut at the width; F1 has them all).
func (t *toolsView) toolHints(c *viewCtx) string {
	var h []string
	if tl := t.selected(); tl != nil {
		h = append(h, "enter call", "d details")
		if app, ok := tl.App(); ok && app.ResourceURI != "" && !app.AppOnly {
			h = append(h, "o its app")
		}
		if t.last[[2]string{t.server, tl.Name}] != nil {
			h = append(h, "a again")
		}
		if can, must := t.taskChoice(c, t.server, tl); can && !must {
			h = append(h, "t as a task")
		}
	}
	if len(t.calls) > 0 {
		h = append(h, "tab calls")
	}
	if t.running() > 0 {
		h = append(h, "x cancel")
	}
	h = append(h, "s next server", "r reconnect")
	return strings.Join(h, " · ")
}

// callHints are the keys of the calls list.
func (t *toolsView) callHints() string {
	h := []string{"↑↓ choose", "enter read the result", "a call again", "e edit and call"}
	if t.running() > 0 {
		h = append(h, "x cancel")
	}
	return strings.Join(append(h, "tab tools"), " · ")
}

// render draws the tool's details, the JSON editor, the argument form, or
// the tool list and the calls.
func (t *toolsView) render(c *viewCtx) string {
	if t.details != nil {
		return t.renderDetails(c)
	}
	st := c.st
	var b strings.Builder
	words := toolWords
	words.hints = t.toolHints(c)
	switch {
	case t.args != nil || t.json != nil:
		// The line under it has the form's keys.
		b.WriteString(t.renderHead(c, words) + "\n")
	case t.onCalls:
		b.WriteString(t.renderHead(c, words) + st.Muted.Render("   tab: back to the tools") + "\n")
	default:
		b.WriteString(t.renderTitle(c, words) + "\n")
	}
	if t.json != nil {
		b.WriteString(t.renderJSON(c))
		return b.String()
	}
	if t.args != nil {
		b.WriteString(wrapped(st.Muted, argsHead(t.args.of, "esc closes · ctrl+l as JSON"), c.width) + "\n")
		b.WriteString(t.args.form.View())
		return b.String()
	}
	rows := t.toolRows(c)
	b.WriteString(t.renderRows(c, toolWords, rows, func(tl *wire.Tool, selected bool) string {
		return t.toolLine(c, tl, selected && !t.onCalls)
	}))
	b.WriteString("\n" + t.renderCalls(c, c.bodyHeight()-max(t.titleRows, 1)-rows))
	return b.String()
}

// toolRows is how many rows the tool list gets under the title (drawn
// first: titleRows is this frame's): what the
// calls below it do not need (no call yet: one line), at least half the
// body while the list has that many, and no more than it has; the calls
// get the rest, so neither leaves rows blank while the other is cut.
func (t *toolsView) toolRows(c *viewCtx) int {
	avail := c.bodyHeight() - max(t.titleRows, 1) // the title's lines
	half := max(c.bodyHeight()/2-1, 3)
	return max(min(max(len(t.visible()), 1), max(half, avail-t.callsHeight(c))), 1)
}

// callsHeight is how many lines the calls would take whole: "no calls
// yet", or their head, their rows and the selected call's result.
func (t *toolsView) callsHeight(c *viewCtx) int {
	if len(t.calls) == 0 {
		return 1
	}
	n := 1 + min(len(t.calls), callRows)
	if cl := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]; cl.done {
		n += strings.Count(cl.outcome(c.st, c.width), "\n") + 1
	}
	return n
}

// argsHead is the line above the arguments: for which tool, how it will
// run, and the keys (keys: the form's or the JSON editor's).
func argsHead(a *toolArgs, keys string) string {
	head := "arguments for " + untrusted.Line(a.tool)
	switch {
	case a.optional && a.asTask:
		head += " · runs as a task (ctrl+r: as a plain call)"
	case a.optional:
		head += " · runs as a plain call (ctrl+r: as a task)"
	case a.asTask:
		head += " · runs as a task"
	}
	return head + " · " + keys
}

// toolLine is one row: name (and title), how it runs as a task, and its
// description.
func (t *toolsView) toolLine(c *viewCtx, tl *wire.Tool, selected bool) string {
	st := c.st
	line := untrusted.Line(tl.Name)
	if title := firstNonEmpty(tl.Title, tl.Annotations.Title); title != "" {
		line += " — " + untrusted.Line(title)
	}
	can, must := t.taskChoice(c, t.server, tl)
	switch ts := tl.Execution.TaskSupport; {
	case can && !must && t.runsAsTask(c, t.server, tl):
		line += " " + st.List.Badge.Render("[task optional: on]")
	case can && !must || ts == client.TaskSupportOptional:
		line += " " + st.List.Badge.Render("[task optional: off]")
	case ts != "" && ts != client.TaskSupportForbidden:
		// Required, or a value this client does not know, as sent.
		line += " " + st.List.Badge.Render("[task "+untrusted.Line(ts)+"]")
	}
	if app, ok := tl.App(); ok && app.AppOnly {
		line += " " + st.List.Badge.Render("[app only]")
	} else if ok && app.ResourceURI != "" {
		line += " " + st.List.Badge.Render("[app]")
	}
	line += "  " + st.List.Desc.Render(untrusted.Line(tl.Description))
	return listLine(c, line, selected)
}

// renderCalls draws up to callRows calls around the selected one (the
// newest, unless the person chose another), then the selected call's
// result.
func (t *toolsView) renderCalls(c *viewCtx, rows int) string {
	st := c.st
	if len(t.calls) == 0 {
		return st.Muted.Render("no calls yet")
	}
	var b strings.Builder
	head := st.Title.Render(fmt.Sprintf("Calls (%d running)", t.running()))
	if t.onCalls {
		head += st.Muted.Render("   " + t.callHints())
	}
	b.WriteString(head + "\n")
	sel := clamp(t.callSel, 0, len(t.calls)-1)
	lo := listTop(sel, callRows, len(t.calls))
	hi := min(lo+callRows, len(t.calls))
	for i := lo; i < hi; i++ {
		line := t.callLine(c, t.calls[i])
		if i == sel && t.onCalls {
			line = st.List.Selected.Render("› " + ansi.Strip(ansi.Truncate(line, c.width-2, "…")))
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	if cl := t.calls[sel]; cl.done {
		out := cl.outcome(st, c.width)
		room := max(rows-(hi-lo)-1, 2)
		if n := strings.Count(out, "\n") + 1; n > room {
			more := fmt.Sprintf("… %d more lines: ", n-room+1)
			if t.onCalls {
				more += "enter reads all of it"
			} else {
				more += "tab, then enter, reads all of it"
			}
			out = clipLines(out, room-1) + "\n" + st.Warning.Render(more)
		}
		b.WriteString(out)
	}
	return b.String()
}

// outcome draws a finished call's result (with what its outputSchema says
// of it) or error, once per styles and width: a result can be large, and
// a redraw must not render it again.
func (cl *call) outcome(st *themes.Styles, width int) string {
	if cl.drawn != "" && cl.drawnSt == st && cl.drawnW == width {
		return cl.drawn
	}
	switch {
	case cl.err != nil:
		cl.drawn = st.Error.Render(errText(cl.err))
	case cl.res != nil:
		cl.drawn = renderCallResult(st, cl.res, cl.output, width)
	default:
		cl.drawn = st.Muted.Render("(no result)")
	}
	cl.drawnSt, cl.drawnW = st, width
	return cl.drawn
}

// readCall opens the selected finished call's result in the reader.
func (t *toolsView) readCall(c *viewCtx) tea.Cmd {
	if len(t.calls) == 0 {
		return nil
	}
	cl := t.calls[clamp(t.callSel, 0, len(t.calls)-1)]
	if !cl.done {
		return notice("the call is still running")
	}
	title := "Result of " + untrusted.Line(cl.server) + "/" + untrusted.Line(cl.tool) + " (" + cl.elapsed.Truncate(time.Millisecond).String() + ")"
	return openReader(title, func(st *themes.Styles, width int) string {
		// Its own copy: the reader wraps what the call list clips.
		return (&call{res: cl.res, err: cl.err, done: true, output: cl.output}).outcome(st, width)
	})
}

func (t *toolsView) callLine(c *viewCtx, cl *call) string {
	st := c.st
	name := untrusted.Line(cl.server) + "/" + untrusted.Line(cl.tool)
	if cl.asTask {
		name += st.List.Badge.Render(" [task]")
	}
	// The arguments last: they tell calls of one tool apart.
	args := ""
	if cl.argsText != "" {
		args = st.Muted.Render("  " + ansi.Truncate(untrusted.Line(cl.argsText), 48, "…"))
	}
	switch {
	case t.waitsOnPerson(c, cl):
		// Still: nothing turns while a person is asked (spinning).
		return st.Warning.Render("? ") + name + st.Warning.Render("  waiting for your answer — F4") + args
	case !cl.done && cl.cancelling:
		return c.spin.view() + " " + name + st.Warning.Render("  cancellation requested…")
	case !cl.done:
		s := c.spin.view() + " " + name + st.Muted.Render(fmt.Sprintf("  %s", c.now().Sub(cl.started).Truncate(time.Second)))
		if cl.prog.Total > 0 {
			s += "  " + progressBar(st, cl.prog.Progress/cl.prog.Total, 24)
		} else if cl.prog.Progress > 0 {
			s += st.Muted.Render(fmt.Sprintf("  %g", cl.prog.Progress))
		}
		if cl.prog.Message != "" {
			s += "  " + st.Muted.Render(untrusted.Line(cl.prog.Message))
		}
		return s + args
	case cl.cancelling:
		return st.Warning.Render("⊘ ") + name + st.Warning.Render("  cancelled") + args
	case cl.err != nil:
		return st.Error.Render("✗ ") + name + st.Error.Render("  "+ansi.Truncate(errText(cl.err), 60, "…")) + args
	case cl.res != nil && cl.res.IsError:
		return st.Error.Render("✗ ") + name + st.Error.Render("  isError") + st.Muted.Render("  "+cl.elapsed.Truncate(time.Millisecond).String()) + args
	case cl.output.mismatch():
		return st.Error.Render("✗ ") + name + st.Error.Render("  outputSchema mismatch") + st.Muted.Render("  "+cl.elapsed.Truncate(time.Millisecond).String()) + args
	}
	return st.Success.Render("✓ ") + name + st.Muted.Render("  "+cl.elapsed.Truncate(time.Millisecond).String()) + args
}
