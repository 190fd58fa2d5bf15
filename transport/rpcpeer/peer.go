package rpcpeer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
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
	// Bound, if set, bounds one write instead of WriteTimeout: it derives
	// the write's context (MCP's stands still while a person signs in,
	// and says why it ended). The cancel func releases it.
	Bound func(ctx context.Context) (context.Context, context.CancelFunc)
	// Cancel is the notification Abandon and Cancel send.
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
	// Msg is the response read, nil when none came; Received is when the
	// transport read it (zero if it does not say).
	Msg      *jsonrpc.Message
	Received time.Time
}

// Peer is one side of a JSON-RPC connection: our ids, the calls waiting
// (each with its owner's T, and maybe a token naming it, as MCP's
// progress tokens do), writes. Reading is its owner's loop (Deliver,
// Fail). Its lock is a leaf: nothing of its owner's is called under it.
type Peer[T, I comparable] struct {
	opts Options

	mu    sync.Mutex
	conn  transport.Conn
	calls *Table[*waiter[T]]
	// tokens name a request other than by its id (MCP's progressToken),
	// while it waits, or longer while its owner keeps it Bound.
	tokens map[jsonrpc.ID]T
	issued int64 // tokens handed out by NewToken (1…issued)
	dead   error // set once the connection ended (Fail)
	// serving is the other side's requests we are serving, by their id
	// (another id space than ours: they may collide), each its owner's
	// record (Serve).
	serving map[jsonrpc.ID]I
}

// Plain is a Peer whose requests carry nothing of their owner's and that
// keeps no record of the other side's (ACP's).
type Plain = Peer[struct{}, struct{}]

// waiter is one request of ours awaiting its answer.
type waiter[T comparable] struct {
	method string
	tag    T
	token  jsonrpc.ID
	ch     chan Answer // buffered: Deliver never waits
	// onResult, if set, sees a result on the read loop before the caller
	// does, and before the next message is read: what it records is in
	// place for whatever the other side sends next.
	onResult func(json.RawMessage)
}

// New returns a Peer writing to conn.
func New[T, I comparable](conn transport.Conn, opts Options) *Peer[T, I] {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.LateMax <= 0 {
		opts.LateMax = 4096
	}
	return &Peer[T, I]{conn: conn, opts: opts, calls: NewTable[*waiter[T]](opts.FirstID, opts.LateMax),
		tokens: map[jsonrpc.ID]T{}, serving: map[jsonrpc.ID]I{}}
}

// Conn is the connection written to.
func (p *Peer[T, I]) Conn() transport.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conn
}

// Swap makes conn the connection written to and returns the one before
// (MCP's era fallback dials again; ids go on).
func (p *Peer[T, I]) Swap(conn transport.Conn) transport.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.conn
	p.conn = conn
	return old
}

// Write writes m, bounded by the write timeout (Options.Bound).
func (p *Peer[T, I]) Write(m *jsonrpc.Message) error {
	return p.WriteContext(context.Background(), m)
}

// WriteContext writes m within ctx and the write bound. When the bound
// ended it, the error says why even if the transport does not (a stream
// says only "deadline exceeded").
func (p *Peer[T, I]) WriteContext(ctx context.Context, m *jsonrpc.Message) error {
	var cancel context.CancelFunc
	if p.opts.Bound != nil {
		ctx, cancel = p.opts.Bound(ctx)
	} else {
		ctx, cancel = context.WithTimeout(ctx, p.opts.WriteTimeout)
	}
	defer cancel()
	err := p.Conn().Write(ctx, m, nil)
	if err != nil && ctx.Err() != nil && !errors.Is(err, context.Cause(ctx)) {
		err = fmt.Errorf("%w (%w)", context.Cause(ctx), err)
	}
	return err
}

