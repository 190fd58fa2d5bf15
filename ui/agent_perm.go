package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// An ACP session/request_permission is a prompt pane with one choice per
// option, styled by its kind. Enter answers the option under the cursor
// (Accept naming its optionId: Decision.Reply sends "selected"); Esc is
// Cancel, which the engine answers "cancelled" after stopping the turn
// (ACP has no "dismissed"); ctrl+x is Decline, which Decision.Reply
// answers with the reject_once option, so the pane takes it only when
// there is one.

// permChoice is a permission pane's state: the option under the cursor
// and the tool call it is about, merged with what the turn reported.
type permChoice struct {
	cursor int
	tool   AgentToolCall
}

// newPermChoice reads the request's toolCall (a ToolCallUpdate) over the
// tool call the transcript holds, if any.
func newPermChoice(p *question.Question, seen *AgentToolCall) *permChoice {
	pc := &permChoice{}
	if seen != nil {
		pc.tool = *seen
	}
	if p.Permission == nil {
		return pc
	}
	var tc struct {
		ID        string          `json:"toolCallId"`
		Title     string          `json:"title"`
		Kind      string          `json:"kind"`
		Status    string          `json:"status"`
		Content   json.RawMessage `json:"content"`
		Locations json.RawMessage `json:"locations"`
		RawInput  json.RawMessage `json:"rawInput"`
	}
	if json.Unmarshal(p.Permission.ToolCall, &tc) == nil {
		mergeTool(&pc.tool, &AgentToolCall{ID: tc.ID, Title: tc.Title, Kind: tc.Kind, Status: tc.Status,
			Content: keepRaw(tc.Content), Locations: keepRaw(tc.Locations), RawInput: keepRaw(tc.RawInput)})
	}
	return pc
}

// optionStyle styles an option by its kind: allowing in the success
// colour, rejecting in the error colour, the "always" ones bold.
func optionStyle(st *themes.Styles, kind string) lipgloss.Style {
	switch kind {
	case question.OptionAllowOnce:
		return st.Success
	case question.OptionAllowAlways:
		return st.Success.Bold(true)
	case question.OptionRejectOnce:
		return st.Error
	case question.OptionRejectAlways:
		return st.Error.Bold(true)
	}
	return st.Text
}

