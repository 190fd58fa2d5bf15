package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Following a task to its end, both designs: one goroutine per task polls
// tasks/get no faster than the server's pollInterval, folds every answer
// (and every status notification) into the task's snapshot, and settles
// the outcome when the task is terminal or lost (tasks_end.go).

// Polling bounds.
const (
	// fallbackPoll is the first interval when the server suggests none; it
	// doubles up to fallbackPollCeiling while nothing changes.
	fallbackPoll        = time.Second
	fallbackPollCeiling = 10 * time.Second
	// minPoll and maxPoll clamp the server's suggestion: no busy loop on
	// pollInterval 0 or 1, no stall on a pollInterval of a day.
	minPoll = 10 * time.Millisecond
	maxPoll = 5 * time.Minute
	// maxPollFailures consecutive failed polls lose the task.
	maxPollFailures = 5
	// maxUnreachable consecutive polls that cannot reach the server at all
	// (no connection: over HTTP, a server that is gone looks like this)
	// lose the task sooner, retried after unreachableRetry, doubling: its
	// open questions cannot be answered and its call should say so within
	// a second or two, not after minutes of backoff. The task is lost as
	// disconnected, so it stays resumable (cmd/elicit keeps its id).
	maxUnreachable   = 3
	unreachableRetry = 200 * time.Millisecond
	// cancelFollowLimit bounds how long a task is followed after we asked
	// to cancel it; then it is given up as lost.
	cancelFollowLimit = 2 * time.Minute
)

// Each tasks/get, tasks/update, tasks/cancel, and tasks/result of a task
// that has ended, is bounded by Options.RequestTimeout like any request
// (timeout.go); a task as a whole is not: it is bounded per poll.

// taskFollow is one task being followed. id, tool, design, callID and the
// channels never change; the rest is guarded by mu (the lock order is at
// taskTable).
type taskFollow struct {
	t      *taskTable // its table, and through it the session (tasksHandle)
	id     string
	tool   string
	design TaskDesign
	callID jsonrpc.ID
	token  *call // the creating call, kept for its progress token; nil when resumed

	ctx  context.Context // ends when the follow ends: its requests end too
	stop context.CancelFunc
	wake chan struct{} // one slot: "the snapshot changed"
	done chan struct{} // closed once snap is final (Ended)

	mu       sync.Mutex
	snap     Task
	open     []question.Key // the task's open prompts, in arrival order
	byPerson bool           // cancelled by us: its prompts end Abandoned, new ones at once
	cancelAt time.Time      // when tasks/cancel was first asked for
	cancelOK time.Time      // when a tasks/cancel was first answered with success
	termAt   time.Time      // when the terminal status was folded in
	termUpd  time.Time      // the terminal snapshot's own lastUpdatedAt (zero if it had none)
	res      *wire.CallToolResult
	err      error

	core coreState // 2025-11-25: tasks/result
	ext  extState  // extension: inputRequests, result, error
}

// follow starts following task id: it registers it, emits its first
// TaskChanged and starts its goroutine. w is what the server said when it
// created the task (nil when resumed: the first poll goes out at once).
func (t *taskTable) follow(design TaskDesign, id, tool string, creator *call, w *wireTask, immediate string) (*taskFollow, error) {
	f := &taskFollow{t: t, id: id, tool: tool, design: design, token: creator,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	f.ctx, f.stop = context.WithCancel(context.Background())
	f.snap = Task{Server: t.h.server, ID: id, Tool: tool, Design: design, ImmediateResponse: immediate}
	if creator != nil {
		f.callID = creator.callID()
		f.snap.CallID = f.callID
	}
	if w != nil {
		w.applyTo(&f.snap)
	}
	var old *taskFollow
	listen := design == TaskDesignExtension && t.h.listenTasks
	err := t.h.enter(f, creator, func(in map[jsonrpc.ID]*incoming) bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		if old = t.byID[id]; old != nil {
			return false
		}
		f.adoptLocked(in)
		f.changedLocked() // f is not shared yet: its first event goes first
		t.addLocked(f)
		// Still under Session.mu: Close waits for what the WaitGroup counts.
		t.h.wg.Add(1)
		if listen {
			t.h.wg.Add(1)
		}
		return true
	})
	if err != nil || old != nil {
		f.stop()
		return old, err
	}
	go f.run(w != nil)
	if listen {
		go f.listen()
	}
	return f, nil
}

