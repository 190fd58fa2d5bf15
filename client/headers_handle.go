package client

import (
	"context"
	"log/slog"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/transport"
)

// headersHandle is what the x-mcp-header bindings (toolHeaders,
// headers.go) need of their session; they reach it through nothing else.
type headersHandle struct {
	// stateless reports whether the session speaks 2026-07-28;
	// sendsHeaders whether its connection sends message headers.
	stateless    func() bool
	sendsHeaders func() bool
	// listTools is Session.ListTools (its answer reaches the bindings
	// through remember).
	listTools func(ctx context.Context) error
	notice    func(format string, args ...any)
	log       *slog.Logger
	lint      *lint.Linter
}

// headersHandleOf is s's handle for its header bindings; in newSession,
// once the logger and the Linter are settled.
func headersHandleOf(s *Session) headersHandle {
	return headersHandle{
		stateless: s.stateless,
		sendsHeaders: func() bool {
			hs, ok := s.peer.Conn().(transport.HeaderSender)
			return ok && hs.SendsHeaders()
		},
		listTools: func(ctx context.Context) error {
			_, err := s.ListTools(ctx)
			return err
		},
		notice: s.notice,
		log:    s.log,
		lint:   s.lint,
	}
}
