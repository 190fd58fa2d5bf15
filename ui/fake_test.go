package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// fakeEngine stands in for client.Manager: the UI's contract with the
// engine is this interface, and a real Manager is wired in cmd/elicit.
type fakeEngine struct {
	mu      sync.Mutex
	servers []ServerStatus
	tools   map[string][]wire.Tool
	journal *question.Journal
	// findings is what Findings returns (findings_test.go).
	findings *findings.Recorder
	calls    []string
	hosted   []string // HostApp: "server/tool args"
	levels   []string
	// levelErr is what SetLogLevel returns.
	levelErr error
	// Resources and prompt templates per server; contents per URI.
	resources  map[string][]wire.Resource
	rtemplates map[string][]wire.ResourceTemplate
	rtemplErr  error
	// listErr fails a list ("resources demo", "prompts demo") with its error.
	listErr  map[string]error
	contents map[string][]wire.ResourceContents
	prompts  map[string][]wire.Prompt
	// readFn replaces contents when set; getFn answers prompts/get.
	readFn func(ctx context.Context, uri string) ([]wire.ResourceContents, error)
	getFn  func(name string, args map[string]string) (*wire.GetPromptResult, error)
	// skills per server, skillFiles per URI (skills_test.go).
	skills     map[string][]skills.Skill
	skillsErr  error
	skillFiles map[string]SkillFileRead
	lists      []string // "resources demo", "prompts demo": list calls made
	reads      []string // "server uri"
	gets       []fakeGet

	// listHook, when set, runs first in Tools, ListResources and
	// ListPrompts (what is "tools", "resources" or "prompts"), outside
	// the lock: it may block, as a slow server does.
	listHook func(ctx context.Context, what, server string)
	// toolsErr, when set, is what Tools answers instead of the list.
	toolsErr error

	// callFn runs a call; nil returns an empty result.
	callFn func(ctx context.Context, tool string, args map[string]any, onProgress func(client.CallProgress)) (*wire.CallToolResult, error)

	// Tasks. A server whose Caps declare none answers tasks/list with
	// client.ErrNoTasks unless listFn says otherwise.
	tasks     []client.Task
	cancels   []string // "server id"
	cancelErr error
	listed    []string // servers asked for tasks/list
	listFn    func(server string) ([]client.Task, error)

	roots fakeRoots // Roots and SetRoots (roots_test.go)

	// completed are the URL elicitations said done; completeErr is what
	// CompleteElicitation answers.
	completed   []question.Key
	completeErr error

	// Resource subscriptions asked ("subscribe demo URI"), and the error.
	subs   []string
	subErr error

	// completion/complete: what was asked, and the answer (nil: none).
	completes  []fakeComplete
	completeFn func(ctx context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error)

	// details describe servers for the server view (a server without
	// one is described by its status alone); reconnects records the
	// Reconnect calls, and reconnectFn, when set, answers them.
	details     map[string]ServerDetail
	reconnects  []string
	reconnectFn func(ctx context.Context, server string) error

	fakeAgents // agent_fake_test.go
}

var _ Engine = (*fakeEngine)(nil)

// tasksCaps are the capabilities of a 2025-11-25 server that runs tools
// as tasks.
var tasksCaps = client.ServerCapabilities{Tasks: true, TasksList: true, TasksCancel: true, TasksToolsCall: true}

func (f *fakeEngine) Tasks() []client.Task {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]client.Task(nil), f.tasks...)
}

func (f *fakeEngine) ListTasks(_ context.Context, server string) ([]client.Task, error) {
	f.mu.Lock()
	f.listed = append(f.listed, server)
	fn := f.listFn
	caps := serverCaps(f.servers, server)
	f.mu.Unlock()
	switch {
	case fn != nil:
		return fn(server)
	case !caps.Tasks && !caps.TasksExtension:
		return nil, fmt.Errorf("tasks/list on %s: %w: it declared no tasks", server, client.ErrNoTasks)
	}
	return nil, nil
}

