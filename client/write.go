package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// DefaultWriteTimeout is Options.WriteTimeout's default: the bound ACP's
// writes have too (rpcpeer).
const DefaultWriteTimeout = rpcpeer.DefaultWriteTimeout

// send writes m, a message the engine sends on its own rather than a
// request some caller waits on, to conn within ctx and
// Options.WriteTimeout. A server that stops reading its stdin, or an HTTP
// server that takes the POST and never answers it, must not hold the
// goroutine for ever: past the bound the write fails with an error
// wrapping ErrTimeout. A person is not timed out: the bound stands still
// while the transport waits on one (transport.PersonWaiter). ctx is
// context.Background() for what nobody asked for (a response, a cancel,
// a task status).
func (s *Session) send(ctx context.Context, conn transport.Conn, m *jsonrpc.Message) error {
	bound := s.opts.WriteTimeout
	// Patient: while the person signs in (an HTTP answer that met a 401
	// waits on their browser) the bound stands still.
	ctx, cancel := patientTimeout(ctx, bound,
		fmt.Errorf("%w: %s did not take a message within %v", ErrTimeout, s.name, bound), s.personWaiting)
	defer cancel()
	err := conn.Write(ctx, m, nil)
	if err != nil && ctx.Err() != nil && !errors.Is(err, context.Cause(ctx)) {
		// Not every transport says the cause (a stream says "deadline
		// exceeded"): the reader of the error needs it.
		err = fmt.Errorf("%w (%w)", context.Cause(ctx), err)
	}
	return err
}
