package record

import (
	"encoding/json"
	"time"
)

// Format and Version are the first line's "format" and "version". A
// reader refuses a version it does not know; a new version is made only
// when a line's meaning changes, never for a member added.
const (
	Format  = "elicit-record"
	Version = 1
)

// The line types ("type" of every line).
const (
	TypeHeader   = "header"   // the first line: format, version, elicit's version
	TypeSettings = "settings" // the second: how the session was set up
	TypeState    = "state"    // a server connected, failed, disconnected
	TypeFrame    = "frame"    // one JSON-RPC message, either way
	TypeCall     = "call"     // a request a person or a command made
	TypeResult   = "result"   // how that call ended
	TypeAnswer   = "answer"   // a question, what was given, how it ended
	TypeEnd      = "end"      // the last line, written when the file is closed
)

// Header is the first line.
type Header struct {
	Type    string    `json:"type"` // "header"
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Elicit  string    `json:"elicit"` // elicit's version
	Time    time.Time `json:"time"`
}

// Settings is the second line: what a replay needs to set the session up
// the same way.
type Settings struct {
	Type string `json:"type"` // "settings"
	// Command is what was run: "tui", "demo", "call", "tools", …
	Command string `json:"command"`
	// Protocol is --protocol ("" detects); a server may pin its own.
	Protocol string `json:"protocol,omitempty"`
	// Elicit is the elicitation modes declared (off, form, url, both),
	// Sampling the --sample setting (off declares none).
	Elicit   string `json:"elicit"`
	Sampling string `json:"sampling"`
	// Answer is a headless call's --answer policy, when there was one
	// (a file's name only).
	Answer string `json:"answer,omitempty"`
	// URLWaitMS is --url-wait when it bounds a -32042's wait (0: the
	// person's "done" ended it).
	URLWaitMS int64    `json:"urlWaitMs,omitempty"`
	Servers   []Server `json:"servers"`
	// Agents are the ACP agents of the session (elicit acp, the ACP
	// TUI): a recording with agents is an ACP session. Absent in older
	// recordings and in MCP-only ones.
	Agents []Agent `json:"agents,omitempty"`
}

// Agent is one ACP agent of the session, with the secrets masked as a
// Server's are: environment variable names only, secret arguments "…".
type Agent struct {
	Name string `json:"name"`
	// Kind is "demo" (the embedded demo agent, elicit demo --acp) or
	// "stdio".
	Kind     string   `json:"kind"`
	Command  string   `json:"command,omitempty"`
	Args     []string `json:"args,omitempty"`
	Dir      string   `json:"dir,omitempty"`
	EnvNames []string `json:"envNames,omitempty"`
	// Cwd is the session's working directory as given (--cwd).
	Cwd string `json:"cwd,omitempty"`
	// Permission is --permission (headless), AllowFS --allow-fs, Auth
	// the --auth method id (a name, not a secret).
	Permission string `json:"permission,omitempty"`
	AllowFS    bool   `json:"allowFs,omitempty"`
	Auth       string `json:"auth,omitempty"`
	// CancelAfterMS is --cancel-after, QuestionTimeoutMS
	// --prompt-timeout (0: none), IdleTimeoutMS --idle-timeout (0: a
	// recording made before it; replayed with its default).
	CancelAfterMS     int64 `json:"cancelAfterMs,omitempty"`
	QuestionTimeoutMS int64 `json:"questionTimeoutMs,omitempty"`
	IdleTimeoutMS     int64 `json:"idleTimeoutMs,omitempty"`
	// The session elicit acp opened and how it set it up: --load or
	// --resume (a session id), --dir (additionalDirectories), --mode,
	// --config (ID=VALUE each), --attach (the files' paths as given),
	// --allow-terminal.
	Load          string   `json:"load,omitempty"`
	Resume        string   `json:"resume,omitempty"`
	Dirs          []string `json:"dirs,omitempty"`
	Mode          string   `json:"mode,omitempty"`
	Config        []string `json:"config,omitempty"`
	Attach        []string `json:"attach,omitempty"`
	AllowTerminal bool     `json:"allowTerminal,omitempty"`
}

// Server is one server of the session, as the server view shows it:
// no header, environment or query values, masked secret arguments.
type Server struct {
	Name string `json:"name"`
	// Kind is "demo", "stdio", "http" or "sse".
	Kind string `json:"kind"`
	// Protocol is the version this server was pinned to, if any.
	Protocol string `json:"protocol,omitempty"`
	Command  string `json:"command,omitempty"`
	// Args are the command's arguments; a secret one reads "…".
	Args []string `json:"args,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	// EnvNames are the names of the variables set for the command.
	EnvNames []string `json:"envNames,omitempty"`
	// URL has its password and query values masked ("…").
	URL         string   `json:"url,omitempty"`
	HeaderNames []string `json:"headerNames,omitempty"`
	// Roots are the root URIs offered.
	Roots []string `json:"roots,omitempty"`
}

// State is a server's connection state changing.
type State struct {
	Type     string    `json:"type"` // "state"
	Seq      int64     `json:"seq"`
	Time     time.Time `json:"time"`
	Server   string    `json:"server"`
	State    string    `json:"state"` // connecting, ready, failed, disconnected, closed
	Protocol string    `json:"protocol,omitempty"`
	Era      string    `json:"era,omitempty"`
	Error    string    `json:"error,omitempty"`
}

// Frame is one message as it crossed the wire.
type Frame struct {
	Type   string    `json:"type"` // "frame"
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	Dir    string    `json:"dir"` // "out" (to the server) or "in"
	// Message is the frame when it is valid JSON in valid UTF-8; Text
	// holds it otherwise (bad bytes as U+FFFD), and Error why it was
	// skipped.
	Message json.RawMessage `json:"message,omitempty"`
	Text    string          `json:"text,omitempty"`
	Error   string          `json:"error,omitempty"`
	HTTP    *HTTP           `json:"http,omitempty"`
}

// HTTP is the exchange that carried a frame: header names only.
type HTTP struct {
	Method      string   `json:"method"`
	Status      int      `json:"status,omitempty"`
	HeaderNames []string `json:"headerNames,omitempty"`
}

// Call is a request a person (in the TUI) or a command made. Requests
// the engine makes on its own (initialize, polls, retries) are frames
// only: a replay makes them again by itself.
type Call struct {
	Type   string    `json:"type"` // "call"
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Call   int64     `json:"call"` // numbers the calls, from 1
	Server string    `json:"server"`
	// Method is the MCP method (tools/call, prompts/get, resources/read,
	// tools/list, …) and Params its params as the caller gave them.
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// AsTask is the person's choice to run a tool call as a task (nil:
	// the engine's default).
	AsTask *bool `json:"asTask,omitempty"`
}

// Result is how a call ended: Result or Error.
type Result struct {
	Type      string          `json:"type"` // "result"
	Seq       int64           `json:"seq"`
	Time      time.Time       `json:"time"`
	Call      int64           `json:"call"`
	Server    string          `json:"server"`
	Method    string          `json:"method"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *Error          `json:"error,omitempty"`
	ElapsedMS int64           `json:"elapsedMs"`
}

