package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Following a task to its end, both designs: one goroutine per task polls
// tasks/get no faster than the server's pollInterval, folds every answer
// (and every status notification) into the task's snapshot, and settles
// the outcome when the task is terminal or lost.

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
	// pollTimeout bounds one tasks/get (and the final tasks/result wait).
	pollTimeout = 30 * time.Second
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
	// cancelTimeout bounds the tasks/cancel sent when a person cancels a
	// task call.
	cancelTimeout = 10 * time.Second
)

// taskFollow is one task being followed. id, tool, design and callID never
// change; the rest is guarded by Session.mu unless said otherwise.
type taskFollow struct {
	s      *Session
	id     string
	tool   string
	design TaskDesign
	callID jsonrpc.ID
	token  *call // the creating call, kept for its progress token; nil when resumed

	ctx  context.Context // ends when the follow ends: its requests end too
	stop context.CancelFunc
	wake chan struct{} // one slot: "the snapshot changed"
	done chan struct{} // closed once snap is final (Ended)

	snap     Task
	open     []question.Key // the task's open prompts, in arrival order
	byPerson bool        // cancelled by us: its prompts end Abandoned
	cancelAt time.Time   // when tasks/cancel was first asked for
	res      *wire.CallToolResult
	err      error

	core coreState // 2025-11-25: tasks/result
	ext  extState  // extension: inputRequests, result, error
}

