package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The 2026-07-28 tasks extension: tasks/get carries the task's questions
// (inputRequests) and its result or error inline; answers go back in
// tasks/update; notifications/tasks may push the same snapshots on a
// subscriptions/listen stream.
//
// Each inputRequests key becomes one prompt, keyed PromptKey{Server,
// TaskInput, TaskID, Input: key}, shown once however many polls repeat it
// (keys are unique over the task's life). Each answer goes out on its own
// tasks/update {taskId, inputResponses: {key: answer}} as soon as it is
// decided, so one slow question never holds back another. The prompt is
// journalled when its tasks/update was written. A key the server stops
// listing before it was answered closes its prompt Withdrawn, with
// nothing sent. Per key, on the wire:
//
//	Accept, Decline, Cancel  the answer
//	Timeout                  {"action":"cancel"}
//	Invalid                  {"action":"cancel"} (no per-key error exists)
//	Withdrawn, Disconnected  nothing
//	Abandoned                nothing: tasks/cancel went out instead

// extState is an extension task's inline state; guarded by the task's mu.
type extState struct {
	inputs map[string]*taskInput // every key ever listed
	result json.RawMessage       // completed: the tool result
	err    *jsonrpc.Error        // failed: the error
}

// taskInput is one question of an extension task. Guarded by its task's
// mu.
type taskInput struct {
	key     string
	raw     json.RawMessage
	ctx     context.Context
	cancel  context.CancelCauseFunc
	claimed bool   // its outcome is decided: nothing can withdraw it now
	done    bool   // its prompt is over
	reason  string // why it was withdrawn
}

// extObservedLocked folds a DetailedTask's inline parts in: new questions
// (returned, to be shown; each counted in the session's WaitGroup),
// withdrawn ones, the result or the error.
func (f *taskFollow) extObservedLocked(w *wireTask) []*taskInput {
	h := &f.t.h
	var listed map[string]json.RawMessage
	if f.snap.Status == TaskInputRequired {
		listed = w.InputRequests
	}
	if f.ext.inputs == nil {
		f.ext.inputs = map[string]*taskInput{}
	}
	var fresh []*taskInput
	for _, key := range slices.Sorted(maps.Keys(listed)) {
		if f.ext.inputs[key] != nil {
			continue // shown once, however many polls repeat it
		}
		in := &taskInput{key: key, raw: listed[key]}
		in.ctx, in.cancel = context.WithCancelCause(h.base)
		if f.byPerson {
			in.cancel(question.ErrAbandoned) // we cancelled the task: it ends at once
		}
		f.ext.inputs[key] = in
		f.addOpenLocked(f.inputKey(key))
		h.wg.Add(1) // the follower holds the count above zero
		fresh = append(fresh, in)
	}
	for key, in := range f.ext.inputs {
		if _, still := listed[key]; !still && !in.claimed && !in.done {
			in.reason = "the task no longer asks for it"
			in.cancel(question.ErrWithdrawn)
		}
	}
	switch f.snap.Status {
	case TaskCompleted:
		f.ext.result = w.Result
	case TaskFailed:
		f.ext.err = w.Error
	}
	return fresh
}

func (f *taskFollow) inputKey(key string) question.Key {
	return question.Key{Server: f.t.h.server, Delivery: question.TaskInput, TaskID: f.id, Input: key}
}

// withdrawInputsLocked ends the open questions as no longer asked.
func (f *taskFollow) withdrawInputsLocked(reason string) {
	for _, in := range f.ext.inputs {
		if !in.claimed && !in.done {
			in.reason = reason
			in.cancel(question.ErrWithdrawn)
		}
	}
}

// endInputsLocked ends the extension questions still open with cause.
func (f *taskFollow) endInputsLocked(cause error) {
	for _, in := range f.ext.inputs {
		if !in.claimed && !in.done {
			in.cancel(cause)
		}
	}
}

// askInput shows one question through the one ask path (deliver.go): its
// delivery is a tasks/update of its own.
func (f *taskFollow) askInput(in *taskInput) {
	h := &f.t.h
	defer h.wg.Done()
	defer func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		in.done = true
		in.cancel(nil)
		if f.removeOpenLocked(f.inputKey(in.key)) && !f.snap.Ended {
			f.changedLocked()
		}
	}()
	if res, ok := h.autoInput(in.raw); ok {
		f.sendAuto(in.key, res) // roots/list: no person needed (roots.go)
		return
	}
	q := &question.Question{Key: f.inputKey(in.key), Server: h.server, Origin: f.origin(), Arrived: time.Now()}
	kind, params, why := h.inputParams(in.raw)
	if why != "" {
		h.lint.InputUndeclared(in.raw, q.Arrived)
		h.unanswerable(q, "task "+f.id, why)
		return
	}
	q.Kind = kind
	h.ask(in.ctx, q, params, taskInputDelivery{f, in})
}

// taskInputDelivery answers one question of an extension task.
type taskInputDelivery struct {
	f  *taskFollow
	in *taskInput
}

func (d taskInputDelivery) claim(ctx context.Context) (string, error) {
	d.f.mu.Lock()
	defer d.f.mu.Unlock()
	d.in.claimed = true
	if ctx.Err() != nil {
		return d.in.reason, context.Cause(ctx)
	}
	return "", nil
}

