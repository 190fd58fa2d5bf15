package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

var keyAltA = tea.KeyPressMsg{Code: 'a', Mod: tea.ModAlt}

func withAgent(f *fakeEngine) {
	f.servers = nil
	f.agents = []AgentStatus{{Name: "bot", State: client.StateReady, SessionID: "sess_1", Cwd: "/p",
		Info: wire.Implementation{Name: "bot-agent", Version: "1.2"}}}
}

// agentDriver shows the agent view of one ready agent.
func agentDriver(t *testing.T, setup ...func(*fakeEngine)) *driver {
	d := newDriver(t, Options{}, append([]func(*fakeEngine){withAgent}, setup...)...)
	d.keys(keyAltA)
	if d.m.viewName() != "Agent" {
		t.Fatalf("alt+a shows %q", d.m.viewName())
	}
	return d
}

// turnDone waits for the turn's end, which came at once or comes late.
func (d *driver) turnDone() {
	d.t.Helper()
	if len(screenOf[*agentView](d.m).turns) > 0 {
		d.awaitLate(func(m tea.Msg) bool { _, ok := m.(agentTurnDoneMsg); return ok })
	}
}

func TestAgentTurnStreams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var br *Bridge
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				for _, u := range []AgentUpdate{
					{Kind: "agent_thought_chunk", Known: true, Text: "pondering"},
					{Kind: "agent_message_chunk", Known: true, Text: "Hello, "},
					{Kind: "agent_message_chunk", Known: true, Text: "world.\x1b[31m"},
					{Kind: "plan", Known: true, Plan: []AgentPlanEntry{{Content: "Edit config", Priority: "high", Status: "in_progress"}}},
					{Kind: "tool_call", Known: true, Tool: &AgentToolCall{ID: "c1", Title: "Edit config.json", Kind: "edit", Status: "pending",
						Locations: []byte(`[{"path":"/p/config.json","line":3}]`),
						Content:   []byte(`[{"type":"diff","path":"/p/config.json","oldText":"a\nb\nc\n","newText":"a\nB\nc\n"}]`)}},
					{Kind: "tool_call_update", Known: true, Tool: &AgentToolCall{ID: "c1", Status: "completed"}},
					{Kind: "usage_update", Known: true, Usage: &AgentUsage{Used: 120, Size: 1000}},
					{Kind: "available_commands_update", Known: true, Commands: []AgentCommand{{Name: "web"}}},
					{Kind: "current_mode_update", Known: true, Mode: "code"},
					{Kind: "notice", Raw: []byte(`{"sessionUpdate":"notice","text":"hi"}`)},
				} {
					br.AgentUpdate(agent, u)
				}
				return AgentTurnEnd{StopReason: "end_turn"}, nil
			}
		})
		br = d.m.bridge
		d.typeText("fix it")
		d.keys(keyEnter)
		d.turnDone()
		if got := d.eng.fakeAgents.prompts; len(got) != 1 || got[0] != "bot fix it" {
			t.Fatalf("prompts sent: %q", got)
		}
		s := d.screen()
		for _, want := range []string{
			"bot (bot-agent 1.2)", "session sess_1", "mode code", "usage 120/1000 (12%)", "commands /web",
			"› fix it", "thinking: pondering", "Hello, world.",
			"✎ Edit config.json · edit · completed", "at /p/config.json:3", "diff /p/config.json",
			"- b", "+ B", "  a",
			"update notice: {\"sessionUpdate\":\"notice\",\"text\":\"hi\"}",
			"Plan 0/1", "◐ Edit config (high)",
			"■ end_turn", "enter send",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(d.m.View().Content, "\x1b[31m") {
			t.Error("the agent's escape sequence reached the terminal")
		}
		if strings.Contains(s, "error") {
			t.Errorf("an unknown update kind was shown as an error:\n%s", s)
		}
	})
}

