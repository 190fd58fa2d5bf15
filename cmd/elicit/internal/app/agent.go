package app

import (
	"context"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
)

// AgentWiring is what varies between the ways elicit starts an ACP agent
// (elicit acp, the TUI's agents, a replay of either), as Wiring is for an
// MCP session. The zero value of a field is client/acp's default, or no
// hook. Unlike an MCP server's transport, an agent's is made here (it is
// always stdio), so the run's secrets are applied here too.
type AgentWiring struct {
	Name    string // the agent's name: keys the recording, the journal, the questions
	Version string // elicit's version, sent as clientInfo

	// Command, Args, Env and Dir start the agent.
	Command string
	Args    []string
	Env     []string
	Dir     string

	// Secrets is the run's set (nil: none): SecretValues, the agent's own
	// (its secret arguments and environment values), join it as the agent
	// starts, and what the agent sends (frames, stderr) is masked with it
	// before the recording, OnFrame or OnStderr see it.
	Secrets      *redact.Secrets
	SecretValues []string

	// Prompter answers the agent's questions; the recording sees each
	// answer first. Journal keeps how each ended (nil: the client's own).
	Prompter question.Prompter
	Journal  *question.Journal
	// Recorder records the frames, the answers and each turn (Turn); nil:
	// none.
	Recorder *record.Recorder

	// Elicit is the elicitation modes declared (the zero value: both).
	Elicit client.ElicitModes

	// ChooseAuth picks the sign-in method when the agent wants one
	// (elicit acp --auth, a recorded method). Without it, AskAuth, if
	// set, is asked as a form question (acp.AskAuth), journalled, and
	// recorded as ended.
	ChooseAuth func(ctx context.Context, methods []acp.AuthMethod) (string, error)
	AskAuth    question.Prompter

	// OnFrame, OnStderr, OnUpdate and OnResolved are the caller's hooks
	// (after the masking and the recording); OnFile hears the agent's fs
	// requests (AllowFS).
	OnFrame    func(transport.Frame)
	OnStderr   func(line string)
	OnUpdate   func(acp.Update)
	OnResolved func(question.JournalEntry)
	OnFile     func(acp.FileAccess)

	AllowFS                   bool
	QuestionTimeout, TurnIdle time.Duration
}

// Options are the agent's options with every hook wired.
func (w *AgentWiring) Options() acp.Options {
	modes := question.Modes{
		Form: w.Elicit == client.ElicitBoth || w.Elicit == client.ElicitForm,
		URL:  w.Elicit == client.ElicitBoth || w.Elicit == client.ElicitURL,
	}
	opts := acp.Options{Name: w.Name, Command: w.Command, Args: w.Args, Env: w.Env, Dir: w.Dir,
		ClientVersion: w.Version, Prompter: w.Recorder.Prompter(w.Prompter), Journal: w.Journal, Modes: &modes,
		OnUpdate: w.OnUpdate, OnStderr: w.stderr, OnFrame: w.frame, OnResolved: w.resolved, OnFile: w.OnFile,
		AllowFS: w.AllowFS, QuestionTimeout: w.QuestionTimeout, TurnIdle: w.TurnIdle, ChooseAuth: w.ChooseAuth}
	if opts.ChooseAuth == nil && w.AskAuth != nil {
		if opts.Journal == nil {
			// AskAuth journals the sign-in where the questions are.
			opts.Journal = question.NewJournal(0)
		}
		opts.ChooseAuth = w.askAuth(opts.Journal)
	}
	return opts
}

// Start adds the agent's secrets to the run's, starts it and runs
// initialize; ctx bounds both.
func (w *AgentWiring) Start(ctx context.Context) (*acp.Client, error) {
	w.Secrets.Add(w.SecretValues...)
	return acp.Start(ctx, w.Options())
}

// Turn runs one prompt turn (run: session/new if need be, then
// session/prompt) recorded as one call, PromptMethod, for a replay.
func (w *AgentWiring) Turn(p PromptParams, run func() (acp.TurnResult, error)) (acp.TurnResult, error) {
	call := w.Recorder.Begin(w.Name, PromptMethod, "", p, nil)
	res, err := run()
	if err != nil {
		call.End(nil, err)
	} else {
		call.End(TurnRecordOf(res), nil)
	}
	return res, err
}

func (w *AgentWiring) frame(f transport.Frame) {
	if w.Secrets != nil {
		// An agent is on stdio: its frames carry no HTTP to mask.
		f.Raw = w.Secrets.Bytes(f.Raw) // a copy when it changes: Raw is not ours
		f.Err = w.Secrets.Error(f.Err)
	}
	w.Recorder.Frame(w.Name, f)
	if w.OnFrame != nil {
		w.OnFrame(f)
	}
}

func (w *AgentWiring) stderr(line string) {
	if w.OnStderr != nil {
		w.OnStderr(w.Secrets.String(line))
	}
}

func (w *AgentWiring) resolved(e question.JournalEntry) {
	w.Recorder.Resolved(e)
	if w.OnResolved != nil {
		w.OnResolved(e)
	}
}

// askAuth is acp.AskAuth whose sign-in question's end is also told
// resolved: AskAuth journals it, and no OnResolved says so, so a
// recording would keep it "open" and a replay wait for it to end by
// itself.
func (w *AgentWiring) askAuth(j *question.Journal) func(context.Context, []acp.AuthMethod) (string, error) {
	ask := acp.AskAuth(w.Name, w.Recorder.Prompter(w.AskAuth), j)
	return func(ctx context.Context, methods []acp.AuthMethod) (string, error) {
		id, err := ask(ctx, methods)
		entries := j.Entries()
		for i := len(entries) - 1; i >= 0; i-- {
			if e := entries[i]; e.Key.Server == w.Name && e.Key.Delivery == question.AuthChoice {
				w.resolved(e)
				break
			}
		}
		return id, err
	}
}
