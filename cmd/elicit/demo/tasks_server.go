package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How the task engine plugs into go-sdk v1.8.0, which knows nothing of
// tasks:
//
//   - tasks/get, tasks/result, tasks/list, tasks/cancel and tasks/update are
//     custom methods (AddReceivingCustomMethod); each handler picks the era
//     from the request's _meta, as go-sdk does.
//   - Receiving middleware (this file) catches tools/call of a task tool
//     before go-sdk's handler runs and answers it with a task: a
//     CreateTaskResult ({"task": {...}}) in 2025-11-25, a flat
//     {"resultType": "task", ...} in 2026-07-28. go-sdk marshals whatever
//     Result the middleware returns and only adds resultType to its own
//     types, so returning a jsonResult is enough; no wire rewriting is
//     needed for 2026-07-28, on any transport.
//   - The same middleware adds what go-sdk's types cannot carry: the
//     top-level tasks capability in a 2025-11-25 initialize result, the
//     extension in server/discover, and execution.taskSupport in tools/list
//     (go-sdk's Tool has no Execution field).
//   - 2025-11-25 asks for a task with params.task, which go-sdk drops while
//     decoding tools/call. The transport wrappers in tasks_transport.go move
//     it into _meta first, where this middleware finds it.

// Values of execution.taskSupport.
const (
	taskRequired = "required"
	taskOptional = "optional"
)

// addTaskTool registers a tool that runs as a task. Its handler is what a
// call without a task gets: the job run inline for an optional tool, an
// error for a required one (the middleware answers those first).
func (s *taskStore) addTaskTool(srv *mcp.Server, tool *mcp.Tool, support string, run job) {
	s.tools[tool.Name] = taskTool{support: support, run: run}
	srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if support == taskRequired {
			return nil, needsTask(tool.Name)
		}
		return run(ctx, s.inline())
	})
}

// inline is a work for a job run as a plain tools/call: there is no task
// to report to, cancel or ask through.
func (s *taskStore) inline() *work {
	return &work{store: s, task: &task{
		cancel: make(chan struct{}), questions: map[string]*question{}, changed: make(chan struct{}),
		status: taskWorking,
	}}
}

// needsTask is the 2025-11-25 answer to a required tool called without a
// task. The spec allows -32601 or -32600 "Task augmentation required";
// go-sdk replaces the message of every -32601 with "method not found", so
// the demo answers -32600, whose message survives.
func needsTask(tool string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
		"Task augmentation required: %s runs only as a task; in 2025-11-25 call it with params.task, "+
			"in 2026-07-28 declare the %s extension", tool, extTasks)}
}

// needsExtension is the 2026-07-28 answer to the same (-32021, naming the
// capability).
func needsExtension(what string) error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{extTasks: map[string]any{}}}}) // a constant map: cannot fail
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Data: data, Message: fmt.Sprintf(
		"%s needs the %s extension: declare it in the request's _meta clientCapabilities.extensions", what, extTasks)}
}

// legacyTasks reports whether a session negotiated 2025-11-25, the only
// version with core tasks.
func legacyTasks(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= ProtocolLegacy && p.ProtocolVersion < modernVersion
}

// middleware is the receiving middleware described at the top of the file.
func (s *taskStore) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params != nil {
				return s.callTool(ctx, r, next, method)
			}
		case *mcp.ListToolsRequest:
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			var meta map[string]any
			if r.Params != nil {
				meta = r.Params.GetMeta()
			}
			return s.patchToolList(res, newProtocol(meta))
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch method {
		case "initialize":
			return declareLegacyTasks(res)
		case "server/discover":
			if d, ok := res.(*mcp.DiscoverResult); ok && d.Capabilities != nil {
				d.Capabilities.AddExtension(extTasks, nil)
			}
		}
		return res, nil
	}
}

// callTool answers a tools/call of a task tool with a task when the client
// asked for one (2025-11-25) or can take one (2026-07-28).
func (s *taskStore) callTool(ctx context.Context, r *mcp.CallToolRequest, next mcp.MethodHandler, method string) (mcp.Result, error) {
	meta := r.Params.GetMeta()
	asked, augmented := meta[metaLegacyTask]
	delete(meta, metaLegacyTask) // the demo's own marker; the tool never sees it
	tool, isTask := s.tools[r.Params.Name]

	if newProtocol(meta) { // 2026-07-28: the legacy params.task is ignored; the server decides
		switch {
		case !isTask:
		case declaresTasks(meta):
			if err := objectArgs(r.Params.Arguments); err != nil {
				return nil, err
			}
			v, err := s.start(taskSpec{tool: r.Params.Name, run: tool.run, modern: true, ttl: defaultTaskTTL})
			if err != nil {
				return nil, err
			}
			fields := v.extTask(false)
			fields["resultType"] = "task"
			return &jsonResult{fields: fields}, nil
		case tool.support == taskRequired:
			return nil, needsExtension(r.Params.Name)
		}
		return next(ctx, method, r)
	}

	// A receiver that did not declare tasks (before 2025-11-25) ignores
	// params.task.
	if augmented && legacyTasks(r.Session) {
		if !isTask { // -32601 as the spec says; go-sdk rewrites the message to "method not found"
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf(
				"%s does not run as a task (its execution.taskSupport is forbidden): call it without params.task", r.Params.Name)}
		}
		if err := objectArgs(r.Params.Arguments); err != nil {
			return nil, err
		}
		req := decodeLegacyTask(asked)
		spec := taskSpec{tool: r.Params.Name, run: tool.run, owner: r.Session, ttl: req.ttl()}
		if req.Relay {
			spec.notify = s.statusNotifier(r.Session)
		}
		v, err := s.start(spec)
		if err != nil {
			return nil, err
		}
		res := &jsonResult{fields: map[string]any{"task": v.legacyTask()}}
		res.Meta = mcp.Meta{metaImmediate: fmt.Sprintf("%s is running as task %s; poll tasks/get, then read tasks/result.", r.Params.Name, v.id)}
		return res, nil
	}
	if isTask && tool.support == taskRequired {
		return nil, needsTask(r.Params.Name)
	}
	return next(ctx, method, r)
}

