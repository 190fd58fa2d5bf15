package question

import (
	"context"
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/forms/schema"
)

// Question is one question for a person, however it arrived.
type Question struct {
	Key    Key
	Server string
	// Kind is what it asks for; Mode is the elicitation mode (form for a
	// sampling question, which has no mode).
	Kind    Kind
	Mode    Mode
	Message string
	// Schema is the parsed requestedSchema (form mode); nil in URL mode.
	Schema *schema.Schema
	// RawSchema is the requestedSchema exactly as sent.
	RawSchema json.RawMessage
	// URL and ElicitationID are set in URL mode (ElicitationID only before
	// 2026-07-28).
	URL           string
	ElicitationID string
	Origin        Origin
	Arrived       time.Time
	// Meta is the request's _meta, as sent (it may carry related-task).
	Meta json.RawMessage
	// Sampling is the sampling request (KindSampling only).
	Sampling *Sampling
	// Permission is the permission request (KindPermission only).
	Permission *Permission
}

// Prompter shows questions to someone (a person in the TUI, a policy when
// headless) and returns exactly one Outcome per question.
//
// Prompt is called in its own goroutine, one per open question, and may
// block as long as it likes. When ctx ends, the question is over whatever
// the Prompter returns: context.Cause(ctx) is ErrWithdrawn,
// ErrDisconnected, ErrAbandoned or ErrTimeout, and the engine records
// that, not the answer. A Prompter returns only Accept, Decline or Cancel;
// Accept content is checked against the schema by the engine, which
// records Invalid if it fails.
type Prompter interface {
	Prompt(ctx context.Context, q *Question) Outcome
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, q *Question) Outcome

// Prompt implements Prompter.
func (f PrompterFunc) Prompt(ctx context.Context, q *Question) Outcome { return f(ctx, q) }
