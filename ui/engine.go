package ui

import (
	"context"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// Engine is what the UI asks of the MCP client. The UI calls it only from
// tea.Cmds, never from Update. cmd/elicit adapts client.Manager to it;
// tests pass a fake.
type Engine interface {
	// Servers lists the configured servers and where each stands.
	Servers() []ServerStatus
	// Tools lists a server's tools (tools/list, all pages).
	Tools(ctx context.Context, server string) ([]wire.Tool, error)
	// Call runs tools/call and returns when it has ended, also when it
	// ran as a task. Cancelling ctx must send notifications/cancelled (or
	// the transport's equivalent; tasks/cancel for a task) and return
	// promptly.
	Call(ctx context.Context, server, tool string, args map[string]any, opts CallOptions) (*wire.CallToolResult, error)
	// ListResources, ReadResource, ListPrompts and GetPrompt browse a
	// server's resources and prompt templates.
	ListResources(ctx context.Context, server string) ([]wire.Resource, error)
	// ListResourceTemplates runs resources/templates/list (all pages).
	ListResourceTemplates(ctx context.Context, server string) ([]wire.ResourceTemplate, error)
	ReadResource(ctx context.Context, server, uri string) ([]wire.ResourceContents, error)
	// Subscribe sends resources/subscribe (on) or resources/unsubscribe
	// (in 2026-07-28 opens or closes the URI's subscriptions/listen
	// stream); changes then come as client.ResourceUpdated events, and a
	// stream the server ended as client.ResourceSubscriptionEnded.
	Subscribe(ctx context.Context, server, uri string, on bool) error
	ListPrompts(ctx context.Context, server string) ([]wire.Prompt, error)
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (*wire.GetPromptResult, error)
	// Complete runs completion/complete: values for argument arg of ref
	// (a prompt or a resource template) continuing value, given the other
	// arguments filled so far. An error wrapping client.ErrNoCompletions
	// means the server declared no completions.
	Complete(ctx context.Context, server string, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error)
	// Tasks returns a snapshot of every task of every server (what each
	// session follows or has followed).
	Tasks() []client.Task
	// ListTasks asks a server for its tasks (2025-11-25 tasks/list); an
	// error wrapping client.ErrNoTasks means it cannot say.
	ListTasks(ctx context.Context, server string) ([]client.Task, error)
	// CancelTask sends tasks/cancel for task id of server; the task's
	// real end comes later as a client.TaskChanged event.
	CancelTask(ctx context.Context, server, id string) error
	// SetLogLevel sends logging/setLevel.
	SetLogLevel(ctx context.Context, server, level string) error
	// Reconnect closes and reopens a server's session.
	Reconnect(ctx context.Context, server string) error
	// Server describes one server for the server view (no IO: what the
	// engine knows, also of a session that ended).
	Server(name string) (ServerDetail, error)
	// Journal is the record of every prompt's outcome.
	Journal() *question.Journal
	// Findings is the record of the servers' spec violations (nil: none
	// are recorded).
	Findings() *findings.Recorder
	// Roots reports the roots a server is offered; SetRoots replaces
	// them, telling the server where its session declared listChanged
	// (an error wrapping client.ErrRootsNotDeclared: kept for the next
	// connection).
	Roots(server string) (client.RootsInfo, error)
	SetRoots(ctx context.Context, server string, roots []client.Root) error
	// CompleteElicitation says the person finished the URL elicitation
	// key (Delivery question.URLRequired) in the browser: the "done,
	// retry" of a -32042 whose server sends no completion notice.
	CompleteElicitation(key question.Key) error
}

// CallOptions are what the person chose for one Call.
type CallOptions struct {
	// AsTask says whether a tool that may run as a task (client.TaskChoice)
	// does; nil leaves it to the engine. A tool that must, does anyway.
	AsTask *bool
	// OnProgress receives the call's notifications/progress.
	OnProgress func(client.CallProgress)
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
	// Caps are the capabilities the server declared, zero while it is not
	// connected; client.TaskChoice reads which tools run as tasks there.
	Caps client.ServerCapabilities
	// Info is the serverInfo the server gave (name, title, version);
	// zero while it is not connected. Untrusted text.
	Info wire.Implementation
	// Auth is the OAuth state ("authorizing", "authorized", "expired",
	// "refreshing", "auth failed"), "" for a server without OAuth.
	Auth string
}

// ServerDetail is everything the server view shows of one server.
type ServerDetail struct {
	ServerStatus
	// Session describes the live session, else the last one (its Ended
	// set); zero when none was ever ready. Its server strings are
	// untrusted.
	Session client.SessionDetails
	// Transport is how elicit reaches the server, as configured.
	Transport TransportDetail
	// LastErr is the last failure or disconnect and LastErrAt when it
	// came, kept across reconnects.
	LastErr   error
	LastErrAt time.Time
}

// TransportDetail is how a server is reached, as configured, with no
// secret in it: the engine leaves out header and environment values and
// the URL's password and query values, and masks arguments that follow a
// flag naming a secret.
type TransportDetail struct {
	// Kind is "stdio", "Streamable HTTP", "HTTP+SSE" or "in-process".
	Kind string
	// Command, Args and Dir start a stdio server; EnvNames are the names
	// of the variables set for it.
	Command  string
	Args     []string
	Dir      string
	EnvNames []string
	// URL is an HTTP server's endpoint; HeaderNames the names of the
	// headers sent to it.
	URL         string
	HeaderNames []string
}
