package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// This file is the 2026-07-28 request path: _meta on every request,
// resultType on every result, and multi round-trip requests (MRTR): a
// tools/call, prompts/get or resources/read answered input_required is
// retried, round after round, with the person's answers.

// Bounds on what a server can make us do.
const (
	// maxRounds bounds the input_required rounds of one call.
	maxRounds = 100
	// maxEmptyRounds bounds consecutive rounds that ask nothing (load
	// shedding: the retry goes out at once, with requestState only).
	maxEmptyRounds = 10
	// maxResends bounds how often one retry is sent again after its
	// stream was lost.
	maxResends = 2
)

// mrtrMethod reports whether method may answer input_required.
func mrtrMethod(method string) bool {
	switch method {
	case wire.MethodToolsCall, wire.MethodPromptsGet, wire.MethodResourcesRead:
		return true
	}
	return false
}

// inputRequired is an input_required result: the questions by key, and
// requestState exactly as sent (nil when absent).
type inputRequired struct {
	Requests map[string]json.RawMessage `json:"inputRequests"`
	State    json.RawMessage            `json:"requestState"`
}

// UnmarshalJSON reads the members by their exact names. encoding/json
// matches struct fields case-insensitively, which took a "requestStAte"
// for requestState (echoed back under the real name, and overriding the
// real one when both came); the spec wants requestState exactly as sent.
// Found by FuzzInputRequired.
func (ir *inputRequired) UnmarshalJSON(b []byte) error {
	type plain inputRequired // without this method
	*ir = inputRequired{}
	return wire.DecodeExact(b, (*plain)(ir))
}

// doStateless runs c in the 2026-07-28 era until its final response.
func (s *Session) doStateless(ctx context.Context, c *call, base json.RawMessage) (*jsonrpc.Message, error) {
	var (
		responses map[string]json.RawMessage // nil in round 1 and after a round that asked nothing
		state     json.RawMessage
		rec       *roundRecord
		round     = 1
		empty     int
		resends   int
		switched  bool
		relisted  bool
	)
	for {
		params, err := s.roundParams(base, responses, state, mrtrMethod(c.method))
		if err != nil {
			return nil, err
		}
		if rec != nil {
			c.sent = rec.delivered
		}
		m, _, err := s.roundTrip(ctx, c, params)
		c.sent = nil
		if rec != nil {
			why := "the retry was not sent"
			if err != nil {
				why = "answer not delivered: " + err.Error()
			}
			rec.undelivered(why) // a no-op once delivered
		}
		if err != nil {
			return nil, err
		}
		if m.Error != nil {
			switch {
			case lostStream(m) && resendable(c, round) && resends < maxResends:
				// 2026-07-28 HTTP has no resumption: the request is gone
				// with its stream, and goes out again under a new id. A
				// round's answers must not be lost that way.
				resends++
				if round > 1 {
					s.notice("the connection dropped while %s was sending the answers of round %d; sending them again", c.describe(), round)
				} else {
					s.notice("the connection dropped during %s; sending it again", c.describe())
				}
				rec = nil
				continue
			case m.Error.Code == jsonrpc.CodeUnsupportedProtocolVersion && !switched:
				switched = true
				if s.switchVersion(m.Error) {
					rec = nil
					continue
				}
			case m.Error.Code == jsonrpc.CodeHeaderMismatch && !relisted:
				// Maybe a tool schema we lack (headers.go).
				relisted = true
				if s.relistForHeaders(ctx, c, params) {
					rec = nil
					continue
				}
			}
			return m, nil
		}
		switch rt := wire.ResultType(m.Result); {
		case rt == "complete":
			return m, nil
		case rt == "task" && c.taskOK:
			return m, nil // the tasks extension: the caller follows it (tasks*.go)
		case rt != "input_required":
			return nil, fmt.Errorf("invalid response: resultType %q is not supported", rt)
		case !mrtrMethod(c.method):
			return nil, fmt.Errorf("invalid response: %s may not answer input_required", c.method)
		}
		var ir inputRequired
		if err := json.Unmarshal(m.Result, &ir); err != nil {
			return nil, fmt.Errorf("invalid input_required result: %w", err)
		}
		if round++; round > maxRounds {
			return nil, fmt.Errorf("gave up after %d input_required rounds", maxRounds)
		}
		rec, resends = nil, 0
		if len(ir.Requests) == 0 {
			// Only requestState: retry at once, within reason.
			if empty++; empty > maxEmptyRounds {
				return nil, fmt.Errorf("gave up after %d input_required rounds that asked nothing", maxEmptyRounds)
			}
			responses, state = nil, ir.State
			continue
		}
		empty = 0
		responses, rec, err = s.serveRound(ctx, c, ir.Requests, m.Received)
		if err != nil {
			return nil, err
		}
		state = ir.State
	}
}

