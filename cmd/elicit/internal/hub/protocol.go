package hub

import (
	"time"
)

// The control methods, one request per connection.
const (
	MethodStart     = "session/start"    // StartParams → StartResult
	MethodList      = "session/list"     // → []SessionInfo
	MethodStop      = "session/stop"     // NameParams → StopResult
	MethodRun       = "session/run"      // RunParams → RunResult
	MethodResult    = "session/result"   // ResultParams → RunResult
	MethodQuestions = "questions/list"   // NameParams → []QuestionInfo
	MethodAnswer    = "questions/answer" // AnswerParams → AnswerResult
	MethodApp       = "session/app"      // AppParams → the server's result (app.go)
)

// StartParams open a session: the command line of elicit session start
// after NAME, read where the caller stands (Cwd, Env).
type StartParams struct {
	Session string   `json:"session"`
	Args    []string `json:"args"`
	Cwd     string   `json:"cwd"`
	Env     []string `json:"env"`
}

// StartResult is what elicit session start prints.
type StartResult struct {
	Session  string `json:"session"`
	Server   string `json:"server"`
	Protocol string `json:"protocol"`
	Era      string `json:"era"`
	// Pid is the server's process (stdio; absent for a URL or the
	// in-process demo), HubPid the hub's.
	Pid    int `json:"pid,omitempty"`
	HubPid int `json:"hubPid"`
}

// NameParams name a session.
type NameParams struct {
	Session string `json:"session"`
}

// StopResult is what elicit session stop prints.
type StopResult struct {
	Session string `json:"session"`
	Stopped bool   `json:"stopped"`
	// Abandoned are the questions still open when it stopped.
	Abandoned int `json:"abandoned"`
}

// SessionInfo is one entry of elicit session list.
type SessionInfo struct {
	Session   string    `json:"session"`
	Server    string    `json:"server"`
	Protocol  string    `json:"protocol"`
	Questions int       `json:"questions"` // open
	Calls     int       `json:"calls"`     // in flight
	Since     time.Time `json:"since"`
	// State is "ready", or "disconnected" once its server went away.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	// Proxy marks a proxied session (elicit proxy --session), Host its
	// host's clientInfo name (once its initialize came), Pid the proxy's.
	Proxy bool   `json:"proxy,omitempty"`
	Host  string `json:"host,omitempty"`
	Pid   int    `json:"pid,omitempty"`
	// Apps: started with --apps, it declared MCP Apps (elicit app
	// --session hosts its apps).
	Apps bool `json:"apps,omitempty"`
}

// RunParams run a headless command on a session: Args is its whole
// command line (the command's name first), as typed where Cwd is.
type RunParams struct {
	Session string   `json:"session"`
	Args    []string `json:"args"`
	Cwd     string   `json:"cwd"`
	// NoWait (elicit call --no-wait): start the call and answer at once
	// with its id; elicit result collects it.
	NoWait bool `json:"noWait,omitempty"`
}

// RunResult is a command's end: what it printed and its exit code. A
// call started with NoWait has Call and Questions instead.
type RunResult struct {
	Stdout    string         `json:"stdout,omitempty"`
	Stderr    string         `json:"stderr,omitempty"`
	Exit      int            `json:"exit"`
	Call      string         `json:"call,omitempty"`
	Questions []QuestionInfo `json:"questions,omitempty"`
}

// ResultParams wait for a call started with NoWait.
type ResultParams struct {
	Session string `json:"session"`
	Call    string `json:"call"`
}

// QuestionInfo is one open question of elicit questions.
type QuestionInfo struct {
	Key     string `json:"key"`
	Server  string `json:"server"`
	Call    string `json:"call,omitempty"` // the hub's call id, when tied to one
	Message string `json:"message"`
	Mode    string `json:"mode"`
	// RequestedSchema is the form's schema as the server sent it; URL is
	// the URL-mode question's page.
	RequestedSchema any       `json:"requestedSchema,omitempty"`
	URL             string    `json:"url,omitempty"`
	Since           time.Time `json:"since"`
	// Origin says what it belongs to when no single call can be named:
	// "ambiguous" (several calls were open; Maybe names them) or
	// "unknown"; "host" on a proxied session (a call of its host's).
	Origin string   `json:"origin,omitempty"`
	Maybe  []string `json:"maybe,omitempty"`
}

// AnswerParams answer one question: Action is accept, decline or cancel;
// an accept carries Content (elicit answer --accept JSON, merged over the
// schema's defaults) or Defaults (--accept-defaults).
type AnswerParams struct {
	Session  string         `json:"session"`
	Key      string         `json:"key"`
	Action   string         `json:"action"`
	Content  map[string]any `json:"content,omitempty"`
	Defaults bool           `json:"defaults,omitempty"`
}

// AnswerResult is what elicit answer prints once the answer went out.
type AnswerResult struct {
	Key     string         `json:"key"`
	Outcome string         `json:"outcome"`
	Sent    string         `json:"sent"`
	Content map[string]any `json:"content,omitempty"`
}

// Exit codes the hub's errors carry (ErrorData.Exit); the same numbers as
// elicit's exit codes.
const (
	ExitUsage       = 2
	ExitConnect     = 3
	ExitNotAccepted = 5
)

// ErrorData is the data of the hub's JSON-RPC errors: the exit code the
// command takes, and for an answer that came late how its question ended.
type ErrorData struct {
	Exit  int    `json:"exit"`
	Ended string `json:"ended,omitempty"`
	Field string `json:"field,omitempty"`
}
