package demo

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// retryDone is the needs_state_only tool's result.
const retryDone = "Done on round %d: the server was busy on the first attempt and finished when the client retried."

// retryState marks the first attempt as made.
type retryState struct {
	Shed bool `json:"shed"`
}

func addRetry(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "needs_state_only",
		Title: "Retry at once (load shedding)",
		Description: "Answers the first attempt with an input_required result that asks nothing and " +
			"carries only requestState, as a loaded server may; the client must retry at once, echoing " +
			"it, and the retry completes.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, multiRound(cfg.codec, "needs_state_only", retryAtOnce))
}

// retryAtOnce asks no question in round 1. go-sdk v1.8.0 can only write an
// input_required result with an inputRequests member, so the wire shows
// "inputRequests": {} next to requestState; an old-era session never sees
// it (multiRound retries in-process).
func retryAtOnce(_ context.Context, _ *mcp.CallToolRequest, _ any, r *round) (*mcp.CallToolResult, error) {
	var st retryState
	if err := r.carry(&st); err != nil {
		return nil, err
	}
	if !st.Shed {
		return r.ask(retryState{Shed: true}, nil)
	}
	return text(retryDone, r.n), nil
}
