package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
)

var keyAltO = tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}

// TestAgentTerminalPanes: alt+o shows the agent's terminals as panes,
// the newest focused: its state, its command, the end of its output
// (a carriage return's overwritten text left out, the command's escapes
// not passed); tab moves the focus, k kills the focused one only while
// it runs, pgup scrolls its output, esc goes back to the transcript.
// From 120 cells two panes stand side by side.
func TestAgentTerminalPanes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var long strings.Builder
		for i := range 200 {
			fmt.Fprintf(&long, "line %d\r\n", i)
		}
		d := agentDriver(t, func(f *fakeEngine) {
			f.terminals = []AgentTerminal{
				{ID: "term_1", Command: "make", Output: long.String(), Exited: true, Ended: "exited 0"},
				{ID: "term_2", Command: "sleep 30", Output: "50%\r100%\nl2\x1b[31m\n"},
			}
		})
		d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
		d.keys(keyAltO)
		s := d.screen()
		for _, want := range []string{"2/2 term_2", "running · k kills it", "$ sleep 30", "100%", "l2", "tab/←→ next terminal"} {
			if !strings.Contains(s, want) {
				t.Errorf("the pane lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "50%") || strings.Contains(d.m.View().Content, "\x1b[31m") || strings.Contains(s, "1/2 term_1") {
			t.Errorf("overwritten text, the command's escape or a second pane under 120 cells:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyTab})
		s = d.screen()
		for _, want := range []string{"1/2 term_1", "exited 0", "$ make", "line 199"} {
			if !strings.Contains(s, want) {
				t.Errorf("after tab the pane lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "line 150 ") {
			t.Errorf("more of the output than the pane holds:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyPgUp})
		if s := d.screen(); strings.Contains(s, "line 199") || !strings.Contains(s, "lines below (pgdn)") {
			t.Errorf("pgup did not scroll the output:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: 'k'})
		if s := d.screen(); !strings.Contains(s, "term_1 is not running: exited 0") {
			t.Errorf("k on an ended terminal:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyTab}, tea.KeyPressMsg{Code: 'k'})
		d.screen()
		if got := d.eng.fakeAgents.kills; len(got) != 1 || got[0] != "bot term_2" {
			t.Errorf("kills %q", got)
		}
		if s := d.screen(); !strings.Contains(s, "killed by the person") {
			t.Errorf("the pane does not say the kill:\n%s", s)
		}

		d.send(tea.WindowSizeMsg{Width: 140, Height: 30})
		s = d.screen()
		if !strings.Contains(s, "1/2 term_1") || !strings.Contains(s, "2/2 term_2") {
			t.Errorf("two panes side by side at 140 cells:\n%s", s)
		}
		d.keys(keyEsc)
		if s := d.screen(); strings.Contains(s, "2/2 term_2") || !strings.Contains(s, "enter send") {
			t.Errorf("esc did not go back to the transcript:\n%s", s)
		}
	})
}