func (f *fakeEngine) CancelTask(_ context.Context, server, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels = append(f.cancels, server+" "+id)
	return f.cancelErr
}

// called returns the calls made so far.
func (f *fakeEngine) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func newFakeEngine() *fakeEngine {
	return &fakeEngine{
		servers:   []ServerStatus{{Name: "demo", State: client.StateReady, Protocol: "2025-11-25", Era: "2025-11-25 stateful"}},
		tools:     map[string][]wire.Tool{},
		resources: map[string][]wire.Resource{},
		contents:  map[string][]wire.ResourceContents{},
		prompts:   map[string][]wire.Prompt{},
		journal:   question.NewJournal(0),
	}
}

func (f *fakeEngine) Servers() []ServerStatus { return f.servers }
func (f *fakeEngine) Tools(ctx context.Context, server string) ([]wire.Tool, error) {
	f.hookList(ctx, "tools", server)
	f.mu.Lock()
	err := f.toolsErr
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.tools[server], nil
}

func (f *fakeEngine) hookList(ctx context.Context, what, server string) {
	f.mu.Lock()
	hook := f.listHook
	f.mu.Unlock()
	if hook != nil {
		hook(ctx, what, server)
	}
}

// HostApp records what it was asked to host and gives a page's URL,
// not opened (no browser here).
func (f *fakeEngine) HostApp(_ context.Context, server, tool string, args map[string]any) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hosted = append(f.hosted, fmt.Sprintf("%s/%s %v", server, tool, args))
	return "http://127.0.0.1:9/tokentokentokentoken/", false, nil
}

// Call records the call, with a "task " prefix when it was asked to run
// as one.
func (f *fakeEngine) Call(ctx context.Context, server, tool string, args map[string]any, opts CallOptions) (*wire.CallToolResult, error) {
	f.mu.Lock()
	call := fmt.Sprintf("%s/%s %v", server, tool, args)
	if opts.AsTask != nil && *opts.AsTask {
		call = "task " + call
	}
	f.calls = append(f.calls, call)
	fn := f.callFn
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, tool, args, opts.OnProgress)
	}
	return &wire.CallToolResult{}, nil
}
func (f *fakeEngine) ListResources(ctx context.Context, server string) ([]wire.Resource, error) {
	f.hookList(ctx, "resources", server)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists = append(f.lists, "resources "+server)
	return f.resources[server], f.listErr["resources "+server]
}
func (f *fakeEngine) ListResourceTemplates(_ context.Context, server string) ([]wire.ResourceTemplate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rtemplates[server], f.rtemplErr
}

func (f *fakeEngine) Complete(ctx context.Context, server string, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
	f.mu.Lock()
	f.completes = append(f.completes, fakeComplete{server: server, ref: ref, arg: arg, value: value, others: others})
	fn := f.completeFn
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, ref, arg, value, others) // unlocked: it may block, as a slow server does
	}
	return &wire.Completion{Values: []string{}}, nil
}

// completesAsked is a copy of the completion/complete requests so far.
func (f *fakeEngine) completesAsked() []fakeComplete {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeComplete(nil), f.completes...)
}

func (f *fakeEngine) Subscribe(_ context.Context, server, uri string, on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	verb := "unsubscribe"
	if on {
		verb = "subscribe"
	}
	f.subs = append(f.subs, verb+" "+server+" "+uri)
	return f.subErr
}

// fakeComplete is one completion/complete asked of the fake.
type fakeComplete struct {
	server, arg, value string
	ref                wire.CompleteRef
	others             map[string]string
}

func (f *fakeEngine) ReadResource(ctx context.Context, server, uri string) ([]wire.ResourceContents, error) {
	f.mu.Lock()
	f.reads = append(f.reads, server+" "+uri)
	fn := f.readFn
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, uri)
	}
	return f.contents[uri], nil
}
func (f *fakeEngine) ListPrompts(ctx context.Context, server string) ([]wire.Prompt, error) {
	f.hookList(ctx, "prompts", server)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists = append(f.lists, "prompts "+server)
	return f.prompts[server], f.listErr["prompts "+server]
}
func (f *fakeEngine) GetPrompt(_ context.Context, server, name string, args map[string]string) (*wire.GetPromptResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets = append(f.gets, fakeGet{server, name, args})
	if f.getFn != nil {
		return f.getFn(name, args)
	}
	return &wire.GetPromptResult{}, nil
}

