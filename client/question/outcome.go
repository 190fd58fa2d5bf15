package question

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// OutcomeKind names how a prompt ended. The buckets are never folded into
// each other: a cancel is not a decline, a withdrawal is not a cancel.
type OutcomeKind int

// The outcomes.
const (
	// Accept: the person submitted valid content (action "accept").
	Accept OutcomeKind = iota
	// Decline: the person explicitly said no (action "decline").
	Decline
	// Cancel: the person dismissed the prompt without deciding (action "cancel").
	Cancel
	// Withdrawn: the server cancelled its request; nothing was sent.
	Withdrawn
	// Disconnected: the transport died while the prompt was open.
	Disconnected
	// Invalid: the schema or the content failed validation; answered -32602.
	Invalid
	// Abandoned: the call the prompt belongs to was cancelled by the person.
	Abandoned
	// Timeout: --prompt-timeout ran out (never without that flag).
	Timeout
	// Undelivered: an answer was decided but did not reach the server (its
	// write failed, or the server refused it, as an HTTP 400 to the
	// POSTed response); nothing counts as sent. Reason says what the
	// answer was and why (NotDelivered).
	Undelivered
)

// OutcomeKinds lists every kind in display order.
var OutcomeKinds = [...]OutcomeKind{Accept, Decline, Cancel, Withdrawn, Disconnected, Invalid, Abandoned, Timeout, Undelivered}

func (k OutcomeKind) String() string {
	switch k {
	case Accept:
		return "accept"
	case Decline:
		return "decline"
	case Cancel:
		return "cancel"
	case Withdrawn:
		return "withdrawn"
	case Disconnected:
		return "disconnected"
	case Invalid:
		return "invalid"
	case Abandoned:
		return "abandoned"
	case Timeout:
		return "timeout"
	case Undelivered:
		return "undelivered"
	default:
		return "unknown"
	}
}

// Outcome is how one prompt ended.
type Outcome struct {
	Kind OutcomeKind
	// Content is the answer (Accept in form mode only).
	Content map[string]any
	// Sample is the assistant's message a person wrote (Accept of a
	// sampling question only).
	Sample *SampleReply
	// Option is the optionId chosen (Accept of a permission question
	// only).
	Option string
	// Reason is free text: the server's reason for a withdrawal, the
	// validation error, the transport error.
	Reason string
}

// NotDelivered is the outcome of an answer that did not reach the server:
// out was decided, sent names what would have gone out (Reply.Sent), why
// is what stopped it.
func NotDelivered(out Outcome, sent, why string) Outcome {
	if sent == "" {
		sent = "answer"
	}
	return Outcome{Kind: Undelivered, Reason: JoinReason(out.Reason, sent+" not delivered: "+why)}
}

// Context causes for a prompt's context, read with context.Cause.
var (
	ErrWithdrawn    = errors.New("withdrawn by the server")
	ErrDisconnected = errors.New("transport disconnected")
	ErrAbandoned    = errors.New("owning call cancelled")
	ErrTimeout      = errors.New("prompt timeout")
	// ErrUndelivered: an answer did not reach the server (Undelivered);
	// what waited on the server's next move ends with it.
	ErrUndelivered = errors.New("answer not delivered")
	// ErrShutdown: the client is shutting down (ACP: answered -32800).
	ErrShutdown = errors.New("client shutting down")
)

// JournalEntry records one ended prompt.
type JournalEntry struct {
	Key     Key
	Server  string
	Origin  Origin
	Kind    OutcomeKind
	Latency time.Duration
	Reason  string
	At      time.Time
	// Sent is what went on the wire for it ("accept", "decline",
	// "cancel", "error -32602", "" for nothing), and Content the content
	// an accept carried (form mode; nil otherwise).
	Sent    string
	Content map[string]any
	// Asked is what the question asked for; sampling outcomes are counted
	// apart from elicitation's (Journal.SamplingCounts).
	Asked Kind
	// Sampling is a sampling question's request and what answered it.
	Sampling *SamplingRecord
	// Option is the permission option chosen (KindPermission, when one
	// was sent); Bucket an ACP question's journal bucket (PermissionBucket,
	// ElicitationBucket; "" for MCP).
	Option *PermissionOption
	Bucket string
}

// SamplingRecord keeps what a sampling question asked and what went out.
type SamplingRecord struct {
	// Request is sampling/createMessage's params as sent.
	Request json.RawMessage
	// Result is the CreateMessageResult sent (nil when none was), and
	// Error the JSON-RPC error sent instead.
	Result json.RawMessage
	Error  *jsonrpc.Error
}
