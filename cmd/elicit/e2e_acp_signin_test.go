package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIACPTerminalSignIn: an agent that wants a sign-in offers a
// terminal method (the TUI declares auth.terminal); the person picks it,
// the TUI steps aside and the agent's login command runs on the terminal
// itself (it asks there, and the person answers it), then the TUI comes
// back, the session opens, and the outcome is said (a notice, and the
// action in the transcript). A refused login is said as failed. Against
// the ACP TypeScript SDK agent.
func TestTUIACPTerminalSignIn(t *testing.T) {
	for _, answer := range []string{"yes", "no"} {
		t.Run(answer, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tm := newTmuxEnv(t, dir, []string{"ELICIT_TS_AUTH_DIR=" + dir}, append([]string{"acp", "--"}, tsAgent(t)...)...)
			tm.waitText("1 question for you (F4)")
			tm.press("F4")
			s := tm.waitText("asks you to sign in first. Which way?")
			if !strings.Contains(s, "Log in in a terminal") {
				t.Fatalf("the terminal method is not offered:\n%s", s)
			}
			tm.read()
			tm.press("Down", "Enter")
			tm.waitText("TS agent sign-in: type yes to sign in:")
			tm.typeText(answer)
			tm.press("Enter")
			if answer == "no" {
				tm.waitText("terminal sign-in: ")
				tm.press("M-a")
				tm.waitText("· auth terminal term-login: failed: exit status 1")
				if _, err := os.Stat(filepath.Join(dir, "signed-in")); err == nil {
					t.Fatal("a refused sign-in left its mark")
				}
				return
			}
			tm.waitText("terminal sign-in: done (exit 0)")
			tm.press("M-a")
			tm.waitText("session ts_sess_1")
			tm.waitText("· auth terminal term-login: ok")
			b, err := os.ReadFile(filepath.Join(dir, "signed-in"))
			if err != nil || string(b) != "tty\n" {
				t.Fatalf("the sign-in did not run on the terminal: %q, %v", b, err)
			}
			tm.typeText("hello")
			tm.press("Enter")
			tm.waitText("■ end_turn")
		})
	}
}
