package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Completions (completion/complete) in the argument form of a prompt
// template or a resource template, when the server declared the
// completions capability. What the focused field holds is asked about
// completeDelay after it last changed (the field's text as typed, the
// other fields as context), one request at a time per field: a newer text
// due while one is out cancels it and is asked once it has ended, and an
// answer for a text no longer in the field is dropped. The values are
// listed under the form with the first one highlighted; ↓↑ (ctrl+n/p)
// move the highlight, tab or enter take it, and esc closes the list (the
// form stays open; tab and enter are then the form's again). Nothing
// highlighted, nothing taken: with "deploy" listed for "d", tab left "d"
// and enter read demo://scene/d (issue 26). When the text changes, the
// highlight stays only on a value that still starts with it, until the
// answer for the new text comes.

const (
	// completeDelay is how long the text must rest before it is asked
	// about: a request per pause, not per key.
	completeDelay = 250 * time.Millisecond
	// completeTimeout bounds one request (AGENTS.md: nothing hangs).
	completeTimeout = 10 * time.Second
	// completeRows is how many values are shown at once; the form gives
	// up that many rows, and two for the list's head and a blank line.
	completeRows = 5
)

// completeDueMsg says the focused text has rested for completeDelay; gen
// is the change it was armed for.
type completeDueMsg struct{ gen int }

// completeGotMsg carries completion/complete's answer to request gen.
type completeGotMsg struct {
	gen int
	res *wire.Completion
	err error
}

// completer follows one argument form's focused field and asks the server
// for values. It is driven from Update only.
type completer struct {
	server string
	ref    wire.CompleteRef
	off    bool // the server turned out to have no completions

	field, value string // the focused text field and its text, as last seen
	seen         bool   // field and value are set
	gen          int    // bumps on every change of field or text
	taken        bool   // value was taken from the list: nothing to ask

	inflight *completeAsk // the request out, nil when none
	again    bool         // a newer text came due while inflight was out
	list     *completeList
}

// completeAsk is the request out for field at value.
type completeAsk struct {
	gen          int
	field, value string
	cancel       context.CancelFunc
}

// completeList is the last answer shown for the focused field.
type completeList struct {
	values  []string // sanitized, the empty ones left out
	total   *int
	hasMore bool
	err     error
	cursor  int // the highlighted value; -1: none
}

// newCompleter returns the completer for a form of server's ref, or nil
// when the server declared no completions: then nothing is ever sent.
func newCompleter(c *viewCtx, server string, ref wire.CompleteRef) *completer {
	if !serverCaps(c.servers, server).Completions {
		return nil
	}
	return &completer{server: server, ref: ref}
}

// open reports whether a list of values is shown: it then has the keys
// of completeKey.
func (p *completer) open() bool {
	return p != nil && p.list != nil && len(p.list.values) > 0
}

// stop cancels the request out and forgets the list: the form is closing
// or the focus moved to another field.
func (p *completer) stop() {
	if p == nil {
		return
	}
	if p.inflight != nil {
		p.inflight.cancel()
	}
	p.inflight, p.again, p.list = nil, false, nil
}

// follow looks at the form after it took a message: a new focused field
// or a new text arms the delay. It returns the timer's command.
func (p *completer) follow(form *forms.Form, id int) tea.Cmd {
	if p == nil || p.off {
		return nil
	}
	name, text, ok := form.FocusedText()
	switch {
	case !ok:
		if p.seen {
			p.stop()
			p.seen, p.field, p.value = false, "", ""
			p.gen++
		}
		return nil
	case p.seen && name == p.field && text == p.value:
		return nil
	case !p.seen || name != p.field:
		p.stop() // the other field's request and list are moot
	case p.list != nil:
		p.list.cursor = p.list.startingWith(text)
	}
	p.field, p.value, p.seen, p.taken = name, text, true, false
	p.gen++
	gen := p.gen
	return tag(id, tea.Tick(completeDelay, func(time.Time) tea.Msg { return completeDueMsg{gen: gen} }))
}

// due asks about the text, unless it changed again since the timer was
// armed (that change has its own timer) or a request is out: that one is
// cancelled and the text asked about when it has ended.
func (p *completer) due(c *viewCtx, msg completeDueMsg, form *forms.Form, id int) tea.Cmd {
	if p == nil || p.off || !p.seen || p.taken || msg.gen != p.gen {
		return nil
	}
	if p.inflight != nil {
		p.inflight.cancel()
		p.again = true
		return nil
	}
	return p.ask(c, form, id)
}

// ask sends completion/complete for the focused field's text, with the
// other fields' texts as context.
func (p *completer) ask(c *viewCtx, form *forms.Form, id int) tea.Cmd {
	others := map[string]string{}
	for name, v := range form.Values() {
		if s, ok := v.(string); ok && s != "" && name != p.field {
			others[name] = s
		}
	}
	ctx, cancel := context.WithTimeout(c.ctx, completeTimeout)
	a := &completeAsk{gen: p.gen, field: p.field, value: p.value, cancel: cancel}
	p.inflight, p.again = a, false
	eng, server, ref := c.engine, p.server, p.ref
	return tag(id, func() tea.Msg {
		defer cancel()
		res, err := eng.Complete(ctx, server, ref, a.field, a.value, others)
		return completeGotMsg{gen: a.gen, res: res, err: err}
	})
}

