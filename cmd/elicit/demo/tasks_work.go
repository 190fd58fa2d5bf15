package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// work is what a job sees of its task: it reports progress, checks for
// cancellation between its units of work, and asks questions.
type work struct {
	store *taskStore
	task  *task
}

// report sets the task's statusMessage.
func (w *work) report(format string, args ...any) {
	s, t := w.store, w.task
	s.mu.Lock()
	if terminal(t.status) { // cancelled under a stubborn job: the status says so, keep it
		s.mu.Unlock()
		return
	}
	t.message = fmt.Sprintf(format, args...)
	notify := s.changeLocked(t)
	s.mu.Unlock()
	notify()
}

// checkpoint returns errTaskCancelled once the client asked to cancel, or
// why ctx ended. Jobs call it between units of work, never inside one, so a
// cancel cannot leave a booking half-moved.
func (w *work) checkpoint(ctx context.Context) error {
	select {
	case <-w.task.cancel:
		return errTaskCancelled
	default:
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// cancelRequested reports whether the client asked to cancel, for a job
// that chooses not to listen.
func (w *work) cancelRequested() bool {
	select {
	case <-w.task.cancel:
		return true
	default:
		return false
	}
}

// unit waits for one unit of work. Only the end of ctx (shutdown, ttl,
// session end) interrupts it; a cancel waits for the next checkpoint.
func (w *work) unit(ctx context.Context) error {
	tm := time.NewTimer(w.store.step)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// ask puts the task in input_required with one question under key and
// waits for its answer: a tasks/update (2026-07-28) or the elicitation/create
// a tasks/result sends (2025-11-25). Keys must be unique over the task's
// life. A cancel while waiting returns errTaskCancelled.
func (w *work) ask(ctx context.Context, key string, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	s, t := w.store, w.task
	q := &question{params: p, reply: make(chan answer, 1)}
	s.mu.Lock()
	if _, dup := t.questions[key]; dup {
		s.mu.Unlock()
		return nil, fmt.Errorf("the job asked twice under the key %q", key)
	}
	t.questions[key] = q
	if !terminal(t.status) {
		t.status, t.message = taskInputRequired, "Waiting for an answer: "+p.Message
	}
	notify := s.changeLocked(t)
	s.mu.Unlock()
	notify()

	var a answer
	select {
	case a = <-q.reply:
	case <-t.cancel:
		a.err = errTaskCancelled
	case <-ctx.Done():
		a.err = context.Cause(ctx)
	}

	s.mu.Lock()
	q.sent = true // keys are never reused, so the entry stays as a tombstone
	if t.status == taskInputRequired && !hasOpenQuestion(t) {
		t.status = taskWorking
	}
	notify = s.changeLocked(t)
	s.mu.Unlock()
	notify()
	return a.res, a.err
}

func hasOpenQuestion(t *task) bool {
	for _, q := range t.questions {
		if !q.sent {
			return true
		}
	}
	return false
}