// fakeGet records one prompts/get.
type fakeGet struct {
	server, name string
	args         map[string]string
}

func (f *fakeEngine) SetLogLevel(_ context.Context, server, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.levels = append(f.levels, server+"="+level)
	return f.levelErr
}
func (f *fakeEngine) Reconnect(ctx context.Context, server string) error {
	f.mu.Lock()
	f.reconnects = append(f.reconnects, server)
	fn := f.reconnectFn
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, server)
	}
	return nil
}

func (f *fakeEngine) Server(name string) (ServerDetail, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.details[name]; ok {
		return d, nil
	}
	for _, s := range f.servers {
		if s.Name == name {
			return ServerDetail{ServerStatus: s}, nil
		}
	}
	return ServerDetail{}, fmt.Errorf("server %s: %w", name, client.ErrUnknownServer)
}

func (f *fakeEngine) Journal() JournalSnapshot { return JournalOf(f.journal) }

func (f *fakeEngine) Findings(seen uint64) ([]findings.Finding, uint64) {
	return FindingsOf(f.findings, seen)
}

func (f *fakeEngine) CompleteElicitation(k question.Key) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.completed = append(f.completed, k)
	return f.completeErr
}

func (f *fakeEngine) completedKeys() []question.Key {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]question.Key(nil), f.completed...)
}

// driver runs the model synchronously (AGENTS.md, charm v2 facts: update
// driver): it calls Update, runs the returned commands and feeds their
// messages back, in order. A test that drives one runs in a synctest
// bubble (driver_wait_test.go says how a command is found to be waiting:
// blink, ticks, gated calls); their results go to late.
type driver struct {
	t       testing.TB
	m       *Model
	eng     *fakeEngine
	replies map[question.Key]chan question.Outcome
	wg      sync.WaitGroup
	inbox   chan tea.Msg // what the Bridge delivered
	// take is a command's message if it has one to give once it has
	// returned or is waiting (driver_wait_test.go).
	take func(<-chan tea.Msg) (tea.Msg, bool)

	// late holds the results of commands collect stopped waiting for
	// (ticks, blinks, slow calls); awaitLate feeds the ones a test wants.
	lateMu sync.Mutex
	late   []tea.Msg
	// lateAdded is signalled (without blocking) each time late grows.
	lateAdded chan struct{}
}

// awaitLate waits for a late command result that match accepts, removes
// it and feeds it to the model. The 5 s are the bubble's: they pass at
// once when nothing in it can move, so a result that never comes fails
// the test without the wait.
func (d *driver) awaitLate(match func(tea.Msg) bool) tea.Msg {
	d.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		d.lateMu.Lock()
		var found tea.Msg
		for i, msg := range d.late {
			if match(msg) {
				found = msg
				d.late = append(d.late[:i], d.late[i+1:]...)
				break
			}
		}
		d.lateMu.Unlock()
		if found != nil {
			d.send(found)
			return found
		}
		select {
		case <-d.lateAdded:
		case <-timeout:
			d.t.Fatal("no late message matched within 5 s")
			return nil
		}
	}
}

// pump feeds the model what the bridge has delivered so far.
func (d *driver) pump() {
	for {
		select {
		case msg := <-d.inbox:
			d.send(msg)
		default:
			return
		}
	}
}

// waitInbox waits for the bridge's next message and feeds it.
func (d *driver) waitInbox() tea.Msg {
	d.t.Helper()
	select {
	case msg := <-d.inbox:
		d.send(msg)
		return msg
	case <-time.After(5 * time.Second):
		d.t.Fatal("the bridge delivered nothing within 5 s")
		return nil
	}
}

