package ui

import (
	"context"

	"github.com/elicit-dev/elicit/client"
)

// Engine is what the UI asks of the MCP client. The UI calls it only from
// tea.Cmds, never from Update. cmd/elicit adapts client.Manager to it;
// tests pass a fake.
type Engine interface {
	// Servers lists the configured servers and where each stands.
	Servers() []ServerStatus
	// Tools lists a server's tools (tools/list, all pages).
	Tools(ctx context.Context, server string) ([]client.Tool, error)
	// Call runs tools/call. Cancelling ctx must send
	// notifications/cancelled (or the transport's equivalent) and return
	// promptly. onProgress receives notifications/progress for this call.
	Call(ctx context.Context, server, tool string, args map[string]any,
		onProgress func(client.CallProgress)) (*client.CallToolResult, error)
	// ListResources, ReadResource, ListPrompts and GetPrompt browse a
	// server's resources and prompt templates.
	ListResources(ctx context.Context, server string) ([]client.Resource, error)
	ReadResource(ctx context.Context, server, uri string) ([]client.ResourceContents, error)
	ListPrompts(ctx context.Context, server string) ([]client.ServerPrompt, error)
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (*client.GetPromptResult, error)
	// SetLogLevel sends logging/setLevel.
	SetLogLevel(ctx context.Context, server, level string) error
	// Reconnect closes and reopens a server's session.
	Reconnect(ctx context.Context, server string) error
	// Journal is the record of every prompt's outcome.
	Journal() *client.Journal
}

// ServerStatus is one server's line on the status bar.
type ServerStatus struct {
	Name     string
	State    client.ServerState
	Protocol string
	Era      string
	Err      error
	// Host is the host of the server's HTTP endpoint, "" for stdio; URL
	// prompts whose host differs are flagged.
	Host string
}
