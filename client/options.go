package client

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// ElicitModes says which elicitation modes the client declares and serves.
type ElicitModes int

// The modes a session may declare. The zero value is Both.
const (
	ElicitBoth ElicitModes = iota // form and URL
	ElicitForm                    // form only
	ElicitURL                     // URL only
	ElicitOff                     // no elicitation capability at all
)

func (m ElicitModes) String() string {
	switch m {
	case ElicitBoth:
		return "both"
	case ElicitForm:
		return "form"
	case ElicitURL:
		return "url"
	case ElicitOff:
		return "off"
	default:
		return "unknown"
	}
}

// form and url report whether the setting includes each mode.
func (m ElicitModes) form() bool { return m == ElicitBoth || m == ElicitForm }
func (m ElicitModes) url() bool  { return m == ElicitBoth || m == ElicitURL }

// SamplingMode says whether the client declares and serves sampling.
type SamplingMode int

// The sampling modes. The zero value declares nothing: a library user
// opts in, since a Prompter must then write replies.
const (
	// SamplingOff declares no sampling; a sampling/createMessage is
	// refused with -32601 "Sampling not supported".
	SamplingOff SamplingMode = iota
	// SamplingOn declares sampling ("sampling":{}, with the tools
	// sub-capability from 2025-11-25 on) and puts each request to the
	// Prompter as a question of KindSampling.
	SamplingOn
)

func (m SamplingMode) String() string {
	if m == SamplingOn {
		return "on"
	}
	return "off"
}

// Options configures a Session. The zero value works: it detects the era,
// declares form and URL elicitation, and cancels every prompt (no Prompter).
type Options struct {
	// Name is the server's name as people see it; it keys prompts and the
	// journal. Default "server".
	Name string
	// ClientInfo is sent in initialize, or in every request's _meta in
	// 2026-07-28. Default {elicit, dev}.
	ClientInfo wire.Implementation
	// Protocol pins the version and skips era detection: "2026-07-28"
	// speaks the stateless era at once (server/discover, then requests with
	// _meta); an older version runs initialize offering it and requires it
	// back. "" detects the era (see the package doc): 2026-07-28 if the
	// server answers server/discover, else initialize offering 2025-11-25
	// and accepting any older version we speak.
	Protocol string
	// Elicit is which elicitation modes to declare (default both).
	Elicit ElicitModes
	// Roots are the roots offered to the server (roots.go). nil declares
	// no roots capability; a non-nil list, even an empty one, declares it
	// (with listChanged in the stateful era), and Session.SetRoots may
	// change it later. Every URI must be a clean file:// URI (RootFor
	// makes one of a path), or Connect fails.
	Roots []Root
	// Sampling is whether to declare and serve sampling (default off).
	Sampling SamplingMode
	// AppsUI declares the MCP Apps extension
	// (extensions["io.modelcontextprotocol/ui"], mimeType
	// text/html;profile=mcp-app): set only for a session whose apps a host
	// renders (elicit app), since a server then may leave its text
	// content to the app.
	AppsUI bool
	// URLWait bounds the wait, after every URL elicitation of a -32042
	// answer was accepted, for their notifications/elicitation/complete
	// (or CompleteElicitation); the request is then sent again once
	// either way. Zero waits as long as the call may (a person, who can
	// say "done" or cancel the call, is who it waits on).
	URLWait time.Duration
	// Prompter answers prompts. nil answers every prompt with cancel.
	Prompter question.Prompter
	// Observer receives events; nil drops them.
	Observer Observer
	// PromptTimeout ends a prompt with Timeout after this long; 0 means no
	// timeout at all (a person may take as long as they like).
	PromptTimeout time.Duration
	// ConnectTimeout bounds Connect as a whole: the dial, the era probe
	// and the handshake (initialize, or server/discover). Zero or negative
	// means DefaultConnectTimeout: there is no "no limit", since a server
	// that never answers must not hang Connect. Connect's ctx may end it
	// sooner.
	ConnectTimeout time.Duration
	// RequestTimeout bounds each request of ours while it waits on the
	// server and on no person (see the package doc, Timeouts). Zero or
	// negative means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// WriteTimeout bounds each message the engine writes on its own: a
	// response to the server's request, notifications/cancelled,
	// notifications/tasks/status, notifications/roots/list_changed. A
	// server that stops reading its stdin, or takes the POST and never
	// answers it, must not hold them for ever; such a write fails with
	// ErrTimeout. The bound stands still while the transport waits on a
	// person (signing in: transport.PersonWaiter). Zero or negative means
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Journal records outcomes; share one across sessions. nil gives the
	// session a private one (see Session.Journal).
	Journal *question.Journal
	// Findings, if set, records the server's spec violations the session
	// notices (client/findings; the checks are client/lint); share one
	// across sessions.
	Findings *findings.Recorder
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// ListenTasks makes each followed task of the 2026-07-28 tasks
	// extension also ask for its status notifications on a
	// subscriptions/listen stream of its own (notifications.taskIds).
	// Polling goes on regardless; the stream only brings news sooner.
	// Library API: cmd/elicit does not set it (polling is enough for a
	// person), the task tests do.
	ListenTasks bool

	// hint is the era a Manager remembered for this server from an earlier
	// connection (see Manager); it lets a reconnect skip a probe that is
	// known to fail. Ignored when Protocol is set.
	hint eraKind

	// onReady is called with the session once the handshake is done and
	// before "ready" is announced, so a Manager holds the session by the
	// time an observer hears of it and asks for it.
	onReady func(*Session)
}

// ServerCapabilities is what the server declared in initialize: the raw
// object, and the flags the engine and the UI look at.
type ServerCapabilities struct {
	Raw json.RawMessage

	Tools                bool
	ToolsListChanged     bool
	Resources            bool
	ResourcesSubscribe   bool
	ResourcesListChanged bool
	Prompts              bool
	PromptsListChanged   bool
	Logging              bool
	Completions          bool
	Tasks                bool
	// The task capabilities (tasks*.go): 2025-11-25 tasks.list,
	// tasks.cancel and tasks.requests.tools.call; TasksExtension when
	// extensions holds io.modelcontextprotocol/tasks (2026-07-28).
	TasksList      bool
	TasksCancel    bool
	TasksToolsCall bool
	TasksExtension bool
}

// parseServerCapabilities reads the flags out of raw; unknown or malformed
// members are ignored (server input never fails the session here).
func parseServerCapabilities(raw json.RawMessage) ServerCapabilities {
	c := ServerCapabilities{Raw: raw}
	var v struct {
		Tools *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"tools"`
		Resources *struct {
			Subscribe   bool `json:"subscribe"`
			ListChanged bool `json:"listChanged"`
		} `json:"resources"`
		Prompts *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"prompts"`
		Logging     json.RawMessage `json:"logging"`
		Completions json.RawMessage `json:"completions"`
		Tasks       json.RawMessage `json:"tasks"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return c
	}
	if v.Tools != nil {
		c.Tools, c.ToolsListChanged = true, v.Tools.ListChanged
	}
	if v.Resources != nil {
		c.Resources, c.ResourcesSubscribe, c.ResourcesListChanged = true, v.Resources.Subscribe, v.Resources.ListChanged
	}
	if v.Prompts != nil {
		c.Prompts, c.PromptsListChanged = true, v.Prompts.ListChanged
	}
	c.Logging = present(v.Logging)
	c.Completions = present(v.Completions)
	c.Tasks = present(v.Tasks)
	parseTaskCapabilities(&c, v.Tasks, raw) // tasks_wire.go
	return c
}

func present(r json.RawMessage) bool { return len(r) > 0 && string(r) != "null" }
