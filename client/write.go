package client

import (
	"context"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// DefaultWriteTimeout is Options.WriteTimeout's default: the bound ACP's
// writes have too (rpcpeer).
const DefaultWriteTimeout = rpcpeer.DefaultWriteTimeout

// lateLimit bounds the set of ids we cancelled and may still get a late
// response for (only used to word the Notice; rpcpeer.Table).
const lateLimit = 4096

// mcpPeer is a session's JSON-RPC side: each request of ours carries its
// *call, each of the server's requests being served its *incoming.
type mcpPeer = rpcpeer.Peer[*call, *incoming]

// newPeer is a session's JSON-RPC side, before it has a connection
// (Swap): ids from 1, notifications/cancelled, and writes of what the
// engine sends on its own (a response, a cancel, a notification) bounded
// by Options.WriteTimeout (bound). A server that stops reading its stdin,
// or an HTTP server that takes the POST and never answers it, must not
// hold the goroutine for ever: past the bound the write fails with an
// error wrapping ErrTimeout. A person is not timed out: the bound stands
// still while the transport waits on one (transport.PersonWaiter), as
// when an HTTP answer that met a 401 waits on their browser. A request
// some caller waits on is bounded by its own clock instead (timeout.go).
func newPeer(server string, bound time.Duration) *mcpPeer {
	var p *mcpPeer
	p = rpcpeer.New[*call, *incoming](nil, rpcpeer.Options{
		FirstID: 1,
		LateMax: lateLimit,
		Cancel:  rpcpeer.Cancel{Method: wire.NotifyCancelled},
		Bound: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return patientTimeout(ctx, bound,
				fmt.Errorf("%w: %s did not take a message within %v", ErrTimeout, server, bound), waitingOn(p))
		},
	})
	return p
}

// waitingOn reports, when called, whether p's connection is waiting on a
// person (transport.PersonWaiter): an authorization in a browser.
func waitingOn(p *mcpPeer) func() bool {
	return func() bool {
		pw, ok := p.Conn().(transport.PersonWaiter)
		return ok && pw.WaitingOnPerson()
	}
}
