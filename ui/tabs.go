package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// viewID is a screen's place in the registry, which is also its tab's.
type viewID int

// viewPrompts is the registry's first entry: the prompt panes, which the
// Model also manages (they open and end on the engine's word).
const viewPrompts viewID = 0

// tab is one registry entry: a screen, the F-key that shows it, and what
// its tab and its help line say.
type tab struct {
	name  string   // the tab's label
	short string   // its label when the full ones do not fit the width
	fkey  int      // the F-key that shows it: fkey 5 is F5; 0: none (alt only, on the bar while shown, counting or idle says)
	alt   []string // other keys that show it
	help  string   // its line in the help overlay
	again string   // the tab its key shows when this one is shown already
	// idle says whether a tab without an F-key is on the bar while it is
	// neither shown nor counting (the agent's, while there is an agent).
	idle func(c *viewCtx) bool
	screen
	bind key.Binding // built by newTabs from fkey, alt and help
}

// newTabs is the registry: one line per screen, in tab order. Adding a
// view is its file and one line here; its tab, F-key and help line follow.
func newTabs(prompts *promptsView) []tab {
	tabs := []tab{
		{name: "Questions", short: "Qs", fkey: 4, help: "questions the servers ask you", screen: prompts},
		{name: "Tools", short: "Tls", fkey: 5, help: "tools view", screen: newToolsView()},
		{name: "Traffic", short: "Trf", fkey: 6, help: "traffic view", screen: newTrafficView()},
		{name: "Journal", short: "Jnl", fkey: 7, help: "journal view", screen: &journalView{}},
		{name: "Logs", short: "Log", fkey: 8, help: "log view", screen: &logView{}},
		// F9 again shows prompts: some terminals keep F10 for their menu.
		{name: "Resources", short: "Res", fkey: 9, help: "resources view (again: prompts)", again: "Prompts", screen: newResourcesView()},
		{name: "Prompts", short: "Prm", fkey: 10, help: "MCP prompts (prompts/list, /get)", screen: newTemplatesView()},
		// alt+t too: some terminals keep F11 for full screen.
		{name: "Tasks", short: "Tsk", fkey: 11, alt: []string{"alt+t"}, help: "tasks view", screen: newTasksView()},
		// F12 again shows roots: the F-keys end at F12, so roots has
		// alt+r, and is on the tab bar only while shown (the bar is full
		// at 120 columns).
		{name: "Server", short: "Srv", fkey: 12, alt: []string{"alt+s"}, help: "server view: who, what it declared", again: "Roots", screen: newServerView()},
		{name: "Roots", short: "Rts", alt: []string{"alt+r"}, help: "roots view (F12 on the server view)", screen: newRootsView()},
		// The F-keys are taken (and shift+F-keys differ by terminal):
		// alt+a, on the bar while there is an agent and it fits; the
		// status bar's agent badge names it too.
		{name: "Agent", short: "Agt", alt: []string{"alt+a"}, help: "the ACP agent: prompt it, watch it",
			idle: func(c *viewCtx) bool { return len(c.agents) > 0 }, screen: newAgentView()},
		// No F-key is left: alt+l (skil-l-s; alt+k kills a terminal in the
		// agent view), on the bar while shown.
		{name: "Skills", short: "Skl", alt: []string{"alt+l"}, help: "skills", screen: newSkillsView()},
		// No F-key is left: alt+i, and on the bar while it has findings.
		{name: "Findings", short: "Fnd", alt: []string{"alt+i"}, help: "findings: spec violations", screen: newFindingsView()},
	}
	for i := range tabs {
		t := &tabs[i]
		keys, labels := t.alt, t.alt
		if t.fkey > 0 {
			keys = append([]string{fmt.Sprintf("f%d", t.fkey)}, t.alt...)
			labels = append([]string{fmt.Sprintf("F%d", t.fkey)}, t.alt...)
		}
		t.bind = key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(labels, " / "), t.help))
	}
	return tabs
}

// keyLabel is the key a tab's label names: its F-key ("F5"), or for a
// tab without one its first other key ("alt+r").
func (t tab) keyLabel() string {
	if t.fkey == 0 && len(t.alt) > 0 {
		return t.alt[0]
	}
	return fmt.Sprintf("F%d", t.fkey)
}

// tabFor returns the tab whose key k is; when that tab is shown already,
// its again.
func (m *Model) tabFor(k tea.KeyPressMsg) (viewID, bool) {
	for i, t := range m.tabs {
		if !key.Matches(k, t.bind) {
			continue
		}
		if viewID(i) == m.view && t.again != "" {
			for j, u := range m.tabs {
				if u.name == t.again {
					return viewID(j), true
				}
			}
		}
		return viewID(i), true
	}
	return 0, false
}

// tabBindings are the keys of every tab, for the help overlay.
func (m *Model) tabBindings() []*key.Binding {
	out := make([]*key.Binding, len(m.tabs))
	for i := range m.tabs {
		out[i] = &m.tabs[i].bind
	}
	return out
}
