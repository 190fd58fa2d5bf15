package rpcpeer

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// ErrNoAnswer is returned by Abandon when the answer still owed after the
// cancel notification did not come within the grace it was given.
var ErrNoAnswer = errors.New("no answer after cancellation")

// WriteError is a message that could not be written.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// DefaultWriteTimeout bounds one write when Options.WriteTimeout is zero.
const DefaultWriteTimeout = 10 * time.Second

// Options configure a Peer.
type Options struct {
	// WriteTimeout bounds one write: a peer that stops reading must not
	// hang us. Zero is DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Cancel is the notification Abandon sends.
	Cancel Cancel
	// FirstID is the id of our first request.
	FirstID int64
	// LateMax bounds the ids remembered as given up on (Table); zero is
	// 4096.
	LateMax int
	// OnStray, if set, is told of a response no call waits for: Late (we
	// had given up on it; method is its method) or Stray (unknown, or
	// answered already). On the goroutine that called Deliver, not under
	// the Peer's lock. Without it they are dropped.
	OnStray func(id jsonrpc.ID, fate Fate, method string)
}

// Answer is the end of one of our requests: its result, or an error: a
// *jsonrpc.Error the other side answered, why the transport says no
// answer will come, or the connection's end (Fail).
type Answer struct {
	Result json.RawMessage
	Err    error
}

// Peer is one side of a JSON-RPC connection: our ids, the calls waiting,
// writes. Reading is its owner's loop (Deliver, Fail).
type Peer struct {
	conn transport.Conn
	opts Options

	mu    sync.Mutex
	calls *Table[*waiter]
	dead  error // set once the connection ended (Fail)
}

// waiter is one request of ours awaiting its answer.
type waiter struct {
	method string
	ch     chan Answer // buffered: Deliver never waits
	// onResult, if set, sees a result on the read loop before the caller
	// does, and before the next message is read: what it records is in
	// place for whatever the other side sends next.
	onResult func(json.RawMessage)
}

// New returns a Peer writing to conn.
func New(conn transport.Conn, opts Options) *Peer {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.LateMax <= 0 {
		opts.LateMax = 4096
	}
	return &Peer{conn: conn, opts: opts, calls: NewTable[*waiter](opts.FirstID, opts.LateMax)}
}

// Write writes m, bounded by the write timeout.
func (p *Peer) Write(m *jsonrpc.Message) error {
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.WriteTimeout)
	defer cancel()
	return p.conn.Write(ctx, m, nil)
}

// Notify sends a notification; a failed write is a *WriteError.
func (p *Peer) Notify(method string, params any) error {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		return err
	}
	if err := p.Write(m); err != nil {
		return &WriteError{Err: err}
	}
	return nil
}

// Respond answers a request of the other side's (Response).
func (p *Peer) Respond(id jsonrpc.ID, result json.RawMessage, e *jsonrpc.Error) error {
	return p.Write(Response(id, result, e))
}

// Response is the answer to the other side's request id: e if set (a
// response carries a result or an error, never both), else result, a nil
// one as null.
func Response(id jsonrpc.ID, result json.RawMessage, e *jsonrpc.Error) *jsonrpc.Message {
	if e != nil {
		return &jsonrpc.Message{ID: id, Error: e}
	}
	if result == nil {
		result = json.RawMessage("null")
	}
	return &jsonrpc.Message{ID: id, Result: result}
}

// Start sends a request, registered before it is written; its answer
// arrives on the channel. onResult, if set, sees a result on the read loop
// first (waiter). The caller Forgets the id when done with it. The error
// is the connection's end (Fail) if it had ended, or a *WriteError; the
// id is then invalid.
func (p *Peer) Start(method string, params any, onResult func(json.RawMessage)) (jsonrpc.ID, <-chan Answer, error) {
	w := &waiter{method: method, ch: make(chan Answer, 1), onResult: onResult}
	p.mu.Lock()
	if p.dead != nil {
		err := p.dead
		p.mu.Unlock()
		return jsonrpc.ID{}, nil, err
	}
	id := p.calls.Add(w)
	p.mu.Unlock()
	m, err := jsonrpc.NewRequest(id, method, params)
	if err == nil {
		err = p.Write(m)
	}
	if err != nil {
		p.mu.Lock()
		p.calls.Forget(id, w)
		p.mu.Unlock()
		return jsonrpc.ID{}, nil, &WriteError{Err: err}
	}
	return id, w.ch, nil
}

// Call sends a request and waits for its answer. If ctx ends first it
// Abandons the request, waiting up to grace for the answer still owed.
// The id is invalid if the request was never sent. err is Start's or
// Abandon's; what the other side answered is in the Answer.
func (p *Peer) Call(ctx context.Context, method string, params any, grace time.Duration, onResult func(json.RawMessage)) (Answer, jsonrpc.ID, error) {
	id, ch, err := p.Start(method, params, onResult)
	if err != nil {
		return Answer{}, id, err
	}
	defer p.Forget(id)
	select {
	case a := <-ch:
		return a, id, nil
	case <-ctx.Done():
	}
	a, err := p.Abandon(id, ch, grace)
	return a, id, err
}

// Forget drops our request id from those awaiting an answer, without
// remembering it: an answer to it is a Stray.
func (p *Peer) Forget(id jsonrpc.ID) {
	p.mu.Lock()
	if w, ok := p.calls.Get(id); ok {
		p.calls.Forget(id, w)
	}
	p.mu.Unlock()
}

// Abandon sends the cancel notification for our request id and waits up
// to grace for the answer still owed. The request stays registered, so
// that answer reaches ch. The error is a *WriteError (the cancel could not
// be sent) or wraps ErrNoAnswer.
func (p *Peer) Abandon(id jsonrpc.ID, ch <-chan Answer, grace time.Duration) (Answer, error) {
	m, err := p.opts.Cancel.Message(id, "")
	if err != nil {
		return Answer{}, err
	}
	if err := p.Write(m); err != nil {
		return Answer{}, &WriteError{Err: err}
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case a := <-ch:
		return a, nil
	case <-t.C:
		p.giveUp(id)
		return Answer{}, ErrNoAnswer
	}
}

// giveUp moves id from waiting to given up on: its answer, if it still
// comes, is Late.
func (p *Peer) giveUp(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.calls.Get(id); ok {
		p.calls.GiveUp(id, w, w.method)
	}
}

// Deliver ends our request id with a: the response read, or why none will
// come. A response no call waits for goes to Options.OnStray. Called by
// the read loop.
func (p *Peer) Deliver(id jsonrpc.ID, a Answer) {
	p.mu.Lock()
	w, fate, method := p.calls.Resolve(id)
	p.mu.Unlock()
	if fate != Waiting {
		if p.opts.OnStray != nil {
			p.opts.OnStray(id, fate, method)
		}
		return
	}
	if a.Err == nil && w.onResult != nil {
		w.onResult(a.Result)
	}
	w.ch <- a
}

// Fail ends every waiting call with err; later calls fail at once with it.
func (p *Peer) Fail(err error) {
	p.mu.Lock()
	p.dead = err
	waiting := p.calls.Drain()
	p.mu.Unlock()
	for _, w := range waiting {
		w.ch <- Answer{Err: err}
	}
}

// InFlight reports whether id is a request of ours awaiting its answer.
func (p *Peer) InFlight(id jsonrpc.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.calls.Get(id)
	return ok
}
