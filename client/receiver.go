package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Receiver-side tasks (2025-11-25 core tasks, the mirror of tasks_core.go):
// a server that task-augments a request we declared in tasks.requests
// (elicitation/create, sampling/createMessage)
// gets a CreateTaskResult at once, and the question opens through the one
// ask path with a ReceiverTask delivery, whose answer becomes the task's
// result instead of the request's response. The server then asks us, as
// the receiver: tasks/get (the task), tasks/result (blocks until the task
// is terminal, bounded by that request's own context, then the answer or
// its JSON-RPC error, with related-task _meta), tasks/list and
// tasks/cancel (the question ends Withdrawn, the task cancelled). Each
// status change is sent as notifications/tasks/status. A task waiting on
// the person says "working": input_required would mean that we need input
// from the server.
//
// The table is per session, so a server sees only its own tasks; ids are
// 128 random bits. It is bounded (maxReceiverTasks); a task is kept at
// least its TTL (the one asked for, within [minReceiverTTL,
// maxReceiverTTL]) from its creation, and at least receiverEndGrace after
// it ended, so a result that took a person long is still there for the
// server's next poll; a task whose question is open is never dropped.

const (
	// maxReceiverTasks bounds the tasks one session keeps; when it is
	// full of open questions, a new task-augmented request is refused.
	maxReceiverTasks = 128
	// minReceiverTTL and maxReceiverTTL bound the TTL we grant; a request
	// without one (or asking unlimited, null) gets maxReceiverTTL.
	minReceiverTTL = time.Minute
	maxReceiverTTL = time.Hour
	// receiverEndGrace is how long an ended task stays after its end,
	// whatever its TTL.
	receiverEndGrace = time.Minute
	// receiverPollInterval is the poll interval we suggest.
	receiverPollInterval = time.Second
	// receiverListPage is the page size of our tasks/list.
	receiverListPage = 50
	// receiverPollEvents spaces the TaskChanged events a stream of
	// tasks/get polls causes (a poll changes only the count).
	receiverPollEvents = time.Second
)

// receiverTable is the tasks a session runs for its server.
//
// Lock order: Session.mu, then receiverTable.mu (then the dispatcher's).
// Code holding mu never takes Session.mu.
type receiverTable struct {
	h     receiverHandle
	mu    sync.Mutex
	seq   int64
	byID  map[string]*rtask
	order []*rtask // by creation
}

// rtask is one task of ours. Its fields after the first block are
// guarded by receiverTable.mu.
type rtask struct {
	id      string
	seq     int64
	method  string     // the request that made it
	reqID   jsonrpc.ID // the server's id of that request
	origin  question.Origin
	gen     int // initialize generation it was made under
	created time.Time
	ttl     time.Duration
	key     question.Key
	ctx     context.Context // the question's
	cancel  context.CancelCauseFunc
	done    chan struct{} // closed once terminal or lost

	status      TaskStatus
	message     string
	updated     time.Time
	ended       time.Time
	result      json.RawMessage // completed: the answer
	err         *jsonrpc.Error  // failed: the error
	lost        error           // the question could not end on the wire (disconnected)
	open        bool            // the question is open
	claimed     bool            // its outcome is decided: a withdrawal changes nothing now
	reason      string          // why the question was withdrawn
	byPerson    bool            // the person cancelled it (CancelTask)
	polls       int             // tasks/get received
	lastPollEvt time.Time
}

// terminal reports whether t will not change again. Under mu.
func (t *rtask) terminal() bool { return t.status.Terminal() || t.lost != nil }

// expired reports whether an ended t may be dropped at now. Under mu.
func (t *rtask) expired(now time.Time) bool {
	return t.terminal() && now.After(t.created.Add(t.ttl)) && now.After(t.ended.Add(receiverEndGrace))
}

// onWire is t as tasks/get, tasks/cancel, tasks/list and the status
// notification send it. Under mu.
func (t *rtask) onWire() receiverTaskJSON {
	return receiverTaskJSON{
		TaskID:        t.id,
		Status:        t.status,
		StatusMessage: t.message,
		CreatedAt:     t.created.UTC().Format(taskTimeFormat),
		LastUpdatedAt: t.updated.UTC().Format(taskTimeFormat),
		TTL:           t.ttl.Milliseconds(),
		PollInterval:  receiverPollInterval.Milliseconds(),
	}
}

