package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// incoming is one request from the server that we are serving.
type incoming struct {
	id      jsonrpc.ID
	method  string
	arrived time.Time
	ctx     context.Context
	cancel  context.CancelCauseFunc // under Session.mu, or its task's lock (tasks_core.go)
	origin  question.Origin         // questions (asksPerson) only
	owner   jsonrpc.ID              // our call it belongs to, for abandonment
	via     *call                   // ours, whose HTTP stream carried it (not a tasks/result); nil otherwise
	holds   []*call                 // whose clocks stand still while it is served
	reason  string                  // the server's reason, when withdrawn; under mu
	gen     int                     // initialize generation it arrived under
}

// handleRequest registers a request from the server and serves it in its
// own goroutine (read loop).
func (s *Session) handleRequest(in transport.Inbound) {
	m := in.Msg
	var taskID string
	asks := asksPerson(m.Method)
	if asks {
		taskID = question.RelatedTaskID(m.Params)
	}
	arrived := in.Received // off the wire, before any queue of ours
	if arrived.IsZero() {
		arrived = time.Now()
	}
	// Made before taking mu: an allocation can be drafted into a GC mark
	// assist, and every prompt's claim waits on mu meanwhile (the load
	// benchmark's slowest 1% showed such convoys).
	ctx, cancel := context.WithCancelCause(s.life.base)
	e := &incoming{id: m.ID, method: m.Method, arrived: arrived, ctx: ctx, cancel: cancel}
	s.mu.Lock()
	gen, err := s.life.sending()
	if err != nil {
		s.mu.Unlock()
		cancel(nil)
		return
	}
	if s.neg.kind == eraStateless {
		// 2026-07-28 servers send no requests and clients send no
		// responses (stdio forbids them), so it goes unanswered.
		s.mu.Unlock()
		cancel(nil)
		s.notice("ignored a %s request from the server: in 2026-07-28 servers send no requests", m.Method)
		s.lint.Find(findings.ServerRequestStateless, lint.InFrame(m.ID, m.Method, arrived), "%s request #%s", m.Method, m.ID.Raw())
		return
	}
	if _, dup := s.peer.Serving(m.ID); dup {
		s.mu.Unlock()
		cancel(nil)
		s.notice("ignored a second %s with id %s while the first is still open", m.Method, m.ID)
		s.lint.Find(findings.DuplicateRequestID, lint.InFrame(m.ID, m.Method, arrived), "a second %s with id %s while the first is still open", m.Method, m.ID)
		return
	}
	if s.life.join() != nil {
		// Not since the check above: the end and Close change it under
		// mu too.
		s.mu.Unlock()
		cancel(nil)
		return
	}
	e.gen = gen
	if asks {
		e.origin = originOf(s.peer, in.RelatedID, func(via *call) (question.Origin, bool) {
			return s.tasks.originLocked(taskID, via)
		})
		e.owner = e.origin.CallID
		if c, _ := s.peer.Find(in.RelatedID); in.RelatedID.IsValid() && c != nil && c.method != wire.MethodTasksResult {
			e.via = c
		}
		e.holds = holdClocks(s.peer, in.RelatedID, e.origin)
	}
	s.peer.Serve(m.ID, e) // not a duplicate (above, under mu)
	unrelated := asks && unrelatedRequest(e, s.peer.Calls())
	s.mu.Unlock()
	s.lint.Request(m, arrived, unrelated)
	go func() {
		defer s.life.leave()
		defer func() {
			for _, c := range e.holds {
				c.clock.release()
			}
		}()
		s.offers.serve(e, m) // features.go
		// Release the context (a no-op if it already ended). Not under
		// mu: by now claim has taken e out of the peer, so nothing else
		// looks at it, and cancelling takes the base context's own lock,
		// which a thousand siblings share.
		e.cancel(nil)
	}()
}

// asksPerson reports whether a server request is a question for a person
// (elicitation, sampling): it gets an Origin, and holds the clocks of the
// calls it may belong to.
func asksPerson(method string) bool {
	return method == wire.MethodElicit || method == wire.MethodCreateMessage
}

// originOf decides what an elicitation belongs to, at its arrival: the
// call of ours (in calls) whose HTTP stream carried it (related); else the
// task it names or whose tasks/result stream carried it (task: the task
// table's originLocked); else, if exactly one tools/call of ours is
// outstanding, that one (Origin.Inferred); else unknown, naming the
// tools/call of ours it may belong to when several are (Origin.Maybe).
func originOf(calls *mcpPeer, related jsonrpc.ID, task func(via *call) (question.Origin, bool)) question.Origin {
	var via *call // ours, whose HTTP stream carried the request
	if related.IsValid() {
		via, _ = calls.Find(related)
	}
	// Tasks: a request naming its task, or on a tasks/result stream of
	// ours, belongs to that task (tasks_core.go).
	if o, ok := task(via); ok {
		return o
	}
	if via != nil {
		return via.origin()
	}
	if related.IsValid() {
		return question.Origin{CallID: related}
	}
	var open []*call
	for _, c := range calls.Calls() {
		if c.method == wire.MethodToolsCall {
			open = append(open, c)
		}
	}
	switch len(open) {
	case 0:
		return question.Origin{}
	case 1:
		o := open[0].origin()
		o.Inferred = true
		return o
	}
	// Several: it is ours, but whose is a guess; say whose it may be.
	slices.SortFunc(open, func(a, b *call) int { return cmpID(a.callID(), b.callID()) })
	o := question.Origin{MaybeOf: len(open)}
	for _, c := range open[:min(len(open), question.MaxMaybe)] {
		o.Maybe = append(o.Maybe, c.origin())
	}
	return o
}

