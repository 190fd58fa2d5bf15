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
// yet known (urlRequired.early).
const urlEarlyLimit = 64

// urlRequired is a session's -32042 elicitations awaiting completion, and
// the completions that came first. It reaches the session only through
// its urlHandle (urlrequired_handle.go).
type urlRequired struct {
	h  urlHandle
	mu sync.Mutex
	// waits are the elicitations awaited, by elicitationId; early the
	// completions that came before their -32042 (bounded).
	waits map[string][]*urlWait
	early map[string]bool
}

func newURLRequired(h urlHandle) *urlRequired {
	return &urlRequired{h: h, waits: map[string][]*urlWait{}, early: map[string]bool{}}
}

// urlWait is one URL elicitation of a -32042 whose completion we await.
type urlWait struct {
	key  question.Key
	once sync.Once
	done chan struct{} // closed on completion
	by   string        // who completed it; under urlRequired.mu
}

func (w *urlWait) complete(u *urlRequired, by string) {
	w.once.Do(func() {
		u.mu.Lock()
		w.by = by
		u.mu.Unlock()
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

// required handles a -32042 answer m to c: it returns the answer to the
// request sent again, or m itself when there is to be no retry.
func (u *urlRequired) required(ctx context.Context, c *call, raw json.RawMessage, m *jsonrpc.Message) (*jsonrpc.Message, error) {
	entries, err := urlElicitations(m.Error.Data)
	if err != nil {
		u.h.notice("%s: -32042 without URL elicitations (%v); not retried", c.describe(), err)
		return m, nil
	}
	leave, err := u.h.join() // Close and teardown wait for the questions
	if err != nil {
		return m, nil
	}
	defer leave()
	origin := u.h.origin(c)
	callID := origin.CallID
	items := make([]*urlItem, 0, len(entries))
	u.mu.Lock()
	for i, raw := range entries {
		id := elicitationID(raw)
		if id == "" {
			id = fmt.Sprintf("#%d", i+1) // the spec wants one; a key needs one all the same
		}
		it := &urlItem{params: raw, wait: &urlWait{done: make(chan struct{})}, q: &question.Question{
			Key:     question.Key{Server: u.h.server, Delivery: question.URLRequired, CallID: callID, Input: id},
			Server:  u.h.server,
			Origin:  origin,
			Arrived: time.Now(),
		}}
		it.wait.key = it.q.Key
		if u.early[id] {
			// Its completion overtook the error on its way to us.
			delete(u.early, id)
			it.wait.by = wire.NotifyElicitationComplete
			it.wait.once.Do(func() { close(it.wait.done) })
		}
		u.waits[id] = append(u.waits[id], it.wait)
		items = append(items, it)
	}
	u.mu.Unlock()
	defer u.forget(items)
	// A person is who the call waits on now: its clock stands still.
	c.clock.hold()
	defer c.clock.release()

	rctx, rcancel := context.WithCancelCause(u.h.base)
	defer rcancel(nil)
	stop := context.AfterFunc(ctx, func() { rcancel(question.ErrAbandoned) })
	defer stop()

	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() { u.h.ask(rctx, it.q, it.params, urlDelivery{it}) })
	}
	wg.Wait()

	ev := URLRetry{Server: u.h.server, CallID: callID, Method: c.method}
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
		ev.Why = u.await(rctx, items)
	}
	if rctx.Err() != nil {
		cause := context.Cause(rctx)
		for _, it := range items {
			out := it.out
			if out.Kind == question.Accept {
				out = question.CauseDecision(cause, "").Outcome
				out.Reason = question.JoinReason(out.Reason, "accepted, but the request was not sent again")
			}
			u.h.record(it.q, out, nil)
		}
		ev.Why = "ended before the retry: " + cause.Error()
		u.h.emit(ev)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if err := u.h.err(); err != nil {
			return nil, err
		}
		return nil, cause
	}
	ev.Completed = completedURLs(items)
	if refused {
		for _, it := range items {
			u.h.record(it.q, it.out, nil)
		}
		u.h.notice("%s: URL elicitation required; %s", c.describe(), ev.Why)
		u.h.emit(ev)
		return m, nil
	}
	ev.Retried = true
	for _, it := range items {
		out := it.out
		out.Reason = question.JoinReason(out.Reason, u.doneReason(it.wait))
		u.h.record(it.q, out, &question.Reply{Sent: "retry"})
	}
	u.h.notice("%s: URL elicitation required; %s; sending it again", c.describe(), ev.Why)
	u.h.emit(ev)
	again, err := u.h.resend(ctx, c, raw)
	if err == nil && again.Error != nil && again.Error.Code == jsonrpc.CodeURLElicitationRequired {
		u.h.notice("%s: the retry was answered -32042 again; it is not retried twice", c.describe())
	}
	return again, err
}

