package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// call is one of our requests.
type call struct {
	method string
	name   string     // tool or prompt name, resource uri (for Origin)
	token  jsonrpc.ID // progress token, if any
	// onProgress is the caller's hook for notifications/progress.
	onProgress func(CallProgress)

	// noCancel: never tell the server we gave up (initialize, which must
	// not be cancelled, and the era probe, sent before we know how).
	noCancel bool
	// sent, if set, is called once the request went out (each round).
	sent func()
	// onSent is CallOptions.OnSent: called the first time the request
	// went out, then cleared. Read and cleared by the caller's goroutine.
	onSent func()
	// onID is CallOptions.OnID: told each id the call is sent under,
	// before it is written. Never changed once the call is made.
	onID func(jsonrpc.ID)
	// listen is set for subscriptions/listen: the read loop hands it the
	// notifications of this subscription.
	listen *Listener
	// taskOK: a 2026-07-28 result of resultType "task" is an answer, not an
	// invalid response (tools/call and the tasks/* methods; tasks*.go).
	taskOK bool
	// noTimeout: the request waits on something else than the server's
	// answer, so no clock bounds it: tasks/result of a task still running
	// (it answers when the task ends; the task's polls are bounded). A
	// subscriptions/listen (listen) has none either: it lives until its
	// ctx ends, and Listen bounds its acknowledgement.
	noTimeout bool
	// clock bounds the wait (timeout.go); nil without one. Set before the
	// call is registered, never changed after.
	clock *clock

	// refusals are the server's requests of this call the client refused
	// for a capability it did not declare (features.go, refused): what
	// the call's error says when the server then fails it. Under
	// Session.mu; bounded by maxRefusals.
	refusals []string

	// idMu guards id and root, which the peer sets as it registers the
	// call (registered) and others read (ids).
	idMu sync.Mutex
	id   jsonrpc.ID // the id it was last sent under
	root jsonrpc.ID // the first id, kept across retries
}

// registered records the id the call is sent under now (under the peer's
// lock, before it is written: rpcpeer.Request.Registered).
func (c *call) registered(id jsonrpc.ID) {
	c.idMu.Lock()
	defer c.idMu.Unlock()
	c.id = id
	if !c.root.IsValid() {
		c.root = id
	}
	if c.onID != nil {
		c.onID(id) // CallOptions.OnID: must not block (it runs under the peer's lock)
	}
}

// ids is the id the call was last sent under, and its first.
func (c *call) ids() (id, root jsonrpc.ID) {
	c.idMu.Lock()
	defer c.idMu.Unlock()
	return c.id, c.root
}

// callID is the id that names the call for its whole life: the first one
// it was sent under (MRTR rounds and re-sends get new ids).
func (c *call) callID() jsonrpc.ID {
	id, root := c.ids()
	if root.IsValid() {
		return root
	}
	return id
}

// owns reports whether id is one the call was sent under (now or first).
func (c *call) owns(id jsonrpc.ID) bool {
	cur, root := c.ids()
	return id == cur || id == root
}

// origin says what prompts attributed to this call belong to.
func (c *call) origin() question.Origin {
	o := question.Origin{CallID: c.callID(), Name: c.name}
	switch c.method {
	case wire.MethodToolsCall:
		o.Kind = question.OriginToolCall
	case wire.MethodPromptsGet:
		o.Kind = question.OriginPrompt
	case wire.MethodResourcesRead:
		o.Kind = question.OriginResource
	}
	return o
}

