package tui

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"sync"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// engine adapts a client.Manager to ui.Engine.
type engine struct {
	// ctx bounds everything the engine starts on its own (list
	// subscriptions); cmd cancels it on quit.
	ctx context.Context
	// m is the TUI's Manager, or under elicit attach the kept session
	// (engine_kept.go).
	m     sessionSet
	specs map[string]serverspec.Server
	// order is the servers in the order given (flags, config), which the
	// status bar keeps: they connect concurrently, so the Manager's own
	// order is whichever started first.
	order []string
	// sessionOpts builds each server's session options (prompter,
	// observer, modes) the same way for the first connect and reconnects.
	sessionOpts func(name string) *client.Options
	transports  func(spec serverspec.Server) (transport.Transport, error)

	// rec records the person's calls (--record; nil records nothing).
	rec *record.Recorder

	// state remembers running tasks across restarts (nil: not kept).
	state *taskState
	// bg counts resumed tasks; they end when their session closes.
	bg sync.WaitGroup
	// findings records the servers' spec violations (nil: none).
	findings *findings.Recorder
	// secrets are the run's (secrets.go): masked in what the engine
	// shows of servers (errors, frames). Nil: Server makes a set.
	secrets *redact.Secrets

	mu      sync.Mutex
	pending map[string]error // servers whose transport could not be built

	// apps hosts the tools' MCP Apps (engine_app.go); version is
	// elicit's, which the host page names as the host's.
	apps    appHosts
	version string

	// Hub runs the ACP agents (internal/agents); never nil in the TUI.
	*agents.Hub
}

var _ ui.Engine = (*engine)(nil)

// connectAll connects every server concurrently; each one's status is
// visible as it goes (connecting, ready, failed with the reason).
func (e *engine) connectAll(ctx context.Context, order []string) {
	var wg sync.WaitGroup
	for _, name := range order {
		spec := e.specs[name]
		t, err := e.transports(spec)
		if err != nil {
			e.mu.Lock()
			e.pending[name] = err
			e.mu.Unlock()
			continue
		}
		wg.Go(func() {
			if e.m.Add(ctx, name, t, e.sessionOpts(name)) == nil {
				e.resumeTasks(name)
				e.listen(ctx, name)
			}
		})
	}
	wg.Wait()
}

// listen subscribes to list changes where the era needs asking for them
// (2026-07-28: subscriptions/listen); older servers send them unasked. It
// lives until ctx ends or the session does.
func (e *engine) listen(ctx context.Context, name string) {
	s := e.m.Session(name)
	if s == nil || s.Protocol() < wire.Protocol2026_07_28 {
		return
	}
	lctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		select {
		case <-s.Done():
		case <-lctx.Done():
		}
	}()
	// A refusal is reported by the session as a Notice; lists then only
	// refresh on reconnect.
	_, _ = s.Listen(lctx, client.ListenOptions{ToolsListChanged: true, PromptsListChanged: true, ResourcesListChanged: true})
}

// CompleteElicitation tells the session of key's server that the person
// finished a URL elicitation of a -32042.
func (e *engine) CompleteElicitation(key question.Key) error {
	s, err := e.session(key.Server)
	if err != nil {
		return err
	}
	return s.CompleteElicitation(key)
}

func (e *engine) session(name string) (*client.Session, error) {
	s := e.m.Session(name)
	if s == nil {
		return nil, fmt.Errorf("%s is not connected", name)
	}
	return s, nil
}

