package question

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// CodeUserRejected and MsgUserRejected are the spec's error for a sampling
// request the person turned down (every version that has a JSON-RPC
// answer: 2024-11-05 to 2025-11-25).
const (
	CodeUserRejected = -1
	MsgUserRejected  = "User rejected sampling request"
)

// sampleReply is Decision.Reply's table for sampling questions:
//
//	outcome       ServerRequest,             InputRequest, TaskInput
//	              ReceiverTask
//	Accept        CreateMessageResult        CreateMessageResult
//	Decline       error -1 (user rejected)   nothing: the call is abandoned
//	Cancel        error -1                   nothing: the call is abandoned
//	Timeout       error -1                   nothing: the call is abandoned
//	Invalid       error -32602 + data        nothing: the call is abandoned
//	Abandoned     error -1 (ends the wait)   nothing
//	Withdrawn     nothing                    nothing
//	Disconnected  nothing                    nothing
//
// Decline (ctrl+x) and Cancel (Esc) send the same error; the journal keeps
// them apart. 2026-07-28 has no refusal for an input request (a missing
// answer only makes the server ask again), so there, as go-sdk and the
// TypeScript SDK do, a refused sampling request ends the call it belongs
// to (Reply.Abandon). A server request's answer echoes its related-task
// _meta (2025-11-25 tasks).
func (d Decision) sampleReply(q *Question) (Reply, Outcome) {
	out := d.Outcome
	request := q.Key.Delivery == ServerRequest || q.Key.Delivery == ReceiverTask
	rec := &SamplingRecord{}
	if q.Sampling != nil {
		rec.Request = q.Sampling.Raw
	}
	refuse := func(e *jsonrpc.Error) (Reply, Outcome) {
		if !request {
			return Reply{Abandon: true, Sampling: rec}, out
		}
		rec.Error = e
		return Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code), Sampling: rec}, out
	}
	switch out.Kind {
	case Accept:
	case Decline, Cancel, Timeout:
		return refuse(jsonrpc.NewError(CodeUserRejected, MsgUserRejected, nil))
	case Invalid:
		return refuse(jsonrpc.NewError(jsonrpc.CodeInvalidParams, out.Reason, d.Data))
	case Abandoned:
		if !request {
			return Reply{Sampling: rec}, out
		}
		return refuse(jsonrpc.NewError(CodeUserRejected, MsgUserRejected, nil))
	default: // Withdrawn, Disconnected, Undelivered
		return Reply{Sampling: rec}, out
	}
	res, err := sampleResult(out.Sample)
	if err != nil {
		out = Outcome{Kind: Invalid, Reason: "answer could not be encoded: " + err.Error()}
		return refuse(jsonrpc.NewError(jsonrpc.CodeInternalError, "client could not encode its answer", nil))
	}
	if q.Key.Delivery == ServerRequest && q.Sampling != nil {
		if meta := relatedTaskMeta(q.Meta); meta != nil {
			res.Meta = meta
		}
	}
	b, err := json.Marshal(res)
	if err != nil {
		out = Outcome{Kind: Invalid, Reason: "answer could not be encoded: " + err.Error()}
		return refuse(jsonrpc.NewError(jsonrpc.CodeInternalError, "client could not encode its answer", nil))
	}
	rec.Result = b
	return Reply{Result: b, Sent: "result", Sampling: rec}, out
}

// sampleResult is the CreateMessageResult for a reply: its text block,
// then its tool_use blocks (each with an id, made when the reply has
// none), and the stop reason (endTurn, or toolUse with tool uses, when
// none was picked).
func sampleResult(r *SampleReply) (wire.CreateMessageResult, error) {
	res := wire.CreateMessageResult{Role: wire.RoleAssistant, Model: r.Model, StopReason: r.StopReason}
	if r.Text != "" {
		res.Content = append(res.Content, wire.SamplingBlock{Type: wire.BlockText, Text: r.Text})
	}
	for i := range r.ToolUses {
		u := &r.ToolUses[i]
		if u.ID == "" {
			u.ID = newToolUseID()
		}
		input := []byte("{}")
		if u.Input != nil {
			var err error
			if input, err = json.Marshal(u.Input); err != nil {
				return res, fmt.Errorf("tool %q input: %w", u.Name, err)
			}
		}
		res.Content = append(res.Content, wire.SamplingBlock{Type: wire.BlockToolUse, ID: u.ID, Name: u.Name, Input: input})
	}
	if res.StopReason == "" {
		res.StopReason = wire.StopEndTurn
		if len(r.ToolUses) > 0 {
			res.StopReason = wire.StopToolUse
		}
	}
	return res, nil
}

// newToolUseID makes an id for a tool use: the server matches its
// tool_result to it, so it must not repeat.
func newToolUseID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "toolu_" + hex.EncodeToString(b[:])
}