// Request sends one request and decodes its result into result (which may
// be nil to discard it). When ctx ends first, the server is told
// (notifications/cancelled, or on 2026-07-28 HTTP by closing the request's
// stream), Request returns at once with an error wrapping ctx's cause, and
// a response arriving later is dropped with a Notice. A JSON-RPC error
// answer comes back as an error wrapping *jsonrpc.Error; a response that
// arrived but could not be decoded, as one wrapping *jsonrpc.DecodeError
// ("the server's response to <method> could not be decoded"); a request
// that could not be written because the session ended meanwhile, as the
// session's error (Err). In 2026-07-28,
// params get our _meta, and an input_required result of tools/call,
// prompts/get or resources/read is served round by round (see the package
// doc) until the final result. The request is bounded by
// Options.RequestTimeout as the package doc (Timeouts) says; when that
// runs out it is cancelled as above and the error wraps ErrTimeout.
//
// A progressToken the caller put in params._meta is the call's: the
// server's notifications/progress for it reach the Observer as
// CallProgress, as CallTool's do (the caller keeps it unique among its
// open requests, as the spec asks of the client).
func (s *Session) Request(ctx context.Context, method string, params, result any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("%s on %s: %w", method, s.name, err)
	}
	c := &call{method: method, token: callerToken(raw)}
	s.lint.CallerToken(c.token)
	return s.do(ctx, c, raw, result)
}

// callerToken reads params._meta.progressToken by exact name, as the
// progress for it will be looked up (by value); none when params have
// none, or one that no notification could name.
func callerToken(params json.RawMessage) jsonrpc.ID {
	var p struct {
		Meta *struct {
			Token *jsonrpc.ID `json:"progressToken"`
		} `json:"_meta"`
	}
	if len(params) == 0 || wire.DecodeExact(params, &p) != nil || p.Meta == nil || p.Meta.Token == nil {
		return jsonrpc.ID{}
	}
	tok, ok := p.Meta.Token.Canonical()
	if !ok {
		return jsonrpc.ID{}
	}
	return tok
}

// do runs c to its end in the session's era (see the package doc).
func (s *Session) do(ctx context.Context, c *call, params, result any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("%s on %s: %w", c.describe(), s.name, err)
	}
	if !c.noTimeout && c.listen == nil {
		ctx, c.clock = startClock(ctx, s.opts.RequestTimeout, waitingOn(s.peer))
		defer c.clock.stop()
	}
	start := time.Now()
	var m *jsonrpc.Message
	if s.stateless() {
		m, err = s.rounds.run(ctx, c, raw)
	} else {
		m, err = s.doStateful(ctx, c, raw)
		if err == nil && m.Error != nil && m.Error.Code == jsonrpc.CodeURLElicitationRequired {
			m, err = s.urls.required(ctx, c, raw, m) // urlrequired.go: the questions, then one retry
		}
	}
	if err == nil && m.Error != nil {
		err = m.Error
		if wire.IsModernCode(m.Error.Code) {
			err = modernError(m.Error, s.opts.Elicit, samplingModes(s.opts.Sampling, s.Protocol()).On)
		}
		err = s.offers.afterRefusals(c, err)
	}
	if raw, ok := result.(*json.RawMessage); ok && err == nil && m.Result != nil {
		// Decoded from the frame already, and ours alone: a copy would be
		// one more of a result that may be megabytes.
		*raw = m.Result
	} else if err == nil && result != nil {
		// Exact names: "IsError" is not isError (see decodeExact).
		if uerr := wire.DecodeExact(m.Result, result); uerr != nil {
			err = fmt.Errorf("malformed result: %w", uerr)
			s.lint.Result(c.method, m, uerr)
		}
	}
	if err == nil {
		s.lint.Result(c.method, m, nil)
	}
	if err != nil {
		err = fmt.Errorf("%s on %s: %w", c.describe(), s.name, err)
	}
	id := c.callID()
	s.emit(CallFinished{Server: s.name, CallID: id, Method: c.method, Err: err, Elapsed: time.Since(start)})
	return err
}