// newDriver starts a model on a fake engine; setup runs before Init, so
// what it puts in the engine is what the model first loads. A test calls
// it inside synctest.Test; a benchmark, which cannot have a bubble, gets
// takeWithin (driver_wait_test.go).
func newDriver(t testing.TB, opts Options, setup ...func(*fakeEngine)) *driver {
	t.Helper()
	take := takeSettled
	if _, ok := t.(*testing.B); ok {
		take = takeWithin(benchCmdWait)
	} else if !inBubble() {
		t.Fatal("newDriver outside a synctest bubble: run the test's body in synctest.Test")
	}
	eng := newFakeEngine()
	for _, f := range setup {
		f(eng)
	}
	if opts.OpenURL == nil {
		opts.OpenURL = func(string) error { return nil }
	}
	if opts.ArmDelay == 0 {
		opts.ArmDelay = -1 // answer at once; TestPaneArmDelay tests the delay
	}
	cancel := func() {}
	if opts.Context == nil {
		opts.Context, cancel = context.WithCancel(context.Background())
	}
	br := NewBridge(BridgeOptions{})
	m := New(eng, br, opts)
	d := &driver{t: t, m: m, eng: eng, replies: map[question.Key]chan question.Outcome{},
		inbox: make(chan tea.Msg, 1024), lateAdded: make(chan struct{}, 1), take: take}
	br.Attach(func(msg tea.Msg) { d.inbox <- msg })
	t.Cleanup(br.Close)
	// Dropped commands (ticks, cursor blink) end within about a second
	// (at once on a bubble's clock); wait for them so none outlives the
	// test.
	t.Cleanup(d.wg.Wait)
	// Cleanups run last-first: this ends the model's context before the
	// wait above, so a call a failed test left running returns.
	t.Cleanup(cancel)
	d.run(m.Init())
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	return d
}

func (d *driver) send(msg tea.Msg) {
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		msg, queue = queue[0], queue[1:]
		_, cmd := d.m.Update(msg)
		queue = append(queue, d.collect(cmd)...)
	}
}

func (d *driver) run(cmd tea.Cmd) {
	for _, msg := range d.collect(cmd) {
		d.send(msg)
	}
}

var seqType = reflect.TypeFor[tea.Cmd]()

// collect runs cmd and flattens batches and sequences into messages. The
// command runs in a goroutine of its own; d.take either gets its message
// (work: fed now, in order) or finds it waiting (a timer, a channel: its
// message, when it comes, goes to late).
func (d *driver) collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg)    // unbuffered: a result nobody takes goes to late
	gave := make(chan struct{}) // closed when collect stops waiting
	d.wg.Go(func() {
		msg := cmd()
		select {
		case ch <- msg:
		case <-gave:
			d.lateMu.Lock()
			d.late = append(d.late, msg)
			d.lateMu.Unlock()
			select {
			case d.lateAdded <- struct{}{}:
			default:
			}
		}
	})
	msg, ok := d.take(ch)
	if !ok {
		close(gave)
		return nil
	}
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, d.collect(c)...)
		}
		return out
	}
	if rv := reflect.ValueOf(msg); rv.Kind() == reflect.Slice && rv.Type().Elem() == seqType {
		var out []tea.Msg
		for i := 0; i < rv.Len(); i++ {
			c, _ := rv.Index(i).Interface().(tea.Cmd)
			out = append(out, d.collect(c)...)
		}
		return out
	}
	if t := reflect.TypeOf(msg); t.PkgPath() == teaPkg && !token.IsExported(t.Name()) {
		return nil
	}
	return []tea.Msg{msg}
}

func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

// viewName is the name of the tab on show.
func (m *Model) viewName() string { return m.tabs[m.view].name }

// screenOf returns m's screen of type S, from the registry.
func screenOf[S screen](m *Model) S {
	for _, t := range m.tabs {
		if s, ok := t.screen.(S); ok {
			return s
		}
	}
	panic(fmt.Sprintf("no %T in the registry", *new(S)))
}

