package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// elicitParams is elicitation/create's params as sent (2025-06-18 and
// 2025-11-25 shapes).
type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
	Meta            json.RawMessage `json:"_meta"`
}

// decode reads params by exact member names: a "RequestedSchema" is not
// requestedSchema (see exactMembers).
func (ep *elicitParams) decode(params json.RawMessage) error {
	m, err := wire.ExactMembers(params)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"mode", &ep.Mode}, {"message", &ep.Message}, {"url", &ep.URL}, {"elicitationId", &ep.ElicitationID}} {
		v, _, err := wire.ExactString(m, f.name)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		*f.dst = v
	}
	ep.RequestedSchema, ep.Meta = json.RawMessage(m["requestedSchema"]), json.RawMessage(m["_meta"])
	return nil
}

// serveElicit serves one elicitation/create request: check it, run the
// prompt to its one outcome, answer, journal.
func (s *Session) serveElicit(e *incoming, m *jsonrpc.Message) {
	p := &question.Question{
		Key:     question.Key{Server: s.name, Delivery: question.ServerRequest, RequestID: e.id},
		Server:  s.name,
		Origin:  e.origin,
		Arrived: e.arrived,
	}
	if err := s.parseElicit(p, m.Params); err != nil {
		s.refuse(e, p, err.msg, err.data)
		return
	}
	ctx := e.ctx
	if d := s.opts.PromptTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, question.ErrTimeout)
		defer cancel()
	}
	d := s.settle(ctx, p, func(ctx context.Context) (error, string) { return s.claim(e, ctx) })
	sent := ""
	switch {
	case d.rpcErr != nil:
		if s.reply(e.id, nil, d.rpcErr) == nil {
			sent = fmt.Sprintf("error %d", d.rpcErr.Code)
		}
	case d.reply != nil:
		if meta := relatedTaskMeta(p.Meta); meta != nil {
			d.reply.Meta = meta
		}
		b, err := json.Marshal(d.reply)
		if err != nil {
			// Content came from our own Prompter; it is a bug, not the
			// server's doing, but it must not go out half-made.
			d = decision{outcome: question.Outcome{Kind: question.Invalid, Reason: "answer could not be encoded: " + err.Error()},
				rpcErr: jsonrpc.NewError(jsonrpc.CodeInternalError, "client could not encode its answer", nil)}
			if s.reply(e.id, nil, d.rpcErr) == nil {
				sent = fmt.Sprintf("error %d", d.rpcErr.Code)
			}
			break
		}
		if err := s.reply(e.id, b, nil); err == nil {
			sent = d.reply.Action
		} else {
			d.outcome.Reason = joinReason(d.outcome.Reason, "answer not delivered: "+err.Error())
		}
	}
	s.record(p, d.outcome, sent)
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// paramsError is why an elicitation/create was refused with -32602.
type paramsError struct {
	msg  string
	data any
}

// parseElicit fills p from params, or says why they are unacceptable.
func (s *Session) parseElicit(p *question.Question, params json.RawMessage) *paramsError {
	var ep elicitParams
	if t := bytes.TrimSpace(params); len(t) == 0 || t[0] != '{' {
		return &paramsError{msg: "invalid params: elicitation/create needs an object"}
	}
	if err := ep.decode(params); err != nil {
		return &paramsError{msg: "invalid params: " + err.Error()}
	}
	p.Message, p.Meta = ep.Message, ep.Meta
	form, urlMode := s.modes()
	switch ep.Mode {
	case "", "form":
		p.Mode = question.ModeForm
		if !form {
			return &paramsError{msg: `invalid params: elicitation mode "form" was not declared by the client`}
		}
		sch, err := s.schemas.parse(ep.RequestedSchema, s.Subset())
		if err != nil {
			var se *schema.SchemaError
			if errors.As(err, &se) {
				if se.Property == "" {
					return &paramsError{msg: "invalid requestedSchema: " + se.Rule, data: map[string]string{"rule": se.Rule}}
				}
				return &paramsError{
					msg:  fmt.Sprintf("invalid requestedSchema: property %q: %s", se.Property, se.Rule),
					data: map[string]string{"property": se.Property, "rule": se.Rule},
				}
			}
			return &paramsError{msg: "invalid requestedSchema: " + err.Error()}
		}
		p.Schema, p.RawSchema = sch, ep.RequestedSchema
	case "url":
		p.Mode = question.ModeURL
		if !urlMode {
			return &paramsError{msg: `invalid params: elicitation mode "url" was not declared by the client`}
		}
		u, err := url.Parse(ep.URL)
		if ep.URL == "" || err != nil || u.Scheme == "" || u.Host == "" {
			return &paramsError{msg: "invalid params: url mode needs an absolute url"}
		}
		p.URL, p.ElicitationID = ep.URL, ep.ElicitationID
	default:
		return &paramsError{msg: fmt.Sprintf("invalid params: unknown elicitation mode %q", ep.Mode)}
	}
	return nil
}

// refuse answers a malformed elicitation with -32602 and journals it
// Invalid; the Prompter never sees it. A refusal that lost the race with a
// withdrawal sends nothing and is journalled as that.
func (s *Session) refuse(e *incoming, p *question.Question, msg string, data any) {
	if p.Mode == "" {
		p.Mode = question.ModeForm
	}
	cause, reason := s.claim(e, e.ctx)
	if errors.Is(cause, question.ErrWithdrawn) || errors.Is(cause, question.ErrDisconnected) {
		s.record(p, causeDecision(cause, reason).outcome, "")
		return
	}
	rpcErr := jsonrpc.NewError(jsonrpc.CodeInvalidParams, msg, data)
	sent := ""
	if s.reply(e.id, nil, rpcErr) == nil {
		sent = fmt.Sprintf("error %d", rpcErr.Code)
	}
	s.log.Info("refused an elicitation", "id", e.id, "why", msg)
	s.record(p, question.Outcome{Kind: question.Invalid, Reason: msg}, sent)
}

// relatedTaskMeta returns {related-task: <as sent>} when the request's
// _meta carried it, for echoing in the result; nil otherwise.
func relatedTaskMeta(meta json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	rt, ok := m[wire.MetaRelatedTask]
	if !ok || !json.Valid(rt) {
		return nil
	}
	return map[string]json.RawMessage{wire.MetaRelatedTask: rt}
}
