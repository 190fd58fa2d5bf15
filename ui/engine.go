package ui

import (
	"context"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/skills"
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
	// HostApp serves the MCP App of tool (its _meta.ui.resourceUri) on a
	// local page for as long as the engine runs (elicit app's host, over
	// the live session), calls the tool with args for it, and opens the
	// page in the browser when it can (opened); url is the page's.
	HostApp(ctx context.Context, server, tool string, args map[string]any) (url string, opened bool, err error)
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
	// Journal is a snapshot of the record of every prompt's outcome, as
	// it is shown: the run's secrets masked in what servers sent (reasons,
	// content, sampling requests and replies).
	Journal() JournalSnapshot
	// Findings is the servers' spec violations as they are shown (the
	// run's secrets masked in the details, which quote the servers) and
	// the record's version; list is nil while the version is still seen
	// (0 and nil: none are recorded).
	Findings(seen uint64) (list []findings.Finding, version uint64)
	// Roots reports the roots a server is offered; SetRoots replaces
	// them, telling the server where its session declared listChanged
	// (an error wrapping client.ErrRootsNotDeclared: kept for the next
	// connection).
	Roots(server string) (client.RootsInfo, error)
	SetRoots(ctx context.Context, server string, roots []client.Root) error
	// Skills lists a server's skills (skills/list), reading none of their
	// files; an error wrapping skills.ErrNotDeclared: the server did not
	// declare the extension (it was not asked).
	Skills(ctx context.Context, server string) ([]skills.Skill, error)
	// ReadSkillFile reads one file of sk (resources/read) and checks it
	// against sk's entry (size, sha256; frontmatter for its SKILL.md).
	ReadSkillFile(ctx context.Context, server string, sk skills.Skill, uri string) (SkillFileRead, error)
	// CompleteElicitation says the person finished the URL elicitation
	// key (Delivery question.URLRequired) in the browser: the "done,
	// retry" of a -32042 whose server sends no completion notice.
	CompleteElicitation(key question.Key) error
	// AgentEngine reaches the ACP agents (none: Agents is empty).
	AgentEngine
}

// JournalSnapshot is the journal as the journal view shows it.
type JournalSnapshot struct {
	Entries    []question.JournalEntry
	ByServer   map[string]question.Counts
	Sampling   map[string]question.Counts
	Permission map[string]map[string]int
}

// JournalOf snapshots j (nil: an empty snapshot), as it is.
func JournalOf(j *question.Journal) JournalSnapshot {
	if j == nil {
		return JournalSnapshot{}
	}
	return JournalSnapshot{Entries: j.Entries(), ByServer: j.CountsByServer(), Sampling: j.SamplingCountsByServer(),
		Permission: j.PermissionCountsByServer()}
}

