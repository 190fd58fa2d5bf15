package question

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// CodeRequestCancelled is ACP's error for a request cancelled by
// $/cancel_request or internally (a timeout, shutdown).
const (
	CodeRequestCancelled = -32800
	MsgRequestCancelled  = "Request cancelled"
)

// The journal buckets of an ACP question besides the option kinds
// (OptionAllowOnce…) and the elicitation actions (accept, decline,
// cancel): how it ended when the person chose nothing.
const (
	BucketCancelled    = "cancelled"    // the turn was cancelled (Esc, Stop)
	BucketWithdrawn    = "withdrawn"    // the agent sent $/cancel_request: -32800
	BucketDisconnected = "disconnected" // the agent went away
	BucketShutdown     = "shutdown"     // we shut down: -32800
	BucketTimeout      = "timeout"      // our question timeout ran out: -32800
	BucketInvalid      = "invalid"      // malformed request or content: -32602
)

// The ACP elicitation buckets a person's answer lands in.
const (
	BucketAccept  = "accept"
	BucketDecline = "decline"
	BucketCancel  = "cancel" // Esc: the question dismissed, the turn goes on
)

// The ACP columns of Decision.Reply, where a reply is always owed while
// the connection lives. Internal cancellation (a timeout, shutdown)
// answers -32800, as a withdrawal does:
//
//	outcome       PermissionRequest       AgentRequest (elicit)  FileWrite (fs/write_text_file)
//	Accept        selected optionId       accept (+content)      null once written (allow option);
//	                                                             a reject option: error -32603
//	Decline       selected reject_once,   decline                error -32603 (refused)
//	              else cancelled
//	Cancel        cancelled (turn stops)  cancel                 error -32603 (refused)
//	Abandoned     cancelled (turn         cancel                 error -32800
//	              cancelled)
//	  shutdown    error -32800            error -32800           error -32800
//	Timeout       error -32800            error -32800           error -32800
//	Invalid       error -32602 + data     error -32602 + data    error -32602 + data
//	Withdrawn     error -32800            error -32800           error -32800
//	Disconnected  nothing                 nothing                nothing
//
// A FileWrite's null is the engine's to send after the write succeeded
// (Reply.Result is "null"; a failed write is answered -32603 instead).
// The elicitation column is agentElicitReply, the permission ones
// permissionReply; agentEnding is the rows they share.

// agent reports whether d is one of ACP's deliveries, whose replies are
// ACP's columns.
func (d Delivery) agent() bool {
	return d == PermissionRequest || d == AgentRequest || d.actionAsked()
}

// actionAsked reports whether d is an action of the agent's asked of a
// person before the client does it (a write, a terminal): the FileWrite
// column answers both, the engine sending the action's result.
func (d Delivery) actionAsked() bool { return d == FileWrite || d == TerminalCreate }

// agentEnding is the rows every ACP column shares: how a question that
// ended without the person's answer is answered; ok is false when the
// kind's column decides.
func (d Decision) agentEnding() (r Reply, out Outcome, ok bool) {
	out = d.Outcome
	switch {
	case out.Kind == Disconnected:
		return Reply{}, out, true
	case out.Kind == Withdrawn, out.Kind == Timeout, out.Kind == Abandoned && d.Shutdown:
		r, out = requestCancelled(out)
		return r, out, true
	case out.Kind == Invalid:
		e := jsonrpc.NewError(jsonrpc.CodeInvalidParams, out.Reason, d.Data)
		return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out, true
	}
	return Reply{}, out, false
}

// requestCancelled is ACP's -32800 answer.
func requestCancelled(out Outcome) (Reply, Outcome) {
	e := jsonrpc.NewError(CodeRequestCancelled, MsgRequestCancelled, nil)
	return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
}

// agentElicitReply is the AgentRequest column: an elicitation's action.
func (d Decision) agentElicitReply(q *Question) (Reply, Outcome) {
	if r, out, ok := d.agentEnding(); ok {
		return r, out
	}
	out := d.Outcome
	action := out.Kind.String()
	if out.Kind == Abandoned {
		action = "cancel"
	}
	r := elicitResult{Action: action}
	if out.Kind == Accept && q.Mode != ModeURL {
		r.Content = out.Content
	}
	b, err := json.Marshal(r)
	if err != nil {
		out = Outcome{Kind: Invalid, Reason: "answer could not be encoded: " + err.Error()}
		return Reply{Result: json.RawMessage(`{"action":"cancel"}`), Sent: "cancel"}, out
	}
	return Reply{Result: b, Sent: action}, out
}