// follow starts following task id: it registers it, emits its first
// TaskChanged and starts its goroutine. w is what the server said when it
// created the task (nil when resumed: the first poll goes out at once).
func (s *Session) follow(design TaskDesign, id, tool string, creator *call, w *wireTask, immediate string) (*taskFollow, error) {
	f := &taskFollow{s: s, id: id, tool: tool, design: design, token: creator,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	f.ctx, f.stop = context.WithCancel(context.Background())
	f.snap = Task{Server: s.name, ID: id, Tool: tool, Design: design, ImmediateResponse: immediate}
	s.mu.Lock()
	if creator != nil {
		f.callID = creator.callID()
		f.snap.CallID = f.callID
	}
	if s.isDead || s.closing {
		err := s.err
		s.mu.Unlock()
		f.stop()
		if err == nil {
			err = ErrClosed
		}
		return nil, fmt.Errorf("follow task %s on %s: %w", id, s.name, err)
	}
	if old := s.tasks.byID[id]; old != nil {
		s.mu.Unlock()
		f.stop()
		return old, nil
	}
	if w != nil {
		w.applyTo(&f.snap)
	}
	if creator != nil && creator.token.IsValid() {
		// The call's progress token stays valid for the task's whole life.
		s.progress[creator.token] = creator
	}
	s.tasks.addLocked(f)
	listen := design == TaskDesignExtension && s.opts.ListenTasks
	s.wg.Add(1)
	if listen {
		s.wg.Add(1)
	}
	f.changedLocked()
	s.mu.Unlock()
	go f.run(w != nil)
	if listen {
		go f.listen()
	}
	return f, nil
}

// snapshotLocked is the task's current snapshot, a copy.
func (f *taskFollow) snapshotLocked() Task {
	t := f.snap
	t.OpenPrompts = slices.Clone(f.open)
	return t
}

// changedLocked reports the snapshot (under mu, so events keep their order).
func (f *taskFollow) changedLocked() {
	f.s.emit(TaskChanged{Task: f.snapshotLocked()})
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
	s := f.s
	defer s.wg.Done()
	defer f.stop()
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
		case s.Err() != nil:
			f.lose(s.Err())
		case unreachable(err):
			unreached++
			s.notice("task %s: tasks/get could not reach the server (%d of %d): %v", f.id, unreached, maxUnreachable, err)
			if unreached >= maxUnreachable {
				f.lose(fmt.Errorf("%w (tasks/get could not reach the server %d times in a row: %w)", question.ErrDisconnected, unreached, err))
			}
			interval = unreachableRetry << (unreached - 1)
		default:
			fails++
			s.notice("task %s: tasks/get failed (%d of %d): %v", f.id, fails, maxPollFailures, err)
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
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.snap.Status.Terminal() || f.snap.Lost
}

// interval is the wait before the next poll: the server's pollInterval
// (clamped), or the fallback, backing off.
func (f *taskFollow) interval(backoff *time.Duration) time.Duration {
	f.s.mu.Lock()
	p := f.snap.PollInterval
	f.s.mu.Unlock()
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
	s := f.s
	for {
		s.mu.Lock()
		cancelAt := f.cancelAt
		s.mu.Unlock()
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
		case <-s.quit:
			tm.Stop()
			err := s.Err()
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
	s := f.s
	s.mu.Lock()
	f.snap.Polls++
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(f.ctx, pollTimeout)
	defer cancel()
	var raw json.RawMessage
	c := &call{method: wire.MethodTasksGet, name: f.id, taskOK: true}
	err := s.do(ctx, c, map[string]string{"taskId": f.id}, &raw)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeInvalidParams {
			// Unknown or expired: the server will never know it again.
			f.lose(err)
			return nil
		}
		s.mu.Lock()
		f.changedLocked() // Polls moved
		s.mu.Unlock()
		return err
	}
	if !f.observe(raw, true) {
		return fmt.Errorf("tasks/get %s: the answer is not a task", f.id)
	}
	return nil
}

// observe folds a Task the server sent (a poll's answer, a cancel's, a
// notification) into the snapshot; it reports whether raw was a task.
func (f *taskFollow) observe(raw json.RawMessage, poll bool) bool {
	w := decodeTask(raw)
	if w == nil {
		if poll {
			f.s.mu.Lock()
			f.changedLocked()
			f.s.mu.Unlock()
		}
		return false
	}
	f.observeTask(w)
	return true
}

// observeTask folds w in. Terminal statuses are final, and a snapshot older
// than the one we hold (by lastUpdatedAt) is ignored, so that a poll
// answered before a notification cannot undo it; a terminal one is never
// stale, though (nothing can undo it, and a server whose clock stepped
// back would otherwise never finish its task: found by fuzzing).
func (f *taskFollow) observeTask(w *wireTask) {
	s := f.s
	if w.TaskID != f.id {
		s.notice("task %s: ignored a status for task %q", f.id, w.TaskID)
		return
	}
	if !knownStatus(w.Status) {
		s.notice("task %s: ignored a status of %q, which is not a task status", f.id, w.Status)
	}
	var act taskActions
	s.mu.Lock()
	stale := false
	if u := stamp(w.LastUpdatedAt); !u.IsZero() && u.Before(f.snap.LastUpdatedAt) && !w.Status.Terminal() {
		stale = true
	}
	if f.snap.Ended || f.snap.Status.Terminal() || stale {
		f.changedLocked() // Polls may have moved
		s.mu.Unlock()
		return
	}
	prev := f.snap.Status
	w.applyTo(&f.snap)
	switch f.design {
	case TaskDesignCore:
		act.startResult = f.coreObservedLocked(prev)
	case TaskDesignExtension:
		act.inputs = f.extObservedLocked(w)
	}
	f.changedLocked()
	terminal := f.snap.Status.Terminal()
	s.mu.Unlock()
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

// lose ends the follow without a terminal status.
func (f *taskFollow) lose(err error) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	if f.snap.Ended || f.snap.Lost || f.snap.Status.Terminal() {
		return
	}
	f.snap.Lost, f.snap.Err = true, err
	f.changedLocked()
	f.poke()
}

// requestCancelLocked marks the task cancelled by us: its open prompts
// end Abandoned, so do any that arrive later.
func (f *taskFollow) requestCancelLocked() {
	if f.snap.Ended {
		return
	}
	f.byPerson = true
	if f.cancelAt.IsZero() {
		f.cancelAt = time.Now()
	}
	f.snap.CancelRequested = true
	f.endPromptsLocked(question.ErrAbandoned)
	f.changedLocked()
	f.poke()
}

// cancelInBackground sends tasks/cancel for f, bounded, in the background
// (the person cancelled the call; CallTool has already returned).
func (s *Session) cancelInBackground(f *taskFollow) {
	s.mu.Lock()
	if f.snap.Ended || s.isDead || s.closing {
		s.mu.Unlock()
		return
	}
	f.requestCancelLocked()
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
		defer cancel()
		if err := s.CancelTask(ctx, f.id); err != nil {
			s.notice("task %s: tasks/cancel failed: %v; following it on", f.id, err)
		}
	}()
}