// TestAgentStop: esc during a turn sends session/cancel; the turn shows
// "stopping" until the agent's stopReason comes, and "cancelled" only
// because the agent said so.
func TestAgentStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan AgentTurnEnd, 1)
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				return <-release, nil
			}
		})
		d.typeText("long")
		d.keys(keyEnter)
		if s := d.screen(); !strings.Contains(s, "working") || !strings.Contains(s, "esc stop the turn") {
			t.Fatalf("a running turn is not shown:\n%s", s)
		}
		d.keys(keyEnter) // a second prompt while one runs is refused
		d.keys(keyEsc)
		if got := d.eng.stopped(); len(got) != 1 || got[0] != "bot" {
			t.Fatalf("stops: %q", got)
		}
		s := d.screen()
		if !strings.Contains(s, "stopping: waiting for the agent's stopReason") || strings.Contains(s, "cancelled (stopReason") {
			t.Fatalf("after esc, before the stopReason:\n%s", s)
		}
		if !strings.Contains(s, "esc again: abandon the prompt") {
			t.Fatalf("the second esc is not offered:\n%s", s)
		}
		d.keys(keyEsc) // a second esc abandons the prompt ($/cancel_request)
		d.keys(keyEsc) // a third sends nothing more
		d.eng.amu.Lock()
		abandons := d.eng.abandons
		d.eng.amu.Unlock()
		if n := len(d.eng.stopped()); n != 1 || len(abandons) != 1 || abandons[0] != "bot" {
			t.Fatalf("%d stops and abandons %q after three esc", n, abandons)
		}
		release <- AgentTurnEnd{StopReason: "cancelled", Stopped: true}
		d.turnDone()
		s = d.screen()
		if !strings.Contains(s, "■ cancelled (stopReason cancelled)") || strings.Contains(s, "stopping") {
			t.Fatalf("after the stopReason:\n%s", s)
		}
		if got := d.eng.fakeAgents.prompts; len(got) != 1 {
			t.Fatalf("prompts: %q", got)
		}
	})
}

// TestAgentStopAgentEndsOtherwise: a stop the agent answers end_turn is
// not shown cancelled.
func TestAgentStopAgentEndsOtherwise(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				<-release
				return AgentTurnEnd{StopReason: "end_turn", Stopped: true}, nil
			}
		})
		d.typeText("x")
		d.keys(keyEnter, keyEsc)
		close(release)
		d.turnDone()
		if s := d.screen(); strings.Contains(s, "cancelled") || !strings.Contains(s, "■ end_turn") {
			t.Fatalf("screen:\n%s", s)
		}
	})
}

func permQuestion(id int64, opts ...question.PermissionOption) *question.Question {
	if len(opts) == 0 {
		opts = []question.PermissionOption{
			{ID: "allow", Name: "Allow once", Kind: question.OptionAllowOnce},
			{ID: "always", Name: "Always allow", Kind: question.OptionAllowAlways},
			{ID: "reject", Name: "Reject", Kind: question.OptionRejectOnce},
			{ID: "never", Name: "Always reject", Kind: question.OptionRejectAlways},
		}
	}
	tc := json.RawMessage(`{"toolCallId":"c1","title":"Edit config.json","kind":"edit","status":"pending","rawInput":{"path":"/p/config.json"}}`)
	return &question.Question{Key: question.Key{Server: "bot", Delivery: question.PermissionRequest, RequestID: jsonrpc.IntID(id)},
		Server: "bot", Kind: question.KindPermission, Message: "Edit config.json", Arrived: time.Now(),
		Origin:     question.Origin{Kind: question.OriginTurn, SessionID: "sess_1", ToolCallID: "c1", Name: "Edit config.json"},
		Permission: &question.Permission{ToolCall: tc, Options: opts}}
}