// taskTimeFormat is ISO 8601 to the millisecond, as the spec's examples.
const taskTimeFormat = "2006-01-02T15:04:05.000Z07:00"

// receiverTaskJSON is a 2025-11-25 Task.
type receiverTaskJSON struct {
	TaskID        string     `json:"taskId"`
	Status        TaskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	CreatedAt     string     `json:"createdAt"`
	LastUpdatedAt string     `json:"lastUpdatedAt"`
	TTL           int64      `json:"ttl"`
	PollInterval  int64      `json:"pollInterval,omitempty"`
}

// snapshot is t as the UI and Session.Tasks see it. Under mu.
func (t *rtask) snapshot(server string) Task {
	tk := Task{
		Server:        server,
		ID:            t.id,
		Tool:          t.origin.Name,
		Design:        TaskDesignCore,
		Ours:          true,
		Method:        t.method,
		Status:        t.status,
		StatusMessage: t.message,
		CreatedAt:     t.created,
		LastUpdatedAt: t.updated,
		TTL:           t.ttl,
		PollInterval:  receiverPollInterval,
		Polls:         t.polls,
		// The person's cancel (CancelTask) ends the question as a
		// cancel answer; the task completes with it.
		CancelRequested: t.byPerson,
		Ended:           t.terminal(),
	}
	if t.err != nil {
		tk.Err = fmt.Errorf("%s: task %s failed: %w", server, t.id, t.err)
	}
	if t.lost != nil {
		tk.Lost, tk.Err = true, t.lost
	}
	if t.open {
		tk.OpenPrompts = []question.Key{t.key}
	}
	return tk
}

// declareTasks is the 2025-11-25 client tasks capability: list and cancel
// (the server's tasks and ours), and in requests the server requests we
// run as tasks: elicitation/create while we declare elicitation (in
// modes el), sampling/createMessage while we declare sampling.
func declareTasks(el ElicitModes, sampling SamplingMode, v string) (string, any, bool) {
	if v != wire.Protocol2025_11_25 {
		return "", nil, false
	}
	caps := map[string]any{"list": struct{}{}, "cancel": struct{}{}}
	requests := map[string]any{}
	if _, _, ok := declareElicitation(el, v); ok {
		requests["elicitation"] = map[string]any{"create": struct{}{}}
	}
	if _, _, ok := declareSampling(sampling, v); ok {
		requests["sampling"] = map[string]any{"createMessage": struct{}{}}
	}
	if len(requests) > 0 {
		caps["requests"] = requests
	}
	return "tasks", caps, true
}

// augmentable reports whether we declared, in the session's version,
// that method may be task-augmented.
func (r *receiverTable) augmentable(method string) bool {
	_, caps, ok := declareTasks(r.h.elicit, r.h.sampling, r.h.protocol())
	if !ok {
		return false
	}
	requests, _ := caps.(map[string]any)["requests"].(map[string]any)
	switch method {
	case wire.MethodElicit:
		_, ok = requests["elicitation"]
	case wire.MethodCreateMessage:
		_, ok = requests["sampling"]
	default:
		ok = false
	}
	return ok
}

// taskParam reads a request's params.task, by exact names: whether there
// is one, and the TTL we grant it. A task member that is not an object
// is an error (the request is refused -32602).
func taskParam(params json.RawMessage) (ttl time.Duration, ok bool, err error) {
	m, err := wire.ExactMembers(params)
	if err != nil {
		return 0, false, nil // the ask path refuses malformed params
	}
	raw, ok := m["task"]
	if !ok {
		return 0, false, nil
	}
	t, err := wire.ExactMembers(raw)
	if err != nil {
		return 0, true, fmt.Errorf("invalid params: task must be an object")
	}
	ttl = maxReceiverTTL
	// A ttl that is null (unlimited) or not a number gets the cap; a
	// number beyond float64 parses as ±Inf and is clamped.
	if v, has := t["ttl"]; has {
		if ms, err := strconv.ParseFloat(string(v), 64); err == nil || errors.Is(err, strconv.ErrRange) {
			ttl = time.Duration(min(max(ms, 0), float64(maxReceiverTTL.Milliseconds()))) * time.Millisecond
		}
	}
	return min(max(ttl, minReceiverTTL), maxReceiverTTL), true, nil
}