// cmpID orders our request ids (integers we issued) by age.
func cmpID(a, b jsonrpc.ID) int {
	x, _ := a.Int()
	y, _ := b.Int()
	return cmp.Compare(x, y)
}

// holdClocks stops the clocks (timeout.go) of the requests of ours that
// a question arriving now may belong to, until it has been served: a
// person, not the server, is the one they wait on meanwhile. That is the
// request whose HTTP stream carried it; when nothing ties it to one
// (stdio, a GET stream), every request outstanding, since an inferred
// Origin is a guess, and a request timed out behind a person's back
// loses their answer, while one held in vain only waits longer. A task's
// question is its task's: no request waits on it.
func holdClocks(calls *mcpPeer, related jsonrpc.ID, o question.Origin) []*call {
	if o.Kind == question.OriginTask {
		return nil
	}
	var held []*call
	if related.IsValid() {
		if c, _ := calls.Find(related); c != nil {
			held = append(held, c)
		}
	} else {
		for _, c := range calls.Calls() {
			if c.clock != nil {
				held = append(held, c)
			}
		}
	}
	for _, c := range held {
		c.clock.hold()
	}
	return held
}

// claim closes e's delivery: from here on a notifications/cancelled for
// it is "unknown". It returns the cause that ended ctx first, if any, and
// the server's reason for a withdrawal. Because withdrawals cancel under
// mu too, an answer and a withdrawal cannot both win.
func (s *Session) claim(e *incoming, ctx context.Context) (reason string, cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peer.Served(e.id, e)
	if ctx.Err() != nil {
		return e.reason, context.Cause(ctx)
	}
	return "", nil
}

// answer claims e and sends result or rpcErr, unless the request was
// withdrawn or the transport is gone. It reports what went out.
func (s *Session) answer(e *incoming, ctx context.Context, result json.RawMessage, rpcErr *jsonrpc.Error) (sent bool) {
	_, cause := s.claim(e, ctx)
	if errors.Is(cause, question.ErrWithdrawn) || errors.Is(cause, question.ErrDisconnected) {
		return false
	}
	return s.reply(e.id, result, rpcErr) == nil
}

// reply writes a response to the server's request id.
func (s *Session) reply(id jsonrpc.ID, result json.RawMessage, rpcErr *jsonrpc.Error) error {
	err := s.peer.WriteContext(context.Background(), rpcpeer.Response(id, result, rpcErr))
	if err != nil {
		s.log.Debug("writing a response failed", "id", id, "err", err)
	}
	return err
}

// withdraw handles notifications/cancelled: the request's context ends
// with ErrWithdrawn and no response will be sent for it.
func (s *Session) withdraw(params json.RawMessage) {
	var p struct {
		RequestID *jsonrpc.ID `json:"requestId"`
		Reason    string      `json:"reason"`
	}
	if wire.DecodeExact(params, &p) != nil || p.RequestID == nil {
		s.notice("ignored a malformed notifications/cancelled")
		return
	}
	s.mu.Lock()
	e, _ := s.peer.Serving(*p.RequestID)
	if e != nil && e.ctx.Err() == nil {
		e.reason = p.Reason
		e.cancel(question.ErrWithdrawn)
	}
	s.mu.Unlock()
	if e == nil {
		s.notice("ignored notifications/cancelled for request %s: not open (unknown or already answered)", p.RequestID)
	}
}

// onProgress routes notifications/progress to the call that owns the
// token: to the Observer and to the call's OnProgress, via the dispatcher.
func (s *Session) onProgress(params json.RawMessage) {
	var p struct {
		Token    *jsonrpc.ID `json:"progressToken"`
		Progress float64     `json:"progress"`
		Total    float64     `json:"total"`
		Message  string      `json:"message"`
	}
	if wire.DecodeExact(params, &p) != nil || p.Token == nil {
		s.notice("skipped a malformed notifications/progress")
		s.lint.Malformed(wire.NotifyProgress, "params without a progressToken, or of the wrong shape")
		return
	}
	// The token is ours: read it by value, as a response's id is, in case
	// the server wrote our 3 as 3.0.
	var c *call
	tok, canonical := p.Token.Canonical()
	if canonical {
		c, _ = s.peer.ByToken(tok)
	}
	var id jsonrpc.ID
	issued := c != nil || canonical && s.peer.Issued(tok)
	if c != nil {
		id, _ = c.ids()
		c.clock.kick() // progress resets the request's timeout (timeout.go)
	}
	if c == nil {
		// Common and harmless: progress racing the final response.
		s.log.Debug("progress for an unknown token", "token", p.Token)
		s.lint.Progress(*p.Token, issued)
		return
	}
	s.events.push(CallProgress{Server: s.name, CallID: id, Progress: p.Progress, Total: p.Total, Message: p.Message}, c.onProgress)
}
