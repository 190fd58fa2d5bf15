package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

var errAbandoned = question.ErrAbandoned

// askAgent runs one question of the agent's (session/request_permission,
// elicitation/create) from its params to its answer, the one way: parse,
// settle, Decision.Reply, send, journal. ctx ends with the cause that
// ends the question early: withdrawn ($/cancel_request), the turn
// stopped, disconnected, shutdown.
func (c *Client) askAgent(ctx context.Context, m *jsonrpc.Message, arrived time.Time, oq *openQuestion) {
	defer func() {
		c.mu.Lock()
		delete(c.open, m.ID)
		c.mu.Unlock()
	}()
	q := &question.Question{Server: c.opts.Name, Arrived: arrived,
		Key: question.Key{Server: c.opts.Name, Delivery: question.AgentRequest, RequestID: m.ID}}
	var perr *question.ParamsError
	var write *pendingWrite
	var run *terminalRun
	switch m.Method {
	case MethodRequestPermission:
		q.Key.Delivery = question.PermissionRequest
		perr = question.ParsePermission(q, m.Params)
		if perr == nil && !c.ours(q.Origin.SessionID) {
			perr = &question.ParamsError{Msg: errForeignSession}
		}
		if perr == nil && oq.noTurn {
			perr = &question.ParamsError{Msg: errNoTurn}
		}
	case MethodWriteTextFile:
		q.Key.Delivery = question.FileWrite
		write, perr = c.parseWrite(q, m.Params)
	case MethodTerminalCreate:
		q.Key.Delivery = question.TerminalCreate
		run, perr = c.parseTerminal(q, m.Params)
	default:
		perr = c.parseElicitation(q, m.Params, oq.call)
	}
	claim := func(ctx context.Context) (string, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		oq.claimed = true
		if ctx.Err() != nil {
			return oq.reason, context.Cause(ctx)
		}
		return "", nil
	}
	var d question.Decision
	if perr != nil {
		c.stderr(fmt.Sprintf("acp: refused %s %s: %s", m.Method, m.ID.Raw(), perr.Msg))
		d = question.Refused(perr)
		if reason, cause := claim(ctx); cause != nil {
			d = question.CauseDecision(cause, reason)
		}
	} else {
		d = c.asker.Settle(ctx, q, claim)
	}
	r, out := d.Reply(q)
	if write != nil && r.Result != nil {
		// Allowed: the write happens now, after the claim, so that
		// nothing can withdraw it half done; a failure is answered
		// instead of the null.
		if err := write.do(); err != nil {
			e := jsonrpc.NewError(jsonrpc.CodeInternalError, "write failed: "+err.Error(), nil)
			r = question.Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}
			out.Reason = question.JoinReason(out.Reason, e.Message)
		}
	}
	if run != nil && r.Result != nil {
		// Allowed: started now, after the claim, as a write is done.
		id, err := c.startTerminal(run)
		if err != nil {
			e := jsonrpc.NewError(jsonrpc.CodeInternalError, "the command could not start: "+err.Error(), nil)
			r = question.Reply{Err: e, Sent: fmt.Sprintf("error %d", e.Code)}
			out.Reason = question.JoinReason(out.Reason, e.Message)
		} else {
			r.Result, _ = json.Marshal(map[string]string{"terminalId": id})
		}
	}
	if write != nil {
		// Heard before the answer goes out, in the order the agent sees
		// its fs requests answered (a read after this write comes after).
		write.access.Sent, write.access.Reason = r.Sent, out.Reason
		if perr != nil {
			write.access.Reason = perr.Msg
		}
		c.fileAccess(write.access)
	}
	if q.Key.Delivery == question.PermissionRequest && out.Kind == question.Cancel && c.ours(q.Origin.SessionID) {
		// Esc on a permission has no "dismissed" answer: it stops the
		// turn. session/cancel goes first, so that the agent reads the
		// "cancelled" that follows as the turn's.
		c.Stop(q.Origin.SessionID)
	}
	if !r.None() {
		if err := c.peer.Respond(m.ID, r.Result, r.Err); err != nil {
			out = question.Outcome{Kind: question.Disconnected, Reason: question.JoinReason(out.Reason, err.Error())}
			r = question.Reply{}
		}
	}
	c.record(q, out, r)
}

// parseElicitation reads ACP's elicitation/create: the scope (sessionId
// with an optional toolCallId, or requestId: one of our requests in
// flight when it arrived: inFlight, decided on the read loop), then the
// same form or URL parsing as MCP's. ACP has no default
// mode: mode is required, and one not declared gets -32602.
func (c *Client) parseElicitation(q *question.Question, params json.RawMessage, inFlight jsonrpc.ID) *question.ParamsError {
	q.Kind, q.Mode = question.KindElicitation, question.ModeForm
	if t := bytes.TrimSpace(params); len(t) == 0 || t[0] != '{' {
		return &question.ParamsError{Msg: "invalid params: elicitation/create needs an object"}
	}
	m, err := wire.ExactMembers(params)
	if err != nil {
		return &question.ParamsError{Msg: "invalid params: " + err.Error()}
	}
	sid, hasSession, err1 := wire.ExactString(m, "sessionId")
	tcid, _, err2 := wire.ExactString(m, "toolCallId")
	rid, hasRequest := m["requestId"]
	if err1 != nil || err2 != nil {
		return &question.ParamsError{Msg: "invalid params: sessionId and toolCallId must be strings"}
	}
	switch {
	case hasSession && hasRequest:
		return &question.ParamsError{Msg: "invalid params: both sessionId and requestId given; the scope is one of them"}
	case hasSession && !c.ours(sid):
		return &question.ParamsError{Msg: errForeignSession}
	case hasSession:
		q.Origin = question.Origin{Kind: question.OriginTurn, SessionID: sid, ToolCallID: tcid}
		if t := c.toolTitle(sid, tcid); t != "" {
			q.Origin.Name = t
		}
	case hasRequest:
		var id jsonrpc.ID
		if err := id.UnmarshalJSON([]byte(rid)); err != nil || !inFlight.IsValid() || id != inFlight {
			return &question.ParamsError{Msg: "invalid params: requestId names no request of ours in flight"}
		}
		q.Origin = question.Origin{Kind: question.OriginUnknown, CallID: id}
	default:
		return &question.ParamsError{Msg: "invalid params: a scope is required: sessionId or requestId"}
	}
	mode, ok, err := wire.ExactString(m, "mode")
	switch {
	case err != nil || !ok:
		return &question.ParamsError{Msg: "invalid params: mode is required (ACP has no default mode)"}
	case mode == "url":
		q.Mode = question.ModeURL
	}
	return question.Parse(q, params, c.modes, schema.Subset2025_11_25, &c.schemas)
}

// toolTitle is the title of a tool call of the session's turn, if seen.
func (c *Client) toolTitle(session, id string) string {
	if id == "" {
		return ""
	}
	c.mu.Lock()
	t := c.turns[session]
	c.mu.Unlock()
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.byID[id]; ok {
		return t.res.ToolCalls[i].Title
	}
	return ""
}

// record journals a question's end.
func (c *Client) record(q *question.Question, out question.Outcome, r question.Reply) {
	e := question.NewEntry(q, c.opts.Name, out, &r, time.Now())
	c.journal.Record(e)
	if c.opts.OnResolved != nil {
		c.opts.OnResolved(e)
	}
}
