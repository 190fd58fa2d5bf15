package ui

import (
	"sync"
)

// agentEntryKind is what one line group of an agent's transcript is.
type agentEntryKind int

const (
	entryUser       agentEntryKind = iota // the person's prompt
	entryMessage                          // agent_message_chunk, joined
	entryThought                          // agent_thought_chunk, joined
	entryTool                             // a tool call, merged with its updates
	entryOther                            // an update shown plainly (unknown kinds too)
	entryNotice                           // a notice: its severity and title
	entryCompaction                       // a compaction's state
	entrySummary                          // a compaction's summary, joined
	entryTurnEnd                          // how a turn ended, as the agent said
	entryNote                             // what elicit did (stop sent, an error)
	entryAction                           // a request of elicit's as it ended (AgentAction)
)

// agentEntry is one entry of a transcript. Its strings are the agent's
// (untrusted) except a note's; they are never changed in place, so a
// snapshot may share them.
type agentEntry struct {
	kind agentEntryKind
	text string
	// cut counts the bytes of text not kept (agentTextKeep).
	cut  int
	tool AgentToolCall
	// label is an entryOther's kind, an entryTurnEnd's stop reason.
	label string
	// warn marks a note or turn end that is a failure.
	warn bool
	// told marks a prompt the agent told of (user_message_chunk), whose
	// chunks join; the person's own prompt is whole.
	told bool
}

// What a transcript keeps: the newest entries, and of each text the
// first part; a long session's memory is bounded as the rings' is.
const (
	agentEntriesKeep = 4000
	agentTextKeep    = 256 << 10
	agentRawKeep     = 64 << 10
)

// agentLog is one agent's transcript and the state its updates set.
type agentLog struct {
	entries  []agentEntry
	dropped  int            // entries dropped from the front
	tools    map[string]int // tool call id → absolute index (dropped + i)
	plan     []AgentPlanEntry
	commands []AgentCommand
	mode     string
	usage    *AgentUsage
	version  uint64
}

// agentSnap is a copy of what the agent view draws.
type agentSnap struct {
	entries  []agentEntry
	dropped  int
	plan     []AgentPlanEntry
	commands []AgentCommand
	mode     string
	usage    *AgentUsage
	version  uint64
}

// agentStore holds every agent's transcript (lane 3): the engine's read
// loop pushes updates, never blocked; the view copies a snapshot when
// told the store changed (coalesced, as the rings are).
type agentStore struct {
	changed func()

	mu   sync.Mutex
	logs map[string]*agentLog
}

func newAgentStore(changed func()) *agentStore {
	return &agentStore{changed: changed, logs: map[string]*agentLog{}}
}

func (s *agentStore) log(agent string) *agentLog {
	l := s.logs[agent]
	if l == nil {
		l = &agentLog{tools: map[string]int{}}
		s.logs[agent] = l
	}
	return l
}

// push applies one session/update.
func (s *agentStore) push(agent string, u AgentUpdate) {
	s.mu.Lock()
	l := s.log(agent)
	l.apply(u)
	l.version++
	s.mu.Unlock()
	s.changed()
}

// note adds an entry of elicit's own (the person's prompt, a turn's end).
func (s *agentStore) note(agent string, e agentEntry) {
	s.mu.Lock()
	l := s.log(agent)
	e.text, e.cut = keepText(e.text, 0)
	if e.kind == entryUser {
		// A new turn: tool call ids are merged within a turn (an agent
		// may use call_1 in every turn).
		clear(l.tools)
	}
	l.add(e)
	l.version++
	s.mu.Unlock()
	s.changed()
}

// snapshot copies agent's transcript; version 0 means nothing yet.
func (s *agentStore) snapshot(agent string) agentSnap {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.logs[agent]
	if l == nil {
		return agentSnap{}
	}
	out := agentSnap{entries: append([]agentEntry(nil), l.entries...), dropped: l.dropped,
		plan: append([]AgentPlanEntry(nil), l.plan...), commands: append([]AgentCommand(nil), l.commands...),
		mode: l.mode, version: l.version}
	if l.usage != nil {
		u := *l.usage
		out.usage = &u
	}
	return out
}

// version is agent's transcript version, to skip a snapshot unchanged.
func (s *agentStore) version(agent string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.logs[agent]; l != nil {
		return l.version
	}
	return 0
}

func (l *agentLog) add(e agentEntry) {
	if len(l.entries) >= agentEntriesKeep {
		n := len(l.entries) / 4
		l.entries = append(l.entries[:0:0], l.entries[n:]...)
		l.dropped += n
		for id, i := range l.tools {
			if i < l.dropped {
				delete(l.tools, id)
			}
		}
	}
	l.entries = append(l.entries, e)
}

func (l *agentLog) last() *agentEntry {
	if len(l.entries) == 0 {
		return nil
	}
	return &l.entries[len(l.entries)-1]
}

