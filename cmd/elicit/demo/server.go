package demo

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name and Version identify the demo server in the initialize handshake and
// in server/discover.
const (
	Name    = "elicit-demo"
	Version = "0.1.0"
)

// instructions is sent in the initialize and server/discover results;
// clients may show it or hand it to a model. instructionsFor leaves out
// what the server does not list.
const instructions = `elicit demo server: each tool plays one elicitation scene.
In 2025-11-25 questions are elicitation/create requests; in 2026-07-28 they come back as input_required results to answer and retry.
- deploy: confirm a production deploy; accept, decline and cancel give three different results.
- create_ticket: asks for a priority; call it twice at once to get two questions.
- showcase: one form with every field type of the 2025-11-25 subset, each with a default.
- wizard: two rounds; the second question depends on the first answer.
- needs_state_only: the first attempt asks nothing and must be retried at once (load shedding).
- withdrawn: asks, then withdraws the question itself (notifications/cancelled; 2025-11-25 only).
- consent: a URL-mode elicitation (needs the client to declare elicitation.url).
- storm: n questions at once, to check that answers find their question.
- slow: progress notifications and log messages until done or cancelled.
- reflow_month: a long job run as a task (params.task in 2025-11-25, the tasks extension in 2026-07-28); asks where one workshop goes.
- reflow_fail, reflow_iserror, reflow_stubborn: tasks that fail, end in a tool error, or ignore tasks/cancel.
- summarize: asks the client's model for a summary (sampling/createMessage; needs the client to declare sampling).
- palette: opens an MCP App (ui://demo/palette.html) whose buttons call the app-only pick_colour; without an app host it lists the colours.
- echo, add: plain tools without questions.
Resource template demo://scene/{tool}: what one tool shows.`

// withdrawnLine is the instructions' line of the withdrawn tool.
const withdrawnLine = "- withdrawn: asks, then withdraws the question itself (notifications/cancelled; 2025-11-25 only).\n"

func instructionsFor(cfg config) string {
	if cfg.modernOnly() {
		return strings.Replace(instructions, withdrawnLine, "", 1)
	}
	return instructions
}

// New returns the demo server with every tool, the demo://readme resource
// and the greet prompt. Each call returns a fresh server; a server may be
// connected to any number of sessions. It panics on an unknown
// [Options.Protocol].
func New(opts *Options) *mcp.Server {
	srv, _ := newServer(mustConfig(opts), context.Background())
	return srv
}

// newServer builds the server and its task store; when life ends, every
// request and task still running is cancelled (see bound), and the store's
// wait returns once their jobs are gone.
func newServer(cfg config, life context.Context) (*mcp.Server, *taskStore) {
	// Logging is deprecated from 2026-07-28 on, but current in 2025-11-25.
	//lint:ignore SA1019 the slow tool logs to 2025-11-25 clients
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	srv := mcp.NewServer(&mcp.Implementation{
		Name:    Name,
		Title:   "elicit demo server",
		Version: Version,
	}, &mcp.ServerOptions{
		Instructions:              instructionsFor(cfg),
		Logger:                    cfg.logger,
		Capabilities:              caps,
		SupportedProtocolVersions: cfg.versions,
		CompletionHandler:         complete(cfg),
	})
	tasks := newTaskStore(cfg, life)
	// One call, so the order is guard(bound(tasks(go-sdk))).
	srv.AddReceivingMiddleware(guard, bound(life), tasks.middleware)
	tasks.registerMethods(srv)
	addDeploy(srv, cfg)
	addTicket(srv, cfg)
	addShowcase(srv, cfg)
	addWizard(srv, cfg)
	addRetry(srv, cfg)
	addWithdrawn(srv, cfg)
	addConsent(srv, cfg)
	addStorm(srv, cfg)
	addSlow(srv, cfg)
	addBasic(srv)
	addPalette(srv)
	addSummarize(srv)
	addReflow(srv, tasks)
	addFeatures(srv, cfg)
	if err := addSkills(srv, caps); err != nil {
		panic(err) // a method name of ours that go-sdk calls standard: a bug
	}
	return srv, tasks
}