// FindingsOf snapshots rec (nil: none) when it moved past seen, as it is.
func FindingsOf(rec *findings.Recorder, seen uint64) ([]findings.Finding, uint64) {
	ver := rec.Version()
	if ver == seen {
		return nil, ver
	}
	return rec.All(), ver
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

// AgentEngine is what the UI asks of the ACP agents (the agent view,
// agent*.go). cmd/elicit adapts client/acp to it. The agents' questions
// come through the Bridge's Prompt like a server's; their session/update
// stream through Bridge.AgentUpdate (lane 3) and where they stand through
// Bridge.AgentsChanged (lane 2).
type AgentEngine interface {
	// Agents lists the configured agents and where each stands (no IO).
	Agents() []AgentStatus
	// AgentPrompt runs one prompt turn (session/prompt) on the agent's
	// session and returns when the agent answers it. Its updates arrive
	// meanwhile through Bridge.AgentUpdate. ctx ending stops the turn as
	// AgentStop does.
	AgentPrompt(ctx context.Context, agent, text string) (AgentTurnEnd, error)
	// AgentStop stops the agent's turn: session/cancel, every open
	// permission of the session answered "cancelled" and every open
	// elicitation "cancel" at once. The turn's end (its stopReason) comes
	// later, from AgentPrompt.
	AgentStop(agent string) error
	// AgentAbandon is a second stop, for an agent slow to end its turn:
	// the session/prompt is abandoned with $/cancel_request at once.
	AgentAbandon(agent string) error
	// AgentRestart starts the agent again (a new process and session),
	// ending the old one first; where it stands comes through
	// Bridge.AgentsChanged as it goes.
	AgentRestart(agent string) error
	// AgentSetMode sets the session's mode (session/set_mode), and
	// AgentSetConfig one of its config options (session/set_config_option:
	// a select's value id, or "true"/"false" for a boolean option); what
	// the agent then has comes through Bridge.AgentsChanged.
	AgentSetMode(agent, modeID string) error
	AgentSetConfig(agent, configID, value string) error
	// AgentTerminals are the terminals the agent runs through elicit
	// (--allow-terminal), oldest first, each with the end of its output
	// (no IO: what is kept); AgentKillTerminal kills one's command for
	// the person.
	AgentTerminals(agent string) []AgentTerminal
	AgentKillTerminal(agent, id string) error
	// AgentSessions lists the agent's sessions (session/list, every
	// page); AgentOpenSession makes one the agent's session, loaded
	// (session/load: its history replayed through Bridge.AgentUpdate
	// before it returns) or resumed (session/resume); AgentDeleteSession
	// deletes one (session/delete). Each only when the agent declares
	// it (AgentStatus.Can), and each ends as an action
	// (AgentUpdate.Action).
	AgentSessions(agent string) ([]AgentSession, error)
	AgentOpenSession(agent, id string, load bool) error
	AgentDeleteSession(agent, id string) error
}

// AgentTerminal is one of an agent's terminals; Command and Output are
// the agent's and its command's: untrusted.
type AgentTerminal struct {
	ID, Command, Output string
	Exited              bool
	Ended               string
}

// AgentStatus is one ACP agent's line.
type AgentStatus struct {
	Name  string
	State client.ServerState
	Err   error
	// Info is the agentInfo the agent gave; untrusted text.
	Info wire.Implementation
	// Command is how it is started, as configured (no environment
	// values); Cwd is the session's working directory.
	Command string
	Cwd     string
	// SessionID is the session's id once session/new was answered.
	SessionID string
	// Mode is the session's current mode, Modes those it may be set to;
	// Config its config options (the agent's text: untrusted).
	Mode   string
	Modes  []AgentMode
	Config []AgentConfig
	// Can is which session methods the agent declares.
	Can AgentCan
}

// AgentCan is which of the session methods beyond new and prompt an
// agent declares (agentCapabilities).
type AgentCan struct{ List, Load, Resume, Delete bool }

// AgentSession is one session of the agent's session/list; its text is
// the agent's (untrusted).
type AgentSession struct{ ID, Cwd, Title, UpdatedAt string }

// AgentAction is one request of elicit's beyond the turn (or one of the
// agent's that acts: a terminal) as it ended: Ended "ok", an error, "not
// sent: …", "killed by the person".
type AgentAction struct{ Method, SessionID, Subject, Ended string }

// AgentMode is one mode of an agent's session.
type AgentMode struct{ ID, Name string }

// AgentConfig is one config option of an agent's session: Type "select"
// (Values the value ids it takes) or "boolean" (Value "true"/"false").
type AgentConfig struct {
	ID, Name, Type, Value string
	Values                []string
}

// AgentTurnEnd is how a prompt turn ended, as the agent said it.
type AgentTurnEnd struct {
	// StopReason is the agent's ("end_turn", "cancelled", "refusal"…),
	// "" when it gave none.
	StopReason string
	// Stopped is set when we sent session/cancel for the turn.
	Stopped bool
	// RequestCancelled is set when the agent answered session/prompt
	// -32800 instead of a stopReason: cancelled, not failed.
	RequestCancelled bool
}

// AgentUpdate is one session/update of an agent, decoded by the engine.
// Every string in it is the agent's: untrusted.
type AgentUpdate struct {
	// Kind is the sessionUpdate discriminator, as sent.
	Kind string
	// Text is a message or thought chunk's text; ContentType its content
	// block's type (a non-text block has no Text).
	Text, ContentType string
	// Tool is a tool_call or a tool_call_update (a patch: only ID is
	// sure to be set).
	Tool     *AgentToolCall
	Plan     []AgentPlanEntry
	Commands []AgentCommand
	Mode     string
	Usage    *AgentUsage
	// Notice is a notice update; Compaction a compaction_update or a
	// compaction_summary_chunk (its Text).
	Notice *AgentNotice
	// Action is elicit's own (Kind "elicit/action"): a request of ours
	// as it ended, put in the transcript where it happened.
	Action     *AgentAction
	Compaction *AgentCompaction
	// Raw is the update object as sent; Known is false for a kind the
	// engine does not decode (shown plainly, never as an error).
	Raw   []byte
	Known bool
}

// AgentToolCall is a tool call as reported, or a patch of one.
type AgentToolCall struct {
	// Name is the tool's programmatic name, if the agent gave one.
	ID, Title, Name, Kind, Status           string
	Content, Locations, RawInput, RawOutput []byte
}

// AgentNotice is a notice: a severity (info, warning, error…) and a
// title.
type AgentNotice struct{ Severity, Title string }

// AgentCompaction is a compaction's state (Status, Error) or a chunk of
// its summary (Text).
type AgentCompaction struct{ ID, Status, Error, Text string }

// AgentPlanEntry is one entry of the agent's plan.
type AgentPlanEntry struct{ Content, Priority, Status string }

// AgentCommand is one of the agent's slash commands.
type AgentCommand struct{ Name, Description string }

// AgentUsage is the agent's context usage, and its cost when it says.
type AgentUsage struct {
	Used, Size int64
	// Cost is "" when the agent gave none.
	Cost string
}

// SkillFileRead is one file of a skill as the Skills view shows it: its
// check, and its text only when the check did not fail (the bytes of a
// file that is not what its entry declares are not shown as the skill's).
type SkillFileRead struct {
	URI   string
	Check skills.Check
	Why   string
	Text  string
	// Binary: the file is not UTF-8 text; Text is then empty.
	Binary bool
	Size   int
}