// await waits for every accepted elicitation's completion, within
// Options.URLWait when it is set, and says how the wait ended.
func (u *urlRequired) await(ctx context.Context, items []*urlItem) string {
	var timeout <-chan time.Time
	if d := u.h.wait; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	for _, it := range items {
		select {
		case <-it.wait.done:
		case <-timeout:
			n := len(completedURLs(items))
			return fmt.Sprintf("all %d accepted; %d of them completed within %v, retried anyway", len(items), n, u.h.wait)
		case <-ctx.Done():
			return ""
		}
	}
	return fmt.Sprintf("all %d accepted and completed", len(items))
}

// completedURLs lists the keys whose completion came.
func completedURLs(items []*urlItem) []question.Key {
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

// doneReason says how one elicitation's completion came, for the
// journal.
func (u *urlRequired) doneReason(w *urlWait) string {
	select {
	case <-w.done:
	default:
		return "no completion came; retried anyway"
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return "completed: " + w.by
}

// forget drops the call's elicitations from the table: a completion
// notice for them is unknown from now on.
func (u *urlRequired) forget(items []*urlItem) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, it := range items {
		id := it.q.Key.Input
		ws := u.waits[id]
		for i, w := range ws {
			if w == it.wait {
				ws = append(ws[:i], ws[i+1:]...)
				break
			}
		}
		if len(ws) == 0 {
			delete(u.waits, id)
		} else {
			u.waits[id] = ws
		}
	}
}

// elicitationComplete handles notifications/elicitation/complete (read
// loop): the elicitation it names is done. One we do not wait for, or
// whose wait is over, is ignored, as the spec requires.
func (u *urlRequired) elicitationComplete(params json.RawMessage) {
	var p struct {
		ElicitationID string `json:"elicitationId"`
	}
	if wire.DecodeExact(params, &p) != nil || p.ElicitationID == "" {
		u.h.notice("ignored a malformed notifications/elicitation/complete")
		return
	}
	u.mu.Lock()
	ws := append([]*urlWait(nil), u.waits[p.ElicitationID]...)
	if len(ws) == 0 {
		// Unknown, so ignored; but kept a moment, since the notice may
		// overtake, on the read loop, the -32042 that names it.
		if len(u.early) >= urlEarlyLimit {
			clear(u.early)
		}
		u.early[p.ElicitationID] = true
	}
	u.mu.Unlock()
	if len(ws) == 0 {
		u.h.log.Debug("completion of an elicitation we do not wait for", "elicitationId", p.ElicitationID)
		return
	}
	for _, w := range ws {
		w.complete(u, wire.NotifyElicitationComplete)
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
func (s *Session) CompleteElicitation(key question.Key) error { return s.urls.completeByPerson(key) }

// completeByPerson is CompleteElicitation.
func (u *urlRequired) completeByPerson(key question.Key) error {
	if key.Delivery != question.URLRequired {
		return fmt.Errorf("complete elicitation %s: %w", key, ErrNoSuchElicitation)
	}
	u.mu.Lock()
	var found *urlWait
	for _, w := range u.waits[key.Input] {
		if w.key == key {
			found = w
		}
	}
	u.mu.Unlock()
	if found == nil {
		return fmt.Errorf("complete elicitation %s: %w", key, ErrNoSuchElicitation)
	}
	found.complete(u, "the person said done")
	return nil
}