func (e *engine) Servers() []ui.ServerStatus {
	st := e.m.Status()
	sec := e.secretsNow()
	out := make([]ui.ServerStatus, 0, len(st))
	seen := map[string]bool{}
	for _, s := range st {
		seen[s.Name] = true
		st := ui.ServerStatus{Name: s.Name, State: s.State, Protocol: s.Protocol, Era: s.Era,
			Err: sec.Error(s.Err), Host: e.host(s.Name)}
		if sess := e.m.Session(s.Name); sess != nil {
			st.Caps, st.Info = sess.ServerCapabilities(), shown.Value(sec, sess.ServerInfo())
		}
		out = append(out, st)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for name, err := range e.pending {
		if !seen[name] {
			seen[name] = true
			out = append(out, ui.ServerStatus{Name: name, State: client.StateFailed, Err: sec.Error(err)})
		}
	}
	// A server not yet handed to the Manager is connecting: listed from
	// the start, the UI's first list (and the server a view starts on)
	// is in the order given, not in the order the servers connect.
	for _, name := range e.order {
		if !seen[name] {
			out = append(out, ui.ServerStatus{Name: name, State: client.StateConnecting, Host: e.host(name)})
		}
	}
	if len(e.order) > 0 {
		slices.SortStableFunc(out, func(a, b ui.ServerStatus) int {
			return cmp.Compare(e.rank(a.Name), e.rank(b.Name))
		})
	}
	return out
}

// rank is where name stands in e.order; names not in it go last.
func (e *engine) rank(name string) int {
	if i := slices.Index(e.order, name); i >= 0 {
		return i
	}
	return len(e.order)
}

func (e *engine) host(name string) string {
	spec := e.specs[name]
	if spec.URL == "" {
		return ""
	}
	u, err := url.Parse(spec.URL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func (e *engine) Tools(ctx context.Context, server string) ([]wire.Tool, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodToolsList, "", nil, nil)
	tools, err := s.ListTools(ctx)
	rc.End(tools, err)
	return shown.Value(e.secretsNow(), tools), e.shownErr(err)
}

// Call implements ui.Engine. Whether the call runs as a task is the
// person's choice (opts.AsTask) where the tool allows one; a call that
// becomes a task returns when the task has ended.
func (e *engine) Call(ctx context.Context, server, tool string, args map[string]any,
	opts ui.CallOptions) (*wire.CallToolResult, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	if args == nil {
		// A nil map would go out as "arguments": null, which servers
		// refuse (the TypeScript SDK wants an object).
		args = map[string]any{}
	}
	rc := e.rec.Begin(server, wire.MethodToolsCall, tool, recording.ToolCallParams{Name: tool, Arguments: args}, opts.AsTask)
	res, err := s.CallTool(ctx, tool, args, &client.CallOptions{OnProgress: opts.OnProgress, AsTask: opts.AsTask})
	rc.End(recording.CallResult(res), err)
	return shown.Result(e.secretsNow(), res), e.shownErr(err)
}

// Tasks implements ui.Engine: every task every live session follows.
func (e *engine) Tasks() []client.Task {
	var out []client.Task
	for _, st := range e.m.Status() {
		if s := e.m.Session(st.Name); s != nil {
			out = append(out, s.Tasks()...)
		}
	}
	return shown.Tasks(e.secretsNow(), out)
}

// ListTasks implements ui.Engine (2025-11-25 tasks/list).
func (e *engine) ListTasks(ctx context.Context, server string) ([]client.Task, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	tasks, err := s.ListTasks(ctx)
	return shown.Tasks(e.secretsNow(), tasks), e.shownErr(err)
}

// CancelTask implements ui.Engine.
func (e *engine) CancelTask(ctx context.Context, server, id string) error {
	s, err := e.session(server)
	if err != nil {
		return err
	}
	rc := e.rec.Begin(server, wire.MethodTasksCancel, "", recording.TaskParams{TaskID: id}, nil)
	err = s.CancelTask(ctx, id)
	rc.End(nil, err)
	return e.shownErr(err)
}

// resumeTasks follows the tasks a previous run left running on this
// server. They run detached from the UI's context: quitting elicit closes
// the sessions (the tasks stay on the server, to be resumed next time)
// instead of cancelling them.
func (e *engine) resumeTasks(name string) {
	if e.state == nil {
		return
	}
	s := e.m.Session(name)
	if s == nil {
		return
	}
	for _, t := range e.state.forServer(name) {
		e.bg.Go(func() { _, _ = s.ResumeTask(context.WithoutCancel(e.ctx), t.ID, t.Tool) })
	}
}

func (e *engine) ListResources(ctx context.Context, server string) ([]wire.Resource, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodResourcesList, "", nil, nil)
	res, err := s.ListResources(ctx)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) ListResourceTemplates(ctx context.Context, server string) ([]wire.ResourceTemplate, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodResourcesTemplatesList, "", nil, nil)
	res, err := s.ListResourceTemplates(ctx)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) Complete(ctx context.Context, server string, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodCompletionComplete, recording.CompleteName(ref), recording.CompleteParams(ref, arg, value, others), nil)
	res, err := s.Complete(ctx, ref, arg, value, others)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) Subscribe(ctx context.Context, server, uri string, on bool) error {
	s, err := e.session(server)
	if err != nil {
		return err
	}
	method := wire.MethodResourcesUnsubscribe
	if on {
		method = wire.MethodResourcesSubscribe
	}
	rc := e.rec.Begin(server, method, uri, recording.URIParams{URI: uri}, nil)
	if on {
		err = s.Subscribe(ctx, uri)
	} else {
		err = s.Unsubscribe(ctx, uri)
	}
	rc.End(nil, err)
	return e.shownErr(err)
}

func (e *engine) ReadResource(ctx context.Context, server, uri string) ([]wire.ResourceContents, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodResourcesRead, uri, recording.URIParams{URI: uri}, nil)
	res, err := s.ReadResource(ctx, uri)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) ListPrompts(ctx context.Context, server string) ([]wire.Prompt, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodPromptsList, "", nil, nil)
	res, err := s.ListPrompts(ctx)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*wire.GetPromptResult, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodPromptsGet, name, recording.PromptGetParams{Name: name, Arguments: args}, nil)
	res, err := s.GetPrompt(ctx, name, args)
	rc.End(res, err)
	return shown.Value(e.secretsNow(), res), e.shownErr(err)
}

func (e *engine) SetLogLevel(ctx context.Context, server, level string) error {
	s, err := e.session(server)
	if err != nil {
		return err
	}
	rc := e.rec.Begin(server, wire.MethodLoggingSetLevel, "", recording.SetLevelParams{Level: level}, nil)
	err = s.SetLogLevel(ctx, level)
	rc.End(nil, err)
	return e.shownErr(err)
}

func (e *engine) Reconnect(ctx context.Context, server string) error {
	if err := e.m.Reconnect(ctx, server); err != nil {
		return e.shownErr(err)
	}
	e.resumeTasks(server)
	e.listen(e.ctx, server)
	return nil
}

// Roots implements ui.Engine.
func (e *engine) Roots(server string) (client.RootsInfo, error) { return e.m.Roots(server) }

// SetRoots implements ui.Engine: the Manager keeps them for reconnects.
func (e *engine) SetRoots(ctx context.Context, server string, roots []client.Root) error {
	return e.m.SetRoots(ctx, server, roots)
}
