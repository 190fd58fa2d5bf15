package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestTUISampling drives `elicit demo` in tmux: the summarize
// tool's sampling request opens a pane showing the request; the reply a
// person types reaches the server (2025-11-25), Esc dismisses one with
// the spec's error as ctrl+x does, the journal (F7) counts them on a
// sampling line of their own, and in 2026-07-28 ctrl+x abandons the call,
// saying so.
func TestTUISampling(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			tm := newTmux(t, t.TempDir(), "demo", "--protocol", era)
			tm.waitText("demo-" + era + " ready " + era)
			tm.callTool("summarize")
			tm.waitText("arguments for summarize")
			tm.typeText("The quick brown fox jumps over the lazy dog.")
			tm.press("Enter")
			s := tm.question("The server asks for a model's reply (sampling)")
			for _, want := range []string{"system: You write one-sentence summaries.", "The quick brown fox", "hints claude, gpt", "maxTokens 200", "Decline ctrl+x"} {
				if !strings.Contains(s, want) {
					t.Fatalf("pane lacks %q:\n%s", want, s)
				}
			}
			if era == "2026-07-28" {
				tm.press("C-x")
				tm.waitText("decline: nothing sent: the call was abandoned")
				tm.press("F5")
				tm.waitText("call abandoned")
				return
			}
			tm.typeText("A fox jumps a dog.")
			tm.press("Enter", "Enter", "Enter")
			tm.waitText("accept (sent result)")
			tm.press("F5")
			tm.waitText("Summary by claude (endTurn): A fox jumps a dog.")
			tm.callTool("summarize")
			tm.waitText("arguments for summarize")
			tm.typeText("again")
			tm.press("Enter")
			tm.question("The server asks for a model's reply (sampling)")
			tm.press("Escape")
			tm.waitText("cancel (sent error -1)")
			tm.callTool("summarize")
			tm.waitText("arguments for summarize")
			tm.typeText("once more")
			tm.press("Enter")
			tm.question("The server asks for a model's reply (sampling)")
			tm.press("C-x")
			tm.waitText("decline (sent error -1)")
			// The journal keeps sampling in buckets of its own.
			tm.press("F7")
			s = tm.waitText("  sampling")
			if !regexp.MustCompile(`sampling +accept 1 decline 1 cancel 1`).MatchString(s) {
				t.Errorf("the journal's sampling line:\n%s", s)
			}
		})
	}
}