// serveAsTask serves a task-augmented server request that asks a person
// (e, whose method we declared task-augmentable): the task is made and
// returned at once, then the question runs until it ends, its answer kept
// as the task's result. Called from the request's own goroutine, whose
// clock holds (incoming.go) last until the question has ended.
func (r *receiverTable) serveAsTask(e *incoming, m *jsonrpc.Message, ttl time.Duration) {
	t, rpcErr := r.create(e, ttl)
	if rpcErr != nil {
		r.h.notice("refused a task-augmented %s: %s", m.Method, rpcErr.Message)
		r.h.answer(e, nil, rpcErr)
		return
	}
	r.mu.Lock()
	created := wire.MustJSON(struct {
		Task receiverTaskJSON `json:"task"`
	}{t.onWire()})
	r.mu.Unlock()
	if !r.h.answer(e, created, nil) {
		// Withdrawn or gone before the task could be told: it never was.
		r.drop(t)
		t.cancel(nil)
		return
	}
	r.mu.Lock()
	r.h.emit(TaskChanged{Task: t.snapshot(r.h.server)})
	r.mu.Unlock()
	q := &question.Question{
		Key:     t.key,
		Server:  r.h.server,
		Origin:  e.origin,
		Arrived: e.arrived,
	}
	q.Kind, _ = question.KindFor(m.Method) // what the task-augmented request asks
	r.h.ask(t.ctx, q, m.Params, receiverDelivery{r, t})
	t.cancel(nil)
}

// create makes a task for e, or says why not (the table is full of open
// questions).
func (r *receiverTable) create(e *incoming, ttl time.Duration) (*rtask, *jsonrpc.Error) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.purgeLocked(now)
	if len(r.order) >= maxReceiverTasks {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError,
			fmt.Sprintf("elicit already runs %d tasks for this server, each waiting on a person", len(r.order)), nil)
	}
	r.seq++
	t := &rtask{
		id:      rand.Text(),
		seq:     r.seq,
		method:  e.method,
		reqID:   e.id,
		origin:  e.origin,
		gen:     e.gen,
		created: now,
		updated: now,
		ttl:     ttl,
		status:  TaskWorking,
		message: "waiting for the person's answer",
		open:    true,
		done:    make(chan struct{}),
	}
	t.key = question.Key{Server: r.h.server, Delivery: question.ReceiverTask, RequestID: e.id, TaskID: t.id}
	t.ctx, t.cancel = context.WithCancelCause(r.h.base)
	if r.byID == nil {
		r.byID = map[string]*rtask{}
	}
	r.byID[t.id] = t
	r.order = append(r.order, t)
	return t, nil
}

// purgeLocked drops the ended tasks whose time is up; when the table is
// still full, the oldest ended ones go too, TTL or not.
func (r *receiverTable) purgeLocked(now time.Time) {
	gone := func(t *rtask) bool {
		if t.expired(now) {
			delete(r.byID, t.id)
			return true
		}
		return false
	}
	r.order = slices.DeleteFunc(r.order, gone)
	r.order = slices.DeleteFunc(r.order, func(t *rtask) bool {
		if len(r.byID) >= maxReceiverTasks && t.terminal() {
			delete(r.byID, t.id)
			return true
		}
		return false
	})
}

// endLocked ends, with cause, the open questions of the tasks that match
// (cancelCall: those of a call we gave up; reinitialize: those of a
// server session that forgot us). Under Session.mu.
func (r *receiverTable) endLocked(match func(*rtask) bool, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.order {
		if t.open && !t.claimed && match(t) {
			t.cancel(cause)
		}
	}
}

// drop forgets t (it was never announced).
func (r *receiverTable) drop(t *rtask) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byID, t.id)
	r.order = slices.DeleteFunc(r.order, func(o *rtask) bool { return o == t })
}

// findLocked is the task with id, unless it was dropped.
func (r *receiverTable) findLocked(id string, now time.Time) *rtask {
	r.purgeLocked(now)
	return r.byID[id]
}

// receiverDelivery turns a question's answer into its task's result.
type receiverDelivery struct {
	r *receiverTable
	t *rtask
}