// snapshot is the task's current snapshot, a copy.
func (f *taskFollow) snapshot() Task {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snapshotLocked()
}

func (f *taskFollow) snapshotLocked() Task {
	t := f.snap
	t.OpenPrompts = slices.Clone(f.open)
	return t
}

// ended reports whether the snapshot is final.
func (f *taskFollow) ended() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap.Ended
}

// changedLocked reports the snapshot (under mu, so events keep their order).
func (f *taskFollow) changedLocked() {
	f.t.h.emit(TaskChanged{Task: f.snapshotLocked()})
}

// poke wakes the follower.
func (f *taskFollow) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *taskFollow) describeTool() string {
	if f.tool == "" {
		return "a tool"
	}
	return fmt.Sprintf("%q", f.tool)
}

// origin is what the task's prompts belong to.
func (f *taskFollow) origin() question.Origin {
	return question.Origin{Kind: question.OriginTask, Name: f.tool, CallID: f.callID, TaskID: f.id}
}

// addOpenLocked and removeOpenLocked keep OpenPrompts; the caller reports
// the change.
func (f *taskFollow) addOpenLocked(k question.Key) {
	f.open = append(f.open, k)
}

func (f *taskFollow) removeOpenLocked(k question.Key) bool {
	i := slices.Index(f.open, k)
	if i < 0 {
		return false
	}
	f.open = slices.Delete(f.open, i, i+1)
	return true
}

// run polls until the task is terminal or lost, then settles it. fresh is
// set for a task just created, whose first poll waits one interval.
func (f *taskFollow) run(fresh bool) {
	h := &f.t.h
	defer h.wg.Done()
	defer f.stop()
	f.kickResult() // created in input_required: no poll shows a move into it
	backoff := fallbackPoll
	fails, unreached := 0, 0
	next := time.Now()
	if fresh {
		next = next.Add(f.interval(&backoff))
	}
	for !f.over() {
		if !f.sleepUntil(next) {
			break
		}
		if f.over() {
			break
		}
		err := f.poll()
		// Counted from the answer, so that two polls are never closer
		// than the interval, however the wire delays them.
		answered := time.Now()
		interval := f.interval(&backoff)
		switch {
		case err == nil:
			fails, unreached = 0, 0
		case h.err() != nil:
			f.lose(h.err())
		case unreachable(err):
			unreached++
			h.notice("task %s: tasks/get could not reach the server (%d of %d): %v", f.id, unreached, maxUnreachable, err)
			if unreached >= maxUnreachable {
				f.lose(fmt.Errorf("%w (tasks/get could not reach the server %d times in a row: %w)", question.ErrDisconnected, unreached, err))
			}
			interval = unreachableRetry << (unreached - 1)
		default:
			fails++
			h.notice("task %s: tasks/get failed (%d of %d): %v", f.id, fails, maxPollFailures, err)
			if fails >= maxPollFailures {
				f.lose(fmt.Errorf("tasks/get failed %d times in a row: %w", fails, err))
			}
			interval = max(interval, fallbackPoll<<min(fails, 3))
		}
		next = answered.Add(interval)
	}
	f.finish()
}

// unreachable reports whether err means no connection to the server could
// be made or kept (a network error), as opposed to an answer or a timeout.
func unreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

// over reports whether polling is over: terminal, or lost.
func (f *taskFollow) over() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap.Status.Terminal() || f.snap.Lost
}

// interval is the wait before the next poll: the server's pollInterval
// (clamped), or the fallback, backing off.
func (f *taskFollow) interval(backoff *time.Duration) time.Duration {
	f.mu.Lock()
	p := f.snap.PollInterval
	f.mu.Unlock()
	if p > 0 {
		return min(max(p, minPoll), maxPoll)
	}
	d := *backoff
	*backoff = min(2**backoff, fallbackPollCeiling)
	return d
}