// roundParams is the request's params for one round: the caller's params,
// the round's answers and requestState (exactly as the server sent it),
// and our _meta.
func (s *Session) roundParams(base json.RawMessage, responses map[string]json.RawMessage, state json.RawMessage, mrtr bool) (json.RawMessage, error) {
	top, err := wire.Members(base)
	if err != nil {
		return nil, err
	}
	if !mrtr {
		// Not a round at all: tasks/update carries inputResponses of its
		// own (tasks_ext.go), which must go out as they are.
		return wire.WithMeta(wire.Object(top), s.metaFields(s.Protocol()))
	}
	delete(top, "inputResponses")
	delete(top, "requestState")
	if responses != nil {
		top["inputResponses"] = wire.Object(responses)
	}
	if state != nil {
		top["requestState"] = state
	}
	return wire.WithMeta(wire.Object(top), s.metaFields(s.Protocol()))
}

// switchVersion handles -32022 on a stateless session: if the server
// speaks another stateless version we speak, the session moves to it and
// the request is sent again once.
func (s *Session) switchVersion(e *jsonrpc.Error) bool {
	sup, _ := wire.UnsupportedVersion(e.Data)
	v := best(sup, wire.Stateless)
	if v == "" || v == s.Protocol() {
		return false
	}
	s.mu.Lock()
	old := s.neg.protocol
	s.neg.protocol = v
	s.mu.Unlock()
	s.setVersion(v)
	s.notice("the server no longer speaks %s; switched to %s", old, v)
	return true
}

// inputEntry is one entry of inputRequests.
type inputEntry struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// UnmarshalJSON reads the members by their exact names, for the reason
// inputRequired does: a "Params" is not params.
func (e *inputEntry) UnmarshalJSON(b []byte) error {
	m, err := wire.ExactMembers(b)
	if err != nil {
		return err
	}
	*e = inputEntry{Params: bytes.Clone(m["params"])}
	if raw, ok := m["method"]; ok {
		if err := json.Unmarshal([]byte(raw), &e.Method); err != nil {
			return fmt.Errorf("method: %w", err)
		}
	}
	return nil
}

// roundItem is one answerable entry of a round.
type roundItem struct {
	p *question.Question
	d decision
}

