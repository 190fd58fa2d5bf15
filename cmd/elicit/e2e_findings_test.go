package main

import (
	"os"
	"strings"
	"testing"
)

// TestTUIFindings drives the real binary in tmux against a real server (a
// subprocess over stdio) whose tool asks for a password in form mode: the
// finding's count shows on the tab bar, alt+i lists it with its fix, and
// Enter shows the frame it came from, selected in the traffic view.
func TestTUIFindings(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, t.TempDir(), "--protocol", "2025-11-25", "--name", "hostile", "--", "env", testServerEnv+"=lint-secret", self)
	tm.waitText("hostile ready")
	tm.press("F5")
	tm.waitText("› lint-secret")
	tm.press("Enter")
	tm.question("Log in to continue")
	tm.press("C-x") // decline
	tm.waitFor("the finding on the tab bar", func(s string) bool {
		bar := strings.SplitN(s, "\n", 2)[0]
		return strings.Contains(bar, "alt+i") && strings.Contains(bar, "(1)")
	})
	tm.press("M-i")
	s := tm.waitText("Findings: 1 errors, 0 warnings")
	for _, want := range []string{"elicitation-form-secret", `field "password" asks for a secret`, "fix: Ask for credentials through URL mode",
		"spec: 2025-11-25 client/elicitation#safe-url-mode-elicitation-requests"} {
		if !strings.Contains(s, want) {
			t.Errorf("findings view lacks %q:\n%s", want, s)
		}
	}
	tm.press("Enter")
	tm.waitFor("the frame selected in the traffic view", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "› ") && strings.Contains(l, "elicitation/create #q1") {
				return strings.Contains(s, "Traffic:") && strings.Contains(s, "paused")
			}
		}
		return false
	})
}
