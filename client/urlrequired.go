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
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// URL elicitation required (-32042, 2025-11-25): a server may refuse a
// request until the person has been somewhere in a browser. Every URL
// elicitation in the error's data becomes a question (Delivery
// URLRequired) through the one ask path; when all are accepted, the
// engine waits for each one's completion (the server's
// notifications/elicitation/complete, or CompleteElicitation from the
// person, since servers such as server-everything never send it), within
// Options.URLWait when that is set, and then sends the request again,
// once. A second -32042 is the call's answer. 2026-07-28 has no -32042: a
// URL elicitation comes as an input request and is answered in the round's
// retry (mrtr_round.go).

// urlEarlyLimit bounds the completion notices kept for elicitations not
// yet known (Session.urlEarly).
const urlEarlyLimit = 64

// urlWait is one URL elicitation of a -32042 whose completion we await.
type urlWait struct {
	key  question.Key
	once sync.Once
	done chan struct{} // closed on completion
	by   string        // who completed it; under Session.mu
}

func (w *urlWait) complete(s *Session, by string) {
	w.once.Do(func() {
		s.mu.Lock()
		w.by = by
		s.mu.Unlock()
		close(w.done)
	})
}

// urlItem is one URL elicitation of the error and how its question ended.
type urlItem struct {
	q      *question.Question
	params json.RawMessage
	wait   *urlWait
	out    question.Outcome
}

// urlDelivery keeps a question's outcome: nothing answers it on the wire.
type urlDelivery struct{ it *urlItem }

func (urlDelivery) claim(ctx context.Context) (string, error) { return claimLocal(ctx) }

func (d urlDelivery) send(_ *question.Question, _ question.Reply, out question.Outcome) {
	d.it.out = out
}

// urlElicitations reads the error's data.elicitations (exact names).
func urlElicitations(data json.RawMessage) ([]json.RawMessage, error) {
	var d struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if err := wire.DecodeExact(data, &d); err != nil {
		return nil, err
	}
	if len(d.Elicitations) == 0 {
		return nil, errors.New("no elicitations in its data")
	}
	return d.Elicitations, nil
}

// elicitationID is an entry's elicitationId ("" if it has none).
func elicitationID(raw json.RawMessage) string {
	m, err := wire.ExactMembers(raw)
	if err != nil {
		return ""
	}
	id, _, _ := wire.ExactString(m, "elicitationId")
	return id
}

// urlRequired handles a -32042 answer m to c: it returns the answer to
// the request sent again, or m itself when there is to be no retry.
func (s *Session) urlRequired(ctx context.Context, c *call, raw json.RawMessage, m *jsonrpc.Message) (*jsonrpc.Message, error) {
	entries, err := urlElicitations(m.Error.Data)
	if err != nil {
		s.notice("%s: -32042 without URL elicitations (%v); not retried", c.describe(), err)
		return m, nil
	}
	s.mu.Lock()
	if s.life.join() != nil { // Close and teardown wait for the questions
		s.mu.Unlock()
		return m, nil
	}
	callID, origin := c.callID(), c.origin()
	items := make([]*urlItem, 0, len(entries))
	for i, raw := range entries {
		id := elicitationID(raw)
		if id == "" {
			id = fmt.Sprintf("#%d", i+1) // the spec wants one; a key needs one all the same
		}
		it := &urlItem{params: raw, wait: &urlWait{done: make(chan struct{})}, q: &question.Question{
			Key:     question.Key{Server: s.name, Delivery: question.URLRequired, CallID: callID, Input: id},
			Server:  s.name,
			Origin:  origin,
			Arrived: time.Now(),
		}}
		it.wait.key = it.q.Key
		if s.urlEarly[id] {
			// Its completion overtook the error on its way to us.
			delete(s.urlEarly, id)
			it.wait.by = wire.NotifyElicitationComplete
			it.wait.once.Do(func() { close(it.wait.done) })
		}
		s.urlWaits[id] = append(s.urlWaits[id], it.wait)
		items = append(items, it)
	}
	s.mu.Unlock()
	defer s.life.leave()
	defer s.forgetURLWaits(items)
	// A person is who the call waits on now: its clock stands still.
	c.clock.hold()
	defer c.clock.release()

	rctx, rcancel := context.WithCancelCause(s.life.base)
	defer rcancel(nil)
	stop := context.AfterFunc(ctx, func() { rcancel(question.ErrAbandoned) })
	defer stop()

	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() { s.ask(rctx, it.q, it.params, urlDelivery{it}) })
	}
	wg.Wait()

	ev := URLRetry{Server: s.name, CallID: callID, Method: c.method}
	for _, it := range items {
		ev.Keys = append(ev.Keys, it.q.Key)
	}
	refused := false
	if rctx.Err() == nil {
		for _, it := range items {
			if it.out.Kind != question.Accept {
				ev.Why, refused = fmt.Sprintf("%s ended %s: not retried", it.q.Key.Input, it.out.Kind), true
				break
			}
		}
	}
	if rctx.Err() == nil && !refused {
		ev.Why = s.awaitURLs(rctx, items)
	}
	if rctx.Err() != nil {
		cause := context.Cause(rctx)
		for _, it := range items {
			out := it.out
			if out.Kind == question.Accept {
				out = question.CauseDecision(cause, "").Outcome
				out.Reason = question.JoinReason(out.Reason, "accepted, but the request was not sent again")
			}
			s.record(it.q, out, nil)
		}
		ev.Why = "ended before the retry: " + cause.Error()
		s.emit(ev)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if err := s.Err(); err != nil {
			return nil, err
		}
		return nil, cause
	}
	ev.Completed = s.completedURLs(items)
	if refused {
		for _, it := range items {
			s.record(it.q, it.out, nil)
		}
		s.notice("%s: URL elicitation required; %s", c.describe(), ev.Why)
		s.emit(ev)
		return m, nil
	}
	ev.Retried = true
	for _, it := range items {
		out := it.out
		out.Reason = question.JoinReason(out.Reason, s.urlDoneReason(it.wait))
		s.record(it.q, out, &question.Reply{Sent: "retry"})
	}
	s.notice("%s: URL elicitation required; %s; sending it again", c.describe(), ev.Why)
	s.emit(ev)
	again, err := s.doStateful(ctx, c, raw)
	if err == nil && again.Error != nil && again.Error.Code == jsonrpc.CodeURLElicitationRequired {
		s.notice("%s: the retry was answered -32042 again; it is not retried twice", c.describe())
	}
	return again, err
}

