package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIACPTerminalAndWrite: elicit acp --allow-fs --allow-terminal in
// the TUI: a terminal/create is a pane showing the command, run once
// allowed; a write is a pane with its diff, done once allowed; a notice,
// a compaction and a tool call's name show in the turn as what they are;
// the agent's /commands complete; the mode and config picker sets both;
// a terminal's output shows live and alt+k kills it.
func TestTUIACPTerminalAndWrite(t *testing.T) {
	dir := t.TempDir()
	tm := newTmuxSized(t, 120, 40, dir, "acp", "--allow-fs", "--allow-terminal")
	tm.waitText("session sess_1")

	tm.typeText("terminal")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	s := tm.waitText("Run sh -c echo hello from a terminal")
	for _, want := range []string{"1 Run it", "2 Do not run", "esc refuse the command", "execute · pending"} {
		if !strings.Contains(s, want) {
			t.Fatalf("terminal pane lacks %q:\n%s", want, s)
		}
	}
	tm.read() // a pane just arrived takes its answering keys after a moment
	tm.press("Enter")
	tm.waitText("allow_once: Run it (sent created)")
	tm.press("M-a")
	tm.waitText(`output "hello from a terminal\r\nhi-env\r\n"`)
	tm.waitText("■ end_turn")

	tm.typeText("write")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	s = tm.waitText("Create notes.txt")
	for _, want := range []string{"+ hello from the demo agent", "2 Do not write"} {
		if !strings.Contains(s, want) {
			t.Fatalf("write pane lacks %q:\n%s", want, s)
		}
	}
	tm.read()
	tm.press("Enter")
	tm.waitText("allow_once: Create the file (sent written)")
	tm.press("M-a")
	tm.waitText("read back: hello from the demo agent")
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "hello from the demo agent\n" {
		t.Fatalf("notes.txt: %q, %v", b, err)
	}

	tm.typeText("notice compact named")
	tm.press("Enter")
	tm.waitText("notice warning: Rate limit near")
	for _, prompt := range []string{"compact", "named"} {
		tm.typeText(prompt)
		tm.press("Enter")
	}
	tm.waitText("compaction summary: Summary so far.")
	tm.waitText("Read README (read_file) · read · completed")

	// The agent's commands complete after "/": tab takes one.
	tm.typeText("commands")
	tm.press("Enter")
	tm.waitText("commands /echo")
	tm.typeText("/e")
	tm.press("Tab")
	tm.typeText("hi")
	tm.press("Enter")
	tm.waitText("command echo: hi")

	// The mode and config picker: alt+m, → picks the next value, enter
	// sets it (session/set_mode, session/set_config_option).
	tm.press("M-m")
	tm.waitText("▸ mode: ‹ask›")
	tm.press("Right", "Enter")
	tm.waitText("mode → code")
	tm.press("M-m")
	tm.waitText("Verbose: ‹false›")
	tm.press("Down", "Down", "Right", "Enter")
	tm.waitText("config options changed (alt+m shows them)")
	tm.press("M-m")
	tm.waitText("Verbose: ‹true›")
	tm.press("Escape")

	// A terminal's output shows live above the prompt box; alt+k kills
	// it for the person, and the agent's wait_for_exit says so.
	tm.typeText("ticker")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	tm.waitText("Run sh -c for i in")
	tm.read()
	tm.press("Enter")
	tm.press("M-a")
	tm.waitText("running (alt+k kills it,")
	tm.waitText("  tick 2")
	tm.press("M-k")
	tm.waitText(`"signal":"SIGKILL"`)
}