// Error is a call's failure. Code is the JSON-RPC error's when the server
// sent one (0 otherwise: a transport failure, a timeout, a cancel).
type Error struct {
	Code    int64  `json:"code,omitempty"`
	Message string `json:"message"`
	// Closed: elicit closed the session before the call ended (the
	// person quit, the command ended); the call did not end by itself.
	Closed bool `json:"closed,omitempty"`
}

// Answer is one question and how it ended, written when it ended.
type Answer struct {
	Type string    `json:"type"` // "answer"
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	// Call is the call the question came during (0: none known).
	Call   int64  `json:"call,omitempty"`
	Server string `json:"server"`
	// Key is the question's key as the journal shows it ("demo#7",
	// "demo call 3/deploy"); its ids differ between runs.
	Key      string    `json:"key"`
	Question *Question `json:"question,omitempty"`
	// Given is what the person or the policy answered (absent when the
	// question ended before anyone did).
	Given *Given `json:"given,omitempty"`
	// Outcome is how the engine ended it (accept, decline, cancel,
	// withdrawn, disconnected, invalid, abandoned, timeout), Sent what
	// went on the wire ("" for nothing), Content what an accept carried.
	Outcome   string         `json:"outcome"`
	Sent      string         `json:"sent,omitempty"`
	Content   map[string]any `json:"content,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	LatencyMS int64          `json:"latencyMs"`
}

// Question is what was asked.
type Question struct {
	// Kind is elicitation, sampling or permission; Mode form or url.
	Kind    string `json:"kind"`
	Mode    string `json:"mode,omitempty"`
	Message string `json:"message"`
	// Schema is the requestedSchema exactly as sent (form mode).
	Schema json.RawMessage `json:"schema,omitempty"`
	URL    string          `json:"url,omitempty"`
	// ElicitationID is a URL question's id (before 2026-07-28); it
	// differs between runs.
	ElicitationID string `json:"elicitationId,omitempty"`
	// Delivery says how it came: request, input, task-input,
	// receiver-task, url-required.
	Delivery string `json:"delivery"`
	// Origin is what it belongs to: "tool", "task", "prompt",
	// "resource", or "" (unknown), and its name.
	Origin     string `json:"origin,omitempty"`
	OriginName string `json:"originName,omitempty"`
	// Sampling is a sampling request's params as sent (in the answer
	// line; matching a sampling question goes by kind and message).
	Sampling json.RawMessage `json:"sampling,omitempty"`
	// Permission is what an ACP session/request_permission asked: the
	// tool call it is about and the options offered.
	Permission *Permission `json:"permission,omitempty"`
}

// Permission is the shape of an ACP permission request. ToolCallID
// differs between runs (the agent numbers its tool calls); the title,
// kind and options are what a replay matches.
type Permission struct {
	ToolCallID string             `json:"toolCallId,omitempty"`
	Title      string             `json:"title,omitempty"`
	ToolKind   string             `json:"toolKind,omitempty"`
	Options    []PermissionOption `json:"options"`
}

// PermissionOption is one option of a Permission.
type PermissionOption struct {
	ID   string `json:"optionId"`
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

// Given is an answer as the person or the policy gave it.
type Given struct {
	// Kind is accept, decline or cancel.
	Kind    string         `json:"kind"`
	Content map[string]any `json:"content,omitempty"`
	Sample  *Sample        `json:"sample,omitempty"`
	Option  string         `json:"option,omitempty"`
	Reason  string         `json:"reason,omitempty"`
}

// Sample is a sampling reply written by a person or a policy.
type Sample struct {
	Text       string    `json:"text,omitempty"`
	Model      string    `json:"model"`
	StopReason string    `json:"stopReason,omitempty"`
	ToolUses   []ToolUse `json:"toolUses,omitempty"`
}

// ToolUse is one tool_use block of a Sample.
type ToolUse struct {
	ID    string         `json:"id,omitempty"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input,omitempty"`
}

// End is the last line. A file without one was cut short (the process
// was killed); what it holds is still read.
type End struct {
	Type string    `json:"type"` // "end"
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	// Frames, Calls and Answers count the lines written of each.
	Frames  int64 `json:"frames"`
	Calls   int64 `json:"calls"`
	Answers int64 `json:"answers"`
}
