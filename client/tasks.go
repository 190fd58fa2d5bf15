package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// This file is the task API the UI and the CLI see: the Task snapshot, the
// errors, and the Session methods. How a task is followed is in
// tasks_follow.go, how it ends in tasks_end.go; the two designs' own parts
// in tasks_core.go (2025-11-25) and tasks_ext.go (the 2026-07-28
// extension).

// TaskDesign names which of the two wire-incompatible task designs a task
// speaks.
type TaskDesign string

// The designs.
const (
	// TaskDesignCore is the 2025-11-25 core tasks (SEP-1686): params.task
	// asks for one, tasks/result delivers the result and the questions.
	TaskDesignCore TaskDesign = "2025-11-25"
	// TaskDesignExtension is the 2026-07-28 extension
	// io.modelcontextprotocol/tasks (SEP-2663): the server decides, tasks/get
	// carries questions and results inline, tasks/update the answers.
	TaskDesignExtension TaskDesign = "extension"
)

// TaskStatus is a task's status as the server last said it.
type TaskStatus string

// The statuses, the same five in both designs. The zero value means the
// server has not said yet (a resumed task before its first poll).
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether the status never changes again.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

func knownStatus(s TaskStatus) bool {
	return s == TaskWorking || s == TaskInputRequired || s.Terminal()
}

// Task is a snapshot of one task a session follows (or, from ListTasks,
// one the server listed). It is a value: later changes come as new
// snapshots in TaskChanged events.
type Task struct {
	Server string
	ID     string
	// Tool is the tool whose call became the task ("" when unknown: a
	// resumed task without a name, a listed task we did not start).
	Tool   string
	Design TaskDesign
	// CallID is the id of our tools/call that created the task (invalid
	// for a resumed or listed task, and for ours).
	CallID jsonrpc.ID
	// Ours marks a task we run for the server (receiver.go): it
	// task-augmented its Method request, and its question is ours to
	// answer; Tool is then the call the question belongs to, if known.
	Ours   bool
	Method string

	Status        TaskStatus
	StatusMessage string
	CreatedAt     time.Time
	LastUpdatedAt time.Time
	// TTL is how long the server keeps the task from CreatedAt; 0 when
	// unlimited or not said.
	TTL time.Duration
	// PollInterval is the server's suggested poll interval; 0 when it
	// suggested none (the engine then backs off from 1 s to 10 s).
	PollInterval time.Duration
	// Polls counts the tasks/get requests sent for this task.
	Polls int
	// CancelRequested is set once tasks/cancel was sent (by CancelTask or
	// because the person cancelled the call). The task may still end
	// otherwise: Status says what it really ended as.
	CancelRequested bool
	// ImmediateResponse is the 2025-11-25 CreateTaskResult's
	// model-immediate-response text, if any (untrusted).
	ImmediateResponse string

	// Result is the final result (completed; also failed with an isError
	// result in 2025-11-25).
	Result *wire.CallToolResult
	// Err is why the task failed (wrapping the *jsonrpc.Error the server
	// sent) or why it was lost; nil otherwise.
	Err error
	// OpenPrompts are the prompts of this task open right now.
	OpenPrompts []question.Key
	// Lost is set when the engine stopped following the task without a
	// terminal status: the server does not know the id (any more), the
	// session ended, or polling kept failing. Err says why.
	Lost bool
	// Ended is set on the last snapshot: the task is terminal with its
	// result known, or lost. No TaskChanged follows it.
	Ended bool
}

// TTLLeft is how much of the task's TTL remains at now (never negative);
// ok is false when the TTL is unlimited or unknown.
func (t Task) TTLLeft(now time.Time) (left time.Duration, ok bool) {
	if t.TTL <= 0 || t.CreatedAt.IsZero() {
		return 0, false
	}
	return max(t.CreatedAt.Add(t.TTL).Sub(now), 0), true
}

// Errors of task calls, for errors.Is.
var (
	// ErrTaskCancelled: the task ended cancelled.
	ErrTaskCancelled = errors.New("task cancelled")
	// ErrTaskLost: the engine stopped following the task before it ended
	// (see Task.Lost).
	ErrTaskLost = errors.New("task lost")
	// ErrNoTasks: the session's protocol has no tasks (before 2025-11-25),
	// or has no such task method in its design.
	ErrNoTasks = errors.New("tasks are not available")
	// ErrTaskDetached, as the cause of a task call's context
	// (context.WithCancelCause), stops the wait without cancelling the
	// task: CallTool or ResumeTask returns it, and the session follows the
	// task on (TaskChanged, its prompts) until it ends or the session
	// closes. For a person leaving a long task to run, or quitting with
	// its id kept for ResumeTask.
	ErrTaskDetached = errors.New("stopped waiting for the task; it runs on")
)

