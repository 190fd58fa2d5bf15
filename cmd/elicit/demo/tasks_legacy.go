package demo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The 2025-11-25 core tasks (SEP-1686): tasks belong to the session that
// created them; tasks/get and tasks/cancel answer the Task itself, flat;
// tasks/result blocks until the task ends and is also the stream on which
// the task's questions travel, as elicitation/create requests tagged with
// _meta["io.modelcontextprotocol/related-task"].

// codeTaskCancelled is the JSON-RPC error tasks/result answers for a
// cancelled task. The spec names none; -32000 is the first code JSON-RPC
// leaves to implementations.
const codeTaskCancelled = -32000

// relatedTask is the _meta that ties a message to task id.
func relatedTask(id string) mcp.Meta {
	return mcp.Meta{metaRelatedTask: map[string]any{"taskId": id}}
}

func (s *taskStore) legacyGet(_ context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), false, ss)
	if err != nil {
		return nil, err
	}
	return &jsonResult{fields: s.view(t).legacyTask()}, nil
}

// legacyList lists the session's tasks, oldest first, in one page.
func (s *taskStore) legacyList(_ context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	if p != nil && p.Cursor != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: this server lists all tasks in one page"}
	}
	s.mu.Lock()
	s.purgeLocked(time.Now())
	var views []taskView
	for _, t := range s.tasks {
		if !t.modern && t.owner == ss {
			views = append(views, s.viewLocked(t))
		}
	}
	s.mu.Unlock()
	slices.SortFunc(views, func(a, b taskView) int { return a.created.Compare(b.created) })
	list := make([]any, 0, len(views))
	for _, v := range views {
		list = append(list, v.legacyTask())
	}
	return &jsonResult{fields: map[string]any{"tasks": list}}, nil
}

// legacyCancel moves the task to cancelled before answering, as 2025-11-25
// requires, and asks the job to stop. A job that does not listen
// (reflow_stubborn) keeps working, but its outcome is dropped: on the wire
// the task stays cancelled.
func (s *taskStore) legacyCancel(_ context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), false, ss)
	if err != nil {
		return nil, err
	}
	v, err := s.cancelNow(t)
	if err != nil {
		return nil, err
	}
	return &jsonResult{fields: v.legacyTask()}, nil
}

// legacyResult blocks until the task ends and answers what the tools/call
// would have: its result (isError included) or its JSON-RPC error. While
// the task waits for input, it asks the question on this request's stream
// and hands the answer to the job.
func (s *taskStore) legacyResult(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), false, ss)
	if err != nil {
		return nil, err
	}
	for {
		key, err := s.await(ctx, t, true)
		if err != nil {
			return nil, fmt.Errorf("waiting for task %s: %w", t.id, err)
		}
		if key == "" {
			break
		}
		s.askLegacy(ctx, ss, t, key)
	}
	v := s.view(t)
	switch {
	case v.err != nil:
		return nil, v.err
	case v.status == taskCancelled:
		return nil, &jsonrpc.Error{Code: codeTaskCancelled, Message: fmt.Sprintf("task %s was cancelled", t.id)}
	case v.result == nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("task %s ended without a result", t.id)}
	}
	res, err := rewrite(v.result)
	if err != nil {
		return nil, err
	}
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	maps.Copy(res.Meta, relatedTask(t.id))
	return res, nil
}

// askLegacy sends the question under key as elicitation/create with the
// related-task _meta, and delivers the answer. If this tasks/result goes
// away first, the question goes back for the next one to ask.
func (s *taskStore) askLegacy(ctx context.Context, ss *mcp.ServerSession, t *task, key string) {
	q := s.question(t, key)
	if q == nil {
		return
	}
	params := *q // a copy: the tag is for this message only
	params.Meta = maps.Clone(q.Meta)
	if params.Meta == nil {
		params.Meta = mcp.Meta{}
	}
	maps.Copy(params.Meta, relatedTask(t.id))
	// A cancelled task withdraws its open question: go-sdk sends
	// notifications/cancelled for it when ectx ends.
	ectx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-t.cancel:
			stop()
		case <-ectx.Done():
		}
	}()
	res, err := ss.Elicit(ectx, &params)
	switch {
	case err != nil && ctx.Err() != nil:
		s.release(t, key)
	case err != nil:
		// The client refused or sent an answer that does not fit the form:
		// the job decides what that means.
		s.deliver(t, key, answer{err: fmt.Errorf("elicitation/create %q: %w", q.Message, err)})
	default:
		s.deliver(t, key, answer{res: res})
	}
}

// relayToken marks the progress notifications that carry a task status for
// the transport wrapper to turn into notifications/tasks/status.
const relayToken = "elicit-demo/task-status"

// statusNotifier sends notifications/tasks/status for a 2025-11-25 task.
// go-sdk cannot send a notification it does not know, so it sends a
// progress notification with the Task in _meta, which the demo's own
// connection wrapper (tasks_transport.go) rewrites on its way out. Only
// sessions on that wrapper get a notifier. The notifications are optional
// in the spec, and best effort here.
func (s *taskStore) statusNotifier(ss *mcp.ServerSession) func(taskView) {
	return func(v taskView) {
		ctx, cancel := context.WithTimeout(s.life, 5*time.Second)
		defer cancel()
		err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: relayToken,
			Meta:          mcp.Meta{relayToken: v.legacyTask()},
		})
		if err != nil {
			s.logger.Debug("demo: notifications/tasks/status not sent", "task", v.id, "err", err)
		}
	}
}
