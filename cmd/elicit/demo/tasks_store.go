package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task engine. go-sdk v1.8.0 has no tasks, so the demo keeps its own:
// one store per server, holding every task by id. A task runs a job in its
// own goroutine, detached from the tools/call that created it, and the
// tasks/* methods of either era (tasks_legacy.go, tasks_ext.go) read and
// steer it. Both eras share the statuses and the job; they differ in the
// wire shapes and in what isError, cancel and questions do.

// Task statuses, the same five in both eras.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// Task lifetimes: what a task lives by default, and the bounds a client's
// requested ttl (2025-11-25 params.task.ttl) is clamped to.
const (
	defaultTaskTTL = 10 * time.Minute
	minTaskTTL     = time.Second
	maxTaskTTL     = time.Hour
	// maxLiveTasks bounds the jobs one server runs at once, so a client
	// cannot start goroutines without end.
	maxLiveTasks = 1000
)

func terminal(status string) bool {
	return status == taskCompleted || status == taskFailed || status == taskCancelled
}

// Why a job stopped early; they become its final status.
var (
	errTaskCancelled = errors.New("the client cancelled the task")
	errTaskExpired   = errors.New("the task outlived its ttl")
	errSessionGone   = errors.New("the session that created the task ended")
)

// question is one pending input request of a task.
type question struct {
	params *mcp.ElicitParams
	asking bool        // 2025-11-25: a tasks/result is asking it right now
	reply  chan answer // buffered; written once, by whoever answers first
	sent   bool        // an answer was written to reply
}

// answer is the client's response to a question, or why there is none.
type answer struct {
	res *mcp.ElicitResult
	err error
}

// task is one task. The fields below mu are guarded by the store's mutex.
type task struct {
	id      string
	tool    string
	modern  bool               // created by a 2026-07-28 request (extension shapes)
	owner   *mcp.ServerSession // 2025-11-25: the creating session, the only one that sees it; nil for bearer ids
	created time.Time
	ttl     time.Duration
	notify  func(taskView)          // status notifications; nil when they cannot be sent
	cancel  chan struct{}           // closed when the client asks to cancel
	stop    context.CancelCauseFunc // ends the job's context (session end)

	status    string
	message   string
	updated   time.Time
	result    *mcp.CallToolResult
	err       *jsonrpc.Error
	questions map[string]*question
	cancelled bool          // cancel was closed
	notified  string        // the status last sent in a status notification
	changed   chan struct{} // closed and replaced on every change, to wake waiters
}

// taskView is a copy of a task's state at one moment, to render without
// holding the lock.
type taskView struct {
	id, status, message string
	created, updated    time.Time
	ttl, poll           time.Duration
	result              *mcp.CallToolResult
	err                 *jsonrpc.Error
	questions           map[string]*mcp.ElicitParams
}

// job is the work of a task tool. It returns the tool's result, or an error
// that becomes the task's JSON-RPC error (a *jsonrpc.Error is kept as it
// is; errTaskCancelled makes the task cancelled).
type job func(ctx context.Context, w *work) (*mcp.CallToolResult, error)

// taskTool is a tool that runs as a task.
type taskTool struct {
	support string // execution.taskSupport: "required" or "optional"
	run     job
}

// taskStore holds one server's tasks.
type taskStore struct {
	life   context.Context // ends every job (server shutdown)
	poll   time.Duration
	step   time.Duration
	logger *slog.Logger
	tools  map[string]taskTool // fixed once the server is built
	jobs   sync.WaitGroup

	mu      sync.Mutex
	tasks   map[string]*task
	watched map[*mcp.ServerSession]bool // sessions whose end cancels their tasks
}

func newTaskStore(cfg config, life context.Context) *taskStore {
	return &taskStore{
		life: life, poll: cfg.taskPoll, step: cfg.taskStep, logger: cfg.logger,
		tools: map[string]taskTool{}, tasks: map[string]*task{}, watched: map[*mcp.ServerSession]bool{},
	}
}

// wait blocks until every job has returned; the caller ends life first.
func (s *taskStore) wait() { s.jobs.Wait() }

// taskSpec is what creating a task needs.
type taskSpec struct {
	tool   string
	run    job
	modern bool
	owner  *mcp.ServerSession
	ttl    time.Duration
	notify func(taskView)
}