func (d *driver) tools() *toolsView         { return screenOf[*toolsView](d.m) }
func (d *driver) tasks() *tasksView         { return screenOf[*tasksView](d.m) }
func (d *driver) logs() *logView            { return screenOf[*logView](d.m) }
func (d *driver) traffic() *trafficView     { return screenOf[*trafficView](d.m) }
func (d *driver) templates() *templatesView { return screenOf[*templatesView](d.m) }

func (d *driver) keys(ks ...tea.KeyPressMsg) {
	for _, k := range ks {
		d.send(k)
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// open delivers a prompt as Bridge.Prompt would, keeping its reply
// channel so the test can read the answer.
func (d *driver) open(p *question.Question) chan question.Outcome {
	reply := make(chan question.Outcome, 1)
	d.replies[p.Key] = reply
	d.send(promptOpenedMsg{p: p, reply: reply})
	return reply
}

// reply returns the answer sent for a prompt, or fails.
func (d *driver) reply(k question.Key) question.Outcome {
	d.t.Helper()
	select {
	case o := <-d.replies[k]:
		return o
	default:
		d.t.Fatalf("no answer sent for %s", k)
		return question.Outcome{}
	}
}

func (d *driver) noReply(k question.Key) {
	d.t.Helper()
	select {
	case o := <-d.replies[k]:
		d.t.Fatalf("%s: answer %v sent, want none", k, o.Kind)
	default:
	}
}

var (
	keyEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
	keyF2    = tea.KeyPressMsg{Code: tea.KeyF2}
	keyF3    = tea.KeyPressMsg{Code: tea.KeyF3}
	keyDown  = tea.KeyPressMsg{Code: tea.KeyDown}
	keyCtrlX = tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}
	keySlash = tea.KeyPressMsg{Code: '/', Text: "/"}
	keyF1    = tea.KeyPressMsg{Code: tea.KeyF1}
)

func key1(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

func reqKey(server string, id int64) question.Key {
	return question.Key{Server: server, Delivery: question.ServerRequest, RequestID: jsonrpc.IntID(id)}
}

// formPrompt builds a form-mode prompt from a requestedSchema.
func formPrompt(t testing.TB, server string, id int64, message, rawSchema string) *question.Question {
	t.Helper()
	s, err := schema.Parse(json.RawMessage(rawSchema), schema.Subset2025_11_25)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	return &question.Question{Key: reqKey(server, id), Server: server, Mode: question.ModeForm, Message: message,
		Schema: s, RawSchema: json.RawMessage(rawSchema), Arrived: time.Now(),
		Origin: question.Origin{Kind: question.OriginToolCall, Name: "deploy", CallID: jsonrpc.IntID(3)}}
}

const nameSchema = `{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}`

const pickSchema = `{"type":"object","properties":{"env":{"type":"string","title":"Env","enum":["dev","staging","prod"]}},"required":["env"]}`

var (
	keyF6 = tea.KeyPressMsg{Code: tea.KeyF6}
	keyF8 = tea.KeyPressMsg{Code: tea.KeyF8}
)

func contextWithCause() (context.Context, context.CancelCauseFunc) {
	return context.WithCancelCause(context.Background())
}

func itoa(i int) string { return fmt.Sprint(i) }

// Skills answers from f.skills (per server); skillsErr fails them.
func (f *fakeEngine) Skills(ctx context.Context, server string) ([]skills.Skill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists = append(f.lists, "skills "+server)
	if f.skillsErr != nil {
		return nil, f.skillsErr
	}
	return f.skills[server], nil
}

// ReadSkillFile answers from f.skillFiles, by URI.
func (f *fakeEngine) ReadSkillFile(ctx context.Context, server string, sk skills.Skill, uri string) (SkillFileRead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, server+" "+uri)
	r, ok := f.skillFiles[uri]
	if !ok {
		return SkillFileRead{}, errors.New("no such file")
	}
	return r, nil
}
