package question

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// CodeRequestCancelled is ACP's error for a request cancelled by
// $/cancel_request or internally (a timeout, shutdown).
const (
	CodeRequestCancelled = -32800
	MsgRequestCancelled  = "Request cancelled"
)

// The journal buckets of a permission question besides the option kinds
// (OptionAllowOnce…): how it ended when no option was chosen.
const (
	BucketCancelled    = "cancelled"    // the turn was cancelled (Esc, Stop, timeout)
	BucketWithdrawn    = "withdrawn"    // the agent sent $/cancel_request
	BucketDisconnected = "disconnected" // the agent went away
	BucketShutdown     = "shutdown"     // we shut down: -32800
	BucketInvalid      = "invalid"      // malformed request: -32602
)

// agentReply is Decision.Reply's table for ACP, where a reply is always
// owed while the connection lives:
//
//	outcome       PermissionRequest                AgentRequest (elicitation)
//	Accept        selected optionId                accept (+content)
//	Decline       selected reject_once, else       decline
//	              cancelled
//	Cancel        cancelled (the turn stops)       cancel
//	Timeout       cancelled                        cancel
//	Abandoned     cancelled (turn cancelled)       cancel
//	  shutdown    error -32800                     error -32800
//	Invalid       error -32602 + data              error -32602 + data
//	Withdrawn     error -32800                     error -32800
//	Disconnected  nothing                          nothing
func (d Decision) agentReply(q *Question) (Reply, Outcome) {
	out := d.Outcome
	cancelled := func() (Reply, Outcome) {
		e := jsonrpc.NewError(CodeRequestCancelled, MsgRequestCancelled, nil)
		return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
	}
	switch {
	case out.Kind == Disconnected:
		return Reply{}, out
	case out.Kind == Withdrawn, out.Kind == Abandoned && d.Shutdown:
		return cancelled()
	case out.Kind == Invalid:
		e := jsonrpc.NewError(jsonrpc.CodeInvalidParams, out.Reason, d.Data)
		return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}, out
	}
	if q.Kind != KindPermission {
		action := out.Kind.String()
		switch out.Kind {
		case Timeout, Abandoned:
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
	if q.Permission != nil && out.Option != "" && r.Result != nil {
		if o, ok := q.Permission.Option(out.Option); ok {
			return o.Kind
		}
	}
	switch out.Kind {
	case Withdrawn:
		return BucketWithdrawn
	case Disconnected:
		return BucketDisconnected
	case Invalid:
		return BucketInvalid
	case Abandoned:
		if r.Err != nil {
			return BucketShutdown
		}
	}
	return BucketCancelled
}
