package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// paneState is where a prompt pane stands.
type paneState int

const (
	// paneOpen takes input.
	paneOpen paneState = iota
	// paneAnswered has sent its one answer and waits for the engine's
	// verdict (PromptResolved); it takes no input.
	paneAnswered
	// paneEnded shows how the prompt ended until it is cleared.
	paneEnded
)

// pane is one prompt: a form (form mode) or a link (URL mode). It is a
// plain struct driven by the Model; it never talks to the client except
// through its reply channel, used at most once.
type pane struct {
	id    int
	p     *question.Question
	reply chan<- question.Outcome
	form  *forms.Form // nil in URL mode and for a permission
	url   urlInfo     // URL mode
	perm  *permChoice // an ACP permission request (agent_perm.go)

	state paneState
	sent  question.OutcomeKind // what we answered (paneAnswered and later)
	// doneSaid: the person said the URL elicitation of a -32042 is done
	// (urlretry.go).
	doneSaid bool
	seen     bool      // has had focus: its answer may be sent
	shownAt  time.Time // when it was first on screen (armed)
	notice   string    // why it ended, or what was sent
	endKind  question.OutcomeKind
	endedAt  time.Time
	note     string // transient line: "copied", validation error, opener error
	// scroll is the first line of the body shown when the body does not
	// fit the frame, and more what the last draw found (panefit.go).
	scroll int
	more   paneMore
	// sizedW, sizedH: the size its form was last given (sizeShown tells
	// a form only of a change).
	sizedW, sizedH int
	// footerMemo is the open pane's footer as last drawn, and what for:
	// it changes only with the styles, the width and the view's hints
	// (the key map is the Model's, fixed), and drawing it took a third
	// of a tile's frame.
	footerMemo struct {
		st    *themes.Styles
		width int
		hints []footerHint
		line  string
	}
}

func (p *pane) open() bool { return p.state == paneOpen }

// defaultArmDelay is Options.ArmDelay's default: a key pressed for what
// was on screen a moment before must not answer a question nobody read.
const defaultArmDelay = 300 * time.Millisecond

// armed reports whether the pane may take an answering key at now, delay
// after it was first shown. Typing into its fields is never held back.
func (p *pane) armed(now time.Time, delay time.Duration) bool {
	return p.seen && (delay < 0 || now.Sub(p.shownAt) >= delay)
}

// answer sends the person's answer once. It reports whether it went out;
// a pane that is not open, or was never shown, sends nothing.
func (p *pane) answer(o question.Outcome) bool {
	if p.state != paneOpen || !p.seen {
		return false
	}
	p.reply <- o // buffered, capacity 1, and this is the only send
	p.state = paneAnswered
	p.sent = o.Kind
	p.notice = "sent " + o.Kind.String() + ", waiting for the server…"
	if awaitsURLDone(p) {
		p.notice = urlWaitText
	}
	return true
}

// end turns the pane into a notice. It is idempotent: the engine's verdict
// (PromptResolved) may come before or after the bridge's closed message,
// and the verdict's text wins.
func (p *pane) end(kind question.OutcomeKind, text string, now time.Time, final bool) {
	if p.state == paneEnded && !final {
		return
	}
	p.state = paneEnded
	p.endKind = kind
	p.notice = text
	if p.endedAt.IsZero() {
		p.endedAt = now
	}
}

// endText is the notice for an outcome the engine decided.
func endText(p *question.Question, e question.JournalEntry, sent string) string {
	if t, ok := turnEndText(p, e, sent); ok {
		return t
	}
	server := untrusted.Line(p.Server)
	reason := untrusted.Line(e.Reason)
	switch e.Kind {
	case question.Withdrawn:
		if reason == "" {
			reason = "no reason given"
		}
		return fmt.Sprintf("withdrawn by %s: %s", server, reason)
	case question.Disconnected:
		if reason == "" {
			return fmt.Sprintf("%s disconnected; nothing was sent", server)
		}
		return fmt.Sprintf("%s disconnected (%s); nothing was sent", server, reason)
	case question.Abandoned:
		return "abandoned: the call it belonged to was cancelled"
	case question.Timeout:
		return "timed out; the engine answered for you"
	case question.Invalid:
		return "invalid: " + reason
	}
	if sent == "" {
		// A refused sampling request in 2026-07-28 ends its call instead;
		// the engine's reason says so.
		if reason == "" {
			return fmt.Sprintf("%s; nothing was sent", e.Kind)
		}
		return fmt.Sprintf("%s: %s", e.Kind, reason)
	}
	return fmt.Sprintf("%s (sent %s)", e.Kind, sent)
}

