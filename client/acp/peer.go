package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
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
	CodeRequestCancelled = -32800
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
type answer struct {
	result json.RawMessage
	err    error
}

// peer is the JSON-RPC side of one connection: our ids, the calls
// waiting, writes. Reading is the Client's loop.
type peer struct {
	conn transport.Conn

	mu      sync.Mutex
	next    int64
	pending map[jsonrpc.ID]waiter
	dead    error // set once the read loop ended
}

// waiter is one request of ours awaiting its answer.
type waiter struct {
	ch chan answer
	// onResult, if set, sees a result on the read loop before the
	// caller does, and before the next message is read: what it records
	// (a session opened) is in place for whatever the agent sends next.
	onResult func(json.RawMessage)
}

func newPeer(conn transport.Conn) *peer {
	return &peer{conn: conn, pending: map[jsonrpc.ID]waiter{}}
}

// writeTimeout bounds one write: an agent that stops reading must not
// hang us.
const writeTimeout = 10 * time.Second

func (p *peer) write(m *jsonrpc.Message) error {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	return p.conn.Write(ctx, m, nil)
}

func (p *peer) notify(method string, params any) error {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		return err
	}
	if err := p.write(m); err != nil {
		return fmt.Errorf("acp: send %s: %w", method, err)
	}
	return nil
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
// (waiter).
func (p *peer) callID(ctx context.Context, method string, params any, grace time.Duration, onResult func(json.RawMessage)) (json.RawMessage, jsonrpc.ID, error) {
	id, ch, err := p.startWith(method, params, onResult)
	if err != nil {
		return nil, id, err
	}
	defer p.forget(id)
	select {
	case a := <-ch:
		return a.result, id, wrapAnswer(method, a.err)
	case <-ctx.Done():
	}
	a, err := p.abandon(id, ch, method, grace)
	if err != nil {
		return nil, id, err
	}
	return a.result, id, wrapAnswer(method, a.err)
}

// start sends a request; its answer arrives on the channel. The caller
// forgets the id when done with it.
func (p *peer) start(method string, params any) (jsonrpc.ID, <-chan answer, error) {
	return p.startWith(method, params, nil)
}

func (p *peer) startWith(method string, params any, onResult func(json.RawMessage)) (jsonrpc.ID, <-chan answer, error) {
	p.mu.Lock()
	if p.dead != nil {
		p.mu.Unlock()
		return jsonrpc.ID{}, nil, fmt.Errorf("acp: %s: %w", method, p.dead)
	}
	id := jsonrpc.IntID(p.next)
	p.next++
	ch := make(chan answer, 1)
	p.pending[id] = waiter{ch: ch, onResult: onResult}
	p.mu.Unlock()
	m, err := jsonrpc.NewRequest(id, method, params)
	if err == nil {
		err = p.write(m)
	}
	if err != nil {
		p.forget(id)
		return jsonrpc.ID{}, nil, fmt.Errorf("acp: send %s: %w", method, err)
	}
	return id, ch, nil
}

// forget drops a request's id from those awaiting an answer.
func (p *peer) forget(id jsonrpc.ID) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// abandon sends $/cancel_request for our request id and waits up to
// grace for the answer the agent still owes.
func (p *peer) abandon(id jsonrpc.ID, ch <-chan answer, method string, grace time.Duration) (answer, error) {
	if err := p.notify(MethodCancelRequest, map[string]any{"requestId": id}); err != nil {
		return answer{}, err
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case a := <-ch:
		return a, nil
	case <-t.C:
		return answer{}, fmt.Errorf("acp: %s: %w within %s of $/cancel_request", method, ErrNoAnswer, grace)
	}
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

// deliver ends our request id with a. On the read loop.
func (p *peer) deliver(id jsonrpc.ID, a answer) {
	p.mu.Lock()
	w, ok := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if !ok {
		return
	}
	if a.err == nil && w.onResult != nil {
		w.onResult(a.result)
	}
	w.ch <- a
}

// fail ends every waiting call with err; later calls fail at once.
func (p *peer) fail(err error) {
	p.mu.Lock()
	p.dead = err
	pending := p.pending
	p.pending = map[jsonrpc.ID]waiter{}
	p.mu.Unlock()
	for _, w := range pending {
		w.ch <- answer{err: err}
	}
}

// respond answers a request of the agent's.
func (p *peer) respond(id jsonrpc.ID, result json.RawMessage, e *jsonrpc.Error) error {
	m := &jsonrpc.Message{ID: id, Result: result, Error: e}
	if e == nil && result == nil {
		m.Result = json.RawMessage("null")
	}
	return p.write(m)
}

// inFlight reports whether id is a request of ours awaiting its answer.
func (p *peer) inFlight(id jsonrpc.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.pending[id]
	return ok
}
