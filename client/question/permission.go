package question

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// The ACP permission option kinds (session/request_permission). A kind is
// a hint for styling; the answer always names an optionId.
const (
	OptionAllowOnce    = "allow_once"
	OptionAllowAlways  = "allow_always"
	OptionRejectOnce   = "reject_once"
	OptionRejectAlways = "reject_always"
)

// PermissionOption is one choice of an ACP permission request.
type PermissionOption struct {
	ID   string `json:"optionId"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Permission is what an ACP session/request_permission asks: the tool call
// it is about, as sent (a ToolCallUpdate to merge with the one already
// seen), and the options.
type Permission struct {
	ToolCall json.RawMessage
	Options  []PermissionOption
}

// Option returns the option with the given id.
func (p *Permission) Option(id string) (PermissionOption, bool) {
	for _, o := range p.Options {
		if o.ID == id {
			return o, true
		}
	}
	return PermissionOption{}, false
}

// OfKind returns the first option of kind k.
func (p *Permission) OfKind(k string) (PermissionOption, bool) {
	for _, o := range p.Options {
		if o.Kind == k {
			return o, true
		}
	}
	return PermissionOption{}, false
}

// ParsePermission fills q (KindPermission) from session/request_permission
// params, read by exact member names, or says why they are unacceptable.
// q.Origin gets the session and tool call; q.Message the tool call's
// title.
func ParsePermission(q *Question, params json.RawMessage) *ParamsError {
	q.Kind, q.Mode = KindPermission, ModeForm
	if t := bytes.TrimSpace(params); len(t) == 0 || t[0] != '{' {
		return &ParamsError{Msg: "invalid params: session/request_permission needs an object"}
	}
	m, err := wire.ExactMembers(params)
	if err != nil {
		return &ParamsError{Msg: "invalid params: " + err.Error()}
	}
	sid, ok, err := wire.ExactString(m, "sessionId")
	if err != nil || !ok || sid == "" {
		return &ParamsError{Msg: "invalid params: sessionId is required"}
	}
	tc, ok := m["toolCall"]
	if !ok {
		return &ParamsError{Msg: "invalid params: toolCall is required"}
	}
	tm, err := wire.ExactMembers([]byte(tc))
	if err != nil {
		return &ParamsError{Msg: "invalid params: toolCall: " + err.Error()}
	}
	tcid, ok, err := wire.ExactString(tm, "toolCallId")
	if err != nil || !ok || tcid == "" {
		return &ParamsError{Msg: "invalid params: toolCall.toolCallId is required"}
	}
	title, _, _ := wire.ExactString(tm, "title")
	raw, ok := m["options"]
	if !ok {
		return &ParamsError{Msg: "invalid params: options is required"}
	}
	var opts []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &opts); err != nil {
		return &ParamsError{Msg: "invalid params: options must be an array"}
	}
	if len(opts) == 0 {
		return &ParamsError{Msg: "invalid params: options is empty: nothing could answer it"}
	}
	p := &Permission{ToolCall: json.RawMessage(tc)}
	seen := map[string]bool{}
	for i, o := range opts {
		om, err := wire.ExactMembers(o)
		if err != nil {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: options[%d]: %v", i, err)}
		}
		var po PermissionOption
		for _, f := range []struct {
			name string
			dst  *string
		}{{"optionId", &po.ID}, {"name", &po.Name}, {"kind", &po.Kind}} {
			v, ok, err := wire.ExactString(om, f.name)
			if err != nil || !ok || v == "" {
				return &ParamsError{Msg: fmt.Sprintf("invalid params: options[%d].%s is required", i, f.name)}
			}
			*f.dst = v
		}
		if seen[po.ID] {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: options[%d]: optionId %q repeated", i, po.ID)}
		}
		seen[po.ID] = true
		p.Options = append(p.Options, po)
	}
	q.Permission = p
	q.Message = title
	q.Origin.Kind, q.Origin.SessionID, q.Origin.ToolCallID = OriginTurn, sid, tcid
	if q.Origin.Name == "" {
		q.Origin.Name = title
	}
	return nil
}

// permissionKind is the descriptor of ACP's permission questions
// (session/request_permission, and fs/write_text_file's): answered by an
// option, journalled by bucket. No MCP request asks one; the ACP client
// dispatches its own methods.
var permissionKind = kindSpec{
	name:     "permission",
	declared: func(Env) bool { return false },
	parse: func(q *Question, params json.RawMessage, _ Env) *ParamsError {
		return ParsePermission(q, params)
	},
	judge: judgePermission,
	reply: Decision.permissionReply,
	note: func(e *JournalEntry, q *Question, out Outcome, r *Reply) {
		rv := replyOf(r)
		e.Bucket = PermissionBucket(q, out, rv)
		if q.Permission != nil && (rv.Result != nil || q.Key.Delivery.actionAsked()) {
			if o, ok := q.Permission.Option(out.Option); ok {
				e.Option = &o
			}
		}
	},
	byBucket: true,
	unrouted: Outcome{Kind: Cancel, Reason: "no permission policy"},
}