// maxEndedTasks bounds the ended tasks a session remembers for Tasks.
const maxEndedTasks = 256

// taskTable is a session's tasks and what it knows of its tools' task
// support, under its own mu.
//
// Lock order: Session.mu, then taskTable.mu, then one taskFollow.mu (then
// the dispatcher's, a leaf: events are queued under the task's lock so that
// each task's snapshots keep their order). A goroutine holding one of these
// takes only later ones, never an earlier one; so task code holding a task
// lock never takes Session.mu, and the request path may look a task up
// while it holds Session.mu. Under taskTable.mu every task in byID is live:
// finish marks it Ended and drops it from byID in one step.
type taskTable struct {
	h     tasksHandle
	mu    sync.Mutex
	all   []*taskFollow          // in the order they were first followed
	byID  map[string]*taskFollow // live (not ended) ones
	tools map[string]string      // tool name -> execution.taskSupport, from ListTools
	known bool                   // tools holds a complete tools/list
}

// live is the task with id this session follows now, or nil.
func (t *taskTable) live(id string) *taskFollow {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id]
}

// find is the task with id this session follows or followed last, or nil.
func (t *taskTable) find(id string) *taskFollow {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.byID[id]; f != nil {
		return f
	}
	for _, f := range slices.Backward(t.all) {
		if f.id == id {
			return f
		}
	}
	return nil
}

// addLocked starts tracking f, forgetting the oldest ended tasks beyond
// maxEndedTasks. The caller holds t.mu, not f.mu.
func (t *taskTable) addLocked(f *taskFollow) {
	if t.byID == nil {
		t.byID = map[string]*taskFollow{}
	}
	t.byID[f.id] = f
	t.all = append(t.all, f)
	ended := 0
	for _, o := range t.all {
		if o.ended() {
			ended++
		}
	}
	if ended <= maxEndedTasks {
		return
	}
	t.all = slices.DeleteFunc(t.all, func(o *taskFollow) bool {
		if ended > maxEndedTasks && o.ended() {
			ended--
			return true
		}
		return false
	})
}

// Tasks returns a snapshot of every task this session follows or has
// followed (the last maxEndedTasks ended ones), oldest first, then the
// tasks it runs for the server (Task.Ours) that it still keeps.
func (s *Session) Tasks() []Task {
	return append(s.tasks.snapshots(), s.receiver.snapshots()...)
}

// snapshots are the tasks we follow or followed, oldest first.
func (t *taskTable) snapshots() []Task {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Task, 0, len(t.all))
	for _, f := range t.all {
		out = append(out, f.snapshot())
	}
	return out
}

// Task returns the latest snapshot of the task with id, if this session
// follows or followed it, or runs it for the server.
func (s *Session) Task(id string) (Task, bool) {
	if f := s.tasks.find(id); f != nil {
		return f.snapshot(), true
	}
	return s.receiver.snapshot(id)
}

// design is the design the session's protocol speaks, or ErrNoTasks.
func (t *taskTable) design() (TaskDesign, error) {
	kind, protocol := t.h.era()
	switch {
	case kind == eraStateless:
		return TaskDesignExtension, nil
	case protocol == wire.Protocol2025_11_25:
		return TaskDesignCore, nil
	}
	return "", fmt.Errorf("%w: %s speaks %s", ErrNoTasks, t.h.server, eraLabel(kind, protocol))
}

// CancelTask asks the server to cancel task id (tasks/cancel) and returns
// once it answered. The task is not over then: a followed task is polled
// on until the server says how it really ended (2025-11-25 moves it to
// cancelled at once; in the extension cancel is only a request, and the
// task may still complete or fail), and its open prompts end Abandoned.
// An id this session does not follow is cancelled all the same.
//
// For a task of ours (Task.Ours) nothing is sent: its question ends as if
// the person cancelled it, and the task completes with that answer.
func (s *Session) CancelTask(ctx context.Context, id string) error {
	if ours, err := s.receiver.cancelByPerson(id); ours {
		return err
	}
	return s.tasks.cancel(ctx, id)
}

