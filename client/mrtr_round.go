package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
)

// One input_required round (2026-07-28 MRTR): its questions are shown all
// at once through the one ask path, and their answers travel together in
// the round's retry.

// roundItem is one answerable entry of a round and how it ended.
type roundItem struct {
	q      *question.Question
	params json.RawMessage
	reply  question.Reply
	out    question.Outcome
}

// roundDelivery keeps an item's answer for the round's retry: nothing goes
// out, and nothing is journalled, until the retry does (roundRecord).
type roundDelivery struct{ it *roundItem }

func (roundDelivery) claim(ctx context.Context) (string, error) { return claimLocal(ctx) }

// claimLocal is claim for a delivery whose answer stays with us (a round's
// retry, a -32042's wait): nothing else can have ended it, only ctx.
func claimLocal(ctx context.Context) (string, error) {
	if ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	return "", nil
}

func (d roundDelivery) send(_ *question.Question, r question.Reply, out question.Outcome) {
	d.it.reply, d.it.out = r, out
}

// serve shows a round's questions through the Prompter, all at once,
// and returns the answers by key. Entries of kinds we did not declare get
// no answer (the spec leaves this open; they are journalled Invalid with a
// Notice). If the call is cancelled or the session ends before every
// question is settled, the round is abandoned: nothing is retried and
// every question of the round ends with that cause.
//
// arrived is when the input_required result was decoded (zero: now); every
// question of the round counts its wait from it.
func (rs *rounds) serve(ctx context.Context, c *call, requests map[string]json.RawMessage, arrived time.Time) (map[string]json.RawMessage, *roundRecord, error) {
	leave, err := rs.h.join() // Close and teardown wait for the round's questions
	if err != nil {
		return nil, nil, err
	}
	defer leave()
	origin := rs.h.origin(c)
	// The round's questions wait on a person: the call's clock stands
	// still until they are settled (timeout.go).
	c.clock.hold()
	defer c.clock.release()

	// The round ends early when the call is cancelled (Abandoned) or the
	// session ends (the base context's cause).
	rctx, rcancel := context.WithCancelCause(rs.h.base)
	defer rcancel(nil)
	stop := context.AfterFunc(ctx, func() { rcancel(question.ErrAbandoned) })
	defer stop()

	if arrived.IsZero() {
		arrived = time.Now()
	}
	var items []*roundItem
	var cannot []string                  // the inputs elicit cannot give, and why
	auto := map[string]json.RawMessage{} // answered without a person (roots.go)
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		if res, ok := rs.h.autoInput(requests[key]); ok {
			auto[key] = res
			continue
		}
		q := &question.Question{
			Key:     question.Key{Server: rs.h.server, Delivery: question.InputRequest, CallID: origin.CallID, Input: key},
			Server:  rs.h.server,
			Origin:  origin,
			Arrived: arrived,
		}
		kind, params, why := rs.h.inputParams(requests[key])
		if why != "" {
			rs.h.lint.InputUndeclared(requests[key], q.Arrived)
			rs.h.unanswerable(q, describeCall(origin), why)
			cannot = append(cannot, fmt.Sprintf("%q: %s", key, why))
			continue
		}
		q.Kind = kind
		items = append(items, &roundItem{q: q, params: params})
	}
	if len(items) == 0 && len(auto) == 0 {
		return nil, nil, fmt.Errorf("the server asked only for input elicit cannot give (%s)", strings.Join(cannot, "; "))
	}

	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() { rs.h.ask(rctx, it.q, it.params, roundDelivery{it}) })
	}
	wg.Wait()

	if rctx.Err() != nil {
		cause := context.Cause(rctx)
		for _, it := range items {
			out := question.CauseDecision(cause, "").Outcome
			if k := it.out.Kind; k == question.Accept || k == question.Decline || k == question.Cancel {
				out.Reason = question.JoinReason(out.Reason, fmt.Sprintf("answered %s, but no retry was sent", k))
			}
			rs.h.record(it.q, out, nil)
		}
		sessErr := rs.h.err()
		switch {
		case ctx.Err() != nil:
			cause = context.Cause(ctx) // the caller's own reason
		case sessErr != nil:
			cause = sessErr // ErrClosed, or the disconnect
		}
		return nil, nil, cause
	}

	if err := rs.abandon(origin, items); err != nil {
		return nil, nil, err
	}
	responses := auto
	for _, it := range items {
		if it.reply.Result != nil {
			responses[it.q.Key.Input] = it.reply.Result
		}
	}
	rec := &roundRecord{rs: rs, items: items}
	rs.mu.Lock()
	rs.open[rec] = true
	rs.mu.Unlock()
	return responses, rec, nil
}