// sleepUntil waits until t, waking early only to stop: when the task went
// terminal meanwhile (a notification said so), the session ended, or we
// have followed a cancelled task long enough. A notification never makes
// the next poll come sooner. It reports whether to go on.
func (f *taskFollow) sleepUntil(t time.Time) bool {
	h := &f.t.h
	for {
		f.mu.Lock()
		cancelAt := f.cancelAt
		f.mu.Unlock()
		d := time.Until(t)
		giveUp := false
		if !cancelAt.IsZero() {
			if left := time.Until(cancelAt.Add(cancelFollowLimit)); left < d {
				d, giveUp = left, true
			}
		}
		if d <= 0 {
			if giveUp {
				f.lose(fmt.Errorf("stopped following it %v after asking to cancel it", cancelFollowLimit))
				return false
			}
			return true
		}
		tm := time.NewTimer(d)
		select {
		case <-tm.C:
			if giveUp {
				continue // the top of the loop gives up
			}
			return true
		case <-f.wake:
			tm.Stop()
			if f.over() {
				return false
			}
		case <-h.quit:
			tm.Stop()
			err := h.err()
			if err == nil {
				err = ErrClosed
			}
			f.lose(err)
			return false
		}
	}
}

// poll sends one tasks/get and folds the answer in. An error that says the
// server does not know the task loses it.
func (f *taskFollow) poll() error {
	h := &f.t.h
	f.mu.Lock()
	f.snap.Polls++
	f.mu.Unlock()
	var raw json.RawMessage
	c := &call{method: wire.MethodTasksGet, name: f.id, taskOK: true}
	asked := time.Now() // no later than the request went out
	err := h.do(f.ctx, c, map[string]string{"taskId": f.id}, &raw)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeInvalidParams {
			// Unknown or expired: the server will never know it again.
			f.lose(err)
			return nil
		}
		f.mu.Lock()
		f.changedLocked() // Polls moved
		f.mu.Unlock()
		return err
	}
	if !f.observe(raw, asked) {
		f.mu.Lock()
		f.changedLocked() // Polls moved
		f.mu.Unlock()
		return fmt.Errorf("tasks/get %s: the answer is not a task", f.id)
	}
	return nil
}

// observe folds a Task the server answered (a poll's answer, a cancel's)
// into the snapshot; it reports whether raw was a task. asked is a time
// no later than the request went out (see taskLint).
func (f *taskFollow) observe(raw json.RawMessage, asked time.Time) bool {
	w := decodeTask(raw)
	if w == nil {
		return false
	}
	f.observeTask(w, asked)
	return true
}

// observeTask folds w in. Terminal statuses are final, and a snapshot older
// than the one we hold (by lastUpdatedAt) is ignored, so that a poll
// answered before a notification cannot undo it; a terminal one is never
// stale, though (nothing can undo it, and a server whose clock stepped
// back would otherwise never finish its task: found by fuzzing). asked is
// a time no later than the request w answers went out; zero for a
// notification.
func (f *taskFollow) observeTask(w *wireTask, asked time.Time) {
	h := &f.t.h
	if w.TaskID != f.id {
		h.notice("task %s: ignored a status for task %q", f.id, w.TaskID)
		return
	}
	if !knownStatus(w.Status) {
		h.notice("task %s: ignored a status of %q, which is not a task status", f.id, w.Status)
	}
	var act taskActions
	f.mu.Lock()
	defer h.lint.Task(f.lintLocked(w, asked)) // judged after the lock is released (client/lint)
	stale := false
	if u := stamp(w.LastUpdatedAt); !u.IsZero() && u.Before(f.snap.LastUpdatedAt) && !w.Status.Terminal() {
		stale = true
	}
	if f.snap.Ended || f.snap.Status.Terminal() || stale {
		if !f.snap.Ended { // the last snapshot stays the last
			f.changedLocked() // Polls may have moved
		}
		f.mu.Unlock()
		return
	}
	w.applyTo(&f.snap)
	if f.snap.Status.Terminal() {
		f.termAt, f.termUpd = time.Now(), stamp(w.LastUpdatedAt)
	}
	switch f.design {
	case TaskDesignCore:
		act.startResult = f.wantResultLocked()
	case TaskDesignExtension:
		act.inputs = f.extObservedLocked(w)
	}
	f.changedLocked()
	terminal := f.snap.Status.Terminal()
	f.mu.Unlock()
	if act.startResult {
		f.startResult(false)
	}
	for _, in := range act.inputs {
		go f.askInput(in)
	}
	if terminal {
		f.poke()
	}
}

// taskActions is what an observation asks for once the lock is released.
type taskActions struct {
	startResult bool         // 2025-11-25: call tasks/result
	inputs      []*taskInput // extension: new questions to show (wg counted)
}
