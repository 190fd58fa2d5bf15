package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"sync"
	"sync/atomic"
	"time"

	sdkrpc "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task matrix server (matrix_tasks_test.go has the rows). The
// terminal-path matrix's two task deliveries (docs/terminal-paths.md):
// the 2025-11-25 core task, whose question is an elicitation/create tagged
// with related-task _meta and sent on the stream of our tasks/result, and
// the 2026-07-28 tasks extension, whose question is inputRequests["q"] in
// tasks/get and whose answer goes back in tasks/update. The server is
// go-sdk with the task methods added as custom methods (go-sdk v1.8.0 knows
// no tasks), as cmd/elicit/demo does it; its tool "ask" runs as a task
// that asks the one matrix question.

// matrixTaskEnv makes this test binary the task matrix server over stdio
// ("core" or "ext") instead of running tests; see init.
const matrixTaskEnv = "ELICIT_MATRIX_TASK_SERVER"

func init() {
	design := os.Getenv(matrixTaskEnv)
	if design == "" {
		return
	}
	if err := newMatrixTaskServer(context.Background(), design == "ext").Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

const (
	// matrixTaskPoll is the pollInterval the task server suggests.
	matrixTaskPoll = 20 * time.Millisecond
	// matrixTaskWork is the work a task does after its question ended and
	// before it completes: long enough that a tasks/cancel sent with the
	// answer (the person cancelled the call) finds the task still running.
	matrixTaskWork  = matrixLinger
	metaRelatedTask = "io.modelcontextprotocol/related-task"
	extTasksName    = "io.modelcontextprotocol/tasks"
)

// taskResult is a result whose JSON the server writes itself (go-sdk has
// no task types); ResultBase makes it an mcp.Result.
type taskResult struct {
	mcp.ResultBase
	fields map[string]any
}

func (r *taskResult) MarshalJSON() ([]byte, error) {
	out := maps.Clone(r.fields)
	if out == nil {
		out = map[string]any{}
	}
	if len(r.Meta) > 0 {
		out["_meta"] = r.Meta
	}
	return json.Marshal(out)
}

// taskParams are the params of every tasks/* method.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// matrixTasks is the task matrix server's task store; one per server.
type matrixTasks struct {
	life context.Context
	ext  bool

	mu    sync.Mutex
	n     int
	tasks map[string]*matrixTask
}

// matrixTask is one task of "ask". The fields below id are guarded by
// matrixTasks.mu.
type matrixTask struct {
	id       string
	withdraw time.Duration
	created  time.Time
	answer   chan string   // how the question ended, for the job (one slot)
	cancel   chan struct{} // closed by tasks/cancel

	status  string
	updated time.Time
	open    bool          // the question is outstanding
	asked   bool          // core: a tasks/result is asking it
	listed  bool          // ext: a tasks/get listed it
	text    string        // the result's text once completed
	changed chan struct{} // closed at every change
}

func terminalStatus(s string) bool {
	return s == "completed" || s == "failed" || s == "cancelled"
}

// newMatrixTaskServer's tool "ask" runs as a task (2025-11-25 core tasks, or
// with ext the 2026-07-28 extension) that asks the matrix question once and
// completes with "<action> <answer>", "withdrawn" (the server took the
// question back after matrixArgs.WithdrawMS) or "error <why>" (the answer
// was refused). What is still running when life ends is given up.
func newMatrixTaskServer(life context.Context, ext bool) *mcp.Server {
	impl := &mcp.Implementation{Name: "matrix-tasks", Version: "1"}
	var opts *mcp.ServerOptions
	if !ext {
		opts = legacyOpts(nil)
	}
	srv := mcp.NewServer(impl, opts)
	st := &matrixTasks{life: life, ext: ext, tasks: map[string]*matrixTask{}}
	srv.AddReceivingMiddleware(st.middleware)
	// What a call that the middleware did not make a task gets (none does).
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &sdkrpc.Error{Code: sdkrpc.CodeInvalidRequest, Message: "ask runs only as a task"}
	})
	for name, h := range map[string]func(context.Context, *mcp.ServerSession, *taskParams) (*taskResult, error){
		"tasks/get": st.get, "tasks/result": st.result, "tasks/cancel": st.cancel, "tasks/update": st.update,
	} {
		if err := mcp.AddReceivingCustomMethod(srv, name, h); err != nil {
			panic(err) // a go-sdk that made tasks/* standard: every cell would fail anyway
		}
	}
	return srv
}