// start creates a task in the working status and starts its job. The task
// can be polled before start returns, as the extension requires of
// CreateTaskResult. It fails when too many tasks are running.
func (s *taskStore) start(spec taskSpec) (taskView, error) {
	now := time.Now()
	t := &task{
		id: rand.Text(), tool: spec.tool, modern: spec.modern, owner: spec.owner,
		created: now, ttl: spec.ttl, notify: spec.notify, cancel: make(chan struct{}),
		status: taskWorking, message: "Starting", updated: now, notified: taskWorking,
		questions: map[string]*question{}, changed: make(chan struct{}),
	}
	ctx, expire := context.WithDeadlineCause(s.life, now.Add(spec.ttl), errTaskExpired)
	ctx, t.stop = context.WithCancelCause(ctx)
	s.mu.Lock()
	s.purgeLocked(now)
	live := 0
	for _, o := range s.tasks {
		if !terminal(o.status) {
			live++
		}
	}
	if live >= maxLiveTasks {
		s.mu.Unlock()
		expire()
		return taskView{}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("the demo runs at most %d tasks at once; cancel some or wait", maxLiveTasks)}
	}
	s.tasks[t.id] = t
	if spec.owner != nil && !s.watched[spec.owner] {
		s.watched[spec.owner] = true
		// The owner is the only one who can reach a 2025-11-25 task, so its
		// tasks end with it. This goroutine ends with the session.
		go func(ss *mcp.ServerSession) {
			_ = ss.Wait() // the session's own error is not the task's business
			s.sessionGone(ss)
		}(spec.owner)
	}
	v := s.viewLocked(t)
	s.mu.Unlock()

	w := &work{store: s, task: t}
	s.jobs.Go(func() {
		defer expire()
		defer t.stop(nil)
		res, err := spec.run(ctx, w)
		s.finish(t, ctx, res, err)
	})
	s.logger.Info("demo: task started", "task", t.id, "tool", t.tool, "modern", t.modern)
	return v, nil
}

// sessionGone cancels the jobs of a 2025-11-25 session that ended.
func (s *taskStore) sessionGone(ss *mcp.ServerSession) {
	s.mu.Lock()
	delete(s.watched, ss)
	var gone []*task
	for _, t := range s.tasks {
		if t.owner == ss {
			gone = append(gone, t)
			delete(s.tasks, t.id)
		}
	}
	s.mu.Unlock()
	for _, t := range gone {
		t.stop(errSessionGone)
	}
}

// lookup returns the task with id if the caller may see it: the owning
// session for a 2025-11-25 task, anyone holding the id for a 2026-07-28 one,
// and never across eras (the two designs are not wire-compatible).
func (s *taskStore) lookup(id string, modern bool, ss *mcp.ServerSession) (*task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.purgeLocked(time.Now())
	t, ok := s.tasks[id]
	if !ok || t.modern != modern || (!modern && t.owner != ss) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown or expired task %q", id)}
	}
	return t, nil
}

// purgeLocked forgets tasks whose ttl has passed; their jobs have already
// been stopped by their deadline.
func (s *taskStore) purgeLocked(now time.Time) {
	for id, t := range s.tasks {
		if now.After(t.created.Add(t.ttl)) && terminal(t.status) {
			delete(s.tasks, id)
		}
	}
}

// view returns a snapshot of t.
func (s *taskStore) view(t *task) taskView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.viewLocked(t)
}

func (s *taskStore) viewLocked(t *task) taskView {
	v := taskView{
		id: t.id, status: t.status, message: t.message, created: t.created, updated: t.updated,
		ttl: t.ttl, poll: s.poll, result: t.result, err: t.err,
	}
	if t.status == taskInputRequired {
		v.questions = map[string]*mcp.ElicitParams{}
		for k, q := range t.questions {
			if !q.sent {
				v.questions[k] = q.params
			}
		}
	}
	return v
}

// changeLocked records a change of t and wakes everyone waiting on it. It
// returns the status notification to send once the lock is released: one
// per change of status, not of statusMessage, as the spec words it.
func (s *taskStore) changeLocked(t *task) func() {
	t.updated = time.Now()
	close(t.changed)
	t.changed = make(chan struct{})
	if t.notify == nil || t.notified == t.status {
		return func() {}
	}
	t.notified = t.status
	v, notify := s.viewLocked(t), t.notify
	return func() { notify(v) }
}