// doStateful sends c, re-initializing once if the server forgot our
// session.
func (s *Session) doStateful(ctx context.Context, c *call, raw json.RawMessage) (*jsonrpc.Message, error) {
	for attempt := 0; ; attempt++ {
		in, gen, err := s.roundTrip(ctx, c, raw)
		if err != nil && attempt == 0 && c.method != wire.MethodInitialize && errors.Is(err, transport.ErrSessionExpired) {
			s.log.Info("session expired; initializing again", "method", c.method)
			rerr := s.hs.reinitialize(ctx, gen)
			if rerr == nil {
				continue
			}
			err = fmt.Errorf("%w (and initializing again failed: %w)", err, rerr)
		}
		if err != nil {
			return nil, err
		}
		if in.Err != nil {
			return nil, c.unanswered(in.Err)
		}
		return in.Msg, nil
	}
}

// unanswered is the error that ends c when the transport delivered, instead
// of its response, why none will come (transport.Inbound.Err).
func (c *call) unanswered(why error) error {
	var de *jsonrpc.DecodeError
	if errors.As(why, &de) {
		// The server did answer, in a frame we could not read.
		return fmt.Errorf("the server's response to %s could not be decoded: %w", c.method, why)
	}
	return why // the stream broke first: the server never answered
}

func (c *call) describe() string {
	if c.name != "" {
		return fmt.Sprintf("%s %q", c.method, c.name)
	}
	return c.method
}

func marshalParams(params any) (json.RawMessage, error) {
	switch v := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("marshal params: %w", err)
		}
		return b, nil
	}
}

// roundTrip sends c once under a fresh id and waits for what the transport
// delivers for it: its response, or why none will come (Inbound.Err). gen
// is the initialize generation it was sent under.
func (s *Session) roundTrip(ctx context.Context, c *call, params json.RawMessage) (transport.Inbound, int, error) {
	gen, err := s.life.sending()
	if err != nil {
		return transport.Inbound{}, 0, err
	}

	var opts *transport.WriteOptions
	if h := s.headers.params(c, params); h != nil {
		opts = &transport.WriteOptions{Headers: h}
	}
	// onSent runs once: when the transport says the request is on the
	// wire (HTTP, before the POST is answered), or else once Write
	// returns. The Once also makes Write's return wait for a run the
	// transport started, so it has happened when the call returns.
	var sentOnce sync.Once
	onSent := c.onSent
	c.onSent = nil
	fire := func() {
		if onSent != nil {
			sentOnce.Do(onSent)
		}
	}
	if onSent != nil {
		if opts == nil {
			opts = &transport.WriteOptions{}
		}
		opts.Written = fire
	}
	id, ch, err := s.peer.Send(ctx, rpcpeer.Request[*call]{
		Method: c.method, Params: params, Tag: c, Token: c.token, Registered: c.registered, Write: opts,
	})
	if err != nil && !id.IsValid() {
		return transport.Inbound{}, gen, err // the session had ended (rpcpeer.Peer.Fail)
	}
	if we, ok := errors.AsType[*rpcpeer.WriteError](err); ok {
		err = we.Err
	}
	if err == nil && c.sent != nil {
		c.sent()
	}
	if err == nil {
		fire()
	}
	if err != nil {
		if ctx.Err() != nil {
			// The request may have gone out (HTTP finishes a POST whose
			// wait was abandoned), so cancel it like any other.
			cause := context.Cause(ctx)
			s.cancelCall(c, id, cause)
			return transport.Inbound{}, gen, fmt.Errorf("%w (%w)", cause, err)
		}
		s.peer.Forget(id)
		err, ended := s.life.writeFailure(err)
		if ended {
			s.log.Debug("a request could not be written; the session has ended", "err", err)
		}
		return transport.Inbound{}, gen, err
	}
	select {
	case a := <-ch:
		in := inbound(id, a)
		var de *jsonrpc.DecodeError
		if in.Err != nil && !errors.As(in.Err, &de) {
			// The stream the call's prompts came on broke before its
			// response: they are gone with it.
			s.orphanPrompts(c, in.Err)
		}
		return in, gen, nil
	case <-ctx.Done():
		cause := context.Cause(ctx)
		s.cancelCall(c, id, cause)
		return transport.Inbound{}, gen, cause
	case <-s.life.quit:
		// A response may have won the race with the end.
		select {
		case a := <-ch:
			return inbound(id, a), gen, nil
		default:
		}
		s.peer.Forget(id)
		return transport.Inbound{}, gen, s.life.alive()
	}
}

