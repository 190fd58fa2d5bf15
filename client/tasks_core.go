package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The 2025-11-25 core tasks: tasks/result is both where the result comes
// from and the stream on which the task's questions travel, as ordinary
// elicitation/create requests tagged with related-task _meta (served by
// elicit.go, with the task as their Origin).
//
// Whatever shows the task in input_required (the CreateTaskResult, a
// poll, a status notification, a cancel's answer) leads to exactly one
// tasks/result in flight: it is called when none is in flight or has
// answered, never once per poll (a blocking tasks/result serves every
// later question too), while tasks/get polling goes on; and once more at
// the end if none has answered yet. The test is the task's state, not a
// move into input_required: a task created in input_required (the
// TypeScript SDK's simpleTaskInteractive) shows no such move, and waiting
// for one hung for ever. A tasks/result that ends without an answer (the
// stream broke) does not give the task up: the next observation that
// still shows input_required calls it again, at most maxResultRetries
// times.

// maxResultRetries bounds the tasks/result calls that ended without an
// answer.
const maxResultRetries = 3

// coreState is a 2025-11-25 task's tasks/result state and its questions;
// guarded by the task's mu.
type coreState struct {
	busy  bool            // a tasks/result is in flight
	wait  chan struct{}   // closed when the one in flight returns
	got   bool            // a tasks/result answered: raw, or err
	raw   json.RawMessage // the result it answered
	err   error           // the JSON-RPC error it answered
	fails int             // calls that ended without an answer
	// asks are the task's elicitation/create requests being served: the
	// task ends them (endCoreLocked) under the same lock under which a new
	// one joins or, if we cancelled the task, ends at once (openRequest).
	asks map[*incoming]struct{}
}

// wantResultLocked reports whether the task's state calls for
// tasks/result now: a 2025-11-25 task in input_required, none in flight
// or answered, fewer than maxResultRetries ended without an answer, and
// not cancelled by us.
func (f *taskFollow) wantResultLocked() bool {
	return f.design == TaskDesignCore && f.snap.Status == TaskInputRequired && !f.snap.Ended &&
		!f.core.busy && !f.core.got && !f.byPerson && f.core.fails < maxResultRetries
}

// kickResult calls tasks/result if the task's state calls for it (see
// wantResultLocked); for the state the task was created in, which no
// observation folds in.
func (f *taskFollow) kickResult() {
	f.mu.Lock()
	want := f.wantResultLocked()
	f.mu.Unlock()
	if want {
		f.startResult(false)
	}
}

// startResult calls tasks/result in the background, unless one is in
// flight or has answered. final is set at the end, when the result is
// wanted whatever happened to the task's questions.
func (f *taskFollow) startResult(final bool) {
	h := &f.t.h
	if h.err() != nil {
		return // the session is ending
	}
	f.mu.Lock()
	if f.core.busy || f.core.got || (!final && (f.byPerson || f.snap.Ended)) {
		f.mu.Unlock()
		return
	}
	f.core.busy, f.core.wait = true, make(chan struct{})
	h.wg.Add(1) // the follower holds the count above zero
	f.mu.Unlock()
	go func() {
		defer h.wg.Done()
		var raw json.RawMessage
		// Before the end it answers only when the task ends: no timeout
		// then. At the end it answers at once, and is bounded.
		c := &call{method: wire.MethodTasksResult, name: f.id, noTimeout: !final}
		err := h.do(f.ctx, c, map[string]string{"taskId": f.id}, &raw)
		f.mu.Lock()
		f.core.busy = false
		answered := err == nil || serverAnswered(err)
		switch {
		case err == nil:
			f.core.got, f.core.raw = true, raw
		case answered:
			f.core.got, f.core.err = true, err
		default:
			f.core.fails++ // the next observation of input_required calls again
		}
		close(f.core.wait)
		f.mu.Unlock()
		if !answered && f.ctx.Err() == nil {
			h.notice("task %s: tasks/result ended without an answer: %v", f.id, err)
		}
		f.poke()
	}()
}

// resultSettle bounds the wait, at the end of a task that was cancelled or
// lost, for a tasks/result in flight to answer (it does at once once the
// task is terminal), so that it is not cancelled on the wire needlessly.
const resultSettle = 2 * time.Second

// serverAnswered reports whether err is the server's own JSON-RPC answer.
// A request the transport ended because its stream broke
// (transport.Inbound.Err) carries no *jsonrpc.Error, so it does not count:
// tasks/result is then called again, and CallTool does not return the
// broken stream's error when the task completed.
func serverAnswered(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr)
}

// settleResult waits, bounded, for the tasks/result in flight, if any.
func (f *taskFollow) settleResult() {
	h := &f.t.h
	f.mu.Lock()
	busy, wait := f.core.busy, f.core.wait
	f.mu.Unlock()
	if !busy {
		return
	}
	t := time.NewTimer(resultSettle)
	defer t.Stop()
	select {
	case <-wait:
	case <-t.C:
	case <-h.quit:
	}
}

