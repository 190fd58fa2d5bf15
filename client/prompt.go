package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Delivery tells how a question reached us; it decides what a PromptKey holds.
type Delivery int

// The deliveries.
const (
	// ServerRequest: an elicitation/create request from the server
	// (2025-06-18, 2025-11-25); keyed by the server's request id.
	ServerRequest question.Delivery = iota
	// InputRequest: an entry of inputRequests in an input_required result
	// (2026-07-28 MRTR); keyed by our originating call and the entry's key.
	InputRequest
	// TaskInput: an entry of a task's inputRequests (tasks extension);
	// keyed by task id and key.
	TaskInput
)

func (d question.Delivery) String() string {
	switch d {
	case question.ServerRequest:
		return "request"
	case question.InputRequest:
		return "input"
	case question.TaskInput:
		return "task-input"
	default:
		return "unknown"
	}
}

// PromptKey identifies one prompt uniquely among everything elicit has open.
// It is comparable and may be used as a map key.
type PromptKey struct {
	Server   string
	Delivery question.Delivery
	// RequestID is the server's JSON-RPC id (ServerRequest only).
	RequestID jsonrpc.ID
	// CallID is the id of our original request that got input_required
	// (InputRequest only); it stays the same across retry rounds.
	CallID jsonrpc.ID
	// TaskID is the task's id (TaskInput only).
	TaskID string
	// Input is the inputRequests key (InputRequest, TaskInput).
	Input string
}

// String renders the key for panes, logs and the journal: "demo#7",
// "demo call 3/login", "demo task 7f3a/placement".
func (k question.Key) String() string {
	switch k.Delivery {
	case question.InputRequest:
		return fmt.Sprintf("%s call %s/%s", k.Server, k.CallID.Raw(), k.Input)
	case question.TaskInput:
		return fmt.Sprintf("%s task %s/%s", k.Server, k.TaskID, k.Input)
	default:
		return fmt.Sprintf("%s#%s", k.Server, k.RequestID.Raw())
	}
}

// Mode is the elicitation mode.
type Mode string

// The modes.
const (
	ModeForm question.Mode = "form"
	ModeURL  question.Mode = "url"
)

// OriginKind says what a prompt belongs to.
type OriginKind int

// The origins.
const (
	OriginUnknown question.OriginKind = iota // a request not tied to anything we know
	OriginToolCall
	OriginTask
	OriginPrompt   // prompts/get (MRTR)
	OriginResource // resources/read (MRTR)
)

// Origin is what the prompt belongs to, for the pane header.
type Origin struct {
	Kind question.OriginKind
	// Name is the tool or prompt name, or the resource uri.
	Name string
	// CallID is our request id of the owning call, when known.
	CallID jsonrpc.ID
	// TaskID is set for prompts that belong to a task.
	TaskID string
	// Inferred is set when the engine guessed the owning call (the only
	// tools/call outstanding when the request arrived) rather than knew it.
	Inferred bool
}

// Prompt is one question for a person, however it arrived.
type Prompt struct {
	Key     question.Key
	Server  string
	Mode    question.Mode
	Message string
	// Schema is the parsed requestedSchema (form mode); nil in URL mode.
	Schema *schema.Schema
	// RawSchema is the requestedSchema exactly as sent.
	RawSchema json.RawMessage
	// URL and ElicitationID are set in URL mode (ElicitationID only before
	// 2026-07-28).
	URL           string
	ElicitationID string
	Origin        question.Origin
	Arrived       time.Time
	// Meta is the request's _meta, as sent (it may carry related-task).
	Meta json.RawMessage
}

// Prompter shows prompts to someone (a person in the TUI, a policy when
// headless) and returns exactly one Outcome per prompt.
//
// Prompt is called in its own goroutine, one per open prompt, and may block
// as long as it likes. When ctx ends, the prompt is over whatever the
// Prompter returns: context.Cause(ctx) is ErrWithdrawn, ErrDisconnected,
// ErrAbandoned or ErrTimeout, and the engine records that, not the answer.
// A Prompter returns only Accept, Decline or Cancel; Accept content is
// checked against the schema by the engine, which records Invalid if it
// fails.
type Prompter interface {
	Prompt(ctx context.Context, p *question.Question) question.Outcome
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, p *question.Question) question.Outcome

// Prompt implements Prompter.
func (f question.PrompterFunc) Prompt(ctx context.Context, p *question.Question) question.Outcome { return f(ctx, p) }