func (l *agentLog) apply(u AgentUpdate) {
	switch {
	case u.Known && (u.Kind == "agent_message_chunk" || u.Kind == "agent_thought_chunk"):
		kind := entryMessage
		if u.Kind == "agent_thought_chunk" {
			kind = entryThought
		}
		text := u.Text
		if u.ContentType != "" && u.ContentType != "text" {
			text = "[" + u.ContentType + " content]"
		}
		if e := l.last(); e != nil && e.kind == kind {
			e.text, e.cut = keepText(e.text+text, e.cut)
			return
		}
		t, cut := keepText(text, 0)
		l.add(agentEntry{kind: kind, text: t, cut: cut})
	case u.Known && u.Kind == "user_message_chunk":
		// What the person said, as the agent tells it: a loaded
		// session's history (session/load) replays every prompt. Chunks
		// join into one prompt; a new one starts a turn, as the person's
		// own does.
		text := u.Text
		if u.ContentType != "" && u.ContentType != "text" {
			text = "[" + u.ContentType + " content]"
		}
		if e := l.last(); e != nil && e.kind == entryUser && e.told {
			e.text, e.cut = keepText(e.text+text, e.cut)
			return
		}
		clear(l.tools)
		t, cut := keepText(text, 0)
		l.add(agentEntry{kind: entryUser, text: t, cut: cut, told: true})
	case u.Tool != nil:
		tc := *u.Tool
		tc.Content, tc.Locations = keepRaw(tc.Content), keepRaw(tc.Locations)
		tc.RawInput, tc.RawOutput = keepRaw(tc.RawInput), keepRaw(tc.RawOutput)
		if i, ok := l.tools[tc.ID]; ok && i >= l.dropped {
			mergeTool(&l.entries[i-l.dropped].tool, &tc)
			return
		}
		l.add(agentEntry{kind: entryTool, tool: tc})
		l.tools[tc.ID] = l.dropped + len(l.entries) - 1
	case u.Known && u.Kind == "plan":
		l.plan = u.Plan
	case u.Known && u.Kind == "available_commands_update":
		l.commands = u.Commands
	case u.Known && u.Kind == "current_mode_update":
		l.mode = u.Mode
		l.add(agentEntry{kind: entryOther, label: "mode", text: u.Mode})
	case u.Known && u.Kind == "usage_update":
		l.usage = u.Usage
	case u.Known && u.Kind == "config_option_update":
		// The options themselves are the picker's (alt+m), from the
		// agent's line.
		l.add(agentEntry{kind: entryOther, label: "config"})
	case u.Notice != nil:
		sev := u.Notice.Severity
		l.add(agentEntry{kind: entryNotice, text: sev + ": " + u.Notice.Title, warn: sev == "warning" || sev == "error"})
	case u.Compaction != nil && u.Kind == "compaction_summary_chunk":
		if e := l.last(); e != nil && e.kind == entrySummary {
			e.text, e.cut = keepText(e.text+u.Compaction.Text, e.cut)
			return
		}
		t, cut := keepText(u.Compaction.Text, 0)
		l.add(agentEntry{kind: entrySummary, text: t, cut: cut})
	case u.Compaction != nil:
		text := u.Compaction.ID + " " + u.Compaction.Status
		if u.Compaction.Error != "" {
			text += ": " + u.Compaction.Error
		}
		l.add(agentEntry{kind: entryCompaction, text: text, warn: u.Compaction.Status == "failed"})
	case u.Action != nil:
		a := u.Action
		text := a.Method
		for _, s := range []string{a.SessionID, a.Subject} {
			if s != "" {
				text += " " + s
			}
		}
		l.add(agentEntry{kind: entryAction, text: text + ": " + a.Ended, warn: a.Ended != "ok"})
	default:
		// Unknown, or known but not drawn apart: shown plainly.
		l.add(agentEntry{kind: entryOther, label: u.Kind, text: string(keepRaw(u.Raw))})
	}
}

// mergeTool applies patch u to t (ACP's tool_call_update: only what is
// set changes).
func mergeTool(t, u *AgentToolCall) {
	for _, f := range []struct{ dst, src *string }{{&t.Title, &u.Title}, {&t.Name, &u.Name}, {&t.Kind, &u.Kind}, {&t.Status, &u.Status}} {
		if *f.src != "" {
			*f.dst = *f.src
		}
	}
	for _, f := range []struct{ dst, src *[]byte }{
		{&t.Content, &u.Content}, {&t.Locations, &u.Locations}, {&t.RawInput, &u.RawInput}, {&t.RawOutput, &u.RawOutput},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
}

// keepText cuts s to agentTextKeep bytes, counting what it drops.
func keepText(s string, cut int) (string, int) {
	if len(s) <= agentTextKeep {
		return s, cut
	}
	return s[:agentTextKeep], cut + len(s) - agentTextKeep
}

// keepRaw keeps raw JSON whole up to agentRawKeep, else drops it: a
// half object cannot be drawn.
func keepRaw(b []byte) []byte {
	if len(b) > agentRawKeep {
		return []byte(`"(more than 64 KiB; not kept)"`)
	}
	return b
}
