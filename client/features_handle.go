package client

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// offersHandle is what the tables of what we offer a server (offers:
// features.go, elicit.go, notify.go) need of their session; they reach
// it through nothing else.
type offersHandle struct {
	server string
	// elicit and sampling are Options.Elicit and Options.Sampling.
	elicit   ElicitModes
	sampling SamplingMode
	// appsUI is Options.AppsUI.
	appsUI   bool
	protocol func() string

	// answer claims e and sends its answer (Session.answer); claim and
	// reply are its two halves, for a question's delivery.
	answer func(e *incoming, result json.RawMessage, rpcErr *jsonrpc.Error) bool
	claim  func(e *incoming, ctx context.Context) (string, error)
	reply  func(id jsonrpc.ID, result json.RawMessage, rpcErr *jsonrpc.Error) error
	// err is Session.Err.
	err func() error

	// The ask path (asking): ask puts a question, record journals one.
	ask    func(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery)
	record func(q *question.Question, out question.Outcome, r *question.Reply)
	// promptOpened tells the task a question belongs to that it is open
	// (the returned func: closed); taskLost ends a followed task whose
	// answer did not reach the server (the task table).
	promptOpened func(e *incoming) func()
	taskLost     func(taskID string, cause error)
	// servedAsTask serves a task-augmented request as a task of ours;
	// serveTasks answers the server's tasks/* about them (the receiver).
	servedAsTask func(e *incoming, m *jsonrpc.Message) bool
	serveTasks   func(e *incoming, m *jsonrpc.Message)
	// rootsList is the answer to roots/list; declareRoots is its
	// capability (rootsState).
	rootsList    func() (json.RawMessage, *jsonrpc.Error)
	declareRoots func(v string) (string, any, bool)

	// noteRefusal adds what to the refusals of our call owner, if it is
	// open; refusals are call c's (both under Session.mu).
	noteRefusal func(owner jsonrpc.ID, what string)
	refusals    func(c *call) []string

	// on are the handlers of the notifications other parts act on.
	on notificationHandlers
	// observed: an Observer hears the events (a log message need not be
	// decoded without one).
	observed bool
	emit     func(Event)
	notice   func(format string, args ...any)
	log      *slog.Logger
	lint     *lint.Linter
}

// notificationHandlers are the handlers of the server notifications the
// session acts on, by what they are about.
type notificationHandlers struct {
	cancelled           func(params json.RawMessage)
	acknowledged        func(params json.RawMessage)
	progress            func(params json.RawMessage)
	task                func(method string, params json.RawMessage)
	listChanged         func(what string, params json.RawMessage)
	elicitationComplete func(params json.RawMessage)
	resourceUpdated     func(params json.RawMessage)
}

// offersHandleOf is s's handle for what it offers; in newSession, once
// Options, the logger, the Linter, the dispatcher and the modules it
// names are settled.
func offersHandleOf(s *Session) offersHandle {
	return offersHandle{
		server:   s.name,
		elicit:   s.opts.Elicit,
		sampling: s.opts.Sampling,
		appsUI:   s.opts.AppsUI,
		protocol: s.Protocol,
		answer: func(e *incoming, result json.RawMessage, rpcErr *jsonrpc.Error) bool {
			return s.answer(e, e.ctx, result, rpcErr)
		},
		claim:  s.claim,
		reply:  s.reply,
		err:    s.Err,
		ask:    s.questions.ask,
		record: s.questions.record,
		promptOpened: func(e *incoming) func() {
			return s.tasks.promptOpened(e)
		},
		taskLost: func(id string, cause error) {
			if f := s.tasks.live(id); f != nil {
				f.lose(cause)
			}
		},
		servedAsTask: s.receiver.servedAsTask,
		serveTasks:   s.receiver.serve,
		rootsList:    s.roots.serve,
		declareRoots: s.roots.declare,
		noteRefusal: func(owner jsonrpc.ID, what string) {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, c := range s.peer.Calls() {
				if c.callID() == owner && len(c.refusals) < maxRefusals {
					c.refusals = append(c.refusals, what)
					break
				}
			}
		},
		refusals: func(c *call) []string {
			s.mu.Lock()
			defer s.mu.Unlock()
			return slices.Clone(c.refusals)
		},
		on: notificationHandlers{
			cancelled: func(params json.RawMessage) {
				if s.stateless() {
					s.subs.endListen(params) // 2026-07-28: the end of a subscription (listen.go)
					return
				}
				s.withdraw(params)
			},
			acknowledged:        s.subs.acknowledged,
			progress:            s.onProgress,
			task:                s.tasks.notification,
			listChanged:         s.subs.listChanged,
			elicitationComplete: s.urls.elicitationComplete,
			resourceUpdated:     s.subs.resourceUpdated,
		},
		observed: s.events.observed(),
		emit:     s.emit,
		notice:   s.notice,
		log:      s.log,
		lint:     s.lint,
	}
}
