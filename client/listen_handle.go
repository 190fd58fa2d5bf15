package client

import (
	"context"
	"time"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// listensHandle is what the subscriptions (listen.go, subscribe*.go)
// need of their session; they reach it through nothing else.
type listensHandle struct {
	server string
	// declared reports whether the server declared resources.subscribe.
	declared func() bool
	// stateless reports whether the session speaks 2026-07-28; era is
	// its Era.
	stateless func() bool
	era       func() string
	// join counts a stream in the session's life (joinOf).
	join func() (leave func(), err error)
	// do sends a request and waits for its answer (Session.do): a
	// subscriptions/listen stream is one; request is Session.Request.
	do      func(ctx context.Context, c *call, params, out any) error
	request func(ctx context.Context, method string, params, result any) error
	// timeout bounds the wait for an acknowledgement and for a closed
	// stream's end (Options.RequestTimeout).
	timeout time.Duration
	// quiet reports whether l's end is no news: the session is ending, or
	// the server never acknowledged l (Connect or Subscribe says so).
	quiet func(l *Listener) bool
	// listener is the Listener of our open request id, if it is a
	// subscriptions/listen; method is that request's method ("" for none
	// open).
	listener func(id jsonrpc.ID) (l *Listener, method string)
	// endStream ends our open subscriptions/listen id with rpcErr, as
	// its answer; method is as listener's, ended false when id is none.
	endStream func(id jsonrpc.ID, rpcErr *jsonrpc.Error) (method string, ended bool)
	// changedList counts a list_changed (listFlights).
	changedList func(what string)
	emit        func(Event)
	notice      func(format string, args ...any)
	lint        *lint.Linter
}

// listensHandleOf is s's handle for its subscriptions; in newSession,
// once Options and the Linter are settled.
func listensHandleOf(s *Session) listensHandle {
	return listensHandle{
		server:    s.name,
		declared:  func() bool { return s.ServerCapabilities().ResourcesSubscribe },
		stateless: s.stateless,
		era:       s.Era,
		join:      joinOf(s),
		do:        s.do,
		request:   s.Request,
		timeout:   s.opts.RequestTimeout,
		quiet: func(l *Listener) bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			acked, _ := l.state()
			return s.life.alive() != nil || !acked
		},
		listener: func(id jsonrpc.ID) (*Listener, string) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if c, _ := s.peer.Find(id); c != nil {
				return c.listen, c.method
			}
			return nil, ""
		},
		endStream: func(id jsonrpc.ID, rpcErr *jsonrpc.Error) (string, bool) {
			s.mu.Lock()
			c, _ := s.peer.Find(id)
			if c == nil || c.listen == nil {
				s.mu.Unlock()
				if c != nil {
					return c.method, false
				}
				return "", false
			}
			s.mu.Unlock()
			s.peer.Deliver(id, rpcpeer.Answer{Msg: &jsonrpc.Message{ID: id, Error: rpcErr}})
			return c.method, true
		},
		changedList: s.lists.changed,
		emit:        s.emit,
		notice:      s.notice,
		lint:        s.lint,
	}
}
