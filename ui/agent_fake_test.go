package ui

import (
	"context"
	"sync"
)

// fakeAgents is the fake engine's ACP side: agents as listed, and a
// prompt function that plays a turn (nil: end_turn at once).
type fakeAgents struct {
	amu       sync.Mutex
	agents    []AgentStatus
	promptFn  func(ctx context.Context, agent, text string) (AgentTurnEnd, error)
	prompts   []string // "agent text"
	stops     []string
	stopFn    func(agent string)
	restarts  []string
	abandons  []string
	settings  []string // "agent mode ID", "agent ID=VALUE"
	terminals []AgentTerminal
	kills     []string // "agent id"
	// sessions is what session/list answers; opened and deleted what
	// was asked ("agent load ID", "agent resume ID", "agent ID");
	// openFn plays a load (nil: nothing replayed).
	sessions []AgentSession
	opened   []string
	deleted  []string
	openFn   func(agent, id string, load bool) error
}

func (f *fakeAgents) AgentSessions(agent string) ([]AgentSession, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	return append([]AgentSession(nil), f.sessions...), nil
}

func (f *fakeAgents) AgentOpenSession(agent, id string, load bool) error {
	f.amu.Lock()
	what := "resume"
	if load {
		what = "load"
	}
	f.opened = append(f.opened, agent+" "+what+" "+id)
	fn := f.openFn
	f.amu.Unlock()
	if fn != nil {
		return fn(agent, id, load)
	}
	return nil
}

func (f *fakeAgents) AgentDeleteSession(agent, id string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.deleted = append(f.deleted, agent+" "+id)
	for i, s := range f.sessions {
		if s.ID == id {
			f.sessions = append(f.sessions[:i:i], f.sessions[i+1:]...)
			break
		}
	}
	return nil
}

func (f *fakeAgents) AgentSetMode(agent, modeID string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.settings = append(f.settings, agent+" mode "+modeID)
	return nil
}

func (f *fakeAgents) AgentSetConfig(agent, configID, value string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.settings = append(f.settings, agent+" "+configID+"="+value)
	return nil
}

func (f *fakeAgents) AgentTerminals(agent string) []AgentTerminal {
	f.amu.Lock()
	defer f.amu.Unlock()
	return append([]AgentTerminal(nil), f.terminals...)
}

func (f *fakeAgents) AgentKillTerminal(agent, id string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.kills = append(f.kills, agent+" "+id)
	for i := range f.terminals {
		if f.terminals[i].ID == id {
			f.terminals[i].Exited, f.terminals[i].Ended = true, "killed by the person"
		}
	}
	return nil
}

func (f *fakeAgents) AgentAbandon(agent string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.abandons = append(f.abandons, agent)
	return nil
}

func (f *fakeAgents) AgentRestart(agent string) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.restarts = append(f.restarts, agent)
	return nil
}

func (f *fakeAgents) Agents() []AgentStatus {
	f.amu.Lock()
	defer f.amu.Unlock()
	return append([]AgentStatus(nil), f.agents...)
}

func (f *fakeAgents) AgentPrompt(ctx context.Context, agent, text string) (AgentTurnEnd, error) {
	f.amu.Lock()
	f.prompts = append(f.prompts, agent+" "+text)
	fn := f.promptFn
	f.amu.Unlock()
	if fn == nil {
		return AgentTurnEnd{StopReason: "end_turn"}, nil
	}
	return fn(ctx, agent, text)
}

func (f *fakeAgents) AgentStop(agent string) error {
	f.amu.Lock()
	f.stops = append(f.stops, agent)
	fn := f.stopFn
	f.amu.Unlock()
	if fn != nil {
		fn(agent)
	}
	return nil
}

func (f *fakeAgents) stopped() []string {
	f.amu.Lock()
	defer f.amu.Unlock()
	return append([]string(nil), f.stops...)
}
