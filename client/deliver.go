package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// The one way a question ends, whatever delivered it (an elicitation/create
// request, an MRTR input, a task input): parse its params, settle it
// through the Prompter, decide its reply by the question package's one
// table (Decision.Reply), and hand that to the delivery, which sends and
// journals it.

// delivery is how one question's answer travels.
type delivery interface {
	// claim closes the delivery (see question.Claim).
	claim(ctx context.Context) (reason string, cause error)
	// send sends r, if anything, and journals q with out once it went
	// out (or could not); a delivery may defer both (an MRTR round).
	send(q *question.Question, r question.Reply, out question.Outcome)
}

// asking is the one ask path of a session: it owns the schema cache the
// questions' params are read against and the Asker that puts them to the
// Prompter, and reaches the session only through its askHandle
// (deliver_handle.go).
type asking struct {
	h       askHandle
	schemas question.SchemaCache
	asker   question.Asker
}

// newAsking is the ask path of a session whose Prompter is p (nil:
// question.CancelAll); wg counts the Prompter's goroutines (the
// session's, which Close waits for).
func newAsking(h askHandle, p question.Prompter, wg *sync.WaitGroup) *asking {
	if p == nil {
		p = question.CancelAll
	}
	a := &asking{h: h}
	a.asker = question.Asker{Prompter: p, WG: wg, OnPanic: func(q *question.Question, r any) {
		h.log.Error("prompter panicked", "prompt", q.Key.String(), "panic", r)
	}}
	return a
}

// ask runs one question from its params to its end. ctx carries every
// reason it may end early; Options.PromptTimeout is added here.
func (a *asking) ask(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery) {
	var d question.Decision
	perr := a.parse(q, params)
	a.h.lint.Question(q, params, perr)
	if perr != nil {
		a.h.log.Info("refused a question", "prompt", q.Key.String(), "kind", q.Kind, "why", perr.Msg)
		d = question.Refused(perr)
		if reason, cause := dl.claim(ctx); cause != nil {
			d = question.CauseDecision(cause, reason)
		}
		if r, _ := d.Reply(q); perr.NotDeclared != "" && r.Err != nil && q.Key.Delivery == question.ServerRequest {
			a.h.refusing(q.Key.RequestID, q.Origin.CallID, q.Kind.Method(), perr.NotDeclared)
			defer a.h.refused(q.Key.RequestID, q.Kind.Method(), perr.NotDeclared, r.Err)
		}
	} else {
		if t := a.h.promptTimeout; t > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, t, question.ErrTimeout)
			defer cancel()
		}
		if ctx.Err() == nil {
			a.h.emit(PromptOpened{Prompt: q})
		}
		d = a.asker.Settle(ctx, q, dl.claim)
	}
	r, out := d.Reply(q)
	dl.send(q, r, out)
}

// parse fills q from its params by its kind (its descriptor's parse),
// against what we declared in the negotiated version.
func (a *asking) parse(q *question.Question, params json.RawMessage) *question.ParamsError {
	return question.ParseAs(q, params, a.env())
}

// env is what we declared in the negotiated version, which a question's
// params are read against.
func (a *asking) env() question.Env {
	m, sm, sub := a.h.declared()
	return question.Env{Modes: m, Sampling: sm, Subset: sub, Schemas: &a.schemas}
}

// unanswerable journals an input request we cannot serve (malformed, or of
// a kind we did not declare) and says so; nothing answers it.
func (a *asking) unanswerable(q *question.Question, where, why string) {
	q.Mode = question.ModeForm
	a.h.notice("%s: input %q: %s", where, q.Key.Input, why)
	a.record(q, question.Outcome{Kind: question.Invalid, Reason: why}, nil)
}

// inputEntry is one entry of inputRequests (MRTR and task inputs).
type inputEntry struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// UnmarshalJSON reads the members by their exact names: a "Params" is not
// params.
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

// inputParams reads an inputRequests entry: the question's kind and
// params, or why it cannot be answered (a kind we did not declare:
// roots/list, sampling with sampling off).
func (a *asking) inputParams(raw json.RawMessage) (question.Kind, json.RawMessage, string) {
	var e inputEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return 0, nil, "malformed input request: " + err.Error()
	}
	if k, ok := question.KindFor(e.Method); ok && k.Declared(a.env()) {
		return k, e.Params, ""
	}
	return 0, nil, fmt.Sprintf("input request of a kind elicit did not declare (%s); it gets no answer", e.Method)
}

// record journals a question's outcome and reports it; r is what went on
// the wire for it, nil for nothing.
func (a *asking) record(q *question.Question, out question.Outcome, r *question.Reply) {
	e := question.NewEntry(q, a.h.server, out, r, time.Now())
	a.h.journal.Record(e)
	a.h.emit(PromptResolved{Key: q.Key, Entry: e, Sent: e.Sent})
}
