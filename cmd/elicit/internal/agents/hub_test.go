package agents

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// TestAgentHub runs the TUI's agent adapter against the demo agent: it
// starts, opens a session, runs a turn, stops a long one (the end is the
// agent's stopReason), and shows the agent gone when it dies. The agent is
// tapped (tap_test.go): a stop waits for the agent to say its turn
// began, so that session/cancel meets a running turn.
func TestAgentHub(t *testing.T) {
	br := ui.NewBridge(ui.BridgeOptions{})
	// Every change of an agent's state reaches the UI as a message
	// (AgentsChanged, lane 2): the waits below look again on each.
	changed := make(chan struct{}, 1)
	br.Attach(func(tea.Msg) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer br.Close()
	tap := newAgentTap(t)
	h, err := NewHub(br, question.NewJournal(0), []serverspec.Agent{tap.spec(t, "demo")}, HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	h.Start(ctx)
	defer h.Close()
	waitAgent := func(what string, ok func(ui.AgentStatus) bool) ui.AgentStatus {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			if a := h.Agents()[0]; ok(a) {
				return a
			}
			select {
			case <-changed:
			case <-timeout:
				t.Fatalf("%s: %+v", what, h.Agents()[0])
			}
		}
	}
	a := waitAgent("no session", func(a ui.AgentStatus) bool { return a.SessionID != "" || a.State == client.StateFailed })
	if a.State != client.StateReady || a.SessionID == "" || a.Info.Name != "elicit-demo-agent" || a.Cwd == "" {
		t.Fatalf("agent %+v", a)
	}
	end, err := h.AgentPrompt(ctx, "demo", "hello")
	if err != nil || end.StopReason != acp.StopEndTurn || end.Stopped {
		t.Fatalf("turn: %+v, %v", end, err)
	}
	done := make(chan ui.AgentTurnEnd, 1)
	go func() {
		end, _ := h.AgentPrompt(ctx, "demo", "long")
		done <- end
	}()
	tap.wait(t, `"Long job"`)
	if err := h.AgentStop("demo"); err != nil {
		t.Fatal(err)
	}
	if end := <-done; end.StopReason != acp.StopCancelled || !end.Stopped {
		t.Fatalf("stopped turn: %+v", end)
	}
	// An agent deaf to session/cancel: a second stop abandons the prompt,
	// and its -32800 is a cancellation, not a failure.
	go func() {
		end, err := h.AgentPrompt(ctx, "demo", "deaf")
		if err != nil {
			t.Errorf("deaf turn: %v", err)
		}
		done <- end
	}()
	tap.wait(t, "not listening…")
	if err := h.AgentStop("demo"); err != nil {
		t.Fatal(err)
	}
	if err := h.AgentAbandon("demo"); err != nil {
		t.Fatal(err)
	}
	select {
	case end := <-done:
		if !end.RequestCancelled || !end.Stopped {
			t.Fatalf("abandoned turn: %+v", end)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("the abandoned turn did not end at once")
	}
	if _, err := h.AgentPrompt(ctx, "nobody", "x"); err == nil {
		t.Fatal("a prompt to no agent")
	}
	// The crash scene: the agent dies mid-turn; it shows gone.
	if _, err := h.AgentPrompt(ctx, "demo", "crash"); err == nil {
		t.Fatal("the crashed turn did not fail")
	}
	waitAgent("after the crash", func(a ui.AgentStatus) bool { return a.State == client.StateDisconnected })
	if err := h.AgentStop("demo"); err == nil || !strings.Contains(err.Error(), "no session") {
		t.Fatalf("stop of a gone agent: %v", err)
	}
	// Started again: a new process and session.
	if err := h.AgentRestart("demo"); err != nil {
		t.Fatal(err)
	}
	waitAgent("after the restart", func(a ui.AgentStatus) bool { return a.SessionID != "" })
	if end, err := h.AgentPrompt(ctx, "demo", "hello"); err != nil || end.StopReason != acp.StopEndTurn {
		t.Fatalf("turn after the restart: %+v, %v", end, err)
	}
}

func TestUIUpdate(t *testing.T) {
	u := uiUpdate(acp.Update{Kind: acp.UpdateUsage, Known: true, Usage: &acp.Usage{Used: 5, Size: 10,
		Cost: &struct {
			Amount   float64 `json:"amount"`
			Currency string  `json:"currency"`
		}{Amount: 0.25, Currency: "USD"}}})
	if u.Usage == nil || u.Usage.Used != 5 || u.Usage.Cost != "0.25 USD" {
		t.Fatalf("usage %+v", u.Usage)
	}
	u = uiUpdate(acp.Update{Kind: acp.UpdateToolCall, Known: true, ToolCall: &acp.ToolCall{ID: "c", Title: "t", Status: "pending", Content: []byte(`[]`)},
		Plan: []acp.PlanEntry{{Content: "p", Status: "completed"}}, Commands: []acp.Command{{Name: "web"}}, ModeID: "m"})
	if u.Tool == nil || u.Tool.ID != "c" || string(u.Tool.Content) != "[]" || len(u.Plan) != 1 || u.Commands[0].Name != "web" || u.Mode != "m" {
		t.Fatalf("update %+v", u)
	}
	u = uiUpdate(acp.Update{Kind: "notice", Raw: []byte(`{"sessionUpdate":"notice"}`)})
	if u.Known || string(u.Raw) != `{"sessionUpdate":"notice"}` {
		t.Fatalf("unknown kind %+v", u)
	}
}

// TestAgentHubMasksAndRecords: an agent of the TUI with a secret argument
// has it joined to the run's set as it starts, so the TUI's --record
// keeps its frames (the prompt that carried the secret, the echo) masked,
// and its turn as one call with how it ended.
func TestAgentHubMasksAndRecords(t *testing.T) {
	const secret = "sk-live-9f8e7d6c5b4a3210"
	br := ui.NewBridge(ui.BridgeOptions{})
	changed := make(chan struct{}, 1)
	br.Attach(func(tea.Msg) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer br.Close()
	tap := newAgentTap(t)
	spec := tap.spec(t, "demo")
	spec.Args = []string{"--api-key=" + secret}
	var buf bytes.Buffer
	sec := redact.NewSecrets()
	rec, err := record.New(&buf, "test", record.Settings{Command: "tui"}, record.Redact(sec.Bytes))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHub(br, question.NewJournal(0), []serverspec.Agent{spec}, HubOptions{Recorder: rec, Secrets: sec})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	h.Start(ctx)
	timeout := time.After(20 * time.Second)
	for a := h.Agents()[0]; a.SessionID == "" && a.State != client.StateFailed; a = h.Agents()[0] {
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("no session: %+v", h.Agents()[0])
		}
	}
	end, err := h.AgentPrompt(ctx, "demo", "hello "+secret)
	if err != nil || end.StopReason != acp.StopEndTurn {
		t.Fatalf("turn: %+v, %v", end, err)
	}
	h.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), secret) || !strings.Contains(buf.String(), "hello "+redact.Mask) {
		t.Errorf("the recording holds the secret, or not the prompt masked:\n%s", buf.String())
	}
	got, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Calls) != 1 || got.Calls[0].Result == nil || got.Calls[0].Result.Error != nil || got.Frames < 6 {
		t.Errorf("recorded %d frames and calls %+v, want the handshake, the turn and one call that ended", got.Frames, got.Calls)
	}
}
