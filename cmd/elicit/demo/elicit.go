package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The three answers a client can give to elicitation/create.
const (
	actionAccept  = "accept"
	actionDecline = "decline"
	actionCancel  = "cancel"
)

// ask sends one form-mode elicitation/create on the session that is serving
// req. go-sdk checks the client's capability, validates an accepted answer
// against schema and fills in its defaults before returning it.
func ask(ctx context.Context, req *mcp.CallToolRequest, message string, schema any) (*mcp.ElicitResult, error) {
	res, err := elicit(ctx, req, &mcp.ElicitParams{
		Mode:            "form",
		Message:         message,
		RequestedSchema: schema,
	})
	if err != nil {
		return nil, fmt.Errorf("elicitation/create %q: %w", message, err)
	}
	return res, nil
}

// shutdownFlush is how long a question cut short by a shutdown keeps its
// request open; see elicit.
const shutdownFlush = 200 * time.Millisecond

// elicit is Session.Elicit, plus a pause when a shutdown cancelled the
// question: go-sdk sends notifications/cancelled from a goroutine, and over
// HTTP it can only travel on this request's stream, which closes when the
// tool returns. Without it the client's form would stay open.
func elicit(ctx context.Context, req *mcp.CallToolRequest, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	res, err := req.Session.Elicit(ctx, p)
	if err != nil && errors.Is(context.Cause(ctx), errShutdown) {
		time.Sleep(shutdownFlush) // ctx is already done; there is nothing else to wait on
	}
	return res, err
}

// legacyOnly is the tool error of a scene that 2026-07-28 cannot play.
func legacyOnly(tool, why string) error {
	return fmt.Errorf("%s needs a 2025-11-25 session (connect with protocol 2025-11-25): %s", tool, why)
}

// unknownAction is the tool error for an action outside the protocol; the
// client is a peer we do not trust to follow it.
func unknownAction(action string) error {
	return fmt.Errorf("the client answered with the unknown action %q (want accept, decline or cancel)", action)
}

// text is a successful tool result holding one text block.
func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// structured is a successful tool result carrying v as structuredContent and
// as indented JSON text, so people and older clients see the same data.
func structured(v any) (*mcp.CallToolResult, error) {
	pretty, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(pretty)}},
		StructuredContent: v,
	}, nil
}

// stringField and boolField read one answer from accepted content. The
// content was validated by go-sdk, but a missing key must not panic either.
func stringField(content map[string]any, key string) string {
	s, _ := content[key].(string)
	return s
}

func boolField(content map[string]any, key string) bool {
	b, _ := content[key].(bool)
	return b
}

// objectSchema builds a requested schema for elicitation/create.
func objectSchema(properties map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": properties}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// ptr returns a pointer to v, for go-sdk's optional fields.
func ptr[T any](v T) *T { return &v }
