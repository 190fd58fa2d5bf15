package demo

import (
	"context"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoArgs are the echo tool's arguments.
type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

// addArgs are the add tool's arguments.
type addArgs struct {
	A float64 `json:"a" jsonschema:"the first addend"`
	B float64 `json:"b" jsonschema:"the second addend"`
}

// addResult is the add tool's structured output; its type gives the tool an
// outputSchema.
type addResult struct {
	Sum float64 `json:"sum" jsonschema:"a + b"`
}

// addBasic registers the tools that ask nothing, for plain tools/call smoke
// tests.
func addBasic(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "echo",
		Title:       "Echo",
		Description: "Returns the text it was given.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return text("%s", in.Text), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "add",
		Title:       "Add two numbers",
		Description: "Returns a + b, as text and as structured content {\"sum\": ...}.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, addResult, error) {
		sum := in.A + in.B
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		return text("%s + %s = %s", f(in.A), f(in.B), f(sum)), addResult{Sum: sum}, nil
	})
}
