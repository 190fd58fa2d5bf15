package client

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
)

// tasksHandle is what the task table (the requester side of tasks: which
// calls become tasks, following them, the hooks of the request path)
// needs of its session. The followers themselves (taskFollow) still reach
// the session through f.s, which enter gives them.
type tasksHandle struct {
	server string
	// era is the negotiated era and protocol (under Session.mu).
	era  func() (eraKind, string)
	caps func() ServerCapabilities
	// err is Session.Err: non-nil once the session is ending.
	err func() error
	// listTools is Session.ListTools (its result reaches the table through
	// rememberTools).
	listTools func(ctx context.Context) error
	// cancel is Session.CancelTask.
	cancel func(ctx context.Context, id string) error
	// enter makes f the session's, under Session.mu, unless the session is
	// ending (then it returns why): fn registers f (false: an older
	// follower of the same id is kept instead), and then the creating
	// call's progress token stays valid for the task's life.
	enter func(f *taskFollow, creator *call, fn func() bool) error
	// agreed reports whether the subscription params names is ours,
	// acknowledged, and agreed to push task id.
	agreed func(params json.RawMessage, id string) bool
	// listen is Options.ListenTasks.
	listen bool
	// wg is the session's: Close waits for the goroutines it counts.
	wg     *sync.WaitGroup
	notice func(format string, args ...any)
	log    *slog.Logger
}

// tasksHandleOf is s's handle for its task table; after newSession settled
// Options and the logger.
func tasksHandleOf(s *Session) tasksHandle {
	return tasksHandle{
		server: s.name,
		era: func() (eraKind, string) {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.neg.kind, s.neg.protocol
		},
		caps: s.ServerCapabilities,
		err:  s.Err,
		listTools: func(ctx context.Context) error {
			_, err := s.ListTools(ctx)
			return err
		},
		cancel: s.CancelTask,
		enter: func(f *taskFollow, creator *call, fn func() bool) error {
			// Session.mu: the session must not be ending (its WaitGroup
			// counts the follower), and the task's questions that came
			// before we knew it (in s.in) are its own from now on.
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.isDead || s.closing {
				err := s.err
				if err == nil {
					err = ErrClosed
				}
				return fmt.Errorf("follow task %s on %s: %w", f.id, s.name, err)
			}
			f.s = s
			if !fn() {
				return nil
			}
			if creator != nil && creator.token.IsValid() {
				// The call's progress token stays valid for the task's whole life.
				s.progress[creator.token] = creator
			}
			return nil
		},
		agreed: func(params json.RawMessage, id string) bool {
			sub, ok := subscriptionID(params)
			if !ok {
				return false
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			c, _ := s.calls.Get(sub)
			return c != nil && c.listen != nil && c.listen.acked && slices.Contains(c.listen.agreed.TaskIDs, id)
		},
		listen: s.opts.ListenTasks,
		wg:     &s.wg,
		notice: s.notice,
		log:    s.log,
	}
}