// cancel is CancelTask of a task that is not ours.
func (t *taskTable) cancel(ctx context.Context, id string) error {
	design, err := t.design()
	if err != nil {
		return fmt.Errorf("tasks/cancel %s on %s: %w", id, t.h.server, err)
	}
	f := t.live(id)
	if f != nil {
		f.requestCancel()
	}
	var raw json.RawMessage
	c := &call{method: wire.MethodTasksCancel, name: id, taskOK: true}
	asked := time.Now()
	if err := t.h.do(ctx, c, map[string]string{"taskId": id}, &raw); err != nil {
		return err
	}
	if f == nil {
		return nil
	}
	f.cancelAnswered()
	if design == TaskDesignCore {
		// 2025-11-25 answers the Task itself, already cancelled.
		f.observe(raw, asked)
	}
	return nil
}

// ListTasks lists the server's tasks (2025-11-25 tasks/list, following
// pagination). The extension has no tasks/list: there it fails wrapping
// ErrNoTasks, and Tasks is what the session knows. Listed tasks carry what
// the server said, plus the tool name when this session started them.
func (s *Session) ListTasks(ctx context.Context) ([]Task, error) { return s.tasks.list(ctx) }

// list is ListTasks.
func (t *taskTable) list(ctx context.Context) ([]Task, error) {
	design, err := t.design()
	if err == nil && design != TaskDesignCore {
		err = fmt.Errorf("%w: the tasks extension has no tasks/list", ErrNoTasks)
	}
	if err == nil && !t.h.caps().TasksList {
		err = fmt.Errorf("%w: the server did not declare tasks.list", ErrNoTasks)
	}
	if err != nil {
		return nil, fmt.Errorf("tasks/list on %s: %w", t.h.server, err)
	}
	listed, err := t.h.listTasks(ctx)
	out := make([]Task, 0, len(listed))
	for _, w := range listed {
		task := Task{Server: t.h.server, ID: w.TaskID, Design: TaskDesignCore}
		w.applyTo(&task)
		if known, ok := t.h.task(w.TaskID); ok {
			task.Tool, task.CallID = known.Tool, known.CallID
		}
		out = append(out, task)
	}
	return out, err
}

// ResumeTask follows task id, for example one from a previous run (the
// spec asks clients to persist task ids), as if CallTool of tool had just
// created it: it polls tasks/get at once, serves the task's questions,
// emits TaskChanged, and blocks until the task is terminal, returning what
// CallTool would have. An id the server does not know (any more) ends the
// task Lost, with the server's error, and fails wrapping ErrTaskLost. If
// the session already follows id, ResumeTask waits for that.
//
// Cancelling ctx cancels the task (tasks/cancel), as for CallTool.
// 2025-11-25 tasks belong to the session that created them, so they can
// be resumed only on that same session; extension task ids work on any.
func (s *Session) ResumeTask(ctx context.Context, id, tool string) (*wire.CallToolResult, error) {
	return s.tasks.resume(ctx, id, tool)
}

// resume is ResumeTask.
func (t *taskTable) resume(ctx context.Context, id, tool string) (*wire.CallToolResult, error) {
	design, err := t.design()
	if err != nil {
		return nil, fmt.Errorf("resume task %s on %s: %w", id, t.h.server, err)
	}
	if id == "" {
		return nil, fmt.Errorf("resume task on %s: empty task id", t.h.server)
	}
	f := t.live(id)
	if f == nil {
		f, err = t.follow(design, id, tool, nil, nil, "")
		if err != nil {
			return nil, err
		}
	}
	return t.await(ctx, f)
}

// await blocks until f has ended and returns its outcome; when ctx ends
// first, the task is cancelled on the server in the background (polling
// goes on, bounded, so its real end is still reported) and await returns
// ctx's cause, unless that cause is ErrTaskDetached.
func (t *taskTable) await(ctx context.Context, f *taskFollow) (*wire.CallToolResult, error) {
	select {
	case <-f.done:
		return f.outcome()
	case <-ctx.Done():
	}
	select {
	case <-f.done: // ended meanwhile: that wins
		return f.outcome()
	default:
	}
	if !errors.Is(context.Cause(ctx), ErrTaskDetached) {
		t.cancelInBackground(f)
	}
	return nil, fmt.Errorf("task %s of %s on %s: %w", f.id, f.describeTool(), t.h.server, context.Cause(ctx))
}
