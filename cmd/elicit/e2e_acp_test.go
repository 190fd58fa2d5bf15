package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestTUIACP drives `elicit acp` (the TUI on the embedded demo agent) in
// tmux at 80×24 and 120×40: a turn whose permission pane is answered, a
// turn whose form question is answered, a long turn stopped with esc
// (shown cancelled because the agent's stopReason says so), a stop while
// a permission pane is open (the pane is answered cancelled with the
// turn), the journal's permission buckets, and an agent that dies and is
// started again.
func TestTUIACP(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			testTUIACP(t, size[0], size[1])
		})
	}
}

func testTUIACP(t *testing.T, cols, rows int) {
	tm := newTmuxSized(t, cols, rows, t.TempDir(), "acp")
	s := tm.waitText("session sess_1")
	for _, want := range []string{"demo-agent (elicit demo agent", "Nothing yet", "enter send"} {
		if !strings.Contains(s, want) {
			t.Fatalf("agent view lacks %q:\n%s", want, s)
		}
	}

	// A permission request: the pane has one choice per option; ↓ Enter
	// picks "Always allow", and the agent goes on with it.
	tm.typeText("permission")
	tm.press("Enter")
	tm.waitText("✎ Edit config.json · edit · pending")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	s = tm.waitText("May demo-agent run this tool call?")
	for _, want := range []string{"diff config.json", `-   "debug": false,`, `+   "debug": true,`, "1 Allow once", "2 Always allow", "3 Reject", "4 Always reject", "reject_always", "esc stop the turn"} {
		if !strings.Contains(s, want) {
			t.Fatalf("permission pane lacks %q:\n%s", want, s)
		}
	}
	tm.read()
	tm.press("Down", "Enter")
	tm.waitText("allow_always: Always allow (sent selected always)")
	tm.press("M-a")
	s = tm.waitText("Edited config.json (always).")
	if strings.Contains(s, "for you (F4)") {
		t.Fatalf("the answered question is still waiting:\n%s", s)
	}
	tm.waitText("■ end_turn")

	// A form question (ACP elicitation/create), answered with its
	// defaults through the same form as MCP's.
	tm.typeText("question")
	tm.press("Enter")
	tm.waitText("1 open")
	tm.press("F4")
	tm.waitText("How should I approach this refactoring?")
	tm.read()
	tm.press("Enter", "Enter", "Enter")
	tm.press("M-a")
	tm.waitText(`Answer: {"files":5,"strategy":"safe","tests":true}`)

	// Stop: esc during a long turn sends session/cancel; "cancelled"
	// shows only with the agent's stopReason.
	tm.typeText("long")
	tm.press("Enter")
	tm.waitText("step 3.")
	if s := tm.screen(); !strings.Contains(s, "esc stop the turn") || strings.Contains(s, "stopReason cancelled") {
		t.Fatalf("a running turn:\n%s", s)
	}
	tm.press("Escape")
	s = tm.waitText("■ cancelled (stopReason cancelled)")
	for _, want := range []string{"…stopped.", "Long job · execute · failed", "enter send"} {
		if !strings.Contains(s, want) {
			t.Fatalf("after the stop, the screen lacks %q:\n%s", want, s)
		}
	}

	// Stop while a permission pane is open: the pane is answered
	// cancelled with the turn, at once.
	tm.typeText("permission")
	tm.press("Enter")
	tm.waitText("1 open")
	tm.press("Escape")
	tm.waitText("■ cancelled (stopReason cancelled)")
	tm.press("F4")
	tm.waitText("the turn was stopped; answered cancelled")

	// The journal: the agent's permissions by bucket, its question apart.
	tm.press("F7")
	s = tm.waitText("permission")
	if cols >= 120 {
		for _, want := range []string{"allow_once 0 allow_always 1 reject_once 0 reject_always 0 cancelled 1", "demo-agent       accept 1"} {
			if !strings.Contains(s, want) {
				t.Fatalf("journal lacks %q:\n%s", want, s)
			}
		}
	} else if !strings.Contains(s, "allow_always 1") {
		t.Fatalf("journal:\n%s", s)
	}

	// The agent dies; ctrl+r starts it again, in a new session.
	tm.press("M-a")
	tm.typeText("crash")
	tm.press("Enter")
	tm.waitText("agent gone: the agent's connection ended") // the status bar
	tm.waitText("ctrl+r start it again")
	tm.press("C-r")
	tm.waitFor("the agent ready again", func(s string) bool {
		return strings.Contains(s, "· ready") && !strings.Contains(s, "start it again")
	})
	tm.typeText("hello again")
	tm.press("Enter")
	tm.waitText("You said: hello again")
}
