package client

import (
	"encoding/json"
	"fmt"
	"maps"
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

// offers is what the client offers a server and how it serves it: the
// features (their capabilities, by version), the handler of each server
// request and of each server notification (notify.go). Its tables are
// built once, in newOffers, and read-only after; it reaches the session
// only through its offersHandle (features_handle.go).
type offers struct {
	h             offersHandle
	features      []feature
	requests      map[string]*feature
	notifications map[string]func(*jsonrpc.Message)
}

// newOffers builds the tables over h.
func newOffers(h offersHandle) *offers {
	o := &offers{h: h}
	o.features = o.table()
	o.requests = requestTable(o.features)
	o.notifications = o.notificationTable()
	return o
}

// feature is one thing the client offers a server.
type feature struct {
	// requests are the server requests it serves (none for a feature
	// that only changes what we accept, like the tasks extension).
	requests []string
	serve    func(e *incoming, m *jsonrpc.Message)
	// declare returns the capability member it adds for version v and
	// its value; ok is false when it declares nothing in v.
	declare func(v string) (name string, value any, ok bool)
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

// table is the features; built per session (no package state), read-only
// after newOffers.
func (o *offers) table() []feature {
	h := o.h
	elicitation := func(v string) (string, any, bool) { return declareElicitation(h.elicit, v) }
	sampling := func(v string) (string, any, bool) { return declareSampling(h.sampling, v) }
	return []feature{
		{requests: []string{wire.MethodPing}, serve: o.servePing},
		{requests: []string{wire.MethodElicit}, serve: o.serveQuestion, declare: elicitation},
		{requests: []string{wire.MethodCreateMessage}, serve: o.serveQuestion, declare: sampling, unserved: unservedSampling},
		// Roots (roots.go): roots/list in the stateful era; in 2026-07-28
		// the same list answers roots/list inputs (autoInput).
		{requests: []string{wire.MethodRootsList}, serve: o.serveRoots, declare: h.declareRoots, unserved: unservedRoots},
		// 2025-11-25 core tasks, both ways: we list and cancel the
		// server's tasks, and run tasks for it when it task-augments a
		// request we declared in tasks.requests, answering its tasks/*
		// about them (receiver.go).
		{
			requests: []string{wire.MethodTasksList, wire.MethodTasksGet, wire.MethodTasksResult, wire.MethodTasksCancel},
			serve:    h.serveTasks,
			declare:  func(v string) (string, any, bool) { return declareTasks(h.elicit, h.sampling, v) },
		},
		// The 2026-07-28 tasks extension: a tools/call may answer
		// resultType "task" (tasks*.go).
		{declare: func(v string) (string, any, bool) {
			return "extensions", map[string]any{extTasks: struct{}{}}, wire.Stateless(v)
		}},
		// MCP Apps: declared only where a host renders the apps
		// (Options.AppsUI, elicit app); nothing is served for it.
		{declare: func(string) (string, any, bool) {
			return "extensions", map[string]any{wire.ExtensionApps: map[string]any{"mimeTypes": []string{wire.AppMimeType}}}, h.appsUI
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
func declared(f *feature, v string) bool {
	if f.declare == nil {
		return false
	}
	_, _, ok := f.declare(v)
	return ok
}

// serve serves one server request through its feature: a method we
// know nothing of gets -32601 "method not found", and one of a feature
// not declared in the session's version gets the feature's own -32601,
// marked for the traffic view (RequestRefused, and the error's data names
// the capability).
func (o *offers) serve(e *incoming, m *jsonrpc.Message) {
	f := o.requests[m.Method]
	switch {
	case f == nil:
		o.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+m.Method, nil))
	case f.unserved != "" && !declared(f, o.h.protocol()):
		capability := capabilityOf(m.Method)
		v := o.h.protocol()
		rpcErr := jsonrpc.NewError(jsonrpc.CodeMethodNotFound, f.unserved,
			map[string]string{"notDeclared": capability, "protocolVersion": v})
		o.refusing(e.id, e.owner, m.Method, capability)
		if o.h.answer(e, nil, rpcErr) {
			o.refused(e.id, m.Method, capability, rpcErr)
		}
	case f.serve == nil:
		o.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+m.Method, nil))
	default:
		f.serve(e, m)
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

// refusing notes, before the refusal goes out, that the server request
// id is refused because it needs a capability we did not declare: owner
// is the call of ours it belongs to, if any, and its error will say so
// (afterRefusals). Before, since the server may fail that call as soon as
// it reads the refusal, and the call's error is decided when its answer
// comes.
func (o *offers) refusing(id, owner jsonrpc.ID, method, capability string) {
	if owner.IsValid() {
		o.h.noteRefusal(owner, fmt.Sprintf("%s #%s (it did not declare %s)", method, id.Raw(), capability))
	}
}

// refused reports a server request refused because it needs a capability
// we did not declare (refusing noted it first): a Notice now, and
// RequestRefused, which the traffic view uses to mark the request and our
// answer.
func (o *offers) refused(id jsonrpc.ID, method, capability string, rpcErr *jsonrpc.Error) {
	o.h.notice("refused %s #%s: the client did not declare %s in %s (answered %d %s)",
		method, id.Raw(), capability, o.h.protocol(), rpcErr.Code, rpcErr.Message)
	o.h.emit(RequestRefused{Server: o.h.server, ID: id, Method: method, Capability: capability, Err: rpcErr})
	o.h.lint.Refused(id, method, capability)
}

// maxRefusals bounds call.refusals: a few name the cause.
const maxRefusals = 4

// afterRefusals is the error of call c that the server failed with err:
// when the client had refused server requests of c, the server's error
// (often a bare -32601 naming the call's own method, as go-sdk's bridge
// sends) follows what the client refused, which is what happened.
func (o *offers) afterRefusals(c *call, err error) error {
	refusals := o.h.refusals(c)
	if len(refusals) == 0 {
		return err
	}
	return fmt.Errorf("the client refused the server's %s, and the server then failed the call: %w",
		strings.Join(refusals, ", "), err)
}

// capabilities is what we declare in version v: initialize's
// capabilities, or 2026-07-28's clientCapabilities _meta. Only what the
// client can honour is declared. Members two features share (extensions)
// are merged.
func (o *offers) capabilities(v string) map[string]any {
	caps := map[string]any{}
	for _, f := range o.features {
		if f.declare == nil {
			continue
		}
		name, value, ok := f.declare(v)
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

// declareElicitation declares elicitation in modes m, in the shape of
// version v: 2025-11-25 and later name the modes, 2025-06-18 knows only
// "elicitation":{} (form), earlier versions have no elicitation at all.
func declareElicitation(m ElicitModes, v string) (string, any, bool) {
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

// declareSampling declares sampling when mode (Options.Sampling) is on:
// "{}" in 2024-11-05 to 2025-06-18, with "tools" from 2025-11-25 on
// (elicit shows the offered tools and can answer with tool_use).
// "context" is never declared: elicit includes no server context.
func declareSampling(mode SamplingMode, v string) (string, any, bool) {
	if mode != SamplingOn || !wire.IsSupported(v) {
		return "", nil, false
	}
	if v == wire.Protocol2025_11_25 || wire.Stateless(v) {
		return "sampling", map[string]any{"tools": struct{}{}}, true
	}
	return "sampling", struct{}{}, true
}

// samplingModes is what of sampling is in force in version v: what we
// declared in it, given mode (Options.Sampling).
func samplingModes(mode SamplingMode, v string) question.SamplingModes {
	_, caps, ok := declareSampling(mode, v)
	m := question.SamplingModes{On: ok}
	if caps, isMap := caps.(map[string]any); isMap {
		_, m.Tools = caps["tools"]
	}
	return m
}

func (o *offers) servePing(e *incoming, _ *jsonrpc.Message) {
	o.h.answer(e, json.RawMessage(`{}`), nil)
}

func (o *offers) serveRoots(e *incoming, _ *jsonrpc.Message) {
	res, rpcErr := o.h.rootsList()
	o.h.answer(e, res, rpcErr)
}