// objectArgs checks that a task tool's arguments are absent or an object;
// the reflow tools take none, and the call never reaches go-sdk's checks.
func objectArgs(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments must be an object"}
	}
	return nil
}

// legacyTaskRequest is params.task as the transport wrappers pass it on.
type legacyTaskRequest struct {
	TTL   *float64 `json:"ttl"`   // milliseconds; absent or null: the server's default
	Relay bool     `json:"relay"` // the transport can carry notifications/tasks/status
}

func decodeLegacyTask(v any) legacyTaskRequest {
	var r legacyTaskRequest
	if raw, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(raw, &r) // a malformed request gets the defaults
	}
	return r
}

// ttl is the requested ttl clamped to what the demo keeps tasks for (a
// receiver may override the request).
func (r legacyTaskRequest) ttl() time.Duration {
	if r.TTL == nil {
		return defaultTaskTTL
	}
	return min(max(time.Duration(*r.TTL)*time.Millisecond, minTaskTTL), maxTaskTTL)
}

// patchToolList adds execution.taskSupport to the task tools.
func (s *taskStore) patchToolList(res mcp.Result, modern bool) (mcp.Result, error) {
	jr, err := rewrite(res)
	if err != nil {
		return nil, err
	}
	tools, _ := jr.fields["tools"].([]any)
	for _, tl := range tools {
		m, _ := tl.(map[string]any)
		name, _ := m["name"].(string)
		if tt, ok := s.tools[name]; ok {
			m["execution"] = map[string]any{"taskSupport": tt.support}
		}
	}
	if modern { // go-sdk sets it only on its own result types
		jr.fields["resultType"] = "complete"
	}
	return jr, nil
}

// declareLegacyTasks adds the 2025-11-25 tasks capability to an initialize
// result that negotiated 2025-11-25.
func declareLegacyTasks(res mcp.Result) (mcp.Result, error) {
	ir, ok := res.(*mcp.InitializeResult)
	if !ok || ir.ProtocolVersion < ProtocolLegacy || ir.ProtocolVersion >= modernVersion {
		return res, nil
	}
	jr, err := rewrite(res)
	if err != nil {
		return nil, err
	}
	caps, _ := jr.fields["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
		jr.fields["capabilities"] = caps
	}
	caps["tasks"] = map[string]any{
		"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}},
	}
	return jr, nil
}

// taskParams are the params of every tasks/* method, both eras.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	Cursor         string                     `json:"cursor,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

func (p *taskParams) meta() map[string]any {
	if p == nil {
		return nil
	}
	return p.GetMeta()
}

func (p *taskParams) id() string {
	if p == nil {
		return ""
	}
	return p.TaskID
}

// taskHandler serves one tasks/* method in one era.
type taskHandler func(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error)

// registerMethods adds the tasks/* methods. Each dispatches on the era of
// the request; a method the era does not have is -32601.
func (s *taskStore) registerMethods(srv *mcp.Server) {
	methods := []struct {
		name           string
		legacy, modern taskHandler
	}{
		{"tasks/get", s.legacyGet, s.extGet},
		{"tasks/result", s.legacyResult, nil},
		{"tasks/list", s.legacyList, nil},
		{"tasks/cancel", s.legacyCancel, s.extCancel},
		{"tasks/update", nil, s.extUpdate},
	}
	for _, m := range methods {
		err := mcp.AddReceivingCustomMethod(srv, m.name, func(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
			h, era := m.legacy, "2025-11-25"
			if newProtocol(p.meta()) {
				h, era = m.modern, "2026-07-28"
				if h != nil && !declaresTasks(p.meta()) {
					return nil, needsExtension(m.name)
				}
			}
			if h == nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("%s is not part of tasks in %s", m.name, era)}
			}
			return h(ctx, ss, p)
		})
		if err != nil {
			// Only a go-sdk that made tasks/* standard methods gets here, and
			// then every test fails at once: a programming error, not input.
			panic(fmt.Sprintf("demo: registering %s: %v", m.name, err))
		}
	}
}
