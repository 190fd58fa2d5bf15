package client

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// tasksHandle is what the task table and its followers (the requester
// side of tasks: which calls become tasks, following them, their
// questions, the hooks of the request path) need of their session; they
// reach it through nothing else.
type tasksHandle struct {
	server string
	// era is the negotiated era and protocol (under Session.mu).
	era  func() (eraKind, string)
	caps func() ServerCapabilities
	// err is Session.Err: non-nil once the session is ending; quit is
	// closed when it starts to end.
	err  func() error
	quit <-chan struct{}
	// base is the session's context: a task's questions end with it.
	base context.Context
	// timeout is Options.RequestTimeout.
	timeout time.Duration

	// do sends a request and waits for its answer (Session.do).
	do func(ctx context.Context, c *call, params, out any) error
	// listTools is Session.ListTools (its result reaches the table through
	// rememberTools).
	listTools func(ctx context.Context) error
	// cancel is Session.CancelTask; listTasks is tasks/list, every page;
	// task is Session.Task (ours too).
	cancel    func(ctx context.Context, id string) error
	listTasks func(ctx context.Context) ([]wireTask, error)
	task      func(id string) (Task, bool)
	// listen opens a subscriptions/listen stream (Session.Listen);
	// listenTasks is Options.ListenTasks.
	listen      func(ctx context.Context, opts ListenOptions) (*Listener, error)
	listenTasks bool
	// agreed reports whether the subscription params names is ours,
	// acknowledged, and agreed to push task id.
	agreed func(params json.RawMessage, id string) bool

	// enter makes f the session's, under Session.mu, unless the session is
	// ending (then it returns why): fn registers f, given the server's
	// requests being served (false: an older follower of the same id is
	// kept instead), and then the creating call's progress token stays
	// valid for the task's life. release ends that.
	enter   func(f *taskFollow, creator *call, fn func(in map[jsonrpc.ID]*incoming) bool) error
	release func(creator *call)

	// A task's input requests (the extension) are asked as the session
	// asks: autoInput answers what the client answers itself (roots),
	// inputParams reads an entry, unanswerable ends one nobody can answer,
	// ask puts one to the person, record journals how one ended.
	autoInput    func(raw json.RawMessage) (json.RawMessage, bool)
	inputParams  func(raw json.RawMessage) (question.Kind, json.RawMessage, string)
	unanswerable func(q *question.Question, where, why string)
	ask          func(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery)
	record       func(q *question.Question, out question.Outcome, r *question.Reply)

	// wg is the session's: Close waits for the goroutines it counts.
	wg     *sync.WaitGroup
	emit   func(Event)
	notice func(format string, args ...any)
	log    *slog.Logger
	lint   *lint.Linter
}

// tasksHandleOf is s's handle for its task table; at the end of
// newSession, once Options, the logger, the Linter and the base context
// are settled.
func tasksHandleOf(s *Session) tasksHandle {
	return tasksHandle{
		server: s.name,
		era: func() (eraKind, string) {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.neg.kind, s.neg.protocol
		},
		caps:    s.ServerCapabilities,
		err:     s.Err,
		quit:    s.life.quit,
		base:    s.life.base,
		timeout: s.opts.RequestTimeout,
		do:      s.do,
		listTools: func(ctx context.Context) error {
			_, err := s.ListTools(ctx)
			return err
		},
		cancel: s.CancelTask,
		listTasks: func(ctx context.Context) ([]wireTask, error) {
			return listAll[wireTask](ctx, s, wire.MethodTasksList, "tasks")
		},
		task:        s.Task,
		listen:      s.Listen,
		listenTasks: s.opts.ListenTasks,
		agreed: func(params json.RawMessage, id string) bool {
			sub, ok := subscriptionID(params)
			if !ok {
				return false
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			c, _ := s.peer.Find(sub)
			if c == nil || c.listen == nil {
				return false
			}
			acked, agreed := c.listen.state()
			return acked && slices.Contains(agreed.TaskIDs, id)
		},
		enter: func(f *taskFollow, creator *call, fn func(in map[jsonrpc.ID]*incoming) bool) error {
			// Session.mu: the session must not be ending (its WaitGroup
			// counts the follower), and the task's questions that came
			// before we knew it (served by the peer) are its own from now on.
			s.mu.Lock()
			defer s.mu.Unlock()
			if err := s.life.alive(); err != nil {
				return fmt.Errorf("follow task %s on %s: %w", f.id, s.name, err)
			}
			if !fn(s.peer.AllServing()) {
				return nil
			}
			if creator != nil && creator.token.IsValid() {
				// The call's progress token stays valid for the task's whole life.
				s.peer.Bind(creator.token, creator)
			}
			return nil
		},
		release: func(c *call) {
			s.peer.Unbind(c.token, c)
		},
		autoInput:    s.roots.autoInput,
		inputParams:  s.questions.inputParams,
		unanswerable: s.questions.unanswerable,
		ask:          s.questions.ask,
		record:       s.questions.record,
		wg:           &s.life.wg,
		emit:         s.emit,
		notice:       s.notice,
		log:          s.log,
		lint:         s.lint,
	}
}