// serveRound shows a round's questions through the Prompter, all at once,
// and returns the answers by key. Entries of kinds we did not declare get
// no answer (the spec leaves this open; they are journalled Invalid with a
// Notice). If the call is cancelled or the session ends before every
// prompt is settled, the round is abandoned: nothing is retried and every
// prompt of the round ends with that cause.
//
// arrived is when the input_required result was decoded (zero: now); every
// prompt of the round counts its wait from it.
func (s *Session) serveRound(ctx context.Context, c *call, requests map[string]json.RawMessage, arrived time.Time) (map[string]json.RawMessage, *roundRecord, error) {
	s.mu.Lock()
	if s.isDead || s.closing {
		err := s.err
		s.mu.Unlock()
		if err == nil {
			err = ErrClosed
		}
		return nil, nil, err
	}
	s.wg.Add(1) // Close and teardown wait for the round's prompts
	origin := c.origin()
	s.mu.Unlock()
	defer s.wg.Done()

	// The round ends early when the call is cancelled (Abandoned) or the
	// session ends (s.base's cause).
	rctx, rcancel := context.WithCancelCause(s.base)
	defer rcancel(nil)
	stop := context.AfterFunc(ctx, func() { rcancel(question.ErrAbandoned) })
	defer stop()

	now := arrived
	if now.IsZero() {
		now = time.Now()
	}
	var items []*roundItem
	var refused []*roundItem
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		p := &question.Question{
			Key:     question.Key{Server: s.name, Delivery: question.InputRequest, CallID: origin.CallID, Input: key},
			Server:  s.name,
			Origin:  origin,
			Arrived: now,
		}
		var e inputEntry
		if err := json.Unmarshal(requests[key], &e); err != nil {
			s.unanswerable(p, "malformed input request: "+err.Error())
			continue
		}
		if e.Method != wire.MethodElicit {
			s.unanswerable(p, fmt.Sprintf("input request of a kind elicit did not declare (%s); it gets no answer", e.Method))
			continue
		}
		if perr := s.parseElicit(p, e.Params); perr != nil {
			if p.Mode == "" {
				p.Mode = question.ModeForm
			}
			// No per-key error exists in MRTR: refused with cancel.
			refused = append(refused, &roundItem{p: p, d: decision{
				outcome: question.Outcome{Kind: question.Invalid, Reason: perr.msg},
				reply:   &elicitResult{Action: "cancel"},
			}})
			continue
		}
		items = append(items, &roundItem{p: p})
	}
	if len(items)+len(refused) == 0 {
		return nil, nil, fmt.Errorf("the server asked only for input elicit cannot give")
	}

	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() {
			pctx := context.Context(rctx)
			if d := s.opts.PromptTimeout; d > 0 {
				var cancel context.CancelFunc
				pctx, cancel = context.WithTimeoutCause(rctx, d, question.ErrTimeout)
				defer cancel()
			}
			it.d = s.settle(pctx, it.p, func(ctx context.Context) (error, string) {
				if ctx.Err() != nil {
					return context.Cause(ctx), ""
				}
				return nil, ""
			})
		})
	}
	wg.Wait()
	all := append(items, refused...)

	if rctx.Err() != nil {
		cause := context.Cause(rctx)
		for _, it := range all {
			out := causeDecision(cause, "").outcome
			if it.d.outcome.Kind == question.Accept || it.d.outcome.Kind == question.Decline || it.d.outcome.Kind == question.Cancel {
				out.Reason = joinReason(out.Reason, fmt.Sprintf("answered %s, but no retry was sent", it.d.outcome.Kind))
			}
			s.record(it.p, out, "")
		}
		s.mu.Lock()
		sessErr := s.err
		s.mu.Unlock()
		switch {
		case ctx.Err() != nil:
			cause = context.Cause(ctx) // the caller's own reason
		case sessErr != nil:
			cause = sessErr // ErrClosed, or the disconnect
		}
		return nil, nil, cause
	}

	responses := map[string]json.RawMessage{}
	rec := &roundRecord{s: s}
	for _, it := range all {
		var b json.RawMessage
		if it.d.rpcErr != nil {
			// Invalid content: there is no per-key error in MRTR, so the
			// key is answered cancel and journalled Invalid.
			it.d.reply = &elicitResult{Action: "cancel"}
		}
		if it.d.reply != nil {
			var err error
			if b, err = json.Marshal(it.d.reply); err != nil {
				it.d.outcome = question.Outcome{Kind: question.Invalid, Reason: "answer could not be encoded: " + err.Error()}
				it.d.reply = &elicitResult{Action: "cancel"}
				b = json.RawMessage(`{"action":"cancel"}`)
			}
			responses[it.p.Key.Input] = b
		}
		rec.items = append(rec.items, it)
	}
	return responses, rec, nil
}

// unanswerable journals an input request we cannot serve and says so.
func (s *Session) unanswerable(p *question.Question, why string) {
	if p.Mode == "" {
		p.Mode = question.ModeForm
	}
	s.notice("%s: input %q: %s", p.Origin.describe(), p.Key.Input, why)
	s.record(p, question.Outcome{Kind: question.Invalid, Reason: why}, "")
}

// describe names an origin for notices.
func (o question.Origin) describe() string {
	if o.Name != "" {
		return fmt.Sprintf("call %s (%s)", o.CallID.Raw(), o.Name)
	}
	return "call " + o.CallID.Raw()
}

// roundRecord journals a round's prompts once their answers went out (or
// could not): PromptResolved reaches the UI when the retry was written,
// like a 2025 answer when its response was.
type roundRecord struct {
	s     *Session
	once  sync.Once
	items []*roundItem
}

// delivered records every prompt with what went out for it.
func (r *roundRecord) delivered() {
	r.once.Do(func() {
		for _, it := range r.items {
			sent := ""
			if it.d.reply != nil {
				sent = it.d.reply.Action
			}
			r.s.record(it.p, it.d.outcome, sent)
		}
	})
}

// undelivered records every prompt with its decided outcome and why its
// answer did not reach the server.
func (r *roundRecord) undelivered(why string) {
	r.once.Do(func() {
		for _, it := range r.items {
			out := it.d.outcome
			out.Reason = joinReason(out.Reason, why)
			r.s.record(it.p, out, "")
		}
	})
}

// lostStream reports whether m is the transport's stand-in for a response
// whose HTTP stream broke first (2026-07-28 has no resumption, so the
// request is lost and may be sent again under a new id).
func lostStream(m *jsonrpc.Message) bool {
	return m.Error != nil && errors.Is(m.LocalErr, transport.ErrRequestLost)
}

// resendable reports whether a lost request is sent again by itself: a
// retry (its answers came from a person) and requests without side
// effects; not a first tools/call, which may have acted already, nor a
// subscription, which its Listener reports ended.
func resendable(c *call, round int) bool {
	return round > 1 || (c.method != wire.MethodToolsCall && c.method != wire.MethodSubscriptionsListen)
}
