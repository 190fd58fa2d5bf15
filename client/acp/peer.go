package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// ACP method names.
const (
	MethodInitialize        = "initialize"
	MethodAuthenticate      = "authenticate"
	MethodSessionNew        = "session/new"
	MethodSessionPrompt     = "session/prompt"
	MethodSessionCancel     = "session/cancel"
	MethodSessionUpdate     = "session/update"
	MethodRequestPermission = "session/request_permission"
	MethodElicitation       = "elicitation/create"
	MethodElicitComplete    = "elicitation/complete"
	MethodCancelRequest     = "$/cancel_request"
)

// Error codes ACP gives a meaning beyond JSON-RPC's.
const (
	CodeAuthRequired     = -32000
	CodeRequestCancelled = rpcpeer.CodeRequestCancelled
)

// ErrCancelled is returned by a call the agent answered -32800: it was
// cancelled (by our $/cancel_request), not failed.
var ErrCancelled = errors.New("acp: request cancelled")

// ErrNoAnswer is returned by a call we cancelled whose answer did not
// come within the bound.
var ErrNoAnswer = errors.New("the agent did not answer after cancellation")

// RPCError is an error answer of the agent's.
type RPCError struct {
	Method string
	Err    *jsonrpc.Error
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("acp: %s: agent answered error %d: %s", e.Method, e.Err.Code, e.Err.Message)
}

// Is makes errors.Is(err, ErrCancelled) true for a -32800.
func (e *RPCError) Is(target error) bool {
	return target == ErrCancelled && e.Err.Code == CodeRequestCancelled
}

// answer is the end of one of our requests.
type answer = rpcpeer.Answer

// peer is the JSON-RPC side of one connection (rpcpeer: our ids, the
// calls waiting, writes), with ACP's words on its errors. Reading is the
// Client's loop. Answers no call awaits go to the Client (stray).
type peer struct {
	*rpcpeer.Plain
}

// writeTimeout bounds one write: an agent that stops reading must not
// hang us.
const writeTimeout = 10 * time.Second

func newPeer(conn transport.Conn, onStray func(jsonrpc.ID, rpcpeer.Fate, string)) *peer {
	return &peer{rpcpeer.New[struct{}, struct{}](conn, rpcpeer.Options{
		WriteTimeout: writeTimeout,
		Cancel:       rpcpeer.Cancel{Method: MethodCancelRequest},
		OnStray:      onStray,
	})}
}

func (p *peer) notify(method string, params any) error {
	return sendError(method, p.Notify(method, params))
}

// sendError words a message of method that could not be sent.
func sendError(method string, err error) error {
	if _, ok := errors.AsType[*rpcpeer.WriteError](err); ok {
		return fmt.Errorf("acp: send %s: %w", method, err)
	}
	return err
}

// call sends a request and waits for its answer. If ctx ends first it
// sends $/cancel_request and waits up to grace more for the answer the
// agent still owes; a -32800 then is ErrCancelled.
func (p *peer) call(ctx context.Context, method string, params any, grace time.Duration) (json.RawMessage, error) {
	raw, _, err := p.callID(ctx, method, params, grace, nil)
	return raw, err
}

// callID is call that also says which id the request had (invalid if it
// was never sent); onResult, if set, sees a result on the read loop
// (rpcpeer.Peer.Start).
func (p *peer) callID(ctx context.Context, method string, params any, grace time.Duration, onResult func(json.RawMessage)) (json.RawMessage, jsonrpc.ID, error) {
	id, ch, err := p.start(method, params, onResult)
	if err != nil {
		return nil, id, err
	}
	defer p.Forget(id)
	select {
	case a := <-ch:
		return a.Result, id, wrapAnswer(method, a.Err)
	case <-ctx.Done():
	}
	a, err := p.abandon(id, ch, method, grace)
	if err != nil {
		return nil, id, err
	}
	return a.Result, id, wrapAnswer(method, a.Err)
}

// start sends a request; its answer arrives on the channel. The caller
// forgets the id when done with it.
func (p *peer) start(method string, params any, onResult func(json.RawMessage)) (jsonrpc.ID, <-chan answer, error) {
	id, ch, err := p.Start(method, params, onResult)
	if err == nil {
		return id, ch, nil
	}
	if _, ok := errors.AsType[*rpcpeer.WriteError](err); ok {
		return id, nil, sendError(method, err)
	}
	return id, nil, fmt.Errorf("acp: %s: %w", method, err) // the connection had ended
}

// abandon sends $/cancel_request for our request id and waits up to
// grace for the answer the agent still owes.
func (p *peer) abandon(id jsonrpc.ID, ch <-chan answer, method string, grace time.Duration) (answer, error) {
	a, err := p.Abandon(id, ch, grace)
	if errors.Is(err, rpcpeer.ErrNoAnswer) {
		return a, fmt.Errorf("acp: %s: %w within %s of $/cancel_request", method, ErrNoAnswer, grace)
	}
	return a, sendError(MethodCancelRequest, err)
}

func wrapAnswer(method string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return &RPCError{Method: method, Err: je}
	}
	if err != nil {
		return fmt.Errorf("acp: %s: %w", method, err)
	}
	return nil
}