// renderPermission draws the request: the tool call (kind, status,
// locations, content with diffs, raw input) and the options.
func (p *pane) renderPermission(st *themes.Styles, width int) string {
	pc := p.perm
	var b strings.Builder
	b.WriteString(st.Pane.Message.Render(ansi.Truncate("May "+untrusted.Line(p.p.Server)+" run this tool call?", width, "…")) + "\n")
	for _, l := range toolLines(st, pc.tool, width) {
		b.WriteString(l + "\n")
	}
	if len(pc.tool.RawInput) > 0 {
		// Wrapped, never cut: the input is what the person allows (a
		// terminal's whole command line); the pane scrolls when it is long.
		const label = "  input "
		lines := strings.Split(ansi.Wrap(oneLineJSON(string(pc.tool.RawInput)), max(width-len(label), 10), ""), "\n")
		for i, l := range lines {
			lead := label
			if i > 0 {
				lead = strings.Repeat(" ", len(label))
			}
			b.WriteString(st.Muted.Render(lead+l) + "\n")
		}
	}
	b.WriteString("\n")
	opts := p.p.Permission.Options
	wide := 0
	for _, o := range opts {
		wide = max(wide, ansi.StringWidth(untrusted.Line(o.Name)))
	}
	for i, o := range opts {
		mark := "  "
		if i == pc.cursor {
			mark = "▸ "
		}
		name := untrusted.Line(o.Name)
		label := fmt.Sprintf("%s%d %s%s", mark, i+1, name, strings.Repeat(" ", wide-ansi.StringWidth(name)))
		line := optionStyle(st, o.Kind).Render(label) + st.Muted.Render("  "+untrusted.Line(o.Kind))
		if i == pc.cursor {
			line = st.List.Selected.Render(label) + st.Muted.Render("  "+untrusted.Line(o.Kind))
		}
		b.WriteString(ansi.Truncate(line, width, "…") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// permFooter lists a permission pane's keys; the Decline button stands
// for the reject_once option, when there is one.
func (p *pane) permFooter(st *themes.Styles, km keyMap, hints []footerHint) string {
	k := func(key, desc string) string { return st.Pane.Key.Render(key) + " " + st.Pane.KeyDesc.Render(desc) }
	esc := k("esc", "stop the turn")
	switch p.p.Key.Delivery {
	case question.FileWrite:
		esc = k("esc", "refuse the write") // the turn goes on (acp's FileWrite rows)
	case question.TerminalCreate:
		esc = k("esc", "refuse the command") // as a write: the turn goes on
	}
	parts := []string{k("enter", "choose"), k("↑↓/1…9", "option"), esc, k("F2", "next")}
	for _, h := range hints {
		parts = append(parts, h.render(st))
	}
	line := st.Pane.Footer.Render(strings.Join(parts, "  "))
	if _, ok := p.p.Permission.OfKind(question.OptionRejectOnce); ok {
		line = st.Pane.Button.Render(declineLabel) + "  " + line
	}
	return line
}

// permKey handles a key on an open permission pane once it is armed for
// answering keys (the caller checks).
func permKey(c *viewCtx, pn *pane, k tea.KeyPressMsg) tea.Cmd {
	pc, opts := pn.perm, pn.p.Permission.Options
	switch {
	case key.Matches(k, c.keys.Decline):
		if _, ok := pn.p.Permission.OfKind(question.OptionRejectOnce); !ok {
			pn.note = "this request has no reject_once option: choose one, or esc stops the turn"
			return nil
		}
		pn.answer(question.Outcome{Kind: question.Decline})
	case key.Matches(k, c.keys.Cancel):
		pn.answer(question.Outcome{Kind: question.Cancel, Reason: "esc: the person stopped the turn"})
	case k.Code == tea.KeyEnter:
		pn.answer(question.Outcome{Kind: question.Accept, Option: opts[pc.cursor].ID})
	case k.Code == tea.KeyUp:
		pc.cursor = (pc.cursor - 1 + len(opts)) % len(opts)
	case k.Code == tea.KeyDown || k.Code == tea.KeyTab:
		pc.cursor = (pc.cursor + 1) % len(opts)
	case len(k.Text) == 1 && k.Text[0] >= '1' && k.Text[0] <= '9':
		if i := int(k.Text[0] - '1'); i < len(opts) {
			pc.cursor = i
		}
	}
	return nil
}

// turnEndText is the notice of an ACP question (OriginTurn) that ended
// without the person's answer, or with it, in ACP's words.
func turnEndText(p *question.Question, e question.JournalEntry, sent string) (string, bool) {
	if p.Origin.Kind != question.OriginTurn {
		return "", false
	}
	agent := untrusted.Line(p.Server)
	switch e.Kind {
	case question.Withdrawn:
		return fmt.Sprintf("withdrawn by %s ($/cancel_request); answered %s", agent, orNothing(sent)), true
	case question.Abandoned:
		// The bucket tells a shutdown: a write the turn ended is
		// answered -32800 as one is (acp_reply.go's FileWrite column).
		if e.Bucket == question.BucketShutdown {
			return "closed: elicit is shutting down; answered " + orNothing(sent), true
		}
		return "the turn was stopped; answered " + orNothing(sent), true
	case question.Cancel:
		// As client/acp does by delivery: Esc on a permission stops the
		// turn, on a write refuses it and the turn goes on.
		switch p.Key.Delivery {
		case question.PermissionRequest:
			return "you stopped the turn (session/cancel); answered " + orNothing(sent), true
		case question.FileWrite:
			return "you refused the write; answered " + orNothing(sent), true
		case question.TerminalCreate:
			return "you refused the command; answered " + orNothing(sent), true
		}
	case question.Accept, question.Decline:
		if e.Option != nil { // a permission's option
			return fmt.Sprintf("%s: %s (sent %s)", untrusted.Line(e.Option.Kind), untrusted.Line(e.Option.Name), untrusted.Line(sent)), true
		}
	}
	return "", false
}

func orNothing(sent string) string {
	if sent == "" {
		return "nothing"
	}
	return untrusted.Line(sent)
}

// tool returns the tool call id of agent's transcript, if it is there.
func (s *agentStore) tool(agent, id string) *AgentToolCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.logs[agent]
	if l == nil {
		return nil
	}
	if i, ok := l.tools[id]; ok && i >= l.dropped {
		t := l.entries[i-l.dropped].tool
		return &t
	}
	return nil
}
