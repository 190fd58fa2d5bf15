package client

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// receiverHandle is what the tasks we run for the server (receiverTable,
// receiver*.go) need of their session; they reach it through nothing
// else.
type receiverHandle struct {
	server string
	// base is the session's context: a task's question ends with it.
	base context.Context
	// elicit and sampling are Options.Elicit and Options.Sampling, which
	// decide, with the protocol, what may be task-augmented.
	elicit   ElicitModes
	sampling SamplingMode
	protocol func() string
	// answer claims a server request and sends its answer
	// (Session.answer); notify writes a notification of ours.
	answer func(e *incoming, result json.RawMessage, rpcErr *jsonrpc.Error) bool
	notify func(n *jsonrpc.Message) error
	// The ask path (asking): ask puts a question, record journals one.
	ask    func(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery)
	record func(q *question.Question, out question.Outcome, r *question.Reply)
	emit   func(Event)
	notice func(format string, args ...any)
	log    *slog.Logger
}

// receiverHandleOf is s's handle for the tasks it runs; in newSession,
// once Options, the logger, the base context and the ask path are
// settled.
func receiverHandleOf(s *Session) receiverHandle {
	return receiverHandle{
		server:   s.name,
		base:     s.life.base,
		elicit:   s.opts.Elicit,
		sampling: s.opts.Sampling,
		protocol: s.Protocol,
		answer: func(e *incoming, result json.RawMessage, rpcErr *jsonrpc.Error) bool {
			return s.answer(e, e.ctx, result, rpcErr)
		},
		notify: func(n *jsonrpc.Message) error { return s.peer.WriteContext(context.Background(), n) },
		ask:    s.questions.ask,
		record: s.questions.record,
		emit:   s.emit,
		notice: s.notice,
		log:    s.log,
	}
}
