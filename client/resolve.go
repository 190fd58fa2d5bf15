package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// This file is the delivery-independent half of a prompt: run it through
// the Prompter to exactly one outcome, and journal it. The deliveries
// (elicitation/create requests today; MRTR inputRequests and task inputs
// next) each decide how the answer travels.

// elicitResult is ElicitResult on the wire.
type elicitResult struct {
	Action string `json:"action"`
	// Content is set for a form-mode accept only; a non-nil empty map is
	// still sent as {}.
	Content any `json:"content,omitempty"`
	Meta    any `json:"_meta,omitempty"`
}

// decision is how one prompt ended and what, if anything, answers it.
type decision struct {
	outcome question.Outcome
	// reply is the ElicitResult to send; nil when nothing is sent or an
	// error is.
	reply *elicitResult
	// rpcErr is the error to send instead (Invalid content).
	rpcErr *jsonrpc.Error
}

// claimFunc closes a prompt's delivery so that nothing can withdraw it any
// more, and returns the cause that ended ctx first (nil if none) and the
// server's reason for a withdrawal.
type claimFunc func(ctx context.Context) (cause error, reason string)

// settle runs p through the Prompter and decides its one outcome. ctx
// carries every reason the prompt may end early (withdrawn, disconnected,
// abandoned, timed out); if it ends before the Prompter answers, or before
// claim, its cause wins and the Prompter's answer is discarded.
//
// The Prompter runs in a goroutine of its own so that an early end is
// decided at once even if the Prompter is slow to notice.
func (s *Session) settle(ctx context.Context, p *question.Question, claim claimFunc) decision {
	s.emit(PromptOpened{Prompt: p})
	if _, ok := s.prompter.(question.Immediate); ok {
		// A policy answers at once: a goroutine of its own would only add
		// a hand-off, which under a burst of prompts is a wait for a P.
		out := s.ask(ctx, p)
		if cause, reason := claim(ctx); cause != nil {
			return causeDecision(cause, reason)
		}
		return judge(p, out)
	}
	answer := make(chan question.Outcome, 1)
	s.wg.Add(1) // legal at any time: our caller's own count keeps wg above zero
	go func() {
		defer s.wg.Done()
		answer <- s.ask(ctx, p)
	}()
	var out question.Outcome
	select {
	case out = <-answer:
	case <-ctx.Done():
	}
	if cause, reason := claim(ctx); cause != nil {
		return causeDecision(cause, reason)
	}
	return judge(p, out)
}

// ask calls the Prompter, turning a panic into a Cancel so that a broken
// Prompter cannot take the session down.
func (s *Session) ask(ctx context.Context, p *question.Question) (out question.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("prompter panicked", "prompt", p.Key.String(), "panic", r)
			out = question.Outcome{Kind: question.Cancel, Reason: fmt.Sprintf("prompter failed: %v", r)}
		}
	}()
	return s.prompter.Prompt(ctx, p)
}

// causeDecision maps the cause that ended a prompt early to its outcome.
func causeDecision(cause error, reason string) decision {
	switch {
	case errors.Is(cause, question.ErrWithdrawn):
		if reason == "" {
			reason = "withdrawn by the server"
		}
		return decision{outcome: question.Outcome{Kind: question.Withdrawn, Reason: reason}}
	case errors.Is(cause, question.ErrDisconnected):
		return decision{outcome: question.Outcome{Kind: question.Disconnected, Reason: cause.Error()}}
	case errors.Is(cause, question.ErrTimeout):
		return decision{outcome: question.Outcome{Kind: question.Timeout, Reason: "prompt timeout ran out"}, reply: &elicitResult{Action: "cancel"}}
	default:
		// ErrAbandoned, or anything unexpected: answer cancel so that the
		// server's wait ends too.
		return decision{outcome: question.Outcome{Kind: question.Abandoned, Reason: cause.Error()}, reply: &elicitResult{Action: "cancel"}}
	}
}

// judge turns the Prompter's answer into the decision: accept content
// must pass the schema, and a Prompter may only say accept, decline or
// cancel.
func judge(p *question.Question, out question.Outcome) decision {
	switch out.Kind {
	case question.Accept:
		if p.Mode == question.ModeURL {
			// Accept in URL mode is consent only: no content goes out.
			return decision{outcome: question.Outcome{Kind: question.Accept, Reason: out.Reason}, reply: &elicitResult{Action: "accept"}}
		}
		content := out.Content
		if content == nil {
			content = map[string]any{}
		}
		if p.Schema != nil {
			if err := p.Schema.Validate(content); err != nil {
				msg, data := contentError(err)
				return decision{
					outcome: question.Outcome{Kind: question.Invalid, Content: content, Reason: msg},
					rpcErr:  jsonrpc.NewError(jsonrpc.CodeInvalidParams, msg, data),
				}
			}
		}
		return decision{outcome: question.Outcome{Kind: question.Accept, Content: content, Reason: out.Reason}, reply: &elicitResult{Action: "accept", Content: content}}
	case question.Decline:
		return decision{outcome: question.Outcome{Kind: question.Decline, Reason: out.Reason}, reply: &elicitResult{Action: "decline"}}
	case question.Cancel:
		return decision{outcome: question.Outcome{Kind: question.Cancel, Reason: out.Reason}, reply: &elicitResult{Action: "cancel"}}
	default:
		reason := fmt.Sprintf("the prompter answered %q, which is not an answer; sent cancel", out.Kind)
		return decision{outcome: question.Outcome{Kind: question.Cancel, Reason: reason}, reply: &elicitResult{Action: "cancel"}}
	}
}

// contentError words a failed validation for the -32602 answer.
func contentError(err error) (string, any) {
	var ve *schema.ValidationError
	if errors.As(err, &ve) {
		return fmt.Sprintf("invalid content: property %q %s", ve.Property, ve.Reason),
			map[string]string{"property": ve.Property, "reason": ve.Reason}
	}
	return "invalid content: " + err.Error(), nil
}

// record journals a prompt's outcome and reports it; sent is what went on
// the wire ("accept", "decline", "cancel", "error -32602", or "").
func (s *Session) record(p *question.Question, out question.Outcome, sent string) {
	now := time.Now()
	e := question.JournalEntry{
		Key:     p.Key,
		Server:  s.name,
		Origin:  p.Origin,
		Kind:    out.Kind,
		Latency: now.Sub(p.Arrived),
		Reason:  out.Reason,
		At:      now,
	}
	s.journal.Record(e)
	s.emit(PromptResolved{Key: p.Key, Entry: e, Sent: sent})
}
