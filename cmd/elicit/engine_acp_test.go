package main

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/ui"
)

// TestAgentHub runs the TUI's agent adapter against the demo agent: it
// starts, opens a session, runs a turn, stops a long one (the end is the
// agent's stopReason), and shows the agent gone when it dies.
func TestAgentHub(t *testing.T) {
	br := ui.NewBridge(ui.BridgeOptions{})
	br.Attach(func(tea.Msg) {})
	defer br.Close()
	h, err := newAgentHub(br, question.NewJournal(0), []agentSpec{{Name: "demo", Command: binPath, Args: []string{"demo", "--acp"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	h.start(ctx)
	defer h.close()
	var a ui.AgentStatus
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		a = h.Agents()[0]
		if a.SessionID != "" || a.State == client.StateFailed || time.Now().After(deadline) {
			break
		}
	}
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
	time.Sleep(300 * time.Millisecond)
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
	time.Sleep(300 * time.Millisecond)
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
	for deadline := time.Now().Add(10 * time.Second); h.Agents()[0].State != client.StateDisconnected; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after the crash: %+v", h.Agents()[0])
		}
	}
	if err := h.AgentStop("demo"); err == nil || !strings.Contains(err.Error(), "no session") {
		t.Fatalf("stop of a gone agent: %v", err)
	}
	// Started again: a new process and session.
	if err := h.AgentRestart("demo"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); h.Agents()[0].SessionID == ""; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: %+v", h.Agents()[0])
		}
	}
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