// finish settles the task's outcome once polling is over, closes what is
// still open, and reports the final snapshot.
func (f *taskFollow) finish() {
	s := f.s
	s.mu.Lock()
	status, lost, lostErr := f.snap.Status, f.snap.Lost, f.snap.Err
	s.mu.Unlock()
	if f.design == TaskDesignCore && (lost || status == TaskCancelled) {
		f.settleResult()
	}
	var res *wire.CallToolResult
	var err error
	switch {
	case lost:
		err = fmt.Errorf("task %s of %s on %s: %w: %w", f.id, f.describeTool(), s.name, ErrTaskLost, lostErr)
	case status == TaskCancelled:
		err = fmt.Errorf("task %s of %s on %s: %w", f.id, f.describeTool(), s.name, ErrTaskCancelled)
	case f.design == TaskDesignCore:
		res, err = f.coreOutcome(status)
	default:
		res, err = f.extOutcome(status)
	}
	s.mu.Lock()
	f.res, f.err = res, err
	f.snap.Result = res
	switch {
	case lost:
		// Err already says why.
	case status == TaskCancelled:
		f.snap.Err = nil
	default:
		f.snap.Err = err
	}
	f.snap.Ended = true
	f.closePromptsLocked(status)
	// The task's own questions are ending with it; the server's requests
	// (2025-11-25) end when the server or the person ends them.
	f.open = slices.DeleteFunc(f.open, func(k question.Key) bool { return k.Delivery == question.TaskInput })
	if s.tasks.byID[f.id] == f {
		delete(s.tasks.byID, f.id)
	}
	if c := f.token; c != nil && c.token.IsValid() && s.progress[c.token] == c {
		delete(s.progress, c.token)
	}
	f.changedLocked()
	s.mu.Unlock()
	close(f.done)
}

// outcome is what CallTool returns for the task; valid once done is closed.
func (f *taskFollow) outcome() (*wire.CallToolResult, error) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.res, f.err
}

// closePromptsLocked ends the prompts still open when the task ended: the
// server no longer asks them (Withdrawn), unless we cancelled the task
// (Abandoned).
func (f *taskFollow) closePromptsLocked(status TaskStatus) {
	if f.byPerson {
		f.endPromptsLocked(question.ErrAbandoned)
		return
	}
	if f.snap.Lost && !serverAnswered(f.snap.Err) {
		// Lost without a word from the server (polls kept failing: over
		// HTTP a server that is gone looks like this): nobody withdrew
		// the questions, the way to the server is gone. Before this they
		// ended Withdrawn, "the task ended input_required", and a
		// 2025-11-25 question stayed open until the session closed.
		cause := fmt.Errorf("%w: task %s was lost: %w", question.ErrDisconnected, f.id, f.snap.Err)
		if errors.Is(f.snap.Err, question.ErrDisconnected) {
			cause = fmt.Errorf("task %s was lost: %w", f.id, f.snap.Err) // said once
		}
		f.endPromptsLocked(cause)
		return
	}
	reason := "the task ended"
	if status != "" {
		reason += " " + string(status)
	}
	// Only the extension's questions are ours to close: a 2025-11-25
	// question is a request of the server's, which it withdraws itself.
	f.withdrawInputsLocked(reason)
}

// endPromptsLocked ends the task's open prompts, of either design, with
// cause.
func (f *taskFollow) endPromptsLocked(cause error) {
	f.endInputsLocked(cause)
	f.endCoreLocked(cause)
}

// taskFailure is the error of a failed task: the server's JSON-RPC error,
// or a stand-in naming its statusMessage.
func (f *taskFollow) taskFailure(rpcErr *jsonrpc.Error, statusMessage string) error {
	if rpcErr == nil {
		msg := "the task failed"
		if statusMessage != "" {
			msg += ": " + statusMessage
		}
		rpcErr = jsonrpc.NewError(jsonrpc.CodeInternalError, msg, nil)
	}
	return fmt.Errorf("task %s of tools/call %s on %s failed: %w", f.id, f.describeTool(), f.s.name, rpcErr)
}
