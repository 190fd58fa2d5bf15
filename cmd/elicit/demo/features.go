package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadmeURI is the URI of the demo's readme resource.
const ReadmeURI = "demo://readme"

// SceneTemplate is the URI template of the demo's resource template: what
// one tool shows, e.g. demo://scene/deploy.
const SceneTemplate = "demo://scene/{tool}"

// scenePrefix is SceneTemplate up to its variable.
const scenePrefix = "demo://scene/"

// scene is one row of the readme: the tools and what they show.
type scene struct {
	tools []string
	text  string
}

// scenes are the readme's rows, in its order (a function: no package
// state).
func scenes() []scene {
	return []scene{
		{[]string{"deploy"}, "accept, decline and cancel give three different results"},
		{[]string{"create_ticket"}, "call it twice at once: two questions, each gets its own answer"},
		{[]string{"showcase"}, "every field type of the 2025-11-25 subset, each with a default"},
		{[]string{"wizard"}, "two rounds; the second question depends on the first answer"},
		{[]string{"needs_state_only"}, "asks nothing at first: retry at once with requestState (load shedding)"},
		{[]string{"withdrawn"}, "the server withdraws its own question (2025-11-25 only)"},
		{[]string{"consent"}, "URL-mode elicitation; needs elicitation.url (elicitationId and completion in 2025-11-25)"},
		{[]string{"storm"}, "n questions at once; answers must find their question"},
		{[]string{"slow"}, "progress notifications and log messages; can be cancelled"},
		{[]string{"reflow_month"}, "a task: moves 12 bookings, asks where one workshop goes"},
		{[]string{"reflow_fail", "reflow_iserror", "reflow_stubborn"}, "tasks that fail, end in isError, ignore cancel"},
		{[]string{"palette"}, "an MCP App (ui://demo/palette.html); its buttons call the app-only pick_colour"},
		{[]string{"echo", "add"}, "plain tools, no questions"},
	}
}

// listed reports whether the server lists every tool of sc.
func (sc scene) listed(cfg config) bool {
	return !cfg.modernOnly() || !slices.Contains(sc.tools, "withdrawn")
}

// readme is the text of the demo://readme resource.
func readme(cfg config) string {
	var b strings.Builder
	b.WriteString(`# elicit demo server

Every tool plays one elicitation scene. In 2025-11-25 the server asks with
elicitation/create; in 2026-07-28 it answers input_required and the client
retries with the answers. demo://scene/TOOL reads one row.

| tool             | scene |
|------------------|-------|
`)
	for _, sc := range scenes() {
		if sc.listed(cfg) {
			fmt.Fprintf(&b, "| %-16s | %s |\n", strings.Join(sc.tools, ", "), sc.text)
		}
	}
	return b.String()
}

// sceneOf is what tool shows, if the server lists it.
func sceneOf(cfg config, tool string) (string, bool) {
	for _, sc := range scenes() {
		if slices.Contains(sc.tools, tool) && sc.listed(cfg) {
			return sc.text, true
		}
	}
	return "", false
}

// addFeatures registers the resource, the resource template and the prompt, so that every list a
// client can ask for has something in it.
func addFeatures(srv *mcp.Server, cfg config) {
	text := readme(cfg)
	srv.AddResource(&mcp.Resource{
		URI:         ReadmeURI,
		Name:        "readme",
		Title:       "About the demo server",
		Description: "What each demo tool shows.",
		MIMEType:    "text/markdown",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: ReadmeURI, MIMEType: "text/markdown", Text: text,
		}}}, nil
	})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: SceneTemplate,
		Name:        "scene",
		Title:       "One demo tool's scene",
		Description: "What one demo tool shows, e.g. demo://scene/deploy.",
		MIMEType:    "text/markdown",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		tool, _ := strings.CutPrefix(uri, scenePrefix)
		what, ok := sceneOf(cfg, tool)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: uri, MIMEType: "text/markdown", Text: "# " + tool + "\n\n" + what + "\n",
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
