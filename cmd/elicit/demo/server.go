package demo

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultWithdrawAfter is how long the withdrawn tool waits before it takes
// its question back, when [Options.WithdrawAfter] is zero.
const DefaultWithdrawAfter = 4 * time.Second

// Name and Version identify the demo server in the initialize handshake.
const (
	Name    = "elicit-demo"
	Version = "0.1.0"
)

// newestVersion is the newest protocol the demo negotiates. Under 2026-07-28
// a server may not send elicitation/create, and every tool here does; a
// client that offers 2026-07-28 is told so and falls back to initialize.
const newestVersion = "2025-11-25"

// Options configures the demo server. The zero value (or nil) is ready to
// use.
type Options struct {
	// WithdrawAfter is how long the withdrawn tool waits for an answer before
	// it cancels its own question. Zero means [DefaultWithdrawAfter].
	WithdrawAfter time.Duration
	// Logger receives the server's own diagnostics (never the MCP logging
	// notifications, which go to the client). Nil discards them.
	Logger *slog.Logger
}

// config is Options with the defaults filled in.
type config struct {
	withdrawAfter time.Duration
	logger        *slog.Logger
}

func newConfig(opts *Options) config {
	c := config{withdrawAfter: DefaultWithdrawAfter, logger: slog.New(slog.DiscardHandler)}
	if opts == nil {
		return c
	}
	if opts.WithdrawAfter > 0 {
		c.withdrawAfter = opts.WithdrawAfter
	}
	if opts.Logger != nil {
		c.logger = opts.Logger
	}
	return c
}

// instructions is sent in the initialize result; clients may show it or hand
// it to a model.
const instructions = `elicit demo server: each tool plays one elicitation scene.
- deploy: confirm a production deploy; accept, decline and cancel give three different results.
- create_ticket: asks for a priority; call it twice at once to get two questions.
- showcase: one form with every field type of the 2025-11-25 subset, each with a default.
- withdrawn: asks, then withdraws the question itself (notifications/cancelled).
- consent: a URL-mode elicitation (needs the client to declare elicitation.url).
- storm: n questions at once, to check that answers find their question.
- slow: progress notifications and log messages until done or cancelled.
- echo, add: plain tools without questions.`

// New returns the demo server with every tool, the demo://readme resource
// and the greet prompt. Each call returns a fresh server; a server may be
// connected to any number of sessions.
func New(opts *Options) *mcp.Server {
	return newServer(newConfig(opts), context.Background())
}

// newServer builds the server; when life ends, every request still running
// is cancelled (see bound).
func newServer(cfg config, life context.Context) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{
		Name:    Name,
		Title:   "elicit demo server",
		Version: Version,
	}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       cfg.logger,
		// Logging is deprecated from 2026-07-28 on, but the demo serves 2025-11-25.
		//lint:ignore SA1019 the slow tool logs to 2025-11-25 clients
		Capabilities:              &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}},
		SupportedProtocolVersions: legacyVersions(),
	})
	srv.AddReceivingMiddleware(guard, bound(life))
	addDeploy(srv)
	addTicket(srv)
	addShowcase(srv)
	addWithdrawn(srv, cfg)
	addConsent(srv)
	addStorm(srv)
	addSlow(srv, cfg)
	addBasic(srv)
	addFeatures(srv)
	return srv
}

// legacyVersions lists the protocol versions go-sdk supports up to
// newestVersion, newest first.
func legacyVersions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), func(v string) bool {
		return v > newestVersion // dates compare as strings
	})
}