// coreOutcome is the outcome of a completed or failed 2025-11-25 task:
// what tasks/result answered, waiting for the one in flight or calling it.
func (f *taskFollow) coreOutcome(status TaskStatus) (*wire.CallToolResult, error) {
	h := &f.t.h
	// The wait for one in flight from before the end, which has no clock
	// of its own (startResult), is bounded as a request is.
	deadline := time.NewTimer(h.timeout)
	defer deadline.Stop()
	for attempt := 0; ; {
		f.mu.Lock()
		got, busy, wait, raw, rerr := f.core.got, f.core.busy, f.core.wait, f.core.raw, f.core.err
		f.mu.Unlock()
		switch {
		case got:
			return f.coreDecode(status, raw, rerr)
		case busy:
			select {
			case <-wait:
				continue
			case <-deadline.C:
				return nil, fmt.Errorf("task %s of %s on %s ended %s, but tasks/result did not answer within %v",
					f.id, f.describeTool(), h.server, status, h.timeout)
			case <-h.quit:
			}
		}
		if err := h.err(); err != nil {
			return nil, fmt.Errorf("task %s of %s on %s ended %s, but its result was not fetched: %w", f.id, f.describeTool(), h.server, status, err)
		}
		if attempt >= 2 {
			return nil, fmt.Errorf("task %s of %s on %s ended %s, but tasks/result gave no answer", f.id, f.describeTool(), h.server, status)
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
		return nil, fmt.Errorf("tasks/result %s on %s: malformed result: %w", f.id, f.t.h.server, err)
	}
	return res, nil
}

// endCoreLocked ends the task's elicitation requests with cause
// (ErrAbandoned answers them cancel, so the server's wait ends too). One
// already claimed has its outcome decided; the cause changes nothing then.
func (f *taskFollow) endCoreLocked(cause error) {
	for e := range f.core.asks {
		e.cancel(cause)
	}
}

func (f *taskFollow) requestKey(id jsonrpc.ID) question.Key {
	return question.Key{Server: f.t.h.server, Delivery: question.ServerRequest, RequestID: id}
}

// addRequestLocked makes e one of the task's questions, once.
func (f *taskFollow) addRequestLocked(e *incoming) bool {
	if _, ok := f.core.asks[e]; ok {
		return false
	}
	if f.core.asks == nil {
		f.core.asks = map[*incoming]struct{}{}
	}
	f.core.asks[e] = struct{}{}
	f.addOpenLocked(f.requestKey(e.id))
	return true
}

// adoptLocked makes the task's questions that came before we followed it
// (naming it in related-task _meta) its own, in arrival order. Under
// Session.mu, before f is shared: they stay in s.in until claimed.
func (f *taskFollow) adoptLocked(in map[jsonrpc.ID]*incoming) {
	var early []*incoming
	for _, e := range in {
		if e.method == wire.MethodElicit && e.origin.TaskID == f.id && e.ctx.Err() == nil {
			early = append(early, e)
		}
	}
	slices.SortFunc(early, func(a, b *incoming) int { return a.arrived.Compare(b.arrived) })
	for _, e := range early {
		f.addRequestLocked(e)
	}
}

// openRequest makes e one of the task's questions, for OpenPrompts and so
// that ending the task's prompts ends it; if we cancelled the task, e ends
// Abandoned at once instead. An ended task takes nothing: e is served as a
// request of a task we do not follow.
func (f *taskFollow) openRequest(e *incoming) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.snap.Ended:
	case f.byPerson:
		e.cancel(question.ErrAbandoned)
	case f.addRequestLocked(e):
		f.changedLocked()
	}
}

// closeRequest lets e go once it was served.
func (f *taskFollow) closeRequest(e *incoming) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.core.asks[e]; !ok {
		return
	}
	delete(f.core.asks, e)
	if f.removeOpenLocked(f.requestKey(e.id)) && !f.snap.Ended {
		f.changedLocked()
	}
}

// The request path reaches tasks through three hooks of the table:
// originLocked when a server request arrives, promptOpened (and the func
// it returns) while it is served, and notification (tasks_ext.go) for
// status notifications. A request of no task costs one comparison in each
// of the first two and takes no task lock.

// originLocked says whether a server request belongs to a task: the
// one its related-task _meta names (taskID), or the one whose tasks/result
// of ours carried it on its HTTP stream (via). The origin names the task's
// tool and call when we follow it. Called under Session.mu.
func (t *taskTable) originLocked(taskID string, via *call) (question.Origin, bool) {
	if taskID == "" {
		if via == nil || via.method != wire.MethodTasksResult {
			return question.Origin{}, false
		}
		taskID = via.name
	}
	if f := t.live(taskID); f != nil {
		return f.origin(), true
	}
	return question.Origin{Kind: question.OriginTask, TaskID: taskID}, true
}

// promptOpened hands an elicitation request of a task to the task while
// it is served (see openRequest); the returned func takes it back.
func (t *taskTable) promptOpened(e *incoming) (closed func()) {
	if !asksPerson(e.method) || e.origin.TaskID == "" {
		return func() {}
	}
	id := e.origin.TaskID
	f := t.live(id)
	if f != nil {
		f.openRequest(e)
	}
	return func() {
		if f != nil {
			f.closeRequest(e)
		}
		// A task followed since took it in (adoptLocked).
		if g := t.find(id); g != nil && g != f {
			g.closeRequest(e)
		}
	}
}
