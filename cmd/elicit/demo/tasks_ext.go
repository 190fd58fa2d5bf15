package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663):
// a task id is a bearer handle (no session, no tasks/list); tasks/get
// answers a DetailedTask with the outstanding inputRequests, the result or
// the error inline; tasks/update carries the answers; tasks/cancel is only
// an acknowledgement and the job stops when it next looks. Every result has
// resultType "complete".
//
// Status notifications (notifications/tasks through subscriptions/listen)
// are not offered: go-sdk's built-in subscriptions/listen acknowledges only
// the list-changed and resource notifications it knows, so a listen asking
// for taskIds is acknowledged without them, which tells the client to poll.

// ack is the empty result of tasks/update and tasks/cancel.
func ack() *jsonResult {
	return &jsonResult{fields: map[string]any{"resultType": "complete"}}
}

func (s *taskStore) extGet(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), true, nil)
	if err != nil {
		return nil, err
	}
	fields := s.view(t).extTask(true)
	fields["resultType"] = "complete"
	return &jsonResult{fields: fields}, nil
}

// extCancel asks the job to stop and acknowledges. The status changes only
// when the job stops (cancelled), or never, if it ignores the request
// (reflow_stubborn ends completed), as the extension allows.
func (s *taskStore) extCancel(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), true, nil)
	if err != nil {
		return nil, err
	}
	s.requestCancel(t)
	return ack(), nil
}

// inputResponse is one entry of inputResponses: an elicitation result.
type inputResponse struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// extUpdate hands answers to the task's outstanding questions. Answers to
// keys that are not outstanding are ignored, as the extension asks; an
// answer that does not fit its question is refused (-32602) with the
// reason, and nothing of that update is recorded, so the client can fix it
// and send it again.
func (s *taskStore) extUpdate(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*jsonResult, error) {
	t, err := s.lookup(p.id(), true, nil)
	if err != nil {
		return nil, err
	}
	answers := map[string]*mcp.ElicitResult{}
	for _, key := range slices.Sorted(maps.Keys(p.InputResponses)) {
		q := s.question(t, key)
		if q == nil {
			continue
		}
		res, err := checkResponse(q, p.InputResponses[key])
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses[%q]: %v", key, err)}
		}
		answers[key] = res
	}
	for key, res := range answers {
		s.deliver(t, key, answer{res: res})
	}
	return ack(), nil
}

// checkResponse decodes an answer to q and checks it as go-sdk's
// Session.Elicit checks one in 2025-11-25: a known action, and accepted
// content that fits the form, with its defaults filled in.
func checkResponse(q *mcp.ElicitParams, raw json.RawMessage) (*mcp.ElicitResult, error) {
	var r inputResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("not an elicitation result: %w", err)
	}
	switch r.Action {
	case actionAccept:
		content := r.Content
		if content != nil && q.RequestedSchema != nil {
			var err error
			if content, err = checkAnswer(q.RequestedSchema, content); err != nil {
				return nil, fmt.Errorf("the answer does not match the form: %w", err)
			}
		}
		return &mcp.ElicitResult{Action: r.Action, Content: content}, nil
	case actionDecline, actionCancel:
		return &mcp.ElicitResult{Action: r.Action}, nil
	default:
		return nil, unknownAction(r.Action)
	}
}
