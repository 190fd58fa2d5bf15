package main

import (
	"strings"
	"testing"
)

// TestTUIACPSessions: in the agent view, alt+h lists the agent's
// sessions (session/list, every page: both agents answer two or three
// to a page); enter loads one, its history (the person's prompts too)
// replayed into the transcript and the session before closed; d asks,
// and y deletes one; r resumes one, and a turn then runs in it. Each
// ending shows in the transcript. Against the demo agent and the ACP
// TypeScript SDK agent.
func TestTUIACPSessions(t *testing.T) {
	agents := map[string]struct {
		args   []string
		prefix string // the agent's session ids: PREFIXold_N, PREFIXsess_1
	}{
		agentDemo: {args: []string{"acp"}},
		agentTS:   {prefix: "ts_"},
	}
	for name, a := range agents {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := a.args
			if name == agentTS {
				args = append([]string{"acp", "--"}, tsAgent(t)...)
			}
			p := a.prefix
			tm := newTmuxSized(t, 120, 40, t.TempDir(), args...)
			tm.waitText("session " + p + "sess_1")
			tm.press("M-h")
			s := tm.waitText(p + "sess_1 (open)")
			for _, want := range []string{"Sessions", "enter load  r resume  d delete", "▸ " + p + "old_1", p + "old_2", p + "old_3"} {
				if !strings.Contains(s, want) {
					t.Fatalf("the session list lacks %q:\n%s", want, s)
				}
			}

			tm.press("Enter")
			tm.waitText("session/load " + p + "old_1: ok")
			s = tm.waitText("session/close " + p + "sess_1: ok")
			for _, want := range []string{"session " + p + "old_1", "load: session " + p + "old_1", "› old prompt 1", "old answer 1"} {
				if !strings.Contains(s, want) {
					t.Fatalf("after the load the screen lacks %q:\n%s", want, s)
				}
			}

			// d asks; any other key keeps the session, y deletes it.
			tm.press("M-h")
			tm.waitText(p + "old_1 (open)")
			tm.press("Down", "Down", "d")
			tm.waitText("delete session " + p + "old_3? y deletes it")
			tm.press("n")
			tm.waitText("kept session " + p + "old_3")
			tm.press("d")
			tm.waitText("delete session " + p + "old_3? y deletes it")
			tm.press("y")
			tm.waitText("session/delete " + p + "old_3: ok")
			s = tm.waitText("▸ " + p + "sess_1")
			if strings.Contains(s, "  "+p+"old_3 ") {
				t.Fatalf("%sold_3 is listed after its delete:\n%s", p, s)
			}

			tm.press("Up", "r")
			tm.waitText("session/resume " + p + "old_2: ok")
			tm.waitText("session " + p + "old_2 ·")
			tm.typeText("hello")
			tm.press("Enter")
			tm.waitText("■ end_turn")
		})
	}
}