// abandon ends a round none of whose answers can go out because one
// of its questions has no answer in 2026-07-28 (a refused sampling
// request: Reply.Abandon): every question is journalled with nothing
// sent, and the call fails saying which refusal ended it.
func (rs *rounds) abandon(origin question.Origin, items []*roundItem) error {
	var first *roundItem
	for _, it := range items {
		if it.reply.Abandon {
			first = it
			break
		}
	}
	if first == nil {
		return nil
	}
	why := fmt.Sprintf("input %q (%s) ended %s, which 2026-07-28 cannot send, so the call was abandoned",
		first.q.Key.Input, first.q.Kind, first.out.Kind)
	for _, it := range items {
		out := it.out
		if it != first {
			out.Reason = question.JoinReason(out.Reason, fmt.Sprintf("not sent: %s", why))
		} else {
			out.Reason = question.JoinReason(out.Reason, "nothing sent: the call was abandoned")
		}
		rs.h.record(it.q, out, nil)
	}
	rs.h.notice("%s: %s", describeCall(origin), why)
	return fmt.Errorf("%w: %s", ErrAbandonedCall, why)
}

// ErrAbandonedCall is wrapped by the error of a 2026-07-28 call that
// elicit abandoned because a question of its round had no answer it could
// send (a refused sampling request).
var ErrAbandonedCall = errors.New("call abandoned")

// describeCall names a call's origin for notices.
func describeCall(o question.Origin) string {
	if o.Name != "" {
		return fmt.Sprintf("call %s (%s)", o.CallID.Raw(), o.Name)
	}
	return "call " + o.CallID.Raw()
}

// roundRecord journals a round's questions once their answers went out
// (or could not): PromptResolved reaches the UI when the retry was
// written, like a 2025 answer when its response was.
type roundRecord struct {
	rs    *rounds
	once  sync.Once
	items []*roundItem
}

// delivered records every question with what went out for it.
func (r *roundRecord) delivered() {
	r.once.Do(func() {
		for _, it := range r.items {
			r.rs.h.record(it.q, it.out, &it.reply)
		}
		r.rs.drop(r) // after: settle must wait for these (once.Do)
	})
}

// undelivered records every question whose answer did not reach the
// server as Undelivered, saying why (one that had nothing to send keeps
// its outcome).
func (r *roundRecord) undelivered(why string) {
	r.once.Do(func() {
		for _, it := range r.items {
			out := it.out
			if !it.reply.None() {
				out = question.NotDelivered(out, it.reply.Sent, why)
			}
			r.rs.h.record(it.q, out, nil)
		}
		// Only now: a session ending meanwhile finds the round still
		// registered (settle), so it waits in once.Do for these
		// records instead of closing the events before them.
		r.rs.drop(r)
	})
}

func (rs *rounds) drop(r *roundRecord) {
	rs.mu.Lock()
	delete(rs.open, r)
	rs.mu.Unlock()
}

// settle records, as the session ends, the rounds whose retry never
// went out (its POST failed because the server went away): their
// PromptResolved must precede the session's final state, after which the
// dispatcher takes no more events. The caller's own record of the round
// is then a no-op.
func (rs *rounds) settle(why error) {
	rs.mu.Lock()
	open := slices.Collect(maps.Keys(rs.open))
	clear(rs.open)
	rs.mu.Unlock()
	for _, r := range open {
		r.undelivered(why.Error())
	}
}
