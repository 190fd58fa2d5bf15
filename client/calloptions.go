package client

import "time"

// CallOptions tunes one CallTool.
type CallOptions struct {
	// OnProgress is called for each notifications/progress of this call,
	// in order, from the session's dispatcher goroutine (it must not
	// block long). Under a flood some may be dropped (see Event).
	OnProgress func(CallProgress)

	// The task options (2025-11-25; the extension lets the server decide,
	// and ignores them). See the package doc, Tasks.

	// AsTask chooses whether a tool whose execution.taskSupport is
	// "optional" runs as a task; nil runs it as one when the server
	// declared tasks.requests.tools.call. "required" tools always run as
	// tasks, "forbidden" ones never.
	AsTask *bool
	// TaskSupport is the tool's execution.taskSupport, when the caller
	// knows it; "" takes it from the session's last ListTools (listing the
	// tools once if it never did).
	TaskSupport string
	// TaskTTL is the ttl to ask for; 0 means DefaultTaskTTL.
	TaskTTL time.Duration
}
