package demo

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadmeURI is the URI of the demo's one resource.
const ReadmeURI = "demo://readme"

// readme is the text of the demo://readme resource.
const readme = `# elicit demo server

Every tool plays one elicitation scene. In 2025-11-25 the server asks with
elicitation/create; in 2026-07-28 it answers input_required and the client
retries with the answers.

| tool          | scene                                                              |
|---------------|--------------------------------------------------------------------|
| deploy        | accept, decline and cancel give three different results            |
| create_ticket | call it twice at once: two questions, each gets its own answer     |
| showcase      | every field type of the 2025-11-25 subset, each with a default     |
| wizard        | two rounds; the second question depends on the first answer        |
| needs_state_only | asks nothing at first: retry at once with requestState (load shedding) |
| withdrawn     | the server withdraws its own question (2025-11-25 only)            |
| consent       | URL-mode elicitation; needs elicitation.url (2025-11-25 only)      |
| storm         | n questions at once; answers must find their question              |
| slow          | progress notifications and log messages; can be cancelled          |
| reflow_month  | a task: moves 12 bookings, asks where one workshop goes            |
| reflow_fail, reflow_iserror, reflow_stubborn | tasks that fail, end in isError, ignore cancel |
| echo, add     | plain tools, no questions                                          |
`

// addFeatures registers the resource and the prompt, so that every list a
// client can ask for has something in it.
func addFeatures(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{
		URI:         ReadmeURI,
		Name:        "readme",
		Title:       "About the demo server",
		Description: "What each demo tool shows.",
		MIMEType:    "text/markdown",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: ReadmeURI, MIMEType: "text/markdown", Text: readme,
		}}}, nil
	})

	srv.AddPrompt(&mcp.Prompt{
		Name:        "greet",
		Title:       "Greet someone",
		Description: "A prompt that greets someone by name and suggests a demo tool.",
		Arguments: []*mcp.PromptArgument{{
			Name: "name", Title: "Name", Description: "Who to greet.", Required: true,
		}},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			return nil, fmt.Errorf("greet: the name argument is required")
		}
		return &mcp.GetPromptResult{
			Description: "Greets " + name,
			Messages: []*mcp.PromptMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: fmt.Sprintf("Say hello to %s, then offer to run the deploy tool.", name)},
			}},
		}, nil
	})
}
