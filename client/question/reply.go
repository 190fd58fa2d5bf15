package question

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Reply is what answers one ended question on the wire.
type Reply struct {
	// Result is the ElicitResult to send; nil when nothing is sent, or
	// Err is.
	Result json.RawMessage
	// Err is the JSON-RPC error to send instead (server requests only).
	Err *jsonrpc.Error
	// Sent is what the journal records as sent once it went out:
	// "accept", "decline", "cancel", "error -32602"; "" for nothing.
	Sent string
	// Abandon is set when nothing can answer the question in its delivery
	// and the call it belongs to must end instead: a refused sampling
	// request in 2026-07-28, which has no way to say no (sampling.go).
	Abandon bool
	// Sampling is what a sampling question's answer holds, for the
	// journal (nil for elicitation).
	Sampling *SamplingRecord
}

// None reports whether nothing goes out.
func (r Reply) None() bool { return r.Result == nil && r.Err == nil }

// elicitResult is ElicitResult on the wire.
type elicitResult struct {
	Action string `json:"action"`
	// Content is set for a form-mode accept only; a non-nil empty map is
	// still sent as {}.
	Content any `json:"content,omitempty"`
	Meta    any `json:"_meta,omitempty"`
}

// Reply is the one table of what goes on the wire for each outcome and
// each delivery. It returns the outcome to journal, which differs from
// d.Outcome only when the answer could not be encoded (then Invalid).
//
//	outcome       ServerRequest,          InputRequest, TaskInput
//	              ReceiverTask
//	Accept        accept (+content)       accept (+content)
//	Decline       decline                 decline
//	Cancel        cancel                  cancel
//	Timeout       cancel                  cancel
//	Invalid       error -32602 + data     cancel (no per-key error exists)
//	Abandoned     cancel (ends the wait)  nothing (no retry; tasks/cancel)
//	Withdrawn     nothing                 nothing
//	Disconnected  nothing                 nothing
//	Undelivered   nothing                 nothing
//
// Undelivered is never decided before the send: it is what the delivery
// journals instead of the decided outcome when the reply did not reach
// the server (NotDelivered).
// A ReceiverTask's reply is what its task's tasks/result answers: the
// result (the task completed) or the error (it failed); nothing when the
// server cancelled the task (Withdrawn). A server request's answer echoes
// the request's related-task _meta (2025-11-25 tasks); a ReceiverTask's
// result gets its own task's when tasks/result sends it. URL-mode accepts
// carry no content. ACP's deliveries (PermissionRequest, AgentRequest, FileWrite)
// have a table of their own (agentReply). URLRequired sends nothing for
// any outcome: the request the -32042 answered is sent again once every
// one of its elicitations was accepted (Sent "retry",
// client/urlrequired.go); nor does AuthChoice (authenticate follows an
// accept, client/acp). Sampling questions have a table of their own
// (sampleReply), as ACP permissions do (permissionReply): each kind's
// columns are its descriptor's (kinds.go).
func (d Decision) Reply(q *Question) (Reply, Outcome) {
	return q.Kind.spec().reply(d, q)
}

// elicitReply is an elicitation's columns of Decision.Reply (the table
// above).
func (d Decision) elicitReply(q *Question) (Reply, Outcome) {
	if q.Key.Delivery.agent() {
		return d.agentElicitReply(q)
	}
	out := d.Outcome
	if q.Key.Delivery == URLRequired || q.Key.Delivery == AuthChoice {
		return Reply{}, out
	}
	request := q.Key.Delivery == ServerRequest || q.Key.Delivery == ReceiverTask
	var action string
	switch out.Kind {
	case Accept, Decline, Cancel:
		action = out.Kind.String()
	case Timeout:
		action = "cancel"
	case Invalid:
		if request {
			e := jsonrpc.NewError(jsonrpc.CodeInvalidParams, out.Reason, d.Data)
			return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
		}
		action = "cancel"
	case Abandoned:
		if !request {
			return Reply{}, out
		}
		action = "cancel"
	default: // Withdrawn, Disconnected, Undelivered
		return Reply{}, out
	}
	r := elicitResult{Action: action}
	if out.Kind == Accept && q.Mode != ModeURL {
		r.Content = out.Content
	}
	if q.Key.Delivery == ServerRequest {
		if meta := relatedTaskMeta(q.Meta); meta != nil {
			r.Meta = meta
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		// Content came from our own Prompter: a bug, not the peer's
		// doing, but it must not go out half-made.
		out = Outcome{Kind: Invalid, Reason: "answer could not be encoded: " + err.Error()}
		if request {
			e := jsonrpc.NewError(jsonrpc.CodeInternalError, "client could not encode its answer", nil)
			return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
		}
		return Reply{Result: json.RawMessage(`{"action":"cancel"}`), Sent: "cancel"}, out
	}
	return Reply{Result: b, Sent: action}, out
}