// finish records the job's outcome. A task already terminal (2025-11-25
// cancel) keeps its status: a job that ignored the cancel is only logged.
func (s *taskStore) finish(t *task, ctx context.Context, res *mcp.CallToolResult, err error) {
	s.mu.Lock()
	if terminal(t.status) {
		s.mu.Unlock()
		if errors.Is(err, errTaskCancelled) {
			s.logger.Info("demo: task job stopped on cancel", "task", t.id, "tool", t.tool)
		} else {
			s.logger.Info("demo: task job kept working after cancel; its outcome is dropped", "task", t.id, "tool", t.tool, "err", err)
		}
		return
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(err, errTaskCancelled):
		t.status, t.message = taskCancelled, "Cancelled at the client's request"
	case err != nil && ctx.Err() != nil:
		t.status, t.message = taskFailed, "Stopped: "+cause.Error()
		t.err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s stopped: %v", t.tool, cause)}
	case err != nil:
		var we *jsonrpc.Error
		if !errors.As(err, &we) {
			we = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		t.status, t.message, t.err = taskFailed, we.Message, we
	case res == nil:
		t.status, t.err = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: t.tool + " returned no result"}
	default:
		t.result = res
		t.status = taskCompleted
		if res.IsError && !t.modern {
			t.status = taskFailed // 2025-11-25: an isError result fails the task; the extension completes it
		}
	}
	notify := s.changeLocked(t)
	s.mu.Unlock()
	notify()
	s.logger.Info("demo: task ended", "task", t.id, "tool", t.tool, "status", t.status)
}

// requestCancel asks t's job to stop at its next checkpoint. It reports
// whether this was the first request.
func (s *taskStore) requestCancel(t *task) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.cancelled {
		return false
	}
	t.cancelled = true
	close(t.cancel)
	return true
}

// cancelNow is the 2025-11-25 cancel: the task is cancelled before the
// reply, whatever the job does next. It fails on a terminal task.
func (s *taskStore) cancelNow(t *task) (taskView, error) {
	s.mu.Lock()
	if terminal(t.status) {
		s.mu.Unlock()
		return taskView{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("task %q is already %s", t.id, t.status)}
	}
	t.status, t.message = taskCancelled, "Cancelled at the client's request"
	notify := s.changeLocked(t)
	v := s.viewLocked(t)
	s.mu.Unlock()
	s.requestCancel(t)
	notify()
	return v, nil
}

// await blocks until t is terminal, or, when unasked is set, until it has
// a question nobody is asking; it returns that question's key ("" when
// terminal). It fails when ctx ends, and a caller whose ctx has ended
// takes no question: its asking would fail at once and give the question
// back, which it would take again, for ever (a tasks/result whose client
// hung up).
func (s *taskStore) await(ctx context.Context, t *task, unasked bool) (string, error) {
	for {
		s.mu.Lock()
		if terminal(t.status) {
			s.mu.Unlock()
			return "", nil
		}
		if ctx.Err() != nil {
			s.mu.Unlock()
			return "", context.Cause(ctx)
		}
		if unasked {
			for _, k := range slices.Sorted(maps.Keys(t.questions)) {
				if q := t.questions[k]; !q.asking && !q.sent {
					q.asking = true
					s.mu.Unlock()
					return k, nil
				}
			}
		}
		changed := t.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
	}
}

// question returns the pending question under key, or nil.
func (s *taskStore) question(t *task, key string) *mcp.ElicitParams {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := t.questions[key]; ok && !q.sent {
		return q.params
	}
	return nil
}

// release gives a question back after a failed attempt to ask it, so that
// the next tasks/result asks it again.
func (s *taskStore) release(t *task, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := t.questions[key]; ok {
		q.asking = false
		close(t.changed)
		t.changed = make(chan struct{})
	}
}

// deliver hands an answer to the question under key. It reports false when
// no such question is outstanding (never asked, already answered, or gone),
// which callers ignore, as the specs ask.
func (s *taskStore) deliver(t *task, key string, a answer) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := t.questions[key]
	if !ok || q.sent {
		return false
	}
	q.sent = true
	q.reply <- a // buffered and written once: never blocks
	return true
}
