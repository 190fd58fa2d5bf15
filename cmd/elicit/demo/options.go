package demo

import (
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultWithdrawAfter is how long the withdrawn tool waits before it takes
// its question back, when [Options.WithdrawAfter] is zero.
const DefaultWithdrawAfter = 4 * time.Second

// Task pacing defaults, used when the matching Options field is zero.
const (
	// DefaultTaskPollInterval is the pollInterval (pollIntervalMs) the demo
	// suggests to clients polling its tasks.
	DefaultTaskPollInterval = 500 * time.Millisecond
	// DefaultTaskStep is how long one unit of work of the reflow tools takes
	// (moving one booking): twelve of them make a job of a few seconds.
	DefaultTaskStep = 400 * time.Millisecond
)

// The protocol versions that pick an era in [Options.Protocol].
const (
	// ProtocolLegacy is the newest version of the stateful era: questions are
	// elicitation/create requests from the server.
	ProtocolLegacy = "2025-11-25"
	// ProtocolStateless is the stateless era: questions travel in
	// input_required results (MRTR) and there is no handshake.
	ProtocolStateless = modernVersion
)

// Options configures the demo server. The zero value (or nil) is ready to
// use.
type Options struct {
	// WithdrawAfter is how long the withdrawn tool waits for an answer before
	// it cancels its own question. Zero means [DefaultWithdrawAfter].
	WithdrawAfter time.Duration
	// Logger receives the server's own diagnostics (never the MCP logging
	// notifications, which go to the client). Nil discards them.
	Logger *slog.Logger
	// Protocol restricts the protocol versions served (go-sdk's
	// ServerOptions.SupportedProtocolVersions):
	//   - "": every version go-sdk supports, 2026-07-28 first; the client's
	//     choice picks the era;
	//   - a version before 2026-07-28, e.g. [ProtocolLegacy]: that version
	//     and older ones, the stateful era only;
	//   - 2026-07-28 or later, e.g. [ProtocolStateless]: that version and
	//     newer ones. go-sdk still answers a legacy initialize (with
	//     2025-11-25, so that the client can tell and disconnect) and does
	//     not refuse that session's later requests.
	//
	// Whatever it says, the stateful [HTTPHandler] cannot serve 2026-07-28
	// (go-sdk serves it only statelessly): use [HTTPHandlerStateless].
	//
	// A version go-sdk does not know makes [New] and the HTTP handlers panic
	// and the Serve functions fail; check it first with [CheckProtocol].
	Protocol string
	// Stateless makes [ServeHTTP] and [ServeListener] serve
	// [HTTPHandlerStateless] instead of [HTTPHandler]. Other functions ignore
	// it.
	Stateless bool
	// TaskPollInterval is the poll interval the task tools (reflow_*)
	// suggest to clients. Zero means [DefaultTaskPollInterval].
	TaskPollInterval time.Duration
	// TaskStep is how long one unit of work of the task tools takes. Zero
	// means [DefaultTaskStep]; tests use a few milliseconds.
	TaskStep time.Duration
}

// CheckProtocol reports whether v is a valid [Options.Protocol].
func CheckProtocol(v string) error {
	if v != "" && !slices.Contains(mcp.SupportedProtocolVersions(), v) {
		return fmt.Errorf("demo: unknown protocol version %q (go-sdk supports %v)", v, mcp.SupportedProtocolVersions())
	}
	return nil
}

// config is Options with the defaults filled in.
type config struct {
	withdrawAfter time.Duration
	logger        *slog.Logger
	versions      []string   // the protocol versions served, newest first
	stateless     bool       // serve HTTP statelessly
	codec         stateCodec // seals requestState; one random key per server
	taskPoll      time.Duration
	taskStep      time.Duration
}

func newConfig(opts *Options) (config, error) {
	c := config{withdrawAfter: DefaultWithdrawAfter, logger: slog.New(slog.DiscardHandler), codec: newStateCodec(),
		taskPoll: DefaultTaskPollInterval, taskStep: DefaultTaskStep}
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := CheckProtocol(o.Protocol); err != nil {
		return c, err
	}
	if o.WithdrawAfter > 0 {
		c.withdrawAfter = o.WithdrawAfter
	}
	if o.Logger != nil {
		c.logger = o.Logger
	}
	if o.TaskPollInterval > 0 {
		c.taskPoll = o.TaskPollInterval
	}
	if o.TaskStep > 0 {
		c.taskStep = o.TaskStep
	}
	c.versions = versionsFor(o.Protocol)
	c.stateless = o.Stateless
	return c, nil
}

// modernOnly reports whether every version served is of the stateless era.
func (c config) modernOnly() bool {
	return len(c.versions) > 0 && !slices.ContainsFunc(c.versions, func(v string) bool { return v < modernVersion })
}

// mustConfig is newConfig for the functions that cannot return an error.
func mustConfig(opts *Options) config {
	c, err := newConfig(opts)
	if err != nil {
		panic(err) // documented on Options.Protocol: the caller's bug, not input
	}
	return c
}

// versionsFor lists the versions Options.Protocol p selects, newest first.
func versionsFor(p string) []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), func(v string) bool {
		switch {
		case p == "":
			return false
		case p >= modernVersion: // dates compare as strings
			return v < p
		default:
			return v > p
		}
	})
}
