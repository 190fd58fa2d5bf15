package client

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The server's requests about our tasks (receiver.go), answered as the
// receiver: tasks/get, tasks/list, tasks/cancel and tasks/result.

// serve answers the server's tasks/* about our tasks.
func (r *receiverTable) serve(e *incoming, m *jsonrpc.Message) {
	if m.Method == wire.MethodTasksList {
		res, rpcErr := r.list(m.Params)
		r.h.answer(e, res, rpcErr)
		return
	}
	var p struct {
		TaskID *string `json:"taskId"`
	}
	if wire.DecodeExact(m.Params, &p) != nil || p.TaskID == nil {
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: "+m.Method+" needs a taskId string", nil))
		return
	}
	switch m.Method {
	case wire.MethodTasksGet:
		res, rpcErr := r.get(*p.TaskID)
		r.h.answer(e, res, rpcErr)
	case wire.MethodTasksCancel:
		r.cancel(e, *p.TaskID)
	case wire.MethodTasksResult:
		r.result(e, *p.TaskID)
	}
}

func taskNotFound(id string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Failed to retrieve task: Task not found", map[string]string{"taskId": id})
}

// get answers tasks/get.
func (r *receiverTable) get(id string) (json.RawMessage, *jsonrpc.Error) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.findLocked(id, now)
	if t == nil {
		return nil, taskNotFound(id)
	}
	t.polls++
	if !t.terminal() && now.Sub(t.lastPollEvt) >= receiverPollEvents {
		t.lastPollEvt = now
		r.h.emit(TaskChanged{Task: t.snapshot(r.h.server)})
	}
	return wire.MustJSON(t.onWire()), nil
}

// list answers tasks/list: our tasks, oldest first, receiverListPage a
// page; the cursor is the sequence number of the page's last task, so a
// task dropped meanwhile shifts nothing.
func (r *receiverTable) list(params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if len(params) > 0 && string(params) != "null" && wire.DecodeExact(params, &p) != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: tasks/list takes {cursor?: string}", nil)
	}
	var after int64
	if p.Cursor != nil {
		n, err := strconv.ParseInt(*p.Cursor, 10, 64)
		if err != nil || n < 0 {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid cursor", map[string]string{"cursor": *p.Cursor})
		}
		after = n
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.purgeLocked(time.Now())
	res := struct {
		Tasks      []receiverTaskJSON `json:"tasks"`
		NextCursor string             `json:"nextCursor,omitempty"`
	}{Tasks: []receiverTaskJSON{}}
	for _, t := range r.order {
		if t.seq <= after {
			continue
		}
		if len(res.Tasks) == receiverListPage {
			res.NextCursor = strconv.FormatInt(after, 10)
			break
		}
		res.Tasks = append(res.Tasks, t.onWire())
		after = t.seq
	}
	return wire.MustJSON(res), nil
}

// cancel answers tasks/cancel: a task not yet terminal is
// cancelled before the answer goes out, its question ends Withdrawn (the
// server no longer wants it); a terminal one is -32602.
func (r *receiverTable) cancel(e *incoming, id string) {
	now := time.Now()
	r.mu.Lock()
	t := r.findLocked(id, now)
	switch {
	case t == nil:
		r.mu.Unlock()
		r.h.answer(e, nil, taskNotFound(id))
		return
	case t.terminal():
		st := t.status
		if t.lost != nil {
			st = "lost"
		}
		r.mu.Unlock()
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			fmt.Sprintf("Cannot cancel task: already %s", st), map[string]string{"taskId": id}))
		return
	}
	t.status, t.message = TaskCancelled, "cancelled by the server (tasks/cancel)"
	t.updated, t.ended = now, now
	close(t.done)
	if !t.claimed {
		t.reason = "the server cancelled the task"
		t.cancel(question.ErrWithdrawn)
	}
	st := t.onWire()
	r.h.emit(TaskChanged{Task: t.snapshot(r.h.server)})
	r.mu.Unlock()
	// The status goes out before the answer, so a server hears of the
	// change in one order whatever its own requests race with.
	r.status(st)
	r.h.answer(e, wire.MustJSON(st), nil)
}

// result answers tasks/result: it waits until the task is
// terminal (or this request ends: the server cancelled it, the session
// ended), then sends what the request would have got without a task,
// with related-task _meta naming the task.
func (r *receiverTable) result(e *incoming, id string) {
	r.mu.Lock()
	t := r.findLocked(id, time.Now())
	r.mu.Unlock()
	if t == nil {
		r.h.answer(e, nil, taskNotFound(id))
		return
	}
	select {
	case <-t.done:
	case <-e.ctx.Done():
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "tasks/result ended before the task did", nil))
		return
	}
	r.mu.Lock()
	status, result, rpcErr, lost := t.status, t.result, t.err, t.lost
	r.mu.Unlock()
	switch {
	case status == TaskCompleted:
		r.h.answer(e, withRelatedTask(result, id), nil)
	case status == TaskFailed:
		r.h.answer(e, nil, rpcErr)
	case status == TaskCancelled:
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "task "+id+" was cancelled: it has no result", map[string]string{"taskId": id}))
	default:
		r.h.answer(e, nil, jsonrpc.NewError(jsonrpc.CodeInternalError, lost.Error(), nil))
	}
}

// withRelatedTask is result with _meta["io.modelcontextprotocol/related-task"]
// = {taskId: id} added (other _meta members kept), as tasks/result must
// send it.
func withRelatedTask(result json.RawMessage, id string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(m["_meta"], &meta) != nil || meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[wire.MetaRelatedTask] = wire.MustJSON(map[string]string{"taskId": id})
	m["_meta"] = wire.MustJSON(meta)
	return wire.MustJSON(m)
}