// awaitURLs waits for every accepted elicitation's completion, within
// Options.URLWait when it is set, and says how the wait ended.
func (s *Session) awaitURLs(ctx context.Context, items []*urlItem) string {
	var timeout <-chan time.Time
	if d := s.opts.URLWait; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	for _, it := range items {
		select {
		case <-it.wait.done:
		case <-timeout:
			n := len(s.completedURLs(items))
			return fmt.Sprintf("all %d accepted; %d of them completed within %v, retried anyway", len(items), n, s.opts.URLWait)
		case <-ctx.Done():
			return ""
		}
	}
	return fmt.Sprintf("all %d accepted and completed", len(items))
}

// completedURLs lists the keys whose completion came.
func (s *Session) completedURLs(items []*urlItem) []question.Key {
	var out []question.Key
	for _, it := range items {
		select {
		case <-it.wait.done:
			out = append(out, it.q.Key)
		default:
		}
	}
	return out
}

// urlDoneReason says how one elicitation's completion came, for the
// journal.
func (s *Session) urlDoneReason(w *urlWait) string {
	select {
	case <-w.done:
	default:
		return "no completion came; retried anyway"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return "completed: " + w.by
}

// forgetURLWaits drops the call's elicitations from the table: a
// completion notice for them is unknown from now on.
func (s *Session) forgetURLWaits(items []*urlItem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		id := it.q.Key.Input
		ws := s.urlWaits[id]
		for i, w := range ws {
			if w == it.wait {
				ws = append(ws[:i], ws[i+1:]...)
				break
			}
		}
		if len(ws) == 0 {
			delete(s.urlWaits, id)
		} else {
			s.urlWaits[id] = ws
		}
	}
}

// elicitationComplete handles notifications/elicitation/complete (read
// loop): the elicitation it names is done. One we do not wait for, or
// whose wait is over, is ignored, as the spec requires.
func (s *Session) elicitationComplete(params json.RawMessage) {
	var p struct {
		ElicitationID string `json:"elicitationId"`
	}
	if wire.DecodeExact(params, &p) != nil || p.ElicitationID == "" {
		s.notice("ignored a malformed notifications/elicitation/complete")
		return
	}
	s.mu.Lock()
	ws := append([]*urlWait(nil), s.urlWaits[p.ElicitationID]...)
	if len(ws) == 0 {
		// Unknown, so ignored; but kept a moment, since the notice may
		// overtake, on the read loop, the -32042 that names it.
		if len(s.urlEarly) >= urlEarlyLimit {
			clear(s.urlEarly)
		}
		s.urlEarly[p.ElicitationID] = true
	}
	s.mu.Unlock()
	if len(ws) == 0 {
		s.log.Debug("completion of an elicitation we do not wait for", "elicitationId", p.ElicitationID)
		return
	}
	for _, w := range ws {
		w.complete(s, wire.NotifyElicitationComplete)
	}
}

// ErrNoSuchElicitation is returned by CompleteElicitation for a key whose
// completion nothing awaits.
var ErrNoSuchElicitation = errors.New("no URL elicitation awaits completion under that key")

// CompleteElicitation says that the person finished the URL elicitation
// key (Delivery URLRequired) in their browser: the "done, retry" of a
// -32042 whose server sends no completion notice. Once every elicitation
// of the error has completed, the request is sent again. Call it after
// the question was accepted; before, it is remembered, and an elicitation
// the person turns down is not retried anyway.
func (s *Session) CompleteElicitation(key question.Key) error {
	if key.Delivery != question.URLRequired {
		return fmt.Errorf("complete elicitation %s: %w", key, ErrNoSuchElicitation)
	}
	s.mu.Lock()
	var found *urlWait
	for _, w := range s.urlWaits[key.Input] {
		if w.key == key {
			found = w
		}
	}
	s.mu.Unlock()
	if found == nil {
		return fmt.Errorf("complete elicitation %s: %w", key, ErrNoSuchElicitation)
	}
	found.complete(s, "the person said done")
	return nil
}
