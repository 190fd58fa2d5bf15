package recording

import (
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
)

// The params of the calls a recording keeps, in the shape of the
// method's MCP params, for a replay to make them again.

// ToolCallParams are tools/call's.
type ToolCallParams struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// PromptGetParams are prompts/get's.
type PromptGetParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// URIParams are a resource method's (read, subscribe).
type URIParams struct {
	URI string `json:"uri"`
}

// SetLevelParams are logging/setLevel's.
type SetLevelParams struct {
	Level string `json:"level"`
}

// TaskParams are a tasks method's.
type TaskParams struct {
	TaskID string `json:"taskId"`
}

// CompleteParams are completion/complete's for argument arg of ref,
// with the others already given.
func CompleteParams(ref wire.CompleteRef, arg, value string, others map[string]string) wire.CompleteParams {
	p := wire.CompleteParams{Ref: ref}
	p.Argument.Name, p.Argument.Value = arg, value
	if len(others) > 0 {
		p.Context = &wire.CompleteContext{Arguments: others}
	}
	return p
}

// CallResult is what a recording keeps of a tool call's result: the
// result as sent.
func CallResult(res *wire.CallToolResult) any {
	if res == nil {
		return nil
	}
	if len(res.Raw) > 0 {
		return res.Raw
	}
	return res
}

// CompleteName is what a completion's questions would name as origin.
func CompleteName(ref wire.CompleteRef) string {
	return strings.TrimSpace(ref.Name + ref.URI)
}