// causeText is the notice for a prompt whose context ended, before the
// engine's verdict arrives.
func causeText(server string, cause error) (question.OutcomeKind, string) {
	server = untrusted.Line(server)
	switch {
	case cause == nil:
		return question.Cancel, "closed"
	case errors.Is(cause, question.ErrWithdrawn):
		return question.Withdrawn, "withdrawn by " + server
	case errors.Is(cause, question.ErrDisconnected):
		return question.Disconnected, server + " disconnected; nothing was sent"
	case errors.Is(cause, question.ErrAbandoned):
		return question.Abandoned, "abandoned: the call it belonged to was cancelled"
	case errors.Is(cause, question.ErrTimeout):
		return question.Timeout, "timed out"
	}
	return question.Cancel, "closed: " + untrusted.Line(cause.Error())
}

// waitStep is how finely a waiting time under a minute reads.
const waitStep = 10 * time.Second

// originText says what the prompt belongs to.
func originText(o question.Origin) string {
	name := untrusted.Line(o.Name)
	call := ""
	if o.CallID.IsValid() {
		call = " (call " + untrusted.Line(o.CallID.Raw()) + ")"
	}
	switch o.Kind {
	case question.OriginToolCall:
		return "tool " + name + call
	case question.OriginTask:
		return "task " + untrusted.Line(o.TaskID) + nameSuffix(name)
	case question.OriginPrompt:
		return "prompt " + name + call
	case question.OriginResource:
		return "resource " + name + call
	case question.OriginTurn:
		if o.ToolCallID != "" {
			return "turn of session " + untrusted.Line(o.SessionID) + ", tool call " + untrusted.Line(o.ToolCallID) + nameSuffix(name)
		}
		return "turn of session " + untrusted.Line(o.SessionID)
	}
	if len(o.Maybe) > 0 {
		// Ours, but nothing says which call's (stdio, a GET stream).
		calls := make([]string, len(o.Maybe))
		for i, m := range o.Maybe {
			calls[i] = originText(question.Origin{Kind: m.Kind, Name: m.Name, CallID: m.CallID})
		}
		more := ""
		if o.MaybeOf > len(o.Maybe) {
			more = ", …"
		}
		return fmt.Sprintf("one of %d calls: %s%s", max(o.MaybeOf, len(o.Maybe)), strings.Join(calls, ", "), more)
	}
	return "not tied to a call of ours"
}

func nameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " (" + name + ")"
}

