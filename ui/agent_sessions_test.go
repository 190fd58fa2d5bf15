package ui

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
)

var keyAltH = tea.KeyPressMsg{Code: 'h', Mod: tea.ModAlt}

// TestAgentSessionList: alt+h lists the agent's sessions; enter loads
// one (its history, the person's prompts too, in the transcript, and
// the action's ending), r resumes one, d deletes one only after y.
func TestAgentSessionList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var br *Bridge
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].Can = AgentCan{List: true, Load: true, Resume: true, Delete: true}
			f.sessions = []AgentSession{{ID: "old_1", Title: "first\x1b[31m", Cwd: "/p"}, {ID: "old_2"}, {ID: "old_3"}}
			f.openFn = func(agent, id string, load bool) error {
				if load {
					br.AgentUpdate(agent, AgentUpdate{Kind: "user_message_chunk", Known: true, Text: "old prompt"})
					br.AgentUpdate(agent, AgentUpdate{Kind: "agent_message_chunk", Known: true, Text: "old answer"})
				}
				br.AgentUpdate(agent, AgentUpdate{Kind: "elicit/action", Action: &AgentAction{Method: "session/load", SessionID: id, Ended: "ok"}})
				return nil
			}
		})
		br = d.m.bridge
		d.keys(keyAltH)
		s := d.screen()
		for _, want := range []string{"Sessions", "enter load  r resume  d delete", "▸ old_1 · first", "old_2", "old_3"} {
			if !strings.Contains(s, want) {
				t.Errorf("list lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "\x1b[31m") {
			t.Errorf("the agent's escape reached the screen")
		}
		// d asks first; any key but y keeps the session.
		d.keys(tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: 'd'})
		if s := d.screen(); !strings.Contains(s, "delete session old_2? y deletes it") {
			t.Errorf("d did not ask:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: 'n'})
		d.screen()
		if got := d.eng.fakeAgents.deleted; len(got) != 0 {
			t.Fatalf("deleted without a y: %q", got)
		}
		d.keys(tea.KeyPressMsg{Code: 'd'}, tea.KeyPressMsg{Code: 'y'})
		s = d.screen()
		if got := d.eng.fakeAgents.deleted; len(got) != 1 || got[0] != "bot old_2" {
			t.Fatalf("deleted: %q", got)
		}
		if strings.Contains(s, "  old_2") || strings.Contains(s, "▸ old_2") || !strings.Contains(s, "old_3") {
			t.Errorf("the list is not listed again after the delete:\n%s", s)
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyUp}, keyEnter)
		s = d.screen()
		if got := d.eng.fakeAgents.opened; len(got) != 1 || got[0] != "bot load old_1" {
			t.Fatalf("opened: %q", got)
		}
		for _, want := range []string{"load: session old_1", "› old prompt", "old answer", "· session/load old_1: ok", "enter send"} {
			if !strings.Contains(s, want) {
				t.Errorf("after the load the screen lacks %q:\n%s", want, s)
			}
		}
		d.keys(keyAltH, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: 'r'})
		d.screen()
		if got := d.eng.fakeAgents.opened; len(got) != 2 || got[1] != "bot resume old_3" {
			t.Fatalf("opened: %q", got)
		}
	})
}

// TestAgentSessionListOnlyDeclared: alt+h says so when the agent does
// not declare session/list, and the list offers only what is declared.
func TestAgentSessionListOnlyDeclared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t)
		d.keys(keyAltH)
		if s := d.screen(); !strings.Contains(s, "does not declare session/list") {
			t.Errorf("alt+h without session/list:\n%s", s)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].Can = AgentCan{List: true, Resume: true}
			f.sessions = []AgentSession{{ID: "old_1"}}
		})
		d.keys(keyAltH)
		s := d.screen()
		if !strings.Contains(s, "r resume  esc close") || strings.Contains(s, "enter load") || strings.Contains(s, "d delete") {
			t.Errorf("the list offers what is not declared:\n%s", s)
		}
		d.keys(keyEnter, tea.KeyPressMsg{Code: 'd'})
		s = d.screen()
		if got := d.eng.fakeAgents.opened; len(got) != 0 {
			t.Errorf("enter loaded what is not declared: %q", got)
		}
		if strings.Contains(s, "delete session") {
			t.Errorf("d asks to delete what is not declared:\n%s", s)
		}
	})
}

// TestAgentSessionOpenFails: a load the agent refuses is said, and the
// session open before stays the agent's (a prompt goes again).
func TestAgentSessionOpenFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := agentDriver(t, func(f *fakeEngine) {
			f.agents[0].Can = AgentCan{List: true, Load: true}
			f.sessions = []AgentSession{{ID: "gone"}}
			f.openFn = func(agent, id string, load bool) error {
				return errors.New("acp: session/load: agent answered error -32002: Resource not found")
			}
		})
		d.keys(keyAltH, keyEnter)
		if s := d.screen(); !strings.Contains(s, "the session did not open: acp: session/load: agent answered error -32002") {
			t.Errorf("a refused load is not said:\n%s", s)
		}
		d.typeText("hi")
		d.keys(keyEnter)
		d.turnDone()
		if got := d.eng.fakeAgents.prompts; len(got) != 1 || got[0] != "bot hi" {
			t.Errorf("no prompt after a refused load: %q", got)
		}
	})
}