// permissionReply is a permission's columns: PermissionRequest, and
// FileWrite (fileWriteReply).
func (d Decision) permissionReply(q *Question) (Reply, Outcome) {
	if r, out, ok := d.agentEnding(); ok {
		return r, out
	}
	out := d.Outcome
	if q.Key.Delivery.actionAsked() {
		return fileWriteReply(q, out)
	}
	option := ""
	switch out.Kind {
	case Accept:
		option = out.Option
	case Decline:
		if q.Permission != nil {
			if o, ok := q.Permission.OfKind(OptionRejectOnce); ok {
				option = o.ID
				out.Option = o.ID
			}
		}
	}
	if option == "" {
		return Reply{Result: json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), Sent: "cancelled"}, out
	}
	b, _ := json.Marshal(map[string]any{"outcome": map[string]string{"outcome": "selected", "optionId": option}})
	return Reply{Result: b, Sent: "selected " + option}, out
}

// MsgWriteRefused is the error message of a write the person refused;
// MsgTerminalRefused a terminal's.
const (
	MsgWriteRefused    = "the user did not allow this write"
	MsgTerminalRefused = "the user did not allow this command"
)

// fileWriteReply is the FileWrite column, and TerminalCreate's: the
// allow's "null" is replaced by the engine with the terminal's id
// ("created").
func fileWriteReply(q *Question, out Outcome) (Reply, Outcome) {
	if out.Kind == Abandoned {
		return requestCancelled(out)
	}
	if out.Kind == Decline && q.Permission != nil {
		if o, ok := q.Permission.OfKind(OptionRejectOnce); ok {
			out.Option = o.ID
		}
	}
	if out.Kind == Accept && q.Permission != nil {
		if o, ok := q.Permission.Option(out.Option); ok && (o.Kind == OptionAllowOnce || o.Kind == OptionAllowAlways) {
			sent := "written"
			if q.Key.Delivery == TerminalCreate {
				sent = "created"
			}
			return Reply{Result: json.RawMessage("null"), Sent: sent}, out
		}
	}
	msg := MsgWriteRefused
	if q.Key.Delivery == TerminalCreate {
		msg = MsgTerminalRefused
	}
	e := jsonrpc.NewError(jsonrpc.CodeInternalError, msg, nil)
	return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
}

// judgePermission checks that an accepted permission names one of the
// request's options.
func judgePermission(q *Question, out Outcome) Decision {
	if q.Permission != nil {
		if _, ok := q.Permission.Option(out.Option); ok {
			return Decision{Outcome: Outcome{Kind: Accept, Option: out.Option, Reason: out.Reason}}
		}
	}
	reason := fmt.Sprintf("the prompter chose option %q, which the request does not offer; sent cancelled", out.Option)
	return Decision{Outcome: Outcome{Kind: Cancel, Reason: reason}}
}

// PermissionBucket is the journal bucket of a permission question that
// ended with out after r went out: the kind of the option chosen, or how
// it ended without one.
func PermissionBucket(q *Question, out Outcome, r Reply) string {
	chose := r.Result != nil || q.Key.Delivery.actionAsked() && (out.Kind == Accept || out.Kind == Decline)
	if q.Permission != nil && out.Option != "" && chose {
		if o, ok := q.Permission.Option(out.Option); ok {
			return o.Kind
		}
	}
	if b, ok := endingBucket(out.Kind); ok {
		return b
	}
	// A write ended by the turn is answered -32800 too, so the reason
	// tells it from a shutdown.
	if out.Kind == Abandoned && r.Err != nil && (!q.Key.Delivery.actionAsked() || strings.Contains(out.Reason, ErrShutdown.Error())) {
		return BucketShutdown
	}
	return BucketCancelled
}

// endingBucket is the bucket of a question that ended without the person
// (withdrawn, disconnected, invalid, timeout), for permissions and
// elicitations alike.
func endingBucket(k OutcomeKind) (string, bool) {
	switch k {
	case Withdrawn:
		return BucketWithdrawn, true
	case Disconnected:
		return BucketDisconnected, true
	case Invalid:
		return BucketInvalid, true
	case Timeout:
		return BucketTimeout, true
	}
	return "", false
}

// ElicitationBucket is the journal bucket of an ACP elicitation that
// ended with out after r went out: the person's action, or how it ended
// without one.
func ElicitationBucket(out Outcome, r Reply) string {
	if b, ok := endingBucket(out.Kind); ok {
		return b
	}
	switch out.Kind {
	case Accept:
		return BucketAccept
	case Decline:
		return BucketDecline
	case Cancel:
		return BucketCancel
	case Abandoned:
		if r.Err != nil {
			return BucketShutdown
		}
	}
	return BucketCancelled
}