func TestPermissionPane(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withAgent)
		d.m.bridge.AgentUpdate("bot", AgentUpdate{Kind: "tool_call", Known: true, Tool: &AgentToolCall{ID: "c1", Title: "Edit config.json",
			Content: []byte(`[{"type":"diff","path":"/p/config.json","oldText":"x=1\n","newText":"x=2\n"}]`)}})
		p := permQuestion(5)
		d.open(p)
		d.keys(keyAltA)
		if s := d.screen(); !strings.Contains(s, "1 question for you (F4)") {
			t.Errorf("the agent view does not say its agent waits:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		s := d.screen()
		for _, want := range []string{"May bot run this tool call?", "✎ Edit config.json · edit · pending", "- x=1", "+ x=2",
			`input {"path":"/p/config.json"}`, "▸ 1 Allow once", "2 Always allow   allow_always", "3 Reject         reject_once", "4 Always reject  reject_always",
			"Decline ctrl+x", "esc stop the turn", "turn of session sess_1, tool call c1"} {
			if !strings.Contains(s, want) {
				t.Errorf("pane lacks %q:\n%s", want, s)
			}
		}
		d.keys(keyDown)
		if !strings.Contains(d.screen(), "▸ 2 Always allow") {
			t.Fatalf("↓ did not move:\n%s", d.screen())
		}
		d.keys(key1('4'), tea.KeyPressMsg{Code: tea.KeyUp})
		d.keys(keyEnter)
		if o := d.reply(p.Key); o.Kind != question.Accept || o.Option != "reject" {
			t.Fatalf("enter on option 3 sent %+v", o)
		}
		d.keys(keyAltA)
		if s := d.screen(); strings.Contains(s, "for you (F4)") {
			t.Errorf("the agent view still waits on an answered pane:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})

		p2 := permQuestion(6)
		d.open(p2)
		d.keys(keyF2) // the pane of p2 (p's is answered)
		d.m.prompts.focusPane(&d.m.viewCtx, d.m.prompts.byKey[p2.Key].id)
		d.keys(keyCtrlX)
		if o := d.reply(p2.Key); o.Kind != question.Decline {
			t.Fatalf("ctrl+x sent %+v", o)
		}

		p3 := permQuestion(7, question.PermissionOption{ID: "ok", Name: "OK", Kind: question.OptionAllowOnce})
		d.open(p3)
		d.m.prompts.focusPane(&d.m.viewCtx, d.m.prompts.byKey[p3.Key].id)
		if strings.Contains(d.screen(), "Decline ctrl+x") {
			t.Error("a request without reject_once shows the Decline button")
		}
		d.keys(keyCtrlX)
		d.noReply(p3.Key)
		if !strings.Contains(d.screen(), "no reject_once option") {
			t.Errorf("ctrl+x without reject_once says nothing:\n%s", d.screen())
		}
		d.keys(keyEsc)
		if o := d.reply(p3.Key); o.Kind != question.Cancel {
			t.Fatalf("esc sent %+v", o)
		}
	})
}

// TestPermissionPaneEnds: the engine's verdicts in ACP's words.
func TestPermissionPaneEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withAgent)
		cases := []struct {
			entry question.JournalEntry
			sent  string
			want  string
		}{
			{question.JournalEntry{Kind: question.Withdrawn, Reason: "withdrawn by the agent ($/cancel_request)"}, "error -32800",
				"withdrawn by bot ($/cancel_request); answered error -32800"},
			{question.JournalEntry{Kind: question.Abandoned, Bucket: question.BucketCancelled}, "cancelled", "the turn was stopped; answered cancelled"},
			{question.JournalEntry{Kind: question.Cancel, Bucket: question.BucketCancelled}, "cancelled", "you stopped the turn (session/cancel); answered cancelled"},
			{question.JournalEntry{Kind: question.Accept, Bucket: question.OptionAllowAlways,
				Option: &question.PermissionOption{ID: "always", Name: "Always allow", Kind: question.OptionAllowAlways}}, "selected always",
				"allow_always: Always allow (sent selected always)"},
		}
		for i, c := range cases {
			p := permQuestion(int64(10 + i))
			d.open(p)
			d.m.prompts.focusPane(&d.m.viewCtx, d.m.prompts.byKey[p.Key].id)
			c.entry.Key, c.entry.Asked = p.Key, question.KindPermission
			d.send(eventMsg{e: client.PromptResolved{Key: p.Key, Entry: c.entry, Sent: c.sent}})
			if s := d.screen(); !strings.Contains(s, c.want) {
				t.Errorf("%v: pane lacks %q:\n%s", c.entry.Kind, c.want, s)
			}
		}
	})
}

func TestAgentViewNotReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].State, f.agents[0].SessionID = client.StateFailed, ""
			f.agents[0].Err = errString("exec: \"nope\": executable file not found")
		})
		d.typeText("hi")
		d.keys(keyEnter)
		if len(d.eng.fakeAgents.prompts) != 0 {
			t.Fatal("a prompt went to a failed agent")
		}
		if s := d.screen(); !strings.Contains(s, "failed: exec") || !strings.Contains(s, "bot is not ready") || !strings.Contains(s, "ctrl+r start it again") {
			t.Fatalf("screen:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
		d.eng.amu.Lock()
		restarts := d.eng.restarts
		d.eng.amu.Unlock()
		if len(restarts) != 1 || restarts[0] != "bot" {
			t.Fatalf("restarts %q", restarts)
		}
	})
}

func TestLineDiff(t *testing.T) {
	got := lineDiff(strings.Split("a b c d e f g h", " "), strings.Split("a b C d e f g H i", " "), 1)
	var b strings.Builder
	for _, l := range got {
		b.WriteString(l.mark + l.text + " ")
	}
	if want := "…  b -c +C  d …  g -h +H +i "; b.String() != want {
		t.Fatalf("diff %q, want %q", b.String(), want)
	}
}

// TestJournalACPBuckets: an agent's permissions are counted by option
// kind chosen and by how they ended otherwise, beside its elicitations.
func TestJournalACPBuckets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withAgent, func(f *fakeEngine) {
			for _, e := range []question.JournalEntry{
				{Server: "bot", Asked: question.KindPermission, Kind: question.Accept, Bucket: question.OptionAllowAlways},
				{Server: "bot", Asked: question.KindPermission, Kind: question.Abandoned, Bucket: question.BucketCancelled},
				{Server: "bot", Asked: question.KindPermission, Kind: question.Withdrawn, Bucket: question.BucketWithdrawn},
				{Server: "bot", Asked: question.KindPermission, Kind: question.Disconnected, Bucket: question.BucketDisconnected},
				{Server: "bot", Asked: question.KindElicitation, Kind: question.Abandoned},
			} {
				e.Key = question.Key{Server: "bot", Delivery: question.PermissionRequest, RequestID: jsonrpc.IntID(1)}
				f.journal.Record(e)
			}
		})
		d.keys(tea.KeyPressMsg{Code: tea.KeyF7})
		s := d.screen()
		for _, want := range []string{
			"bot              accept 0 decline 0 cancel 0 abandoned 1",
			"  permission     allow_once 0 allow_always 1 reject_once 0 reject_always 0 cancelled 1 withdrawn 1 disconnected 1",
			"permission allow_always bot#1 (permission)",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("journal lacks %q:\n%s", want, s)
			}
		}
	})
}

