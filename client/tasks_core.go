package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The 2025-11-25 core tasks: tasks/result is both where the result comes
// from and the stream on which the task's questions travel, as ordinary
// elicitation/create requests tagged with related-task _meta (served by
// elicit.go, with the task as their Origin).
//
// tasks/result is called once per transition into input_required, never
// per poll (a blocking tasks/result serves every later question too),
// while tasks/get polling goes on; and once more at the end if none has
// answered yet. A tasks/result that ends without an answer (the stream
// broke) does not give the task up: the next poll that still shows
// input_required calls it again, at most maxResultRetries times.

// maxResultRetries bounds the tasks/result calls that ended without an
// answer.
const maxResultRetries = 3

// coreState is a 2025-11-25 task's tasks/result state; guarded by
// Session.mu.
type coreState struct {
	busy  bool            // a tasks/result is in flight
	wait  chan struct{}   // closed when the one in flight returns
	got   bool            // a tasks/result answered: raw, or err
	raw   json.RawMessage // the result it answered
	err   error           // the JSON-RPC error it answered
	rearm bool            // the last one ended without an answer
	fails int             // calls that ended without an answer
}

// coreObservedLocked reports whether an observation calls for tasks/result:
// the task moved into input_required (or a failed call is re-armed), none
// is in flight or answered, and we have not cancelled it.
func (f *taskFollow) coreObservedLocked(prev TaskStatus) bool {
	if f.snap.Status != TaskInputRequired {
		return false
	}
	if prev == TaskInputRequired && !f.core.rearm {
		return false
	}
	f.core.rearm = false
	return !f.core.busy && !f.core.got && !f.byPerson
}

// startResult calls tasks/result in the background, unless one is in
// flight or has answered. final is set at the end, when the result is
// wanted whatever happened to the task's questions.
func (f *taskFollow) startResult(final bool) {
	s := f.s
	s.mu.Lock()
	if f.core.busy || f.core.got || s.isDead || s.closing || (!final && (f.byPerson || f.snap.Ended)) {
		s.mu.Unlock()
		return
	}
	f.core.busy, f.core.wait = true, make(chan struct{})
	s.wg.Add(1) // the follower holds the count above zero
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		var raw json.RawMessage
		err := s.do(f.ctx, &call{method: wire.MethodTasksResult, name: f.id}, map[string]string{"taskId": f.id}, &raw)
		s.mu.Lock()
		f.core.busy = false
		answered := err == nil || serverAnswered(err)
		switch {
		case err == nil:
			f.core.got, f.core.raw = true, raw
		case answered:
			f.core.got, f.core.err = true, err
		default:
			f.core.fails++
			f.core.rearm = f.core.fails < maxResultRetries
		}
		close(f.core.wait)
		s.mu.Unlock()
		if !answered && f.ctx.Err() == nil {
			s.notice("task %s: tasks/result ended without an answer: %v", f.id, err)
		}
		f.poke()
	}()
}

// resultSettle bounds the wait, at the end of a task that was cancelled or
// lost, for a tasks/result in flight to answer (it does at once once the
// task is terminal), so that it is not cancelled on the wire needlessly.
const resultSettle = 2 * time.Second

// serverAnswered reports whether err is the server's own JSON-RPC answer,
// not one the transport made up because the request's stream broke (in
// 2026-07-28 that wraps transport.ErrRequestLost, in 2025-11-25 Session.do
// marks it lostResponse). Before, such an error counted as tasks/result's
// answer: the task's result was never fetched again, and CallTool returned
// the lost stream's error even when the task completed.
func serverAnswered(err error) bool {
	var rpcErr *jsonrpc.Error
	var lost lostResponse
	return errors.As(err, &rpcErr) && !errors.Is(err, transport.ErrRequestLost) && !errors.As(err, &lost)
}

// settleResult waits, bounded, for the tasks/result in flight, if any.
func (f *taskFollow) settleResult() {
	s := f.s
	s.mu.Lock()
	busy, wait := f.core.busy, f.core.wait
	s.mu.Unlock()
	if !busy {
		return
	}
	t := time.NewTimer(resultSettle)
	defer t.Stop()
	select {
	case <-wait:
	case <-t.C:
	case <-s.quit:
	}
}

