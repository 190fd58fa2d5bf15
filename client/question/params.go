package question

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
)

// Modes says which elicitation modes are in force for a peer: what we
// declared, narrowed by what the negotiated version knows.
type Modes struct{ Form, URL bool }

// ParamsError is why an elicitation's params were refused: the message
// and data of the -32602 a server request is answered with.
type ParamsError struct {
	Msg  string
	Data any
	// NotDeclared names the client capability the request needs and we
	// did not declare ("elicitation.form", "sampling.tools"), when that
	// is why it was refused.
	NotDeclared string
}

// undeclared is the refusal of a request for a capability not declared.
func undeclared(capability, msg string) *ParamsError {
	return &ParamsError{Msg: msg, Data: map[string]string{"notDeclared": capability}, NotDeclared: capability}
}

func (e *ParamsError) Error() string { return e.Msg }

// elicitParams is elicitation/create's params as sent (2025-06-18 and
// 2025-11-25 shapes; an MRTR or task input entry's params; ACP's).
type elicitParams struct {
	Mode            string
	Message         string
	RequestedSchema json.RawMessage
	URL             string
	ElicitationID   string
	Meta            json.RawMessage
}

// decode reads params by exact member names: a "RequestedSchema" is not
// requestedSchema (see wire.ExactMembers).
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

// Parse fills q from elicitation params, or says why they are
// unacceptable. q.Mode is set even on failure (form when unknown), so a
// refused question is journalled with a mode. cache may be shared by
// every question of a peer.
func Parse(q *Question, params json.RawMessage, modes Modes, sub schema.Subset, cache *SchemaCache) *ParamsError {
	q.Mode = ModeForm
	var ep elicitParams
	if t := bytes.TrimSpace(params); len(t) == 0 || t[0] != '{' {
		return &ParamsError{Msg: "invalid params: elicitation/create needs an object"}
	}
	if err := ep.decode(params); err != nil {
		return &ParamsError{Msg: "invalid params: " + err.Error()}
	}
	q.Message, q.Meta = ep.Message, ep.Meta
	switch ep.Mode {
	case "", "form":
		if !modes.Form {
			return undeclared("elicitation.form", `invalid params: elicitation mode "form" was not declared by the client`)
		}
		sch, err := cache.Parse(ep.RequestedSchema, sub)
		if err != nil {
			return schemaRefusal(err)
		}
		q.Schema, q.RawSchema = sch, ep.RequestedSchema
	case "url":
		q.Mode = ModeURL
		if !modes.URL {
			return undeclared("elicitation.url", `invalid params: elicitation mode "url" was not declared by the client`)
		}
		u, err := url.Parse(ep.URL)
		if ep.URL == "" || err != nil || u.Scheme == "" || u.Host == "" {
			return &ParamsError{Msg: "invalid params: url mode needs an absolute url"}
		}
		q.URL, q.ElicitationID = ep.URL, ep.ElicitationID
	default:
		return &ParamsError{Msg: fmt.Sprintf("invalid params: unknown elicitation mode %q", ep.Mode)}
	}
	return nil
}

// schemaRefusal words a requestedSchema outside the subset.
func schemaRefusal(err error) *ParamsError {
	var se *schema.SchemaError
	if !errors.As(err, &se) {
		return &ParamsError{Msg: "invalid requestedSchema: " + err.Error()}
	}
	if se.Property == "" {
		return &ParamsError{Msg: "invalid requestedSchema: " + se.Rule, Data: map[string]string{"rule": se.Rule}}
	}
	return &ParamsError{
		Msg:  fmt.Sprintf("invalid requestedSchema: property %q: %s", se.Property, se.Rule),
		Data: map[string]string{"property": se.Property, "rule": se.Rule},
	}
}

// RelatedTaskID reads _meta[related-task].taskId from params, "" if absent
// or malformed (2025-11-25 tasks).
func RelatedTaskID(params json.RawMessage) string {
	if !bytes.Contains(params, []byte(wire.MetaRelatedTask)) {
		return "" // the common case, without decoding params a second time
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	var t struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(p.Meta[wire.MetaRelatedTask], &t) != nil {
		return ""
	}
	return t.TaskID
}

// relatedTaskMeta returns {related-task: <as sent>} when the request's
// _meta carried it, for echoing in the result; nil otherwise.
func relatedTaskMeta(meta json.RawMessage) map[string]json.RawMessage {
	if !bytes.Contains(meta, []byte(wire.MetaRelatedTask)) {
		return nil
	}
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

// elicitationKind is the descriptor of elicitation/create (MCP's, an
// input entry's, ACP's): a form or a URL, answered by an action. Every
// version that has it takes it as an input: a mode we did not declare is
// refused by Parse (-32602).
var elicitationKind = kindSpec{
	name:     "elicitation",
	method:   wire.MethodElicit,
	declared: func(Env) bool { return true },
	parse: func(q *Question, params json.RawMessage, env Env) *ParamsError {
		return Parse(q, params, env.Modes, env.Subset, env.Schemas)
	},
	judge: judgeContent,
	reply: Decision.elicitReply,
	note: func(e *JournalEntry, q *Question, out Outcome, r *Reply) {
		if q.Key.Delivery == AgentRequest {
			e.Bucket = ElicitationBucket(out, replyOf(r))
		}
	},
	unrouted: Outcome{Kind: Cancel, Reason: "no elicitation policy"},
}
