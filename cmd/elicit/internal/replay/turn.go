package replay

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
)

// What a replay compares of a recorded ACP turn (app.TurnRecord): the
// recording itself is written by app.AgentWiring (internal/agents says
// what of the agents it names).

// acpTurnCompared is the part of a turn a replay compares: the stop
// reason, the message text and each tool call's title, kind and status
// (its id differs between runs; its content is the agent's to vary).
type acpTurnCompared struct {
	StopReason       string            `json:"stopReason"`
	RequestCancelled bool              `json:"requestCancelled"`
	Message          string            `json:"message"`
	ToolCalls        []acpToolCompared `json:"toolCalls"`
}

type acpToolCompared struct {
	Title  string `json:"title"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

func compareTurnOf(t app.TurnRecord) any {
	c := acpTurnCompared{StopReason: t.StopReason, RequestCancelled: t.RequestCancelled, Message: t.Message, ToolCalls: []acpToolCompared{}}
	for _, tc := range t.ToolCalls {
		c.ToolCalls = append(c.ToolCalls, acpToolCompared{Title: tc.Title, Kind: tc.Kind, Status: tc.Status})
	}
	return jsonValue(c)
}

// decodeTurnRecord reads a recorded result line of an ACP turn.
func decodeTurnRecord(raw json.RawMessage) (app.TurnRecord, error) {
	var t app.TurnRecord
	err := wire.DecodeExact(raw, &t) // by exact name, as a reader of the file reads it
	return t, err
}