func (d taskInputDelivery) send(q *question.Question, r question.Reply, out question.Outcome) {
	if r.Abandon {
		// A refused sampling request: the task cannot be told, and would
		// only ask again, so it is cancelled, as a call would be.
		out.Reason = question.JoinReason(out.Reason, "nothing sent: the task was cancelled, since 2026-07-28 cannot refuse it")
		d.f.t.h.record(q, out, nil)
		d.f.t.h.notice("task %s: input %q (%s) ended %s, which the tasks extension cannot send; cancelling the task", d.f.id, q.Key.Input, q.Kind, out.Kind)
		d.f.t.cancelInBackground(d.f)
		return
	}
	if r.None() {
		d.f.t.h.record(q, out, nil)
		return
	}
	d.f.sendUpdate(q, r, out)
}

// sendUpdate sends one answer in tasks/update and journals the question
// once it was written (or could not be).
func (f *taskFollow) sendUpdate(q *question.Question, r question.Reply, out question.Outcome) {
	h := &f.t.h
	params := map[string]any{"taskId": f.id, "inputResponses": map[string]json.RawMessage{q.Key.Input: r.Result}}
	var once sync.Once
	c := &call{method: wire.MethodTasksUpdate, name: f.id, taskOK: true}
	c.sent = func() { once.Do(func() { h.record(q, out, &r) }) }
	if err := h.do(context.Background(), c, params, nil); err != nil {
		once.Do(func() {
			h.record(q, question.NotDelivered(out, r.Sent, err.Error()), nil)
		})
		h.notice("task %s: tasks/update for %q: %v", f.id, q.Key.Input, err)
		// The task waits for an answer it never took, and its input is
		// asked once: it would wait for ever. Given up, with why: the
		// server's refusal (it got the answer: journalled as sent), or
		// the answer not delivered.
		what := fmt.Sprintf("input %q of task %s", q.Key.Input, f.id)
		cause := undelivered(r.Sent, what, err)
		if serverAnswered(err) {
			cause = fmt.Errorf("the server refused the %s to %s: %w", r.Sent, what, err)
		}
		if h.err() == nil {
			f.lose(cause)
		}
	}
}

// sendAuto sends the answer to an input no person answers (a roots/list)
// in a tasks/update of its own; nothing is journalled.
func (f *taskFollow) sendAuto(key string, res json.RawMessage) {
	h := &f.t.h
	params := map[string]any{"taskId": f.id, "inputResponses": map[string]json.RawMessage{key: res}}
	c := &call{method: wire.MethodTasksUpdate, name: f.id, taskOK: true}
	if err := h.do(context.Background(), c, params, nil); err != nil {
		h.notice("task %s: tasks/update for %q: %v", f.id, key, err)
	}
}

// extOutcome is the outcome of a completed or failed extension task: the
// inline result (isError included: it counts as completed), or the error.
func (f *taskFollow) extOutcome(status TaskStatus) (*wire.CallToolResult, error) {
	h := &f.t.h
	f.mu.Lock()
	raw, rpcErr, msg := f.ext.result, f.ext.err, f.snap.StatusMessage
	f.mu.Unlock()
	if status == TaskFailed {
		return nil, f.taskFailure(rpcErr, msg)
	}
	if t := string(raw); t == "" || t == "null" {
		return nil, fmt.Errorf("task %s of %s on %s completed without a result", f.id, f.describeTool(), h.server)
	}
	res, err := toolResult(raw)
	if err != nil {
		return nil, fmt.Errorf("task %s of %s on %s: malformed result: %w", f.id, f.describeTool(), h.server, err)
	}
	return res, nil
}

// listen asks for the task's status notifications on a subscriptions/listen
// stream of its own (Options.ListenTasks), kept until the follow ends.
// Polling goes on regardless: the stream only makes news come sooner.
func (f *taskFollow) listen() {
	h := &f.t.h
	defer h.wg.Done()
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	l, err := h.listen(ctx, ListenOptions{TaskIDs: []string{f.id}})
	if err != nil {
		if f.ctx.Err() == nil {
			h.notice("task %s: no status notifications (%v); polling only", f.id, err)
		}
		return
	}
	if !slices.Contains(l.Agreed().TaskIDs, f.id) {
		return // the server will not push it (Listen said so): close the stream
	}
	<-l.Done()
}

// notification handles notifications/tasks/status (2025-11-25) and
// notifications/tasks (the extension, only on a subscription that agreed
// to that task) from the read loop: the snapshot is folded in at once.
func (t *taskTable) notification(method string, params json.RawMessage) {
	w := decodeTask(params)
	if w == nil {
		t.h.notice("ignored a malformed %s", method)
		return
	}
	if method == wire.NotifyTasks && !t.h.agreed(params, w.TaskID) {
		t.h.notice("ignored notifications/tasks for task %q: no subscription of ours agreed to it", w.TaskID)
		return
	}
	f := t.live(w.TaskID)
	if f == nil {
		t.h.log.Debug("status of a task we do not follow", "task", w.TaskID, "method", method)
		return
	}
	f.observeTask(w, time.Time{})
}
