package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// How a tools/call becomes a task: CallTool asks prepareTask before the
// call goes out, and hands the result to taskAnswer, which follows a task
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

// rememberTaskSupport keeps each tool's execution.taskSupport from a complete
// tools/list, for CallTool.
func (s *Session) rememberTaskSupport(tools []wire.Tool) {
	m := make(map[string]string, len(tools))
	for _, t := range tools {
		m[t.Name] = t.Execution.TaskSupport
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tasks.tools, s.tasks.known = m, true
}

// toolTaskSupport is the tool's execution.taskSupport as the last
// tools/list said it. A session that never listed its tools lists them
// once, when the server declared task-augmented tools/call (so that a
// headless `elicit call` of a required-task tool just works).
func (s *Session) toolTaskSupport(ctx context.Context, name string) string {
	s.mu.Lock()
	support, ok := s.tasks.tools[name]
	known := s.tasks.known
	caps := s.neg.caps
	s.mu.Unlock()
	if ok || known || !caps.TasksToolsCall {
		return support
	}
	if _, err := s.ListTools(ctx); err != nil {
		s.notice("tools/list, to learn whether %q runs as a task, failed: %v; calling it without a task", name, err)
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tasks.tools[name]
}

// prepareTask decides how a tools/call meets tasks. In 2025-11-25 it asks
// for a task (params.task.ttl) when the tool requires one, or allows one
// and CallOptions.AsTask (default: the server declared task-augmented
// tools/call) says so; it returns TaskDesignCore then. In the extension
// the server decides, so every call may come back as a task:
// TaskDesignExtension. Otherwise "".
func (s *Session) prepareTask(ctx context.Context, c *call, name string, opts *CallOptions, params map[string]any) TaskDesign {
	design, err := s.taskDesign()
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
		support = s.toolTaskSupport(ctx, name)
	}
	declared := s.ServerCapabilities().TasksToolsCall
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
				s.notice("%q was asked to run as a task, but the server did not declare task-augmented tools/call; calling it without", name)
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

// taskAnswer follows a tools/call answered with a task to its end and
// returns its outcome; ok is false when raw is a plain result.
func (s *Session) taskAnswer(ctx context.Context, c *call, design TaskDesign, raw json.RawMessage) (res *wire.CallToolResult, ok bool, err error) {
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
		return nil, true, fmt.Errorf("tools/call %q on %s: invalid response: a task result without a taskId", c.name, s.name)
	}
	f, err := s.follow(design, w.TaskID, c.name, c, w, immediate)
	if err != nil {
		return nil, true, err
	}
	res, err = s.awaitTask(ctx, f)
	return res, true, err
}