// middleware answers tools/call of "ask" with a task, and declares tasks:
// the tasks capability in 2025-11-25, the extension in server/discover.
func (st *matrixTasks) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && r.Params.Name == "ask" {
			var in matrixArgs
			if len(r.Params.Arguments) > 0 && json.Unmarshal(r.Params.Arguments, &in) != nil {
				return nil, &sdkrpc.Error{Code: sdkrpc.CodeInvalidParams, Message: "arguments must be an object"}
			}
			return st.start(time.Duration(in.WithdrawMS) * time.Millisecond), nil
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			raw, err := json.Marshal(r)
			if err != nil {
				return nil, fmt.Errorf("patching initialize: %w", err)
			}
			var fields map[string]any
			if err := json.Unmarshal(raw, &fields); err != nil {
				return nil, fmt.Errorf("patching initialize: %w", err)
			}
			caps, _ := fields["capabilities"].(map[string]any)
			if caps == nil {
				caps = map[string]any{}
				fields["capabilities"] = caps
			}
			caps["tasks"] = map[string]any{"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
			return &taskResult{fields: fields}, nil
		case *mcp.DiscoverResult:
			if r.Capabilities != nil {
				r.Capabilities.AddExtension(extTasksName, nil)
			}
		}
		return res, nil
	}
}

// start creates a task and its job, and answers the CreateTaskResult.
func (st *matrixTasks) start(withdraw time.Duration) *taskResult {
	st.mu.Lock()
	st.n++
	now := time.Now()
	t := &matrixTask{id: fmt.Sprintf("mt-%d", st.n), withdraw: withdraw, created: now, updated: now,
		answer: make(chan string, 1), cancel: make(chan struct{}), status: "working", changed: make(chan struct{})}
	st.tasks[t.id] = t
	view := st.viewLocked(t, false)
	st.mu.Unlock()
	go st.run(t)
	if st.ext {
		view["resultType"] = "task"
		return &taskResult{fields: view}
	}
	return &taskResult{fields: map[string]any{"task": view}}
}

// run is the job: it asks, waits for how the question ends, works a little
// and completes. A cancelled task stops at once.
func (st *matrixTasks) run(t *matrixTask) {
	st.mu.Lock()
	t.open = true
	st.setLocked(t, "input_required")
	st.mu.Unlock()
	var text string
	select {
	case text = <-t.answer:
	case <-t.cancel:
		return
	case <-st.life.Done():
		return
	}
	work := time.NewTimer(matrixTaskWork)
	defer work.Stop()
	select {
	case <-work.C:
	case <-t.cancel:
		return
	case <-st.life.Done():
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if !terminalStatus(t.status) {
		t.text = text
		st.setLocked(t, "completed")
	}
}

func (st *matrixTasks) setLocked(t *matrixTask, status string) {
	t.status, t.updated = status, time.Now()
	close(t.changed)
	t.changed = make(chan struct{})
}

// deliver ends the question with text, once.
func (st *matrixTasks) deliver(t *matrixTask, text string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !t.open || terminalStatus(t.status) {
		return
	}
	t.open = false
	st.setLocked(t, "working")
	t.answer <- text
}

func (st *matrixTasks) lookup(p *taskParams) (*matrixTask, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if p != nil {
		if t := st.tasks[p.TaskID]; t != nil {
			return t, nil
		}
	}
	return nil, &sdkrpc.Error{Code: sdkrpc.CodeInvalidParams, Message: "unknown task"}
}

// viewLocked is the Task as the design sends it; detailed adds the
// extension's inline parts (and starts the withdrawal clock the first time
// the question is listed).
func (st *matrixTasks) viewLocked(t *matrixTask, detailed bool) map[string]any {
	v := map[string]any{"taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano)}
	if !st.ext {
		v["ttl"], v["pollInterval"] = 60000, matrixTaskPoll.Milliseconds()
		return v
	}
	v["ttlMs"], v["pollIntervalMs"] = 60000, matrixTaskPoll.Milliseconds()
	if !detailed {
		return v
	}
	switch {
	case t.status == "input_required" && t.open:
		v["inputRequests"] = map[string]any{"q": map[string]any{"method": "elicitation/create",
			"params": map[string]any{"message": matrixQuestion, "requestedSchema": matrixSchema}}}
		if !t.listed && t.withdraw > 0 {
			time.AfterFunc(t.withdraw, func() { st.deliver(t, "withdrawn") })
		}
		t.listed = true
	case t.status == "completed":
		v["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": t.text}}}
	}
	return v
}

