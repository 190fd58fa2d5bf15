package question

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/elicit-dev/elicit/forms/schema"
)

// Claim closes a question's delivery so that nothing can withdraw it any
// more. It returns the cause that ended ctx first (nil if none) and the
// peer's reason for a withdrawal.
type Claim func(ctx context.Context) (reason string, cause error)

// Decision is how one question ended; Reply says what answers it.
type Decision struct {
	Outcome Outcome
	// Data is the -32602 error's data when Outcome is Invalid (a refused
	// schema, content failing it); nil otherwise.
	Data any
	// Shutdown is set when the question ended because the client shut
	// down (Outcome Abandoned); ACP answers those -32800.
	Shutdown bool
}

// Asker puts questions to a Prompter and decides each one's outcome. It
// belongs to one peer's engine and is safe for concurrent use.
type Asker struct {
	Prompter Prompter
	// WG counts the Prompter goroutines, so that the owner's shutdown
	// can wait for them; nil counts nothing.
	WG *sync.WaitGroup
	// OnPanic, if set, hears of a Prompter that panicked (the question
	// ends Cancel with the panic as its reason).
	OnPanic func(q *Question, r any)
}

// Settle runs q through the Prompter and decides its one outcome. ctx
// carries every reason the question may end early (withdrawn,
// disconnected, abandoned, timed out); if it ends before the Prompter
// answers, or before claim, its cause wins and the answer is discarded.
// A question whose ctx has already ended is never shown.
//
// The Prompter runs in a goroutine of its own so that an early end is
// decided at once even if the Prompter is slow to notice; an Immediate
// one answers on the caller's goroutine, since a hand-off would only add
// a wait for a P under a burst.
func (a *Asker) Settle(ctx context.Context, q *Question, claim Claim) Decision {
	if ctx.Err() != nil {
		reason, cause := claim(ctx)
		return CauseDecision(cause, reason)
	}
	var out Outcome
	if isImmediate(a.Prompter, q) {
		out = a.ask(ctx, q)
	} else {
		answer := make(chan Outcome, 1)
		if a.WG != nil {
			a.WG.Add(1) // legal at any time: the caller's own count keeps it above zero
		}
		go func() {
			if a.WG != nil {
				defer a.WG.Done()
			}
			answer <- a.ask(ctx, q)
		}()
		select {
		case out = <-answer:
		case <-ctx.Done():
		}
	}
	if reason, cause := claim(ctx); cause != nil {
		return CauseDecision(cause, reason)
	}
	return Judge(q, out)
}

// ask calls the Prompter, turning a panic into a Cancel so that a broken
// Prompter cannot take the engine down.
func (a *Asker) ask(ctx context.Context, q *Question) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			if a.OnPanic != nil {
				a.OnPanic(q, r)
			}
			out = Outcome{Kind: Cancel, Reason: fmt.Sprintf("prompter failed: %v", r)}
		}
	}()
	return a.Prompter.Prompt(ctx, q)
}

// CauseDecision maps the cause that ended a question early to its outcome.
func CauseDecision(cause error, reason string) Decision {
	switch {
	case errors.Is(cause, ErrWithdrawn):
		if reason == "" {
			reason = "withdrawn by the server"
		}
		return Decision{Outcome: Outcome{Kind: Withdrawn, Reason: reason}}
	case errors.Is(cause, ErrDisconnected):
		return Decision{Outcome: Outcome{Kind: Disconnected, Reason: cause.Error()}}
	case errors.Is(cause, ErrShutdown):
		return Decision{Outcome: Outcome{Kind: Abandoned, Reason: cause.Error()}, Shutdown: true}
	case errors.Is(cause, ErrTimeout):
		return Decision{Outcome: Outcome{Kind: Timeout, Reason: "prompt timeout ran out"}}
	case cause == nil:
		return Decision{Outcome: Outcome{Kind: Abandoned, Reason: "ended"}}
	default:
		// ErrAbandoned, or anything unexpected.
		return Decision{Outcome: Outcome{Kind: Abandoned, Reason: cause.Error()}}
	}
}

// Refused is the decision for params that could not be accepted.
func Refused(e *ParamsError) Decision {
	return Decision{Outcome: Outcome{Kind: Invalid, Reason: e.Msg}, Data: e.Data}
}

// Judge turns the Prompter's answer into the decision: an accept must
// hold what its kind asks for (content passing the schema, a valid reply,
// an offered option), and a Prompter may only say accept, decline or
// cancel.
func Judge(q *Question, out Outcome) Decision {
	switch out.Kind {
	case Accept:
		return q.Kind.spec().judge(q, out)
	case Decline, Cancel:
		return Decision{Outcome: Outcome{Kind: out.Kind, Reason: out.Reason}}
	default:
		reason := fmt.Sprintf("the prompter answered %q, which is not an answer; sent cancel", out.Kind)
		return Decision{Outcome: Outcome{Kind: Cancel, Reason: reason}}
	}
}

// judgeContent judges an elicitation's accept: in URL mode it is consent
// only; in form mode the content must pass the schema.
func judgeContent(q *Question, out Outcome) Decision {
	if q.Mode == ModeURL {
		// Accept in URL mode is consent only: no content goes out.
		return Decision{Outcome: Outcome{Kind: Accept, Reason: out.Reason}}
	}
	content := out.Content
	if content == nil {
		content = map[string]any{}
	}
	if q.Schema != nil {
		if err := q.Schema.Validate(content); err != nil {
			msg, data := contentError(err)
			return Decision{Outcome: Outcome{Kind: Invalid, Content: content, Reason: msg}, Data: data}
		}
	}
	return Decision{Outcome: Outcome{Kind: Accept, Content: content, Reason: out.Reason}}
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

// JoinReason appends b to reason a.
func JoinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
