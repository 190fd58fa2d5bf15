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
	Tools(ctx context.Context, server string) ([]wire.Tool, error)
	// Call runs tools/call. Cancelling ctx must send
	// notifications/cancelled (or the transport's equivalent) and return
	// promptly. onProgress receives notifications/progress for this call.
	Call(ctx context.Context, server, tool string, args map[string]any,
		onProgress func(client.CallProgress)) (*wire.CallToolResult, error)
	// ListResources, ReadResource, ListPrompts and GetPrompt browse a
	// server's resources and prompt templates.
	ListResources(ctx context.Context, server string) ([]wire.Resource, error)
	ReadResource(ctx context.Context, server, uri string) ([]wire.ResourceContents, error)
	ListPrompts(ctx context.Context, server string) ([]wire.Prompt, error)
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (*wire.GetPromptResult, error)
	// SetLogLevel sends logging/setLevel.
	SetLogLevel(ctx context.Context, server, level string) error
	// Reconnect closes and reopens a server's session.
	Reconnect(ctx context.Context, server string) error
	// Journal is the record of every prompt's outcome.
	Journal() *question.Journal
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
	// Tasks says the server runs tools/call as tasks (2025-11-25
	// capabilities.tasks.requests.tools.call, or the 2026-07-28 tasks
	// extension): a tool whose taskSupport is "optional" then runs as a
	// task unless the person says otherwise.
	Tasks bool
}

// TaskEngine is what the task view asks of the engine. It is apart from
// Engine so that an engine without tasks still builds; the Model finds it
// with a type assertion on the Engine it was given, and without it the
// task view says tasks are not available and every call is a plain one.
type TaskEngine interface {
	// Tasks returns a snapshot of every task of every server (what each
	// session follows or has followed).
	Tasks() []client.Task
	// ListTasks asks a server for its tasks (2025-11-25 tasks/list); an
	// error wrapping client.ErrNoTasks means it cannot say.
	ListTasks(ctx context.Context, server string) ([]client.Task, error)
	// CancelTask sends tasks/cancel for task id of server; the task's
	// real end comes later as a client.TaskChanged event.
	CancelTask(ctx context.Context, server, id string) error
	// CallTask runs tools/call as a task (task-augmented in 2025-11-25)
	// and returns when the task has ended, like Engine.Call; cancelling
	// ctx cancels the task. Engine.Call, in turn, must not make a task of
	// a tool whose taskSupport is "optional": the person chose that.
	CallTask(ctx context.Context, server, tool string, args map[string]any,
		onProgress func(client.CallProgress)) (*wire.CallToolResult, error)
}
