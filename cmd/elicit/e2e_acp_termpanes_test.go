package main

import (
	"testing"
)

// TestTUIACPTerminalPanes: with --allow-terminal, alt+o shows the
// agent's terminal as a pane, its state and command, and its output
// live (the demo agent's ticker prints a line every half second); k in
// the pane kills it, the transcript says so as an action, and the
// agent's wait_for_exit answers SIGKILL. Against the demo agent and the
// ACP TypeScript SDK agent (whose sleeper runs sleep 30 and waits).
func TestTUIACPTerminalPanes(t *testing.T) {
	for _, name := range []string{agentDemo, agentTS} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args, prompt, first := []string{"acp", "--allow-terminal"}, "ticker", "session sess_1"
			if name == agentTS {
				args, prompt, first = append(args, append([]string{"--"}, tsAgent(t)...)...), "sleeper", "session ts_sess_1"
			}
			tm := newTmuxSized(t, 120, 40, t.TempDir(), args...)
			tm.waitText(first)
			tm.typeText(prompt)
			tm.press("Enter")
			tm.waitText("1 question for you (F4)")
			tm.press("F4")
			tm.waitText("Do not run")
			tm.read() // a pane just arrived takes its answering keys after a moment
			tm.press("Enter")
			tm.waitText("(sent created)")
			tm.press("M-a")
			tm.waitText("running (alt+k kills it, alt+o shows it)")
			tm.press("M-o")
			tm.waitText("1/1 term_1")
			tm.waitText("running · k kills it")
			if name == agentDemo {
				tm.waitText("$ sh -c for i in")
				// Live: a later line comes while the pane is shown.
				tm.waitText("tick 1 ")
				tm.waitText("tick 3 ")
			} else {
				tm.waitText("$ sleep 30")
			}
			tm.press("k")
			tm.waitText("killed by the person")
			tm.waitText(`"signal":"SIGKILL"`)
			tm.waitText("■ end_turn")
		})
	}
}
