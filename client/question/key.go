package question

import (
	"fmt"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Delivery tells how a question reached us; it decides what a Key holds
// and what answers the question on the wire (Decision.Reply).
type Delivery int

// The deliveries.
const (
	// ServerRequest: a request from the peer that a person answers: MCP's
	// elicitation/create (2025-06-18, 2025-11-25); keyed by the peer's
	// request id.
	ServerRequest Delivery = iota
	// InputRequest: an entry of inputRequests in an input_required result
	// (2026-07-28 MRTR); keyed by our originating call and the entry's key.
	InputRequest
	// TaskInput: an entry of a task's inputRequests (tasks extension);
	// keyed by task id and key.
	TaskInput
	// PermissionRequest: ACP's session/request_permission; keyed by the
	// agent's request id, with its session and tool call.
	PermissionRequest
	// ReceiverTask: a task-augmented server request (2025-11-25
	// params.task): we answered it with a task of ours at once, and the
	// answer becomes that task's result (tasks/result), not the request's
	// response; keyed by the server's request id and our task id.
	ReceiverTask
	// URLRequired: one URL elicitation of a -32042 error answering a
	// request of ours (2025-11-25); keyed by that call and the
	// elicitationId (Input). Nothing answers it on the wire: when every
	// one of the error's elicitations was accepted (and completed), the
	// request is sent again.
	URLRequired
	// AgentRequest: ACP's elicitation/create; keyed by the agent's
	// request id. Unlike MCP a reply is always owed, even to a
	// withdrawn one (-32800).
	AgentRequest
	// FileWrite: ACP's fs/write_text_file, asked of a person before the
	// file is written (a permission question whose tool call carries the
	// diff); keyed by the agent's request id. Answered null once written,
	// else an error: a reply is owed as for AgentRequest.
	FileWrite
	// AuthChoice: which of an ACP agent's authMethods to authenticate
	// with, asked of a person when session/new is refused -32000 (a form
	// with one choice per method); keyed by the agent. Our own question:
	// nothing answers it on the wire, authenticate follows an accept.
	AuthChoice
	// TerminalCreate: ACP's terminal/create, asked of a person before the
	// command runs (a permission question whose tool call shows the
	// command); keyed by the agent's request id. Answered with the
	// terminal's id once started, else an error, as FileWrite is.
	TerminalCreate
)

func (d Delivery) String() string {
	switch d {
	case ServerRequest:
		return "request"
	case InputRequest:
		return "input"
	case TaskInput:
		return "task-input"
	case PermissionRequest:
		return "permission"
	case ReceiverTask:
		return "receiver-task"
	case URLRequired:
		return "url-required"
	case AgentRequest:
		return "agent-request"
	case FileWrite:
		return "file-write"
	case AuthChoice:
		return "auth-choice"
	case TerminalCreate:
		return "terminal-create"
	default:
		return "unknown"
	}
}

// Key identifies one question uniquely among everything elicit has open.
// It is comparable and may be used as a map key. An ACP question is keyed
// by its agent and request id, which are unique per connection; its
// session and tool call say where it belongs (Origin), not which it is.
type Key struct {
	// Server is the peer's name as configured: an MCP server or an ACP
	// agent.
	Server   string
	Delivery Delivery
	// RequestID is the peer's JSON-RPC id (ServerRequest,
	// PermissionRequest).
	RequestID jsonrpc.ID
	// CallID is the id of our original request that got input_required
	// (InputRequest) or -32042 (URLRequired); it stays the same across
	// retries.
	CallID jsonrpc.ID
	// TaskID is the task's id (TaskInput; ReceiverTask: our own task's).
	TaskID string
	// Input is the inputRequests key (InputRequest, TaskInput), or the
	// elicitationId (URLRequired).
	Input string
}

// String renders the key for panes, logs and the journal: "demo#7",
// "demo call 3/login", "demo task 7f3a/placement", "agent#4 (permission)",
// "demo#7 (our task 9QX2…)".
func (k Key) String() string {
	switch k.Delivery {
	case InputRequest:
		return fmt.Sprintf("%s call %s/%s", k.Server, k.CallID.Raw(), k.Input)
	case TaskInput:
		return fmt.Sprintf("%s task %s/%s", k.Server, k.TaskID, k.Input)
	case PermissionRequest:
		return fmt.Sprintf("%s#%s (permission)", k.Server, k.RequestID.Raw())
	case FileWrite:
		return fmt.Sprintf("%s#%s (write)", k.Server, k.RequestID.Raw())
	case TerminalCreate:
		return fmt.Sprintf("%s#%s (terminal)", k.Server, k.RequestID.Raw())
	case AuthChoice:
		return k.Server + " (sign-in)"
	case ReceiverTask:
		return fmt.Sprintf("%s#%s (our task %s)", k.Server, k.RequestID.Raw(), k.TaskID)
	case URLRequired:
		return fmt.Sprintf("%s call %s url %s", k.Server, k.CallID.Raw(), k.Input)
	default:
		return fmt.Sprintf("%s#%s", k.Server, k.RequestID.Raw())
	}
}

// Mode is the elicitation mode.
type Mode string

// The modes.
const (
	ModeForm Mode = "form"
	ModeURL  Mode = "url"
)

// OriginKind says what a question belongs to.
type OriginKind int

// The origins.
const (
	OriginUnknown OriginKind = iota // a request not tied to anything we know
	OriginToolCall
	OriginTask
	OriginPrompt   // prompts/get (MRTR)
	OriginResource // resources/read (MRTR)
	// OriginTurn: an ACP prompt turn (session/prompt); SessionID names
	// the session, ToolCallID the agent's tool call when there is one.
	OriginTurn
)

// Origin is what the question belongs to, for the pane header and for
// ending it with its owner.
type Origin struct {
	Kind OriginKind
	// Name is the tool or prompt name, or the resource uri (for a turn,
	// the tool call's title when there is one).
	Name string
	// CallID is our request id of the owning call, when known.
	CallID jsonrpc.ID
	// TaskID is set for questions that belong to a task.
	TaskID string
	// SessionID and ToolCallID place an ACP question (OriginTurn).
	SessionID  string
	ToolCallID string
	// Inferred is set when the engine guessed the owning call (the only
	// tools/call outstanding when the request arrived) rather than knew it.
	Inferred bool
	// Maybe lists, for a question nothing ties to one call (stdio, a GET
	// stream) that came while several calls of ours were open, the calls
	// it may belong to (their Kind, Name and CallID), oldest first, at
	// most MaxMaybe of them; MaybeOf is how many were open. Kind is then
	// OriginUnknown: the question is ours, the call is not known. Read
	// only: questions share it.
	Maybe   []Origin
	MaybeOf int
}

// MaxMaybe bounds Origin.Maybe.
const MaxMaybe = 8