func (st *matrixTasks) get(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*taskResult, error) {
	t, err := st.lookup(p)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	v := st.viewLocked(t, true)
	if st.ext {
		v["resultType"] = "complete"
	}
	return &taskResult{fields: v}, nil
}

// cancel moves the task to cancelled at once (both designs allow it) and
// stops its job; a 2025-11-25 question being asked is withdrawn with it.
func (st *matrixTasks) cancel(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*taskResult, error) {
	t, err := st.lookup(p)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if terminalStatus(t.status) {
		return nil, &sdkrpc.Error{Code: sdkrpc.CodeInvalidParams, Message: "the task is already " + t.status}
	}
	t.open = false
	st.setLocked(t, "cancelled")
	close(t.cancel)
	if st.ext {
		return &taskResult{fields: map[string]any{"resultType": "complete"}}, nil
	}
	return &taskResult{fields: st.viewLocked(t, false)}, nil
}

// update takes the extension's answers (only "q" exists).
func (st *matrixTasks) update(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*taskResult, error) {
	if !st.ext {
		return nil, &sdkrpc.Error{Code: sdkrpc.CodeMethodNotFound, Message: "tasks/update is not part of 2025-11-25"}
	}
	t, err := st.lookup(p)
	if err != nil {
		return nil, err
	}
	if raw, ok := p.InputResponses["q"]; ok {
		var r mcp.ElicitResult
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, &sdkrpc.Error{Code: sdkrpc.CodeInvalidParams, Message: "inputResponses.q: " + err.Error()}
		}
		st.deliver(t, fmt.Sprintf("%s %v", r.Action, r.Content["answer"]))
	}
	return &taskResult{fields: map[string]any{"resultType": "complete"}}, nil
}

// result is 2025-11-25 tasks/result: it asks the task's question on its own
// stream while one is outstanding, and answers once the task is terminal.
func (st *matrixTasks) result(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskResult, error) {
	if st.ext {
		return nil, &sdkrpc.Error{Code: sdkrpc.CodeMethodNotFound, Message: "tasks/result is not part of the tasks extension"}
	}
	t, err := st.lookup(p)
	if err != nil {
		return nil, err
	}
	for {
		st.mu.Lock()
		status, ask, changed := t.status, t.open && !t.asked, t.changed
		t.asked = t.asked || ask
		st.mu.Unlock()
		if ask {
			st.askCore(ctx, ss, t)
			if ctx.Err() != nil || st.life.Err() != nil {
				return nil, errors.New("tasks/result ended before the task did")
			}
			continue
		}
		if terminalStatus(status) {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-st.life.Done():
			return nil, errors.New("the server is shutting down")
		}
	}
	st.mu.Lock()
	status, text := t.status, t.text
	st.mu.Unlock()
	if status == "cancelled" {
		return nil, &sdkrpc.Error{Code: -32000, Message: "task " + t.id + " was cancelled"}
	}
	return &taskResult{ResultBase: mcp.ResultBase{Meta: mcp.Meta{metaRelatedTask: map[string]any{"taskId": t.id}}},
		fields: map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}}, nil
}

// askCore sends the question as elicitation/create with related-task
// _meta, withdrawing it (go-sdk sends notifications/cancelled) after
// t.withdraw or when the task is cancelled.
func (st *matrixTasks) askCore(ctx context.Context, ss *mcp.ServerSession, t *matrixTask) {
	ectx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(st.life, stop)()
	var withdrawn atomic.Bool
	if t.withdraw > 0 {
		tm := time.AfterFunc(t.withdraw, func() { withdrawn.Store(true); stop() })
		defer tm.Stop()
	}
	go func() {
		select {
		case <-t.cancel:
			stop()
		case <-ectx.Done():
		}
	}()
	res, err := ss.Elicit(ectx, &mcp.ElicitParams{Meta: mcp.Meta{metaRelatedTask: map[string]any{"taskId": t.id}},
		Message: matrixQuestion, RequestedSchema: matrixSchema})
	switch {
	case err == nil:
		st.deliver(t, fmt.Sprintf("%s %v", res.Action, res.Content["answer"]))
	case withdrawn.Load():
		st.deliver(t, "withdrawn")
	case ctx.Err() != nil || st.life.Err() != nil:
		// This tasks/result went away: the next one asks again.
		st.mu.Lock()
		t.asked = false
		st.mu.Unlock()
	default:
		// Refused (content that fails the schema) or the task was
		// cancelled; deliver does nothing for a cancelled task.
		st.deliver(t, "error "+err.Error())
	}
}
