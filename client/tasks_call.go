package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
)

// How a tools/call becomes a task: CallTool asks tasks.prepare before the
// call goes out, and hands the result to tasks.answer, which follows a task
// to its end.

// DefaultTaskTTL is the ttl a 2025-11-25 task-augmented call asks for when
// CallOptions.TaskTTL is zero (the server may keep it shorter or longer).
const DefaultTaskTTL = time.Hour

// Values of Tool.Execution.TaskSupport.
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// rememberTools keeps each tool's execution.taskSupport from a complete
// tools/list, for CallTool.
func (t *taskTable) rememberTools(tools []wire.Tool) {
	m := make(map[string]string, len(tools))
	for _, tool := range tools {
		m[tool.Name] = tool.Execution.TaskSupport
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tools, t.known = m, true
}

// toolSupport is the tool's execution.taskSupport as the last
// tools/list said it. A session that never listed its tools lists them
// once, when the server declared task-augmented tools/call (so that a
// headless `elicit call` of a required-task tool just works).
func (t *taskTable) toolSupport(ctx context.Context, name string) string {
	t.mu.Lock()
	support, ok := t.tools[name]
	known := t.known
	t.mu.Unlock()
	if ok || known || !t.h.caps().TasksToolsCall {
		return support
	}
	if err := t.h.listTools(ctx); err != nil {
		t.h.notice("tools/list, to learn whether %q runs as a task, failed: %v; calling it without a task", name, err)
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tools[name]
}

// prepare decides how a tools/call meets tasks. In 2025-11-25 it asks
// for a task (params.task.ttl) when the tool requires one, or allows one
// and CallOptions.AsTask (default: the server declared task-augmented
// tools/call) says so; it returns TaskDesignCore then. In the extension
// the server decides, so every call may come back as a task:
// TaskDesignExtension. Otherwise "".
func (t *taskTable) prepare(ctx context.Context, c *call, name string, opts *CallOptions, params map[string]any) TaskDesign {
	design, err := t.design()
	if err != nil {
		return ""
	}
	if design == TaskDesignExtension {
		c.taskOK = true
		return design
	}
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	support := o.TaskSupport
	if support == "" {
		support = t.toolSupport(ctx, name)
	}
	declared := t.h.caps().TasksToolsCall
	ask := false
	switch support {
	case TaskSupportRequired:
		// The server refuses the call without a task; asking is the only
		// way it can work, even if it forgot to declare tasks.
		ask = true
	case TaskSupportOptional:
		ask = declared
		if o.AsTask != nil {
			ask = *o.AsTask && declared
			if *o.AsTask && !declared {
				t.h.notice("%q was asked to run as a task, but the server did not declare task-augmented tools/call; calling it without", name)
			}
		}
	}
	if !ask {
		return ""
	}
	ttl := o.TaskTTL
	if ttl <= 0 {
		ttl = DefaultTaskTTL
	}
	params["task"] = map[string]any{"ttl": ttl.Milliseconds()}
	return design
}

// answer follows a tools/call answered with a task to its end and
// returns its outcome; ok is false when raw is a plain result.
func (t *taskTable) answer(ctx context.Context, c *call, design TaskDesign, raw json.RawMessage) (res *wire.CallToolResult, ok bool, err error) {
	var w *wireTask
	var immediate string
	switch design {
	case TaskDesignCore:
		w, immediate, ok = coreCreated(raw)
	case TaskDesignExtension:
		w, ok = extCreated(raw)
	}
	if !ok {
		return nil, false, nil
	}
	if w == nil {
		return nil, true, fmt.Errorf("tools/call %q on %s: invalid response: a task result without a taskId", c.name, t.h.server)
	}
	f, err := t.follow(design, w.TaskID, c.name, c, w, immediate)
	if err != nil {
		return nil, true, err
	}
	res, err = t.await(ctx, f)
	return res, true, err
}
