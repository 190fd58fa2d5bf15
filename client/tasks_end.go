package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// How a followed task ends: lost, cancelled by us, or settled once polling
// is over, with the prompts still open ended as the way it ended says.

// lose ends the follow without a terminal status.
func (f *taskFollow) lose(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.snap.Ended || f.snap.Lost || f.snap.Status.Terminal() {
		return
	}
	f.snap.Lost, f.snap.Err = true, err
	f.changedLocked()
	f.poke()
}

// requestCancel marks the task cancelled by us: its open prompts end
// Abandoned, so do any that arrive later.
func (f *taskFollow) requestCancel() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requestCancelLocked()
}

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

// cancelAnswered notes that a tasks/cancel was answered with success: from
// then on the server knows, which is what the cancel findings count from.
func (f *taskFollow) cancelAnswered() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancelOK.IsZero() {
		f.cancelOK = time.Now()
	}
}

// cancelInBackground sends tasks/cancel for f, bounded, in the background
// (the person cancelled the call; CallTool has already returned).
func (t *taskTable) cancelInBackground(f *taskFollow) {
	if t.h.err() != nil {
		return // the session is ending: nothing can go out
	}
	f.mu.Lock()
	if f.snap.Ended {
		f.mu.Unlock()
		return
	}
	f.requestCancelLocked()
	t.h.wg.Add(1) // the follower (not ended) holds the count above zero
	f.mu.Unlock()
	go func() {
		defer t.h.wg.Done()
		if err := t.h.cancel(context.Background(), f.id); err != nil {
			t.h.notice("task %s: tasks/cancel failed: %v; following it on", f.id, err)
		}
	}()
}

// finish settles the task's outcome once polling is over, closes what is
// still open, and reports the final snapshot.
func (f *taskFollow) finish() {
	h := &f.t.h
	f.mu.Lock()
	status, lost, lostErr := f.snap.Status, f.snap.Lost, f.snap.Err
	f.mu.Unlock()
	if f.design == TaskDesignCore && (lost || status == TaskCancelled) {
		f.settleResult()
	}
	var res *wire.CallToolResult
	var err error
	switch {
	case lost:
		err = fmt.Errorf("task %s of %s on %s: %w: %w", f.id, f.describeTool(), h.server, ErrTaskLost, lostErr)
	case status == TaskCancelled:
		err = fmt.Errorf("task %s of %s on %s: %w", f.id, f.describeTool(), h.server, ErrTaskCancelled)
	case f.design == TaskDesignCore:
		res, err = f.coreOutcome(status)
	default:
		res, err = f.extOutcome(status)
	}
	if c := f.token; c != nil && c.token.IsValid() {
		h.release(c)
	}
	// Ended and out of byID in one step (taskTable.mu, then f.mu).
	f.t.mu.Lock()
	f.mu.Lock()
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
	if f.t.byID[f.id] == f {
		delete(f.t.byID, f.id)
	}
	f.changedLocked()
	f.mu.Unlock()
	f.t.mu.Unlock()
	close(f.done)
}

// outcome is what CallTool returns for the task; valid once done is closed.
func (f *taskFollow) outcome() (*wire.CallToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
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
		// the questions, the way to the server is gone: they end
		// Disconnected, the server's requests (2025-11-25) too.
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
	return fmt.Errorf("task %s of tools/call %s on %s failed: %w", f.id, f.describeTool(), f.t.h.server, rpcErr)
}