// Notify sends a notification; a failed write is a *WriteError.
func (p *Peer[T, I]) Notify(method string, params any) error {
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
func (p *Peer[T, I]) Respond(id jsonrpc.ID, result json.RawMessage, e *jsonrpc.Error) error {
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
func (p *Peer[T, I]) Start(method string, params any, onResult func(json.RawMessage)) (jsonrpc.ID, <-chan Answer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.WriteTimeout)
	defer cancel()
	id, ch, err := p.Send(ctx, Request[T]{Method: method, Params: params, OnResult: onResult})
	if err != nil && id.IsValid() {
		p.Forget(id)
		return jsonrpc.ID{}, nil, err
	}
	return id, ch, err
}

// Request is one request of ours, as Send sends it.
type Request[T comparable] struct {
	Method string
	Params any
	// Tag is the owner's own record of the request (Find, Calls).
	Tag T
	// Token, if valid, names the request while it waits (ByToken).
	Token jsonrpc.ID
	// Registered, if set, is told the id under the Peer's lock, before
	// the request is written: whoever finds it (Find, ByToken) then sees
	// what the owner recorded of it.
	Registered func(jsonrpc.ID)
	// OnResult: as Start's.
	OnResult func(json.RawMessage)
	// Write is the transport's options for this message (per-request
	// HTTP headers, the hook telling it went out).
	Write *transport.WriteOptions
}

// Send registers r under a fresh id and writes it within ctx alone (the
// caller bounds its own request). Its answer arrives on the channel. If
// the connection had ended the error is its end and the id invalid; if
// the write failed it is a *WriteError and r stays registered: the caller
// Forgets it, or Gives it Up and Cancels it (the message may have gone
// out).
func (p *Peer[T, I]) Send(ctx context.Context, r Request[T]) (jsonrpc.ID, <-chan Answer, error) {
	m, err := jsonrpc.NewRequest(jsonrpc.ID{}, r.Method, r.Params)
	if err != nil {
		return jsonrpc.ID{}, nil, &WriteError{Err: err}
	}
	w := &waiter[T]{method: r.Method, tag: r.Tag, token: r.Token, ch: make(chan Answer, 1), onResult: r.OnResult}
	p.mu.Lock()
	if p.dead != nil {
		err := p.dead
		p.mu.Unlock()
		return jsonrpc.ID{}, nil, err
	}
	id := p.calls.Add(w) // before the write: the answer may be read first
	if w.token.IsValid() {
		p.tokens[w.token] = w.tag
	}
	if r.Registered != nil {
		r.Registered(id)
	}
	conn := p.conn
	p.mu.Unlock()
	m.ID = id
	if err := conn.Write(ctx, m, r.Write); err != nil {
		return id, nil, &WriteError{Err: err}
	}
	return id, w.ch, nil
}

// Call sends a request and waits for its answer. If ctx ends first it
// Abandons the request, waiting up to grace for the answer still owed.
// The id is invalid if the request was never sent. err is Start's or
// Abandon's; what the other side answered is in the Answer.
func (p *Peer[T, I]) Call(ctx context.Context, method string, params any, grace time.Duration, onResult func(json.RawMessage)) (Answer, jsonrpc.ID, error) {
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
func (p *Peer[T, I]) Forget(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.calls.Get(id); ok {
		p.calls.Forget(id, w)
		p.untokenLocked(w)
	}
}

// Abandon sends the cancel notification for our request id and waits up
// to grace for the answer still owed. The request stays registered, so
// that answer reaches ch. The error is a *WriteError (the cancel could not
// be sent) or wraps ErrNoAnswer.
func (p *Peer[T, I]) Abandon(id jsonrpc.ID, ch <-chan Answer, grace time.Duration) (Answer, error) {
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
		p.GiveUp(id)
		return Answer{}, ErrNoAnswer
	}
}

// GiveUp moves id from waiting to given up on: its answer, if it still
// comes, is Late. It reports whether id was waiting.
func (p *Peer[T, I]) GiveUp(id jsonrpc.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.calls.Get(id)
	if ok {
		p.calls.GiveUp(id, w, w.method)
		p.untokenLocked(w)
	}
	return ok
}

// Cancel tells the other side we gave up on our request id (after
// GiveUp): a connection that cancels a request by closing its own stream
// (transport.RequestCanceler: 2026-07-28 HTTP) does that; otherwise the
// cancel notification goes out with reason, within ctx and the write
// bound.
func (p *Peer[T, I]) Cancel(ctx context.Context, id jsonrpc.ID, reason string) error {
	if rc, ok := p.Conn().(transport.RequestCanceler); ok && rc.CancelRequest(id) {
		return nil
	}
	m, err := p.opts.Cancel.Message(id, reason)
	if err != nil {
		return err
	}
	return p.WriteContext(ctx, m)
}

// Deliver ends our request id with a: the response read, or why none will
// come. A response no call waits for goes to Options.OnStray. Called by
// the read loop. It says whose the response was, and the method of the
// request it answered (Waiting or Late).
func (p *Peer[T, I]) Deliver(id jsonrpc.ID, a Answer) (Fate, string) {
	p.mu.Lock()
	w, fate, method := p.calls.Resolve(id)
	if fate == Waiting {
		method = w.method
		p.untokenLocked(w)
	}
	p.mu.Unlock()
	if fate != Waiting {
		if p.opts.OnStray != nil {
			p.opts.OnStray(id, fate, method)
		}
		return fate, method
	}
	if a.Err == nil && w.onResult != nil {
		w.onResult(a.Result)
	}
	w.ch <- a
	return fate, method
}

// Fail ends every waiting call with err; later calls fail at once with
// it. Tokens are forgotten too.
func (p *Peer[T, I]) Fail(err error) {
	p.mu.Lock()
	p.dead = err
	waiting := p.calls.Drain()
	clear(p.tokens)
	p.mu.Unlock()
	for _, w := range waiting {
		w.ch <- Answer{Err: err}
	}
}

// InFlight reports whether id is a request of ours awaiting its answer.
func (p *Peer[T, I]) InFlight(id jsonrpc.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.calls.Get(id)
	return ok
}

// Find is the owner's record of our request id, if it awaits its answer.
func (p *Peer[T, I]) Find(id jsonrpc.ID) (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.calls.Get(id)
	if !ok {
		var zero T
		return zero, false
	}
	return w.tag, true
}

// Calls is the owner's records of the requests awaiting their answer, in
// no order.
func (p *Peer[T, I]) Calls() []T {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]T, 0, p.calls.Len())
	for _, w := range p.calls.All() {
		out = append(out, w.tag)
	}
	return out
}

