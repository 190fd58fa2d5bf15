package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// The control protocol is JSON-RPC 2.0 over the socket, one object per
// line (transport's stream framing), one request per connection; the
// bookkeeping of ids and answers is rpcpeer's, as for MCP and ACP.

// ErrCallerGone is the cause a request's context ends with when its
// connection closed before the answer: the caller was killed.
var ErrCallerGone = errors.New("the caller went away")

// ErrDisconnected wraps the error of a command whose hub is gone: its
// socket refuses, or it closed the connection before answering.
var ErrDisconnected = errors.New("disconnected")

// ErrNoHub wraps the error of a command when no hub runs (no socket: none
// was started, or the last one ended with its last session).
var ErrNoHub = errors.New("no session hub runs")

// handler answers one request; an error that is no *jsonrpc.Error is
// answered as an internal error.
type handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// serveConn reads requests off nc and answers each with h, until the
// other side closes it; then every request still running is cancelled
// (ErrCallerGone) and waited for.
func serveConn(ctx context.Context, nc net.Conn, h handler) {
	conn := transport.NewStream(nc, nc, nc, nil)
	peer := rpcpeer.New[struct{}, struct{}](conn, rpcpeer.Options{})
	ctx, cancel := context.WithCancelCause(ctx)
	var wg sync.WaitGroup
	for {
		in, err := conn.Read(ctx)
		if err != nil {
			cancel(ErrCallerGone)
			break
		}
		m := in.Msg
		if m != nil && m.Kind() == jsonrpc.KindNotification {
			_, _ = h(ctx, m.Method, m.Params) // in order (a proxy's frames); nothing answers it
			continue
		}
		if m == nil || m.Kind() != jsonrpc.KindRequest {
			continue
		}
		wg.Go(func() {
			res, err := h(ctx, m.Method, m.Params)
			var e *jsonrpc.Error
			var raw json.RawMessage
			if err != nil && !errors.As(err, &e) {
				e = jsonrpc.NewError(jsonrpc.CodeInternalError, err.Error(), nil)
			}
			if e == nil {
				if raw, err = json.Marshal(res); err != nil {
					e = jsonrpc.NewError(jsonrpc.CodeInternalError, err.Error(), nil)
				}
			}
			_ = peer.Respond(m.ID, raw, e) // a caller gone cannot be told
		})
	}
	wg.Wait()
	conn.Close()
}

// call sends one request to the hub at socket and waits for its answer
// into result. Ending ctx closes the connection, which the hub takes for
// the caller's end (what the request started is cancelled). A hub that
// cannot be reached or goes away meanwhile is ErrDisconnected; an error
// the hub answered is a *jsonrpc.Error.
func call(ctx context.Context, socket, method string, params, result any) error {
	if bound := answerBound(method); bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, bound,
			fmt.Errorf("%w: the hub did not answer %s within %s", ErrDisconnected, method, bound))
		defer cancel()
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", socket)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (%s)", ErrNoHub, socket)
	}
	if err != nil {
		return fmt.Errorf("%w: no hub answers at %s: %w", ErrDisconnected, socket, err)
	}
	conn := transport.NewStream(nc, nc, nc, nil)
	peer := rpcpeer.New[struct{}, struct{}](conn, rpcpeer.Options{})
	loop := make(chan struct{})
	go func() {
		defer close(loop)
		for {
			in, err := conn.Read(context.Background())
			if err != nil {
				peer.Fail(fmt.Errorf("%w: the hub closed the connection: %w", ErrDisconnected, err))
				return
			}
			if m := in.Msg; m != nil && m.Kind() == jsonrpc.KindResponse {
				a := rpcpeer.Answer{Result: m.Result}
				if m.Error != nil {
					a.Err = m.Error
				}
				peer.Deliver(m.ID, a)
			}
		}
	}()
	defer func() { conn.Close(); <-loop }()
	return roundTrip(ctx, peer, method, params, result)
}

// roundTrip sends method to the hub over peer and waits for its answer
// (decoded into result, if not nil) or ctx's end: one request of a
// command's connection or of a proxy's link.
func roundTrip(ctx context.Context, peer *rpcpeer.Plain, method string, params, result any) error {
	id, ch, err := peer.Start(method, params, nil)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrDisconnected, method, err)
	}
	defer peer.Forget(id)
	select {
	case a := <-ch:
		if a.Err != nil {
			return a.Err
		}
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(a.Result, result); err != nil {
			return fmt.Errorf("hub: the answer to %s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// answerBound bounds the wait for the hub's answer to method: a hub
// that hangs must not hang the command. A command that runs on a
// session (run, result, start) waits as long as it runs: a call may wait
// on a person, and a start is bounded by its own --connect-timeout.
func answerBound(method string) time.Duration {
	switch method {
	case MethodList, MethodQuestions:
		return 15 * time.Second
	case MethodAnswer:
		return settleBound + 15*time.Second
	case MethodStop: // the server's shutdown has bounded steps of its own
		return time.Minute
	}
	return 0
}

// hubError is an error answer carrying the exit code the command takes.
func hubError(exit int, data ErrorData, format string, args ...any) *jsonrpc.Error {
	data.Exit = exit
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf(format, args...), data)
}

// ExitOf is the exit code err asks for: a hub's error answer's, 3 for a
// hub that is gone, 0 for nil and 1 for anything else.
func ExitOf(err error) int {
	var e *jsonrpc.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		var d ErrorData
		if json.Unmarshal(e.Data, &d) == nil && d.Exit != 0 {
			return d.Exit
		}
	case errors.Is(err, ErrDisconnected), errors.Is(err, ErrNoHub):
		return ExitConnect
	}
	return 1
}

// Message is err's text for the command's last line: a hub's error
// answer without its code and data.
func Message(err error) string {
	var e *jsonrpc.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
