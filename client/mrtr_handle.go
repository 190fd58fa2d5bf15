package client

import (
	"context"
	"encoding/json"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// roundsHandle is what the 2026-07-28 request path (rounds, mrtr*.go)
// needs of its session; it reaches it through nothing else.
type roundsHandle struct {
	server string
	// base is the session's context: a round's questions end with it.
	base context.Context
	// join counts a round's questions in the session's life (joinOf);
	// err is Session.Err.
	join func() (leave func(), err error)
	err  func() error
	// origin is what the questions of a call belong to (callOriginOf).
	origin func(c *call) question.Origin
	// roundTrip sends one round and waits for its answer
	// (Session.roundTrip); meta is the _meta of every request in the
	// negotiated version.
	roundTrip func(ctx context.Context, c *call, params json.RawMessage) (transport.Inbound, int, error)
	meta      func() map[string]json.RawMessage
	// protocol is the negotiated version; switchTo moves the session to
	// another stateless version v and returns the one it spoke.
	protocol func() string
	switchTo func(v string) (old string)
	// relist lists the tools again after a header mismatch and reports
	// whether the call's headers changed (headers.go).
	relist func(ctx context.Context, c *call, params json.RawMessage) bool
	// autoInput answers what the client answers itself (roots).
	autoInput func(raw json.RawMessage) (json.RawMessage, bool)
	// The ask path (asking).
	inputParams  func(raw json.RawMessage) (question.Kind, json.RawMessage, string)
	unanswerable func(q *question.Question, where, why string)
	ask          func(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery)
	record       func(q *question.Question, out question.Outcome, r *question.Reply)
	notice       func(format string, args ...any)
	lint         *lint.Linter
}

// roundsHandleOf is s's handle for its 2026-07-28 request path; in
// newSession, once Options, the Linter, the base context and the ask
// path are settled.
func roundsHandleOf(s *Session) roundsHandle {
	return roundsHandle{
		server:    s.name,
		base:      s.life.base,
		join:      joinOf(s),
		err:       s.Err,
		origin:    callOriginOf(s),
		roundTrip: s.roundTrip,
		meta:      func() map[string]json.RawMessage { return s.metaFields(s.Protocol()) },
		protocol:  s.Protocol,
		switchTo: func(v string) string {
			s.mu.Lock()
			old := s.neg.protocol
			s.neg.protocol = v
			s.mu.Unlock()
			setVersion(s.peer, v)
			return old
		},
		relist:       s.headers.relist,
		autoInput:    s.roots.autoInput,
		inputParams:  s.questions.inputParams,
		unanswerable: s.questions.unanswerable,
		ask:          s.questions.ask,
		record:       s.questions.record,
		notice:       s.notice,
		lint:         s.lint,
	}
}
