package acpagent

import (
	"encoding/json"
	"fmt"
	"sort"
)

// session is what the agent keeps of a session: its settings and its
// turns (session/load replays them).
type session struct {
	cwd     string
	mode    string
	model   string
	verbose bool
	// history holds the turns as prompt and answer pairs.
	history [][2]string
	// active: open on this connection (new, loaded or resumed, not
	// closed).
	active bool
}

// The sessions every demo agent starts with, so that list, load and
// resume have something to find.
func oldSessions() map[string]*session {
	m := map[string]*session{}
	for i := 1; i <= 3; i++ {
		m[fmt.Sprintf("old_%d", i)] = &session{cwd: "/", mode: "ask", model: "small",
			history: [][2]string{{fmt.Sprintf("old prompt %d", i), fmt.Sprintf("old answer %d", i)}}}
	}
	return m
}

func (s *session) setup() map[string]any {
	return map[string]any{
		"modes": map[string]any{"currentModeId": s.mode, "availableModes": []map[string]string{
			{"id": "ask", "name": "Ask", "description": "asks before editing"}, {"id": "code", "name": "Code"}}},
		"configOptions": s.configOptions(),
	}
}

func (s *session) configOptions() []map[string]any {
	return []map[string]any{
		{"id": "model", "name": "Model", "category": "model", "type": "select", "currentValue": s.model,
			"options": []map[string]string{{"value": "small", "name": "Small"}, {"value": "large", "name": "Large"}}},
		{"id": "verbose", "name": "Verbose", "type": "boolean", "currentValue": s.verbose},
	}
}

// sessionCall serves the session methods beyond new and prompt; false
// if m is none of them.
func (a *agent) sessionCall(m msg) bool {
	var p struct {
		SessionID string          `json:"sessionId"`
		Cwd       string          `json:"cwd"`
		Cursor    string          `json:"cursor"`
		ModeID    string          `json:"modeId"`
		ConfigID  string          `json:"configId"`
		Type      string          `json:"type"`
		Value     json.RawMessage `json:"value"`
	}
	json.Unmarshal(m.Params, &p)
	notFound := func() { a.fail(m.ID, -32002, "Resource not found: session "+p.SessionID) }
	a.mu.Lock()
	s := a.sessions[p.SessionID]
	a.mu.Unlock()
	switch m.Method {
	case "session/load", "session/resume":
		if s == nil {
			notFound()
			return true
		}
		a.mu.Lock()
		s.active, s.cwd = true, p.Cwd
		history := append([][2]string(nil), s.history...)
		a.cwds[p.SessionID] = p.Cwd
		a.mu.Unlock()
		if m.Method == "session/load" {
			for _, h := range history {
				for i, kind := range []string{"user_message_chunk", "agent_message_chunk"} {
					a.notify("session/update", map[string]any{"sessionId": p.SessionID, "update": map[string]any{
						"sessionUpdate": kind, "content": map[string]string{"type": "text", "text": h[i]}}})
				}
			}
		}
		a.result(m.ID, s.setup())
	case "session/list":
		a.mu.Lock()
		ids := make([]string, 0, len(a.sessions))
		for id, s := range a.sessions {
			if p.Cwd == "" || s.cwd == p.Cwd {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		from := 0
		fmt.Sscan(p.Cursor, &from)
		var page []map[string]string
		for _, id := range ids[min(from, len(ids)):min(from+2, len(ids))] {
			page = append(page, map[string]string{"sessionId": id, "cwd": a.sessions[id].cwd})
		}
		a.mu.Unlock()
		res := map[string]any{"sessions": page}
		if page == nil {
			res["sessions"] = []any{}
		}
		if from+2 < len(ids) {
			res["nextCursor"] = fmt.Sprint(from + 2)
		}
		a.result(m.ID, res)
	case "session/close":
		if s == nil || !s.active {
			notFound()
			return true
		}
		a.mu.Lock()
		s.active = false
		if ch, ok := a.turns[p.SessionID]; ok {
			close(ch)
			delete(a.turns, p.SessionID)
		}
		a.mu.Unlock()
		a.result(m.ID, map[string]any{})
	case "session/delete":
		if s == nil {
			notFound()
			return true
		}
		a.mu.Lock()
		delete(a.sessions, p.SessionID)
		a.mu.Unlock()
		a.result(m.ID, map[string]any{})
	case "session/set_mode":
		if s == nil || !s.active {
			notFound()
			return true
		}
		if p.ModeID != "ask" && p.ModeID != "code" {
			a.fail(m.ID, -32602, "no such mode: "+p.ModeID)
			return true
		}
		a.mu.Lock()
		s.mode = p.ModeID
		a.mu.Unlock()
		a.notify("session/update", map[string]any{"sessionId": p.SessionID, "update": map[string]any{
			"sessionUpdate": "current_mode_update", "currentModeId": p.ModeID}})
		a.result(m.ID, map[string]any{})
	case "session/set_config_option":
		if s == nil || !s.active {
			notFound()
			return true
		}
		var b bool
		var v string
		a.mu.Lock()
		switch {
		case p.ConfigID == "verbose" && p.Type == "boolean" && json.Unmarshal(p.Value, &b) == nil:
			s.verbose = b
		case p.ConfigID == "model" && p.Type == "" && json.Unmarshal(p.Value, &v) == nil && (v == "small" || v == "large"):
			s.model = v
		default:
			a.mu.Unlock()
			a.fail(m.ID, -32602, "bad value for "+p.ConfigID)
			return true
		}
		opts := s.configOptions()
		a.mu.Unlock()
		a.notify("session/update", map[string]any{"sessionId": p.SessionID, "update": map[string]any{
			"sessionUpdate": "config_option_update", "configOptions": opts}})
		a.result(m.ID, map[string]any{"configOptions": opts})
	case "logout":
		a.result(m.ID, map[string]any{})
	default:
		return false
	}
	return true
}
