package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/transport/redact"
)

// Making a recorded MCP call again (runRecordedCall: a new replayed call
// is a case there), and what the comparison keeps of its result.

// callName is what a call is about: the tool, prompt or resource.
func callName(c record.Call) string {
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		Level  string `json:"level"`
		TaskID string `json:"taskId"`
	}
	_ = decodeParams(c.Params, &p)
	return cmpOr(p.Name, p.URI, p.Level, p.TaskID)
}

func cmpOr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// runRecordedCall makes call again on s; skip says why it was not
// (a method a replay cannot make again).
func runRecordedCall(ctx context.Context, s *client.Session, call record.Call) (result any, skip string, err error) {
	decode := func(v any) error {
		if err := decodeParams(call.Params, v); err != nil {
			return fmt.Errorf("%s: %w", call.Method, err)
		}
		return nil
	}
	switch call.Method {
	case wire.MethodToolsCall:
		var p recording.ToolCallParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		if p.Arguments == nil {
			p.Arguments = map[string]any{}
		}
		res, err := s.CallTool(ctx, p.Name, p.Arguments, &client.CallOptions{AsTask: call.AsTask})
		return recording.CallResult(res), "", err
	case wire.MethodPromptsGet:
		var p recording.PromptGetParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		res, err := s.GetPrompt(ctx, p.Name, p.Arguments)
		return res, "", err
	case wire.MethodResourcesRead:
		var p recording.URIParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		res, err := s.ReadResource(ctx, p.URI)
		return res, "", err
	case wire.MethodResourcesSubscribe, wire.MethodResourcesUnsubscribe:
		var p recording.URIParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		if call.Method == wire.MethodResourcesSubscribe {
			return nil, "", s.Subscribe(ctx, p.URI)
		}
		return nil, "", s.Unsubscribe(ctx, p.URI)
	case wire.MethodCompletionComplete:
		var p wire.CompleteParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		var others map[string]string
		if p.Context != nil {
			others = p.Context.Arguments
		}
		res, err := s.Complete(ctx, p.Ref, p.Argument.Name, p.Argument.Value, others)
		return res, "", err
	case wire.MethodLoggingSetLevel:
		var p recording.SetLevelParams
		if err := decode(&p); err != nil {
			return nil, "", err
		}
		return nil, "", s.SetLogLevel(ctx, p.Level)
	case wire.MethodToolsList:
		res, err := s.ListTools(ctx)
		return res, "", err
	case wire.MethodPromptsList:
		res, err := s.ListPrompts(ctx)
		return res, "", err
	case wire.MethodResourcesList:
		res, err := s.ListResources(ctx)
		return res, "", err
	case wire.MethodResourcesTemplatesList:
		res, err := s.ListResourceTemplates(ctx)
		return res, "", err
	case wire.MethodTasksCancel:
		return nil, "tasks/cancel names a task of the recorded run; its task is not this run's", nil
	}
	return nil, fmt.Sprintf("elicit does not replay %s", call.Method), nil
}

// encodeResult is a replayed result as a recording keeps it.
func encodeResult(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	return b, nil
}

// maskedResult is a call's result with sec's secrets masked, as raw JSON
// (the result itself when it holds none, or does not encode).
func maskedResult(sec *redact.Secrets, v any) any {
	raw, err := encodeResult(v)
	if err != nil || raw == nil {
		return v
	}
	if red := sec.Bytes(raw); string(red) != string(raw) {
		return json.RawMessage(red)
	}
	return v
}

var errNoResult = errors.New("no result recorded (the recording was cut short)")
