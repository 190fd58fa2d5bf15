package main

import (
	"strings"
	"testing"
)

// TestTUIPager drives the one reader at 80×24: a tool result longer than
// the screen says there is more, reads whole in the reader (G to its
// end, a search), and the same reader shows a frame and the log.
func TestTUIPager(t *testing.T) {
	// Born 80×24: a resize right after start can land before the program
	// listens for SIGWINCH, and it would draw at the first size.
	tm := newTmuxSized(t, 80, 24, t.TempDir(), "demo", "--protocol", "2026-07-28")
	tm.waitText("ready 2026-07-28")

	// showcase asks one form with a default in every field, then returns
	// the answers: longer than the calls list has room for at 80×24.
	tm.callTool("showcase")
	tm.question("Showcase")
	// Enter moves through the fields and accepts on the last; once the
	// pane has ended, one more Enter clears it: either way it is done.
	for range 40 {
		if s := tm.screen(); strings.Contains(s, "accept (sent accept)") || strings.Contains(s, "No questions yet") {
			break
		}
		tm.press("Enter")
	}
	tm.press("F5")
	tm.waitText("more lines: tab, then enter, reads all of it")
	tm.press("Tab", "Enter")
	s := tm.waitText("Result of ")
	if !strings.Contains(s, "↓ more") || strings.Contains(s, `"website"`) {
		t.Fatalf("the reader does not open at the result's start saying there is more:\n%s", s)
	}
	tm.press("G")
	s = tm.waitText(`"website": "https://example.com/ada"`)
	if !strings.Contains(s, "↑ (end)") {
		t.Errorf("at the end the hint does not say so:\n%s", s)
	}
	tm.press("g", "/")
	tm.typeText("toppings")
	tm.waitText("/toppings▏")
	tm.press("Enter")
	tm.waitText("match 1/")
	tm.press("Escape")
	tm.waitText("Calls (0 running)")

	// A frame: the newest row (following) in the traffic view.
	tm.press("F6")
	tm.waitText("Traffic: ")
	tm.press("Enter")
	s = tm.waitText("esc back")
	if !strings.Contains(s, `"jsonrpc": "2.0"`) {
		t.Fatalf("the frame is not shown indented in the reader:\n%s", s)
	}
	tm.press("q")
	tm.waitText("enter show")

	// The log, from its newest line.
	tm.press("F8")
	tm.waitText("enter read all")
	tm.press("Enter")
	tm.waitText("Logs of all servers")
	tm.press("Escape")
	tm.waitText("enter read all")
}

// resize makes the tmux window w×h, as a person resizing the terminal.
func (tm *tmuxTerm) resize(w, h string) {
	tm.t.Helper()
	tm.run("resize-window", "-x", w, "-y", h)
}
