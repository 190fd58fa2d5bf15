package client

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/question"
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
	// unserved, when set, is the message of the -32601 a request of this
	// feature gets whenever the feature is not declared in the session's
	// version: we serve only what we declared. Elicitation has none: its
	// ask path refuses an undeclared mode with the spec's -32602.
	unserved string
}

// The spec's words for a client capability we do not serve: roots says
// "Roots not supported" (-32601); sampling names no error, so it says the
// same of itself.
const (
	unservedSampling = "Sampling not supported"
	unservedRoots    = "Roots not supported"
)

// features is the table; built per session (no package state), read-only
// after newSession.
func features() []feature {
	return []feature{
		{requests: []string{wire.MethodPing}, serve: (*Session).servePing},
		{requests: []string{wire.MethodElicit}, serve: (*Session).serveQuestion, declare: (*Session).declareElicitation},
		{requests: []string{wire.MethodCreateMessage}, serve: (*Session).serveQuestion, declare: (*Session).declareSampling, unserved: unservedSampling},
		// Roots (roots.go): roots/list in the stateful era; in 2026-07-28
		// the same list answers roots/list inputs (autoInput).
		{requests: []string{wire.MethodRootsList}, serve: (*Session).serveRootsList, declare: (*Session).declareRoots, unserved: unservedRoots},
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

// requestTable maps each server request to its feature.
func requestTable(fs []feature) map[string]*feature {
	t := map[string]*feature{}
	for i := range fs {
		for _, m := range fs[i].requests {
			t[m] = &fs[i]
		}
	}
	return t
}

// declared reports whether f declares anything in version v.
func (s *Session) declared(f *feature, v string) bool {
	if f.declare == nil {
		return false
	}
	_, _, ok := f.declare(s, v)
	return ok
}

// serveRequest serves one server request through its feature: a method we
// know nothing of gets -32601 "method not found", and one of a feature
// not declared in the session's version gets the feature's own -32601,
// marked for the traffic view (RequestRefused, and the error's data names
// the capability).
func (s *Session) serveRequest(e *incoming, m *jsonrpc.Message) {
	f := s.requests[m.Method]
	switch {
	case f == nil:
		s.answer(e, e.ctx, nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+m.Method, nil))
	case f.unserved != "" && !s.declared(f, s.Protocol()):
		capability := capabilityOf(m.Method)
		v := s.Protocol()
		rpcErr := jsonrpc.NewError(jsonrpc.CodeMethodNotFound, f.unserved,
			map[string]string{"notDeclared": capability, "protocolVersion": v})
		if s.answer(e, e.ctx, nil, rpcErr) {
			s.refused(e.id, e.owner, m.Method, capability, rpcErr)
		}
	case f.serve == nil:
		s.answer(e, e.ctx, nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+m.Method, nil))
	default:
		f.serve(s, e, m)
	}
}

// capabilityOf names the client capability a server request needs.
func capabilityOf(method string) string {
	switch method {
	case wire.MethodCreateMessage:
		return "sampling"
	case wire.MethodRootsList:
		return "roots"
	case wire.MethodElicit:
		return "elicitation"
	}
	return method
}

// refused reports a server request refused because it needs a capability
// we did not declare: a Notice now, and RequestRefused, which the traffic
// view uses to mark the request and our answer. owner is the call of ours
// it belongs to, if any: its error will say so (afterRefusals).
func (s *Session) refused(id, owner jsonrpc.ID, method, capability string, rpcErr *jsonrpc.Error) {
	s.notice("refused %s #%s: the client did not declare %s in %s (answered %d %s)",
		method, id.Raw(), capability, s.Protocol(), rpcErr.Code, rpcErr.Message)
	if owner.IsValid() {
		what := fmt.Sprintf("%s #%s (it did not declare %s)", method, id.Raw(), capability)
		s.mu.Lock()
		for _, c := range s.peer.Calls() {
			if c.callID() == owner && len(c.refusals) < maxRefusals {
				c.refusals = append(c.refusals, what)
				break
			}
		}
		s.mu.Unlock()
	}
	s.emit(RequestRefused{Server: s.name, ID: id, Method: method, Capability: capability, Err: rpcErr})
	s.lint.Refused(id, method, capability)
}

// maxRefusals bounds call.refusals: a few name the cause.
const maxRefusals = 4

// afterRefusals is the error of call c that the server failed with err:
// when the client had refused server requests of c, the server's error
// (often a bare -32601 naming the call's own method, as go-sdk's bridge
// sends) follows what the client refused, which is what happened.
func (s *Session) afterRefusals(c *call, err error) error {
	s.mu.Lock()
	refusals := slices.Clone(c.refusals)
	s.mu.Unlock()
	if len(refusals) == 0 {
		return err
	}
	return fmt.Errorf("the client refused the server's %s, and the server then failed the call: %w",
		strings.Join(refusals, ", "), err)
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

// declareSampling declares sampling when Options.Sampling is on: "{}"
// in 2024-11-05 to 2025-06-18, with "tools" from 2025-11-25 on (elicit
// shows the offered tools and can answer with tool_use). "context" is
// never declared: elicit includes no server context.
func (s *Session) declareSampling(v string) (string, any, bool) {
	if s.opts.Sampling != SamplingOn || !wire.IsSupported(v) {
		return "", nil, false
	}
	if v == wire.Protocol2025_11_25 || wire.Stateless(v) {
		return "sampling", map[string]any{"tools": struct{}{}}, true
	}
	return "sampling", struct{}{}, true
}

// samplingModes is what of sampling is in force: what we declared in the
// negotiated version.
func (s *Session) samplingModes() question.SamplingModes {
	_, v, ok := s.declareSampling(s.Protocol())
	m := question.SamplingModes{On: ok}
	if caps, isMap := v.(map[string]any); isMap {
		_, m.Tools = caps["tools"]
	}
	return m
}

func (s *Session) servePing(e *incoming, _ *jsonrpc.Message) {
	s.answer(e, e.ctx, json.RawMessage(`{}`), nil)
}
