//lint:file-ignore SA1019 the summarize tool asks for sampling, deprecated as of 2026-07-28 (SEP-2577) but still served in the deprecation window; go-sdk's sampling API is how the demo asks.

package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// summarizeKey is the summarize tool's inputRequests key.
const summarizeKey = "summary"

// summarizeArgs are the summarize tool's arguments.
type summarizeArgs struct {
	Text string `json:"text" jsonschema:"the text to summarise"`
}

// summarizeRequest is the sampling request summarize sends: the text to
// summarise, a system prompt, model preferences and a token cap, so a
// client shows every part of a request.
func summarizeRequest(text string) *mcp.CreateMessageWithToolsParams {
	return &mcp.CreateMessageWithToolsParams{
		Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{
			&mcp.TextContent{Text: "Summarise in one sentence:\n\n" + text},
		}}},
		SystemPrompt: "You write one-sentence summaries.",
		MaxTokens:    200,
		ModelPreferences: &mcp.ModelPreferences{
			Hints:                []*mcp.ModelHint{{Name: "claude"}, {Name: "gpt"}},
			IntelligencePriority: 0.5,
		},
	}
}

// needsSampling is summarize's answer to a client that did not declare
// sampling: in 2026-07-28 -32021 naming the capability, before that a
// tool error saying so (a request the client would refuse is not sent).
func needsSampling(modern bool) (*mcp.CallToolResult, any, error) {
	const why = "summarize asks the client's model (sampling/createMessage), but the client did not declare the sampling capability"
	if modern {
		data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"sampling": map[string]any{}}}) // a constant map: cannot fail
		return nil, nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Data: data,
			Message: why + " in the request's _meta clientCapabilities"}
	}
	res := text("%s", why)
	res.IsError = true
	return res, nil, nil
}

// addSummarize registers summarize, which asks the client's model (here, a
// person) for a summary: sampling/createMessage. It asks through
// inputRequests, which is the question itself in 2026-07-28; for older
// sessions go-sdk's own bridge sends the real sampling/createMessage and
// calls the handler again with the answer (one round, which is all that
// bridge does).
func addSummarize(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "summarize",
		Title: "Summarise a text",
		Description: "Asks the client's model for a one-sentence summary (sampling/createMessage; in " +
			"2026-07-28 an input_required result). Needs the client to declare sampling.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(_ context.Context, req *mcp.CallToolRequest, in summarizeArgs) (*mcp.CallToolResult, any, error) {
		if strings.TrimSpace(in.Text) == "" {
			return nil, nil, fmt.Errorf("text must not be empty")
		}
		if caps := req.ClientCapabilities(); caps == nil || caps.Sampling == nil {
			// A server sends sampling only to a client that declared it.
			return needsSampling(modern(req.Session))
		}
		resp, answered := req.Params.InputResponses[summarizeKey]
		if !answered || resp == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{summarizeKey: summarizeRequest(in.Text)}, RequestState: "summarize"}, nil, nil
		}
		res, ok := resp.(*mcp.CreateMessageWithToolsResult)
		if !ok {
			return nil, nil, fmt.Errorf("the response to %q is a %T, not a sampling result", summarizeKey, resp)
		}
		var parts []string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
		return text("Summary by %s (%s): %s", res.Model, res.StopReason, strings.Join(parts, " ")), nil, nil
	})
}
