package client

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Event is one thing that happened in a session that a UI may show. The set
// is closed: the types below are all there is.
//
// Events reach an Observer in order, one at a time, from a dispatcher
// goroutine per session (never from the read loop, so a slow observer never
// stalls the wire). State events are never dropped; the high-rate ones
// (LogMessage, CallProgress) may be coalesced or dropped under a flood, and
// the drop is counted in a later event's Dropped field.
type Event interface{ isEvent() }

// ServerState is where a server's connection stands.
type ServerState int

// The states.
const (
	StateConnecting ServerState = iota
	StateReady
	StateFailed       // could not connect; Err says why
	StateDisconnected // was ready, then the transport died; Err says why
	StateClosed       // closed by us
)

func (s ServerState) String() string {
	switch s {
	case StateConnecting:
		return "connecting"
	case StateReady:
		return "ready"
	case StateFailed:
		return "failed"
	case StateDisconnected:
		return "disconnected"
	case StateClosed:
		return "closed"
	default:
		return "unknown"
	}
}

// ServerStateChanged reports a server's new state.
type ServerStateChanged struct {
	Server string
	State  ServerState
	// Protocol is the negotiated protocol version (once ready).
	Protocol string
	// Era is a short label for how we speak to the server: "2025-11-25
	// stateful", later "2026-07-28 stateless", "2024-11-05 legacy SSE".
	Era string
	Err error
}

// PromptOpened reports that a prompt was handed to the Prompter.
type PromptOpened struct {
	Prompt *question.Question
}

// PromptResolved reports how a prompt ended, as the engine decided and
// journalled it (the UI never decides this itself).
type PromptResolved struct {
	Key   question.Key
	Entry question.JournalEntry
	// Sent says what went on the wire for it: "accept", "decline", "cancel",
	// "error -32602", or "" when nothing was sent (withdrawn, disconnected).
	Sent string
}

// CallProgress reports notifications/progress for one of our calls.
type CallProgress struct {
	Server   string
	CallID   jsonrpc.ID
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
	Dropped  int
}

// CallFinished reports that one of our requests ended (result, error,
// cancelled by us, or disconnected).
type CallFinished struct {
	Server  string
	CallID  jsonrpc.ID
	Method  string
	Err     error
	Elapsed time.Duration
}

// ListChanged reports notifications/{tools,resources,prompts}/list_changed.
type ListChanged struct {
	Server string
	// What is "tools", "resources" or "prompts".
	What string
}

// LogMessage reports notifications/message from the server.
type LogMessage struct {
	Server  string
	Level   string
	Logger  string
	Data    json.RawMessage
	Time    time.Time
	Dropped int
}

// TaskChanged reports a new snapshot of a task the session follows, on
// every change: status or message, a poll, a prompt of the task opening or
// closing, a cancel request, the end (Task.Ended marks the last one).
type TaskChanged struct {
	Task Task
}

// RequestRefused reports a server request refused because it needs a
// client capability we did not declare in the session's version (a
// sampling/createMessage with sampling off, a roots/list, an
// elicitation/create in 2025-03-26): the traffic view marks the request
// with ID and our error answer.
type RequestRefused struct {
	Server     string
	ID         jsonrpc.ID
	Method     string
	Capability string // "sampling", "roots", "elicitation.form", "elicitation.url"
	Err        *jsonrpc.Error
}

// URLRetry reports the fate of a request the server answered -32042
// (URL elicitation required, 2025-11-25): each URL elicitation became a
// question, and when all were accepted the request went out once more.
type URLRetry struct {
	Server string
	CallID jsonrpc.ID
	Method string
	// Keys are the URL questions, in the error's order.
	Keys []question.Key
	// Completed are the keys whose completion came: the server's
	// notifications/elicitation/complete, or CompleteElicitation.
	Completed []question.Key
	// Retried: the request was sent again (all accepted). Why says how
	// the wait ended, or why there was no retry.
	Retried bool
	Why     string
}

// ResourceUpdated reports notifications/resources/updated: the resource
// at URI (or one under it) changed; read it again to see how.
type ResourceUpdated struct {
	Server string
	URI    string
}

// ResourceSubscriptionEnded reports that a 2026-07-28 resource
// subscription ended without Unsubscribe: the server ended its stream, or
// the stream failed (Err says how). No updates come for URI any more;
// Subscribe again to renew it. A session's end ends its subscriptions
// too, and ServerStateChanged says that, so it is not reported here.
type ResourceSubscriptionEnded struct {
	Server string
	URI    string
	Err    error
}

// Notice is something the person should know that is not an error of a call:
// a late response dropped after we cancelled, a malformed frame skipped, a
// notification for an unknown request, a duplicate request id.
type Notice struct {
	Server string
	Text   string
	Time   time.Time
}

func (ServerStateChanged) isEvent()        {}
func (PromptOpened) isEvent()              {}
func (PromptResolved) isEvent()            {}
func (CallProgress) isEvent()              {}
func (CallFinished) isEvent()              {}
func (ListChanged) isEvent()               {}
func (TaskChanged) isEvent()               {}
func (LogMessage) isEvent()                {}
func (Notice) isEvent()                    {}
func (RequestRefused) isEvent()            {}
func (URLRetry) isEvent()                  {}
func (ResourceUpdated) isEvent()           {}
func (ResourceSubscriptionEnded) isEvent() {}

// Observer receives events. See Event for the delivery rules.
type Observer interface {
	Event(e Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Event)

// Event implements Observer.
func (f ObserverFunc) Event(e Event) { f(e) }