// TestAgentTextUntrusted: every string an agent sends reaches the
// terminal sanitized: its name and info, updates of every kind, a
// permission request's tool call and options.
func TestAgentTextUntrusted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const bad = "\x1b]0;pwned\a\x1b[2J\rX"
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].Info = wire.Implementation{Name: bad, Title: bad, Version: bad}
			f.agents[0].SessionID, f.agents[0].Cwd = bad, bad
		})
		br := d.m.bridge
		raw := []byte(`{"sessionUpdate":"x\u001b[2J","text":"\u001b]0;pwned\u0007"}`)
		for _, u := range []AgentUpdate{
			{Kind: "agent_message_chunk", Known: true, Text: bad},
			{Kind: "agent_thought_chunk", Known: true, Text: bad},
			{Kind: "tool_call", Known: true, Tool: &AgentToolCall{ID: bad, Title: bad, Kind: bad, Status: bad,
				Locations: []byte(`[{"path":"\u001b[2J"}]`),
				Content: []byte(`[{"type":"diff","path":"\u001b[2J","oldText":"\u001b]0;pwned\u0007","newText":"\u001b[2J"},` +
					`{"type":"content","content":{"type":"text","text":"\u001b[2J"}},{"type":"\u001b[2J"}]`)}},
			{Kind: "plan", Known: true, Plan: []AgentPlanEntry{{Content: bad, Priority: bad, Status: bad}}},
			{Kind: "available_commands_update", Known: true, Commands: []AgentCommand{{Name: bad}}},
			{Kind: "current_mode_update", Known: true, Mode: bad},
			{Kind: "usage_update", Known: true, Usage: &AgentUsage{Used: 1, Size: 2, Cost: bad}},
			{Kind: bad, Raw: raw},
		} {
			br.AgentUpdate("bot", u)
		}
		d.m.agentLogs.note("bot", turnEndEntry(AgentTurnEnd{StopReason: bad}, nil))
		check := func(where string) {
			t.Helper()
			out := d.m.View().Content
			for _, s := range []string{"\x1b]0;pwned", "\x1b[2J", "\a", "\r"} {
				if strings.Contains(out, s) {
					t.Fatalf("%s: %q reached the terminal", where, s)
				}
			}
		}
		check("agent view")
		p := permQuestion(9, question.PermissionOption{ID: bad, Name: bad, Kind: bad})
		p.Server = "bot"
		p.Permission.ToolCall = json.RawMessage(`{"toolCallId":"c9","title":"\u001b[2J","rawInput":{"k":"\u001b]0;pwned\u0007"}}`)
		d.open(p)
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		check("permission pane")
		d.keys(tea.KeyPressMsg{Code: tea.KeyF7})
		check("journal")
	})
}

// TestAgentViewSwitchAndScroll: ctrl+s shows the next agent, each with
// its own transcript; pgup scrolls a long one and says what is below.
func TestAgentViewSwitchAndScroll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents = append(f.agents, AgentStatus{Name: "two", State: client.StateReady, SessionID: "sess_9"})
		})
		for i := range 80 {
			d.m.bridge.AgentUpdate("bot", AgentUpdate{Kind: "tool_call", Known: true, Tool: &AgentToolCall{ID: itoa(i), Title: "step " + itoa(i)}})
		}
		if s := d.screen(); !strings.Contains(s, "step 79") || strings.Contains(s, "step 0 ") || !strings.Contains(s, "2 agents: ctrl+s next") {
			t.Fatalf("the transcript's end is not shown:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyPgUp})
		if s := d.screen(); strings.Contains(s, "step 79") || !strings.Contains(s, "lines below (pgdn)") {
			t.Fatalf("pgup:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyPgDown})
		if s := d.screen(); !strings.Contains(s, "step 79") {
			t.Fatalf("pgdn:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
		s := d.screen()
		if !strings.Contains(s, "session sess_9") || strings.Contains(s, "step 79") || !strings.Contains(s, "Nothing yet") {
			t.Fatalf("ctrl+s did not show the second agent:\n%s", s)
		}
		d.typeText("hi")
		d.keys(keyEnter)
		d.turnDone()
		if got := d.eng.fakeAgents.prompts; len(got) != 1 || got[0] != "two hi" {
			t.Fatalf("prompts %q", got)
		}
	})
}

// TestAgentNoticeCompactionName: a notice, a compaction with its
// summary and a tool call's name are shown in the turn as what they are.
func TestAgentNoticeCompactionName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var br *Bridge
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				for _, u := range []AgentUpdate{
					{Kind: "notice", Known: true, Notice: &AgentNotice{Severity: "warning", Title: "Rate limit near"}},
					{Kind: "compaction_update", Known: true, Compaction: &AgentCompaction{ID: "c1", Status: "in_progress"}},
					{Kind: "compaction_summary_chunk", Known: true, Compaction: &AgentCompaction{ID: "c1", Text: "Summary "}},
					{Kind: "compaction_summary_chunk", Known: true, Compaction: &AgentCompaction{ID: "c1", Text: "so far."}},
					{Kind: "compaction_update", Known: true, Compaction: &AgentCompaction{ID: "c1", Status: "completed"}},
					{Kind: "tool_call", Known: true, Tool: &AgentToolCall{ID: "n1", Title: "Read README", Name: "read_file", Kind: "read", Status: "completed"}},
				} {
					br.AgentUpdate(agent, u)
				}
				return AgentTurnEnd{StopReason: "end_turn"}, nil
			}
		})
		br = d.m.bridge
		d.typeText("go")
		d.keys(keyEnter)
		d.turnDone()
		s := d.screen()
		for _, want := range []string{"notice warning: Rate limit near", "compaction c1 in_progress",
			"compaction summary: Summary so far.", "compaction c1 completed", "Read README (read_file) · read · completed"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
	})
}