func (d receiverDelivery) claim(ctx context.Context) (string, error) {
	r := d.r
	r.mu.Lock()
	defer r.mu.Unlock()
	d.t.claimed = true
	if ctx.Err() != nil {
		return d.t.reason, context.Cause(ctx)
	}
	return "", nil
}

// send ends the task with the question: completed with the answer, failed
// with the error, or, when nothing can go out, cancelled already (the
// server's tasks/cancel) or lost (the session ended). A task the server
// cancelled stays cancelled whatever the answer.
func (d receiverDelivery) send(q *question.Question, rep question.Reply, out question.Outcome) {
	r, t := d.r, d.t
	now := time.Now()
	r.mu.Lock()
	t.open = false
	changed := !t.terminal()
	var kept *question.Reply // what the task keeps as its result, for the journal
	switch {
	case !changed:
		if !rep.None() {
			out.Reason = question.JoinReason(out.Reason, "not kept: the server had cancelled the task")
		}
	case rep.Err != nil:
		t.status, t.err, t.message = TaskFailed, rep.Err, rep.Err.Message
		kept = &rep
	case !rep.None():
		t.status, t.result, t.message = TaskCompleted, rep.Result, "answered: "+rep.Sent
		kept = &rep
	default:
		t.lost = fmt.Errorf("task %s on %s ended without an answer: %w", t.id, r.h.server, context.Cause(t.ctx))
		t.message = "ended without an answer"
	}
	if changed {
		t.updated, t.ended = now, now
	}
	snap, st, lost := t.snapshot(r.h.server), t.onWire(), t.lost
	r.h.emit(TaskChanged{Task: snap})
	r.mu.Unlock()
	if kept != nil {
		out.Reason = question.JoinReason(out.Reason, "kept as task "+t.id+"'s result (tasks/result)")
	}
	r.h.record(q, out, kept)
	if changed {
		// The status notification goes out before a waiting tasks/result
		// is released, so the server hears "completed" before the result.
		if lost == nil {
			r.status(st)
		}
		close(t.done)
	}
}

// taskStatus sends notifications/tasks/status for one of our tasks. It is
// optional news: a write that fails is only logged.
func (r *receiverTable) status(t receiverTaskJSON) {
	n, err := jsonrpc.NewNotification(wire.NotifyTaskStatus, t)
	if err == nil {
		err = r.h.notify(n)
	}
	if err != nil {
		r.h.log.Debug("notifications/tasks/status not sent", "task", t.TaskID, "err", err)
	}
}

// servedAsTask serves m as a task of ours when it is task-augmented
// (params.task) and we declared that its method may be, in the session's
// version; otherwise it reports false and m is served as a plain request
// (the spec: a receiver that did not declare it ignores task).
func (r *receiverTable) servedAsTask(e *incoming, m *jsonrpc.Message) bool {
	if !r.augmentable(m.Method) {
		return false
	}
	ttl, ok, err := taskParam(m.Params)
	switch {
	case err != nil:
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, err.Error(), nil))
		return true
	case !ok:
		return false
	}
	r.serveAsTask(e, m, ttl)
	return true
}

// snapshots are our tasks, oldest first.
func (r *receiverTable) snapshots() []Task {
	server := r.h.server
	r.mu.Lock()
	defer r.mu.Unlock()
	r.purgeLocked(time.Now())
	out := make([]Task, 0, len(r.order))
	for _, t := range r.order {
		out = append(out, t.snapshot(server))
	}
	return out
}

// snapshot is our task id, if it is kept.
func (r *receiverTable) snapshot(id string) (Task, bool) {
	server := r.h.server
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.findLocked(id, time.Now()); t != nil {
		return t.snapshot(server), true
	}
	return Task{}, false
}

// cancelByPerson is CancelTask for a task of ours: its open question ends
// Abandoned, which answers it cancel (the task completes with that). ours
// is false when id is none of ours.
func (r *receiverTable) cancelByPerson(id string) (ours bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.findLocked(id, time.Now())
	switch {
	case t == nil:
		return false, nil
	case !t.open || t.claimed:
		return true, fmt.Errorf("task %s is over already", id)
	}
	t.byPerson = true
	t.cancel(question.ErrAbandoned)
	return true, nil
}