// got takes an answer: one for a request given up is dropped; one that
// ended while a newer text was due is dropped and that text asked about;
// one for the text in the field is listed.
func (p *completer) got(c *viewCtx, msg completeGotMsg, form *forms.Form, id int) tea.Cmd {
	if p == nil {
		return nil
	}
	a := p.inflight
	if a == nil || a.gen != msg.gen {
		return nil
	}
	p.inflight = nil
	if p.again {
		return p.ask(c, form, id)
	}
	if a.field != p.field || a.value != p.value {
		return nil // the text changed; its timer will ask
	}
	if errors.Is(msg.err, client.ErrNoCompletions) {
		p.off, p.list = true, nil
		return nil
	}
	l := &completeList{err: msg.err, cursor: -1}
	if r := msg.res; r != nil && msg.err == nil {
		l.total, l.hasMore = r.Total, r.HasMore
		for _, v := range r.Values {
			if s := untrusted.Line(v); strings.TrimSpace(s) != "" {
				l.values = append(l.values, s)
			}
		}
	}
	if len(l.values) > 0 {
		l.cursor = 0 // the first is highlighted from the start
	}
	p.list = l
	return nil
}

// completeKey handles the list's keys while it is open: ↓/ctrl+n and
// ↑/ctrl+p move, tab/enter take the highlighted value (with none, they are
// the form's), esc closes the list. It reports whether the key was the
// list's.
func (p *completer) completeKey(c *viewCtx, k tea.KeyPressMsg, form *forms.Form, id int) (tea.Cmd, bool) {
	if !p.open() {
		return nil, false
	}
	km, l := c.keys, p.list
	n := len(l.values)
	switch {
	case key.Matches(k, km.CompleteNext):
		l.cursor = (l.cursor + 1) % n
	case key.Matches(k, km.CompletePrev):
		if l.cursor <= 0 {
			l.cursor = n - 1
		} else {
			l.cursor--
		}
	case key.Matches(k, km.CompleteTake) && l.cursor >= 0:
		return p.take(form, id), true
	case key.Matches(k, km.CompleteClose):
		p.list = nil
	default:
		return nil, false
	}
	return nil, true
}

// startingWith is the first value that starts with text (regardless of
// case), -1 when none does: the highlight a list answered for an older
// text keeps while the new text's answer is on its way.
func (l *completeList) startingWith(text string) int {
	for i, v := range l.values {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(text)) {
			return i
		}
	}
	return -1
}

// take puts the highlighted value (as shown: sanitized) in the field. The
// text it leaves is the one seen, so it is not asked about again.
func (p *completer) take(form *forms.Form, id int) tea.Cmd {
	v := p.list.values[p.list.cursor]
	cmd, ok := form.SetFocusedText(v)
	if !ok {
		return nil
	}
	p.stop()
	if name, text, ok := form.FocusedText(); ok {
		p.field, p.value, p.seen, p.taken = name, text, true, true
	}
	p.gen++ // a timer armed before is for a text that is gone
	return tag(id, cmd)
}

// hint is what the form's head says about completions.
func (p *completer) hint() string {
	if p == nil || p.off {
		return ""
	}
	return " · suggestions as you type"
}

// view draws the list under the form: a head with how many values there
// are and the keys, then a window of completeRows values that follows the
// highlight.
func (p *completer) view(c *viewCtx) string {
	if p == nil || p.list == nil {
		return ""
	}
	st, l := c.st, p.list
	switch {
	case l.err != nil:
		return st.Muted.Render("suggestions failed: " + errText(l.err))
	case len(l.values) == 0:
		return st.Muted.Render("no suggestions for " + untrusted.Line(p.field))
	}
	keys := "  ↓↑ pick · tab/enter take · esc closes the list"
	if l.cursor < 0 {
		keys = "  ↓↑ pick · esc closes the list" // tab and enter are the form's
	}
	head := st.List.Badge.Render("suggestions "+countText(l)) + st.Muted.Render(keys)
	lines := []string{head}
	start := 0
	if l.cursor >= completeRows {
		start = l.cursor - completeRows + 1
	}
	for i := start; i < len(l.values) && i < start+completeRows; i++ {
		lines = append(lines, listLine(c, l.values[i], i == l.cursor))
	}
	if rest := len(l.values) - start - completeRows; rest > 0 {
		lines[len(lines)-1] += st.Muted.Render(fmt.Sprintf("  (+%d more)", rest))
	}
	return strings.Join(lines, "\n")
}

// countText says how many values there are: "3", "3 of 120", or "100 of
// more" when the server has more and gave no total.
func countText(l *completeList) string {
	n := len(l.values)
	switch {
	case l.total != nil && *l.total > n:
		return fmt.Sprintf("%d of %d", n, *l.total)
	case l.hasMore:
		return fmt.Sprintf("%d of more", n)
	}
	return fmt.Sprint(n)
}