// coreOutcome is the outcome of a completed or failed 2025-11-25 task:
// what tasks/result answered, waiting for the one in flight or calling it.
func (f *taskFollow) coreOutcome(status TaskStatus) (*wire.CallToolResult, error) {
	s := f.s
	deadline := time.NewTimer(pollTimeout)
	defer deadline.Stop()
	for attempt := 0; ; {
		s.mu.Lock()
		got, busy, wait, raw, rerr := f.core.got, f.core.busy, f.core.wait, f.core.raw, f.core.err
		s.mu.Unlock()
		switch {
		case got:
			return f.coreDecode(status, raw, rerr)
		case busy:
			select {
			case <-wait:
				continue
			case <-deadline.C:
				return nil, fmt.Errorf("task %s of %s on %s ended %s, but tasks/result did not answer within %v",
					f.id, f.describeTool(), s.name, status, pollTimeout)
			case <-s.quit:
			}
		}
		if err := s.Err(); err != nil {
			return nil, fmt.Errorf("task %s of %s on %s ended %s, but its result was not fetched: %w", f.id, f.describeTool(), s.name, status, err)
		}
		if attempt >= 2 {
			return nil, fmt.Errorf("task %s of %s on %s ended %s, but tasks/result gave no answer", f.id, f.describeTool(), s.name, status)
		}
		attempt++
		f.startResult(true)
	}
}

// coreDecode turns what tasks/result answered into CallTool's outcome: a
// tool result (isError included: a tool failure is a result), or the
// task's JSON-RPC error.
func (f *taskFollow) coreDecode(status TaskStatus, raw json.RawMessage, rerr error) (*wire.CallToolResult, error) {
	if rerr != nil {
		var rpcErr *jsonrpc.Error
		if status == TaskFailed && errors.As(rerr, &rpcErr) {
			return nil, f.taskFailure(rpcErr, "")
		}
		return nil, rerr
	}
	res, err := toolResult(raw)
	if err != nil {
		return nil, fmt.Errorf("tasks/result %s on %s: malformed result: %w", f.id, f.s.name, err)
	}
	return res, nil
}

// endCoreLocked ends the task's open elicitation requests with cause
// (ErrAbandoned answers them cancel, so the server's wait ends too).
func (f *taskFollow) endCoreLocked(cause error) {
	for _, e := range f.s.in {
		if e.method == wire.MethodElicit && e.origin.TaskID == f.id && e.ctx.Err() == nil {
			e.cancel(cause)
		}
	}
}

// taskOriginLocked says whether a server request belongs to a task: it
// names one in its related-task _meta, or it arrived on the HTTP stream of
// a tasks/result of ours. The origin names the task's tool and call when
// we follow it.
func (s *Session) taskOriginLocked(m *jsonrpc.Message, taskID string) (question.Origin, bool) {
	if taskID == "" && m.RelatedID.IsValid() {
		if c := s.out[m.RelatedID]; c != nil && c.method == wire.MethodTasksResult {
			taskID = c.name
		}
	}
	if taskID == "" {
		return question.Origin{}, false
	}
	if f := s.tasks.byID[taskID]; f != nil {
		return f.origin(), true
	}
	return question.Origin{Kind: question.OriginTask, TaskID: taskID}, true
}

// taskCancelledLocked reports whether we cancelled task id, so that a
// question of it arriving now ends Abandoned at once.
func (s *Session) taskCancelledLocked(id string) bool {
	f := s.tasks.byID[id]
	return f != nil && f.byPerson
}

// taskPromptOpened counts an elicitation request of a task among the
// task's OpenPrompts while it is served; the returned func removes it.
func (s *Session) taskPromptOpened(e *incoming) func() {
	if e.method != wire.MethodElicit || e.origin.TaskID == "" {
		return func() {}
	}
	key := question.Key{Server: s.name, Delivery: question.ServerRequest, RequestID: e.id}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.tasks.byID[e.origin.TaskID]
	if f == nil {
		return func() {}
	}
	f.addOpenLocked(key)
	f.changedLocked()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if f.removeOpenLocked(key) && !f.snap.Ended {
			f.changedLocked()
		}
	}
}

// serveTaskRequest answers the server's tasks/* requests. We declare the
// client tasks capability with list and cancel but no task-augmentable
// requests, so the server can never have made a task on us: the list is
// empty and every id is unknown.
func (s *Session) serveTaskRequest(e *incoming, m *jsonrpc.Message) {
	if m.Method == wire.MethodTasksList {
		s.answer(e, e.ctx, json.RawMessage(`{"tasks":[]}`), nil)
		return
	}
	s.answer(e, e.ctx, nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "unknown task: elicit runs no tasks for servers", nil))
}