// TestAgentCommandCompletes: the agent's commands complete after "/":
// tab takes the one typed so far, and the prompt goes as its text.
func TestAgentCommandCompletes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var br *Bridge
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				br.AgentUpdate(agent, AgentUpdate{Kind: "available_commands_update", Known: true,
					Commands: []AgentCommand{{Name: "echo"}, {Name: "web"}, {Name: "bad name\x1b[31m"}}})
				return AgentTurnEnd{StopReason: "end_turn"}, nil
			}
		})
		br = d.m.bridge
		d.typeText("commands")
		d.keys(keyEnter)
		d.turnDone()
		d.screen()
		d.typeText("/e")
		d.keys(tea.KeyPressMsg{Code: tea.KeyTab})
		d.typeText("hi")
		d.keys(keyEnter)
		d.turnDone()
		if got := d.eng.fakeAgents.prompts; len(got) != 2 || got[1] != "bot /echo hi" {
			t.Fatalf("prompts sent: %q", got)
		}
		if got := commandSuggestions([]AgentCommand{{Name: "web"}, {Name: "bad name"}, {Name: "x\x1b[31m"}}); len(got) != 2 || got[0] != "/web " || strings.Contains(got[1], "\x1b") {
			t.Errorf("suggestions %q", got)
		}
	})
}

// TestAgentSettingsPicker: alt+m opens the mode and config picker; ←→
// choose a row's value and enter sets it (set_mode, set_config_option);
// esc closes it; an agent offering neither says so.
func TestAgentSettingsPicker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].Mode = "ask"
			f.agents[0].Modes = []AgentMode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}
			f.agents[0].Config = []AgentConfig{{ID: "model", Name: "Model", Type: "select", Value: "small", Values: []string{"small", "large"}},
				{ID: "verbose", Name: "Verbose", Type: "boolean", Value: "false"}}
		})
		ctrlO := tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt}
		d.keys(ctrlO)
		s := d.screen()
		for _, want := range []string{"Mode and config", "▸ mode: ‹ask›", "Model: ‹small›", "Verbose: ‹false›", "mode ask"} {
			if !strings.Contains(s, want) {
				t.Errorf("picker lacks %q:\n%s", want, s)
			}
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyRight})
		if s := d.screen(); !strings.Contains(s, "mode: ‹code› (now ask)") {
			t.Errorf("→ did not choose code:\n%s", s)
		}
		d.keys(keyEnter)
		d.keys(ctrlO, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyRight}, keyEnter)
		d.keys(ctrlO, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyLeft}, keyEsc)
		d.screen()
		if got := d.eng.fakeAgents.settings; len(got) != 2 || got[0] != "bot mode code" || got[1] != "bot verbose=true" {
			t.Errorf("settings sent: %q", got)
		}
		if s := d.screen(); strings.Contains(s, "Mode and config") || !strings.Contains(s, "enter send") {
			t.Errorf("esc left the picker open:\n%s", s)
		}
		d.m.bridge.AgentUpdate("bot", AgentUpdate{Kind: "config_option_update", Known: true, Raw: []byte(`{"sessionUpdate":"config_option_update","configOptions":[]}`)})
		d.pump()
		if s := d.screen(); !strings.Contains(s, "config options changed (alt+m shows them)") {
			t.Errorf("a config update is not said:\n%s", s)
		}
	})
}

