package client

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// urlHandle is what the -32042 elicitations (urlRequired,
// urlrequired.go) need of their session; they reach it through nothing
// else.
type urlHandle struct {
	server string
	// base is the session's context: the questions end with it.
	base context.Context
	// wait is Options.URLWait.
	wait time.Duration
	// join counts the questions in the session's life (joinOf); err is
	// Session.Err.
	join func() (leave func(), err error)
	err  func() error
	// origin is what the questions of a call belong to (callOriginOf).
	origin func(c *call) question.Origin
	// resend sends the request again, once (Session.doStateful).
	resend func(ctx context.Context, c *call, params json.RawMessage) (*jsonrpc.Message, error)
	// The ask path (asking): ask puts a question, record journals one.
	ask    func(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery)
	record func(q *question.Question, out question.Outcome, r *question.Reply)
	emit   func(Event)
	notice func(format string, args ...any)
	log    *slog.Logger
}

// urlHandleOf is s's handle for its -32042 elicitations; in newSession,
// once Options, the logger, the base context and the ask path are
// settled.
func urlHandleOf(s *Session) urlHandle {
	return urlHandle{
		server: s.name,
		base:   s.life.base,
		wait:   s.opts.URLWait,
		join:   joinOf(s),
		err:    s.Err,
		origin: callOriginOf(s),
		resend: s.doStateful,
		ask:    s.questions.ask,
		record: s.questions.record,
		emit:   s.emit,
		notice: s.notice,
		log:    s.log,
	}
}
