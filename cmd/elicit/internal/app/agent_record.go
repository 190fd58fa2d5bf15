package app

import "github.com/elicit-dev/elicit/client/acp"

// What a recording keeps of an ACP turn (docs/record.md): one call,
// PromptMethod, whose params are PromptParams and whose result is
// TurnRecord. AgentWiring.Turn writes it; a replay reads it back.

// PromptMethod is the call a recording of an ACP turn keeps: the
// session/new and session/prompt it took, as one.
const PromptMethod = "session/prompt"

// PromptParams are that call's params: what a replay needs to run the
// turn again.
type PromptParams struct {
	Prompt string `json:"prompt"`
	Cwd    string `json:"cwd"`
}

// TurnRecord is what a recording keeps of how the turn ended, and what
// a replay compares.
type TurnRecord struct {
	StopReason       string         `json:"stopReason"`
	Stopped          bool           `json:"stopped,omitempty"`
	RequestCancelled bool           `json:"requestCancelled,omitempty"`
	Message          string         `json:"message"`
	ToolCalls        []acp.ToolCall `json:"toolCalls"`
}

// TurnRecordOf is what a recording keeps of res.
func TurnRecordOf(res acp.TurnResult) TurnRecord {
	return TurnRecord{StopReason: res.StopReason, Stopped: res.Stopped, RequestCancelled: res.RequestCancelled,
		Message: res.Message, ToolCalls: append([]acp.ToolCall{}, res.ToolCalls...)}
}
