package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// ask runs one question from its params to its end. ctx carries every
// reason it may end early; Options.PromptTimeout is added here.
func (s *Session) ask(ctx context.Context, q *question.Question, params json.RawMessage, dl delivery) {
	var d question.Decision
	if perr := question.Parse(q, params, s.modes(), s.Subset(), &s.schemas); perr != nil {
		s.log.Info("refused an elicitation", "prompt", q.Key.String(), "why", perr.Msg)
		d = question.Refused(perr)
		if reason, cause := dl.claim(ctx); cause != nil {
			d = question.CauseDecision(cause, reason)
		}
	} else {
		if t := s.opts.PromptTimeout; t > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, t, question.ErrTimeout)
			defer cancel()
		}
		if ctx.Err() == nil {
			s.emit(PromptOpened{Prompt: q})
		}
		d = s.asker.Settle(ctx, q, dl.claim)
	}
	r, out := d.Reply(q)
	dl.send(q, r, out)
}

// unanswerable journals an input request we cannot serve (malformed, or of
// a kind we did not declare) and says so; nothing answers it.
func (s *Session) unanswerable(q *question.Question, where, why string) {
	q.Mode = question.ModeForm
	s.notice("%s: input %q: %s", where, q.Key.Input, why)
	s.record(q, question.Outcome{Kind: question.Invalid, Reason: why}, "")
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

// inputParams reads an inputRequests entry: the elicitation's params, or
// why it cannot be answered.
func inputParams(raw json.RawMessage) (json.RawMessage, string) {
	var e inputEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, "malformed input request: " + err.Error()
	}
	if e.Method != wire.MethodElicit {
		return nil, fmt.Sprintf("input request of a kind elicit did not declare (%s); it gets no answer", e.Method)
	}
	return e.Params, ""
}

// record journals a question's outcome and reports it; sent is what went
// on the wire ("accept", "decline", "cancel", "error -32602", or "").
func (s *Session) record(q *question.Question, out question.Outcome, sent string) {
	now := time.Now()
	e := question.JournalEntry{
		Key:     q.Key,
		Server:  s.name,
		Origin:  q.Origin,
		Kind:    out.Kind,
		Latency: now.Sub(q.Arrived),
		Reason:  out.Reason,
		At:      now,
		Sent:    sent,
	}
	if sent == "accept" {
		e.Content = out.Content
	}
	s.journal.Record(e)
	s.emit(PromptResolved{Key: q.Key, Entry: e, Sent: sent})
}