// inbound is what the read loop handed the peer for our request id
// (handleResponse), or the end the peer gave it (Fail), as the
// transport said it.
func inbound(id jsonrpc.ID, a rpcpeer.Answer) transport.Inbound {
	return transport.Inbound{ID: id, Msg: a.Msg, Err: a.Err, Received: a.Received}
}

// orphanPrompts ends, with a cause wrapping ErrDisconnected, the prompts
// that came on c's own stream (Origin known from the transport, not
// inferred; not a task's) once the transport ended c because that stream
// broke: the channel they came on is gone, so nothing is sent for them, as
// when a stdio server dies.
func (s *Session) orphanPrompts(c *call, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cause := fmt.Errorf("%w: %s was lost: %w", question.ErrDisconnected, c.describe(), why)
	for _, e := range s.peer.AllServing() {
		if c.owns(e.owner) && !e.origin.Inferred && e.origin.Kind != question.OriginTask {
			e.cancel(cause)
		}
	}
}

// cancelCall handles the caller giving up on c, last sent under id: the
// server is told (unless c is initialize, which must never be cancelled;
// the peer closes a 2026-07-28 HTTP request's stream instead), prompts
// that belong to c end Abandoned, and a late response will be dropped
// with a Notice.
func (s *Session) cancelCall(c *call, id jsonrpc.ID, cause error) {
	s.mu.Lock()
	pending := s.peer.GiveUp(id)
	for _, e := range s.peer.AllServing() {
		if c.owns(e.owner) {
			e.cancel(question.ErrAbandoned)
		}
	}
	// So do the questions of our tasks that belong to it (receiver.go).
	s.receiver.endLocked(func(t *rtask) bool {
		return t.origin.CallID.IsValid() && c.owns(t.origin.CallID)
	}, question.ErrAbandoned)
	notify := pending && c.method != wire.MethodInitialize && !c.noCancel && s.life.join() == nil
	s.mu.Unlock()
	if !notify {
		return
	}
	reason := "cancelled"
	if cause != nil {
		reason = cause.Error()
	}
	go func() {
		defer s.life.leave()
		if err := s.peer.Cancel(context.Background(), id, reason); err != nil {
			s.log.Debug("sending notifications/cancelled failed", "id", id, "err", err)
		}
	}()
}

// handleResponse hands a response, or the transport's word that none will
// come (in.Err), to its waiter (read loop).
func (s *Session) handleResponse(in transport.Inbound) {
	id := in.ID
	if in.Msg != nil {
		id = in.Msg.ID
	}
	if s.life.isClosing() && s.peer.InFlight(id) {
		// Close has already failed every pending call (ErrClosed); a
		// response that comes now, often provoked by the cancel answers
		// Close sends for open prompts, must not win over that.
		s.log.Debug("dropped a response that came after Close", "id", id)
		return
	}
	a := rpcpeer.Answer{Msg: in.Msg, Err: in.Err, Received: in.Received}
	if in.Msg != nil {
		a.Result = in.Msg.Result
	}
	fate, method := s.peer.Deliver(id, a)
	switch {
	case fate == rpcpeer.Waiting:
		s.lint.Answered(id, method)
	case in.Err != nil:
		// No call waits for it: the transport has already reported the
		// bad frame or the broken stream itself.
		s.log.Debug("dropped the end of a request no call waits for", "id", id, "why", in.Err)
	case fate == rpcpeer.Late:
		s.notice("dropped a late response to %s #%s (we had cancelled it)", method, id.Raw())
	default:
		s.notice("dropped a response for unknown request id %s", id)
		s.lint.Stray(id, in.Received)
	}
}