// Len is how many requests of ours await their answer.
func (p *Peer[T, I]) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls.Len()
}

// NewToken is a token no other request of this Peer's has (1, 2, …).
func (p *Peer[T, I]) NewToken() jsonrpc.ID {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.issued++
	return jsonrpc.IntID(p.issued)
}

// Issued reports whether tok (canonical) is one NewToken handed out.
func (p *Peer[T, I]) Issued(tok jsonrpc.ID) bool {
	n, isInt := tok.Int()
	p.mu.Lock()
	defer p.mu.Unlock()
	return isInt && n >= 1 && n <= p.issued
}

// ByToken is the request tok names (a canonical id), if any.
func (p *Peer[T, I]) ByToken(tok jsonrpc.ID) (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.tokens[tok]
	return v, ok
}

// Bind makes tok name v beyond its request's answer (MCP: a call's
// progress token stays valid for its task's whole life), until Unbind.
func (p *Peer[T, I]) Bind(tok jsonrpc.ID, v T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead == nil {
		p.tokens[tok] = v
	}
}

// Unbind drops tok if it still names v.
func (p *Peer[T, I]) Unbind(tok jsonrpc.ID, v T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur, ok := p.tokens[tok]; ok && cur == v {
		delete(p.tokens, tok)
	}
}

// untokenLocked drops w's token if it still names w's request.
func (p *Peer[T, I]) untokenLocked(w *waiter[T]) {
	if w.token.IsValid() {
		if cur, ok := p.tokens[w.token]; ok && cur == w.tag {
			delete(p.tokens, w.token)
		}
	}
}

// Serve records v as serving the other side's request id, unless one is
// served under id already (a duplicate id: false, nothing changes).
func (p *Peer[T, I]) Serve(id jsonrpc.ID, v I) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dup := p.serving[id]; dup {
		return false
	}
	p.serving[id] = v
	return true
}

// Serving is what serves the other side's request id, if any.
func (p *Peer[T, I]) Serving(id jsonrpc.ID) (I, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.serving[id]
	return v, ok
}

// Served drops v from serving id (answered, or given up), if it still
// does.
func (p *Peer[T, I]) Served(id jsonrpc.ID, v I) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur, ok := p.serving[id]; ok && cur == v {
		delete(p.serving, id)
	}
}

// AllServing is a copy of what serves the other side's requests, by id.
func (p *Peer[T, I]) AllServing() map[jsonrpc.ID]I {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.serving)
}

// ServingLen is how many of the other side's requests are being served.
func (p *Peer[T, I]) ServingLen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.serving)
}
