package client

import (
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// CallOptions tunes one CallTool.
type CallOptions struct {
	// OnProgress is called for each notifications/progress of this call,
	// in order, from the session's dispatcher goroutine (it must not
	// block long). Under a flood some may be dropped (see Event).
	OnProgress func(CallProgress)

	// OnSent, if set, is called once when the call's request has gone
	// out: on stdio once it is on the pipe, over Streamable HTTP once the
	// POST's request is written (from the transport's goroutine, before
	// the server answers), elsewhere when the transport took it. It has
	// returned by the time CallTool does. A request the caller starts from
	// here has the next id and goes out after the call, so running it
	// meanwhile changes neither the call's ids nor the order on a stream.
	// Not called when the request could not be sent.
	OnSent func()

	// OnID, if set, is told each request id the call is sent under (a
	// retry after -32042 gets a new one), before the request is written:
	// a question the server sends for it is then known to be its
	// (question.Origin.CallID), however soon it comes. From the caller's
	// goroutine, under the session's request table lock: it must not
	// block or call back into the session.
	OnID func(jsonrpc.ID)

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
