package client

import (
	"encoding/json"
	"maps"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// What the client offers a server, in one table: each feature names the
// server requests it serves and the capability it declares, by protocol
// version. initialize's capabilities (the stateful era) and the
// clientCapabilities _meta of every 2026-07-28 request are both built
// from it, and incoming requests are dispatched through it; serving a new
// server request (sampling/createMessage, roots/list) is one entry here
// and its handler.

// feature is one thing the client offers a server.
type feature struct {
	// requests are the server requests it serves (none for a feature
	// that only changes what we accept, like the tasks extension).
	requests []string
	serve    func(s *Session, e *incoming, m *jsonrpc.Message)
	// declare returns the capability member it adds for version v and
	// its value; ok is false when it declares nothing in v.
	declare func(s *Session, v string) (name string, value any, ok bool)
}

// features is the table; built per session (no package state), read-only
// after newSession.
func features() []feature {
	return []feature{
		{requests: []string{wire.MethodPing}, serve: (*Session).servePing},
		{requests: []string{wire.MethodElicit}, serve: (*Session).serveElicitRequest, declare: (*Session).declareElicitation},
		// Roots (roots.go): roots/list in the stateful era; in 2026-07-28
		// the same list answers roots/list inputs (autoInput).
		{requests: []string{wire.MethodRootsList}, serve: (*Session).serveRootsList, declare: (*Session).declareRoots},
		// 2025-11-25 core tasks, both ways: we list and cancel the
		// server's tasks, and run tasks for it when it task-augments a
		// request we declared in tasks.requests, answering its tasks/*
		// about them (receiver.go).
		{
			requests: []string{wire.MethodTasksList, wire.MethodTasksGet, wire.MethodTasksResult, wire.MethodTasksCancel},
			serve:    (*Session).serveReceiverRequest,
			declare:  (*Session).declareTasks,
		},
		// The 2026-07-28 tasks extension: a tools/call may answer
		// resultType "task" (tasks*.go).
		{declare: func(_ *Session, v string) (string, any, bool) {
			return "extensions", map[string]any{extTasks: struct{}{}}, wire.Stateless(v)
		}},
	}
}

// requestTable maps each server request to its handler.
func requestTable(fs []feature) map[string]func(*Session, *incoming, *jsonrpc.Message) {
	t := map[string]func(*Session, *incoming, *jsonrpc.Message){}
	for _, f := range fs {
		for _, m := range f.requests {
			t[m] = f.serve
		}
	}
	return t
}

// clientCapabilities is what we declare in version v: initialize's
// capabilities, or 2026-07-28's clientCapabilities _meta. Only what the
// client can honour is declared. Members two features share (extensions)
// are merged.
func (s *Session) clientCapabilities(v string) map[string]any {
	caps := map[string]any{}
	for _, f := range s.features {
		if f.declare == nil {
			continue
		}
		name, value, ok := f.declare(s, v)
		if !ok {
			continue
		}
		if old, had := caps[name].(map[string]any); had {
			if add, isMap := value.(map[string]any); isMap {
				merged := maps.Clone(old)
				maps.Copy(merged, add)
				value = merged
			}
		}
		caps[name] = value
	}
	return caps
}

// declareElicitation declares elicitation in the modes of Options.Elicit,
// in the shape of version v: 2025-11-25 and later name the modes,
// 2025-06-18 knows only "elicitation":{} (form), earlier versions have no
// elicitation at all.
func (s *Session) declareElicitation(v string) (string, any, bool) {
	m := s.opts.Elicit
	switch {
	case v == wire.Protocol2025_11_25 || wire.Stateless(v):
		el := map[string]any{}
		if m.form() {
			el["form"] = struct{}{}
		}
		if m.url() {
			el["url"] = struct{}{}
		}
		return "elicitation", el, len(el) > 0
	case v == wire.Protocol2025_06_18:
		return "elicitation", struct{}{}, m.form()
	}
	return "", nil, false
}

func (s *Session) servePing(e *incoming, _ *jsonrpc.Message) {
	s.answer(e, e.ctx, json.RawMessage(`{}`), nil)
}

func (s *Session) serveElicitRequest(e *incoming, m *jsonrpc.Message) {
	closed := s.taskPromptOpened(e) // a task's question is its task's (tasks_core.go)
	defer closed()
	if s.servedAsTask(e, m) { // task-augmented: our task (receiver.go)
		return
	}
	s.serveElicit(e, m.Params)
}