// waited renders how long a prompt has waited: "just now" for ten
// seconds, then in tens of seconds for its first minute, then in whole
// minutes. It is computed at render time from Arrived, and the model ticks
// only while one is on screen, when the text next changes (waitTickIn):
// six times in a question's first minute, once a minute after, since every
// redraw wakes the idle process some 30 times (BENCHMARKS.md, "Idle"; a
// count of seconds was 30 wake-ups a second for as long as it showed).
func waited(d time.Duration) string {
	switch {
	case d < waitStep:
		return "just now"
	case d < time.Minute:
		return "waiting " + d.Truncate(waitStep).String()
	case d < time.Hour:
		return fmt.Sprintf("waiting %dm", int(d/time.Minute))
	}
	return fmt.Sprintf("waiting %dh%dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// render draws the pane's inside (the frame is drawn by the caller): the
// body, and the footer, which the caller keeps on the last line whatever
// the body's height, so Decline stays visible and clickable.
//
// self is how the server names itself (serverInfo title, else name), shown
// beside the configured name when it says something more; hints are the
// view's keys the footer adds (tiles, clear ended).
func (p *pane) render(st *themes.Styles, km keyMap, width int, now time.Time, self string, hints []footerHint) (body, footer string) {
	var b strings.Builder
	b.WriteString(p.header(st, width, now, self))
	b.WriteByte('\n')
	if p.state != paneOpen {
		style := st.Pane.Ended
		if p.state == paneAnswered {
			style = st.Muted
		}
		// Wrapped: a disconnect's reason can be long, and the frame cuts
		// what overflows.
		b.WriteString("\n" + style.Width(max(width, 1)).Render(p.notice) + "\n")
		switch {
		case p.state == paneEnded:
			footer = st.Pane.Footer.Render(endedFooter(st, km, width, hints))
		case awaitsURLDone(p):
			footer = st.Pane.Footer.Render(st.Pane.Key.Render(km.URLDone.Help().Key) + " " + st.Pane.KeyDesc.Render("done, send it again"))
		}
		return b.String(), footer
	}
	switch {
	case p.perm != nil:
		b.WriteString(p.renderPermission(st, width))
	case p.form != nil:
		// The form shows the message above its fields.
		b.WriteString(p.form.View())
	default:
		b.WriteString(p.renderURL(st, width))
	}
	if p.note != "" {
		// Wrapped: a tile 58 wide cut "just arrived: read it first…".
		b.WriteString("\n" + wrapped(st.Warning, untrusted.Line(p.note), width))
	}
	b.WriteString("\n")
	return b.String(), p.openFooter(st, km, width, hints)
}

// header says whose question it is (the server, as configured and as it
// names itself, and the key), what it belongs to and how long it has
// waited: one line when it fits, else broken before what it belongs to,
// each line cut with … at width, so the call and the waiting time are not
// lost off the frame's edge on a narrow terminal.
func (p *pane) header(st *themes.Styles, width int, now time.Time, self string) string {
	who := st.Pane.Server.Render(untrusted.Line(p.p.Server))
	if self != "" && self != p.p.Server {
		who += st.Muted.Render(" (" + untrusted.Line(self) + ")")
	}
	who += st.Pane.Meta.Render("  " + untrusted.Line(p.p.Key.String()))
	what := originText(p.p.Origin)
	if p.state == paneOpen {
		what += "  ·  " + waited(now.Sub(p.p.Arrived))
	}
	if one := who + st.Pane.Meta.Render("  ·  "+what); width <= 0 || ansi.StringWidth(one) <= width {
		return one
	}
	return ansi.Truncate(who, width, "…") + "\n" + ansi.Truncate(st.Pane.Meta.Render(what), width, "…")
}

// openFooter is footer, cut to width (never wrapped: it is one line), as
// drawn last time when nothing it depends on changed.
func (p *pane) openFooter(st *themes.Styles, km keyMap, width int, hints []footerHint) string {
	f := &p.footerMemo
	if f.line == "" || f.st != st || f.width != width || !slices.Equal(f.hints, hints) {
		f.st, f.width, f.hints = st, width, slices.Clone(hints)
		if p.perm != nil {
			f.line = ansi.Truncate(p.permFooter(st, km, hints), width, "…")
		} else {
			f.line = ansi.Truncate(p.footer(st, km, width, hints), width, "…")
		}
	}
	return f.line
}

func (p *pane) renderURL(st *themes.Styles, width int) string {
	var b strings.Builder
	u := p.url
	if msg := untrusted.Text(p.p.Message); msg != "" {
		b.WriteString(st.Pane.Message.Width(width).Render(msg) + "\n\n")
	}
	asker := "server"
	if p.p.Key.Delivery == question.AgentRequest {
		asker = "agent"
	}
	b.WriteString(st.Muted.Render("This "+asker+" asks you to open a page in your browser. Nothing has been fetched.") + "\n")
	line := st.Pane.URL.Render(untrusted.Line(u.before)) +
		st.Pane.Host.Render(untrusted.Line(u.host)) +
		st.Pane.URL.Render(untrusted.Line(u.after))
	b.WriteString(lipgloss.NewStyle().Width(width).Render(line) + "\n")
	if u.host != "" {
		b.WriteString(st.Muted.Render("host: ") + st.Pane.Host.Render(untrusted.Line(u.host)) + "\n")
	}
	for _, w := range u.warnings {
		b.WriteString(st.Pane.Warn.Render("⚠ "+untrusted.Line(w)) + "\n")
	}
	b.WriteString(st.Muted.Render("Accepting gives consent only; the site finishes the task."))
	return b.String()
}

// footer lists the keys of the pane, with Decline drawn as a button so it
// is visible without reading the help. When the full line does not fit
// width, the ways out come first, in short words (esc cancel, F2 next),
// so Decline, Esc and F2 stay on screen down to 60 columns. The view's
// hints come before help; the full words go without them before the
// short ones are used, and on a short line they go right after help.
func (p *pane) footer(st *themes.Styles, km keyMap, width int, hints []footerHint) string {
	var parts []string
	if p.form != nil {
		parts = append(parts, keyHint(st, km.Submit))
	} else {
		if p.url.ok {
			parts = append(parts, keyHint(st, km.OpenURL), keyHint(st, km.CopyURL))
		}
		parts = append(parts, keyHint(st, km.Consent))
	}
	parts = append(parts, keyHint(st, km.Cancel), keyHint(st, km.NextPane))
	full := len(parts)
	for _, h := range hints {
		parts = append(parts, h.render(st))
	}
	parts = append(parts, keyHint(st, km.Help))
	// The footer style only colours (no padding), so the line's width is
	// measured from its parts, and the line rendered once.
	btn := st.Pane.Button.Render(declineLabel) + "  "
	line := func(parts []string) string { return btn + st.Pane.Footer.Render(strings.Join(parts, "  ")) }
	// fits is how many of parts, from the first, fit width.
	fits := func(parts []string) int {
		w := ansi.StringWidth(btn) - 2
		for i, p := range parts {
			if w += 2 + ansi.StringWidth(p); w > width {
				return i
			}
		}
		return len(parts)
	}
	if width <= 0 || fits(parts) == len(parts) {
		return line(parts)
	}
	if len(hints) > 0 { // the full words without the view's hints
		parts = append(parts[:full], keyHint(st, km.Help))
		if fits(parts) == len(parts) {
			return line(parts)
		}
	}
	short := func(k, desc string) string { return st.Pane.Key.Render(k) + " " + st.Pane.KeyDesc.Render(desc) }
	parts = []string{short("esc", "cancel"), short("F2", "next")}
	if p.form != nil {
		parts = append(parts, short("enter", "next/accept"))
	} else {
		if p.url.ok {
			parts = append(parts, short(km.OpenURL.Help().Key, "open"), short(km.CopyURL.Help().Key, "copy"))
		}
		parts = append(parts, short("enter", "accept"))
	}
	for _, h := range hints {
		parts = append(parts, h.render(st))
	}
	parts = append(parts, short("F1", "help"))
	// Drop from the end while it does not fit, keeping the first two.
	return line(parts[:max(fits(parts), 2)])
}

// footerHint is a key a view adds to a pane's footer, and what it does there.
type footerHint struct{ key, desc string }

func (h footerHint) render(st *themes.Styles) string {
	return st.Pane.Key.Render(h.key) + " " + st.Pane.KeyDesc.Render(h.desc)
}

// endedFooter is an ended pane's keys: clear it, and the view's (clear
// all ended…). It says "clear" alone for the first when the whole does
// not fit: a tile 58 wide cut "ctrl+l clear all 2 ended" to "ctrl+l
// clear all 2" (issue 26).
func endedFooter(st *themes.Styles, km keyMap, width int, hints []footerHint) string {
	var line string
	for _, first := range []string{keyHint(st, km.Dismiss), footerHint{km.Dismiss.Help().Key, "clear"}.render(st),
		footerHint{km.Dismiss.Keys()[0], "clear"}.render(st)} {
		parts := []string{first}
		for _, h := range hints {
			parts = append(parts, h.render(st))
		}
		if line = strings.Join(parts, "  "); width <= 0 || ansi.StringWidth(line) <= width {
			return line
		}
	}
	return ansi.Truncate(line, width, "…")
}

// declineLabel is the Decline button's text; clicks find it on screen.
const declineLabel = "Decline ctrl+x"

func keyHint(st *themes.Styles, b key.Binding) string {
	h := b.Help()
	desc := h.Desc
	if i := strings.Index(desc, " ("); i > 0 {
		desc = desc[:i]
	}
	return st.Pane.Key.Render(h.Key) + " " + st.Pane.KeyDesc.Render(desc)
}