// TestAgentTerminalsPanel: the agent's terminals show above the prompt
// box with the end of their output; alt+k kills the newest running one.
func TestAgentTerminalsPanel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.terminals = []AgentTerminal{
				{ID: "term_1", Command: "make", Output: "one\r\ntwo\r\n", Exited: true, Ended: "exited 0"},
				{ID: "term_2", Command: "sleep 30", Output: "l1\nl2\nl3\nl4\nl5\x1b[31m\n"},
			}
		})
		s := d.screen()
		for _, want := range []string{"▣ term_1 · exited 0 · make", "  two", "▣ term_2 · running (alt+k kills it, alt+o shows it) · sleep 30", "  l5"} {
			if !strings.Contains(s, want) {
				t.Errorf("panel lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "  l1") || strings.Contains(d.m.View().Content, "\x1b[31m") {
			t.Errorf("more than the last lines, or the command's escape, reached the screen:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: 'k', Mod: tea.ModAlt})
		d.screen()
		if got := d.eng.fakeAgents.kills; len(got) != 1 || got[0] != "bot term_2" {
			t.Errorf("kills %q", got)
		}
		if s := d.screen(); !strings.Contains(s, "▣ term_2 · killed by the person · sleep 30") {
			t.Errorf("after alt+k:\n%s", s)
		}
	})
}

// TestAgentReplayShowsUserPrompts: an agent replaying a session's
// history (session/load) sends the person's earlier prompts as
// user_message_chunk; they are part of the transcript, chunks joined, as
// the person's own lines.
func TestAgentReplayShowsUserPrompts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var br *Bridge
		d := agentDriver(t, func(f *fakeEngine) {
			f.promptFn = func(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
				for _, u := range []AgentUpdate{
					{Kind: "user_message_chunk", Known: true, Text: "earlier "},
					{Kind: "user_message_chunk", Known: true, Text: "question\x1b[2J"},
					{Kind: "agent_message_chunk", Known: true, Text: "earlier answer"},
					{Kind: "user_message_chunk", Known: true, Text: "second question"},
				} {
					br.AgentUpdate(agent, u)
				}
				return AgentTurnEnd{StopReason: "end_turn"}, nil
			}
		})
		br = d.m.bridge
		d.typeText("go")
		d.keys(keyEnter)
		d.turnDone()
		s := d.screen()
		for _, want := range []string{"› go", "› earlier question", "earlier answer", "› second question"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "\x1b[2J") {
			t.Errorf("the agent's escape reached the screen")
		}
	})
}

// TestPermissionPaneShowsTheWholeInput: the input of a request is what the
// person allows (for terminal/create, the command line): at any width it
// wraps rather than being cut, so what runs is what was read.
func TestPermissionPaneShowsTheWholeInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withAgent)
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		p := permQuestion(5)
		p.Permission.ToolCall = json.RawMessage(`{"toolCallId":"c2","title":"Run sh","kind":"execute","status":"pending",` +
			`"rawInput":{"command":"sh","args":["-c","for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo tick $i; sleep 1; done; rm -rf THETAIL"]}}`)
		d.open(p)
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		if s := d.screen(); !strings.Contains(s, "THETAIL") || !strings.Contains(s, "input {") {
			t.Errorf("the pane cuts the input the person allows:\n%s", s)
		}
	})
}
