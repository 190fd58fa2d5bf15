package client

import (
	"log/slog"
	"time"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// askHandle is what the ask path (asking, deliver.go) needs of its
// session; it reaches it through nothing else.
type askHandle struct {
	server  string
	journal *question.Journal
	// declared is what we declared in the negotiated version, which a
	// question's params are read against: the elicitation modes, what of
	// sampling, the schema subset.
	declared func() (question.Modes, question.SamplingModes, schema.Subset)
	// promptTimeout is Options.PromptTimeout.
	promptTimeout time.Duration
	// refusing notes, before the refusal goes out, a server request
	// refused for a capability we did not declare, on the call it belongs
	// to; refused reports it once it went out (offers).
	refusing func(id, owner jsonrpc.ID, method, capability string)
	refused  func(id jsonrpc.ID, method, capability string, rpcErr *jsonrpc.Error)
	emit     func(Event)
	notice   func(format string, args ...any)
	log      *slog.Logger
	lint     *lint.Linter
}

// askHandleOf is s's handle for its ask path; in newSession, once
// Options, the logger and the Linter are settled (refused goes through
// s.offers, made after it).
func askHandleOf(s *Session) askHandle {
	return askHandle{
		server:  s.name,
		journal: s.journal,
		declared: func() (question.Modes, question.SamplingModes, schema.Subset) {
			v := s.Protocol()
			return s.modes(), samplingModes(s.opts.Sampling, v), s.Subset()
		},
		promptTimeout: s.opts.PromptTimeout,
		refusing: func(id, owner jsonrpc.ID, method, capability string) {
			s.offers.refusing(id, owner, method, capability)
		},
		refused: func(id jsonrpc.ID, method, capability string, rpcErr *jsonrpc.Error) {
			s.offers.refused(id, method, capability, rpcErr)
		},
		emit:   s.emit,
		notice: s.notice,
		log:    s.log,
		lint:   s.lint,
	}
}
