package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

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

// extState is an extension task's inline state; guarded by Session.mu.
type extState struct {
	inputs map[string]*taskInput // every key ever listed
	result json.RawMessage       // completed: the tool result
	err    *jsonrpc.Error        // failed: the error
}

// taskInput is one question of an extension task. Guarded by Session.mu.
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
	s := f.s
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
		in.ctx, in.cancel = context.WithCancelCause(s.base)
		if f.byPerson {
			in.cancel(question.ErrAbandoned) // we cancelled the task: it ends at once
		}
		f.ext.inputs[key] = in
		f.addOpenLocked(f.inputKey(key))
		s.wg.Add(1) // the follower holds the count above zero
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
	return question.Key{Server: f.s.name, Delivery: question.TaskInput, TaskID: f.id, Input: key}
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

// askInput shows one question through the Prompter and sends its answer;
// the same settle, judge and record as every other prompt.
func (f *taskFollow) askInput(in *taskInput) {
	s := f.s
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		in.done = true
		in.cancel(nil)
		if f.removeOpenLocked(f.inputKey(in.key)) && !f.snap.Ended {
			f.changedLocked()
		}
	}()
	p := &question.Question{Key: f.inputKey(in.key), Server: s.name, Origin: f.origin(), Arrived: time.Now()}
	claim := func(ctx context.Context) (error, string) {
		s.mu.Lock()
		defer s.mu.Unlock()
		in.claimed = true
		if ctx.Err() != nil {
			return context.Cause(ctx), in.reason
		}
		return nil, ""
	}
	var e inputEntry
	if err := json.Unmarshal(in.raw, &e); err != nil {
		f.unanswerable(p, "malformed input request: "+err.Error())
		return
	}
	if e.Method != wire.MethodElicit {
		f.unanswerable(p, fmt.Sprintf("input request of a kind elicit did not declare (%s); it gets no answer", e.Method))
		return
	}
	var d decision
	perr := s.parseElicit(p, e.Params)
	if in.ctx.Err() != nil {
		// Ended before it was shown (we had cancelled the task): journal
		// it, never show it.
		if p.Mode == "" {
			p.Mode = question.ModeForm
		}
		cause, reason := claim(in.ctx)
		s.record(p, causeDecision(cause, reason).outcome, "")
		return
	}
	if perr != nil {
		if p.Mode == "" {
			p.Mode = question.ModeForm
		}
		d = decision{outcome: question.Outcome{Kind: question.Invalid, Reason: perr.msg}, reply: &elicitResult{Action: "cancel"}}
		if cause, reason := claim(in.ctx); cause != nil {
			d = causeDecision(cause, reason)
		}
	} else {
		ctx := in.ctx
		if t := s.opts.PromptTimeout; t > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, t, question.ErrTimeout)
			defer cancel()
		}
		d = s.settle(ctx, p, claim)
	}
	if d.rpcErr != nil {
		// No per-key error exists: content that failed the schema is
		// answered cancel and journalled Invalid, as in MRTR.
		d.reply = &elicitResult{Action: "cancel"}
	}
	if d.outcome.Kind == question.Abandoned {
		d.reply = nil // tasks/cancel went out instead
	}
	if d.reply == nil {
		s.record(p, d.outcome, "")
		return
	}
	f.sendUpdate(p, d)
}

// unanswerable journals a question we cannot serve and says so.
func (f *taskFollow) unanswerable(p *question.Question, why string) {
	if p.Mode == "" {
		p.Mode = question.ModeForm
	}
	f.s.notice("task %s: input %q: %s", f.id, p.Key.Input, why)
	f.s.record(p, question.Outcome{Kind: question.Invalid, Reason: why}, "")
}

// sendUpdate sends one answer in tasks/update and journals the prompt once
// it was written (or could not be).
func (f *taskFollow) sendUpdate(p *question.Question, d decision) {
	s := f.s
	b, err := json.Marshal(d.reply)
	if err != nil {
		d.outcome = question.Outcome{Kind: question.Invalid, Reason: "answer could not be encoded: " + err.Error()}
		d.reply = &elicitResult{Action: "cancel"}
		b = json.RawMessage(`{"action":"cancel"}`)
	}
	params := map[string]any{"taskId": f.id, "inputResponses": map[string]json.RawMessage{p.Key.Input: b}}
	var once sync.Once
	c := &call{method: wire.MethodTasksUpdate, name: f.id, taskOK: true}
	c.sent = func() { once.Do(func() { s.record(p, d.outcome, d.reply.Action) }) }
	ctx, cancel := context.WithTimeout(context.Background(), pollTimeout)
	defer cancel()
	if err := s.do(ctx, c, params, nil); err != nil {
		once.Do(func() {
			out := d.outcome
			out.Reason = joinReason(out.Reason, "answer not delivered: "+err.Error())
			s.record(p, out, "")
		})
		s.notice("task %s: tasks/update for %q: %v", f.id, p.Key.Input, err)
	}
}

// extOutcome is the outcome of a completed or failed extension task: the
// inline result (isError included: it counts as completed), or the error.
func (f *taskFollow) extOutcome(status TaskStatus) (*wire.CallToolResult, error) {
	s := f.s
	s.mu.Lock()
	raw, rpcErr, msg := f.ext.result, f.ext.err, f.snap.StatusMessage
	s.mu.Unlock()
	if status == TaskFailed {
		return nil, f.taskFailure(rpcErr, msg)
	}
	if t := string(raw); t == "" || t == "null" {
		return nil, fmt.Errorf("task %s of %s on %s completed without a result", f.id, f.describeTool(), s.name)
	}
	res, err := toolResult(raw)
	if err != nil {
		return nil, fmt.Errorf("task %s of %s on %s: malformed result: %w", f.id, f.describeTool(), s.name, err)
	}
	return res, nil
}

// listen asks for the task's status notifications on a subscriptions/listen
// stream of its own (Options.ListenTasks), kept until the follow ends.
// Polling goes on regardless: the stream only makes news come sooner.
func (f *taskFollow) listen() {
	s := f.s
	defer s.wg.Done()
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	l, err := s.Listen(ctx, ListenOptions{TaskIDs: []string{f.id}})
	if err != nil {
		if f.ctx.Err() == nil {
			s.notice("task %s: no status notifications (%v); polling only", f.id, err)
		}
		return
	}
	if !slices.Contains(l.Agreed().TaskIDs, f.id) {
		return // the server will not push it (Listen said so): close the stream
	}
	<-l.Done()
}

// taskNotification handles notifications/tasks/status (2025-11-25) and
// notifications/tasks (the extension, only on a subscription that agreed
// to that task) from the read loop: the snapshot is folded in at once.
func (s *Session) taskNotification(method string, params json.RawMessage) {
	w := decodeTask(params)
	if w == nil {
		s.notice("ignored a malformed %s", method)
		return
	}
	s.mu.Lock()
	if method == wire.NotifyTasks {
		agreed := false
		if id, ok := subscriptionID(params); ok {
			if c := s.out[id]; c != nil && c.listen != nil && c.listen.acked {
				agreed = slices.Contains(c.listen.agreed.TaskIDs, w.TaskID)
			}
		}
		if !agreed {
			s.mu.Unlock()
			s.notice("ignored notifications/tasks for task %q: no subscription of ours agreed to it", w.TaskID)
			return
		}
	}
	f := s.tasks.byID[w.TaskID]
	s.mu.Unlock()
	if f == nil {
		s.log.Debug("status of a task we do not follow", "task", w.TaskID, "method", method)
		return
	}
	f.observeTask(w)
}
