package replay

import (
	"cmp"
	"context"

	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/trust"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The replay of an ACP recording (elicit acp --record): the recorded
// agent (or -- AGENT ARGS) is started with the recorded settings, each
// recorded prompt is sent again in one session, every question is
// answered as recorded (matched by what it asks, never its id), and the
// turn is compared: stopReason, message text, the tool calls' titles,
// kinds and statuses, the questions' shapes and outcomes.

// acpVolatileRules says what an ACP replay does not compare.
func acpVolatileRules() []string {
	return []string{
		"JSON-RPC ids: each side numbers its own requests per connection",
		"sessionId: the agent makes one per run",
		"toolCallId, of tool calls and of the tool call a permission request is about: the agent numbers them per run; tool calls are compared by title, kind and status, in order",
		"a tool call's content, locations, rawInput and rawOutput: the agent's to vary; the message text is compared",
		"question keys and latencies, and every timestamp: the time of the run",
		"the text of elicit's own errors (no JSON-RPC code): they name the run's ids and timings; only that the turn failed is compared",
	}
}

// acpReplayOptions are the flags a replay of an ACP recording honours.
type acpReplayOptions struct {
	version string // elicit\'s
	file    string
	command []string // -- AGENT ARGS (none: the recorded agent)
	record  string   // --record of the replay
	asJSON  bool
	wait    time.Duration
	gate    trust.Gate
}

// runReplayACP replays a recording of agents only (elicit acp, the ACP
// TUI).
func runReplayACP(ctx context.Context, rec *record.Recording, o acpReplayOptions, stdout, stderr io.Writer) error {
	if len(o.command) > 0 && len(rec.Settings.Agents) != 1 {
		return exit.Usagef("the recording has %d agents: -- AGENT ARGS stands for one", len(rec.Settings.Agents))
	}
	var specs []serverspec.Agent
	var demos []bool
	for _, ra := range rec.Settings.Agents {
		spec, demo, err := agentOfRecorded(ra, o.command)
		if err != nil {
			return err
		}
		specs, demos = append(specs, spec), append(demos, demo)
	}
	if err := o.gate.Allow(ctx, agentLaunches(rec, specs, demos, len(o.command) > 0)); err != nil {
		return err
	}
	permits, err := agentPermits(ctx, o.gate, rec, demos, len(o.command) > 0)
	if err != nil {
		return err
	}
	settings := record.Settings{Command: "replay", Elicit: rec.Settings.Elicit, Sampling: "off"}
	for _, spec := range specs {
		// What an agent given here prints is masked as elicit acp masks it.
		serverspec.SecretsOf(stderr).Add(spec.SecretValues()...)
	}
	for i, spec := range specs {
		a := agents.RecordOf(spec, demos[i])
		ra := rec.Settings.Agents[i]
		a.Cwd, a.AllowFS, a.Auth, a.CancelAfterMS, a.QuestionTimeoutMS = ra.Cwd, ra.AllowFS, ra.Auth, ra.CancelAfterMS, ra.QuestionTimeoutMS
		a.IdleTimeoutMS = ra.IdleTimeoutMS
		a.Load, a.Resume, a.Dirs, a.Mode, a.Config, a.Attach, a.AllowTerminal = ra.Load, ra.Resume, ra.Dirs, ra.Mode, ra.Config, ra.Attach, ra.AllowTerminal
		settings.Agents = append(settings.Agents, a)
	}
	out, err := recording.Open(o.record, o.version, settings, serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	defer recording.Close(out, o.record, stderr)
	rep := &Report{File: o.file, Ignored: acpVolatileRules(), Truncated: rec.End == nil}
	set := startACPReplay(ctx, o.version, rec, specs, permits, out, o.wait, stderr)
	rep.Servers = set.servers
	rep.Calls = set.run(ctx)
	set.close()
	rep.Unattached = set.unattached()
	return rep.end(ctx, o.file, o.asJSON, rep.printACP, stdout)
}

// replayAgentsAsRecorded is the recording's agents as recorded, for a
// replay of servers and agents both (elicit demo's TUI): a command
// given stands for the server.
//
// Only the agents the recording has a prompt or a question of are
// started: elicit demo's agent, never used, is not part of the session
// replayed. rec's agents are left as those.
func replayAgentsAsRecorded(rec *record.Recording) ([]serverspec.Agent, []bool, error) {
	used := map[string]bool{}
	for _, c := range rec.Calls {
		used[c.Server] = true
	}
	for _, a := range rec.Answers {
		used[a.Server] = true
	}
	rec.Settings.Agents = slices.DeleteFunc(rec.Settings.Agents, func(a record.Agent) bool { return !used[a.Name] })
	var specs []serverspec.Agent
	var demos []bool
	for _, ra := range rec.Settings.Agents {
		spec, demo, err := agentOfRecorded(ra, nil)
		if err != nil {
			return nil, nil, err
		}
		specs, demos = append(specs, spec), append(demos, demo)
	}
	return specs, demos, nil
}

// acpReplaySet is the agents of a replay, each started as recorded.
type acpReplaySet struct {
	rec       *record.Recording
	order     []string
	replayers map[string]*acpReplayer
	servers   []replayServer
	// dirs are the demo agents' own folders, removed by close.
	dirs []string
}

// startACPReplay starts every agent (specs[i] stands for the recording's
// agent i, answered within permits[i]): a failure to start is the
// agent's error in the report.
func startACPReplay(ctx context.Context, version string, rec *record.Recording, specs []serverspec.Agent, permits []permitPolicy, out *record.Recorder, wait time.Duration, stderr io.Writer) *acpReplaySet {
	set := &acpReplaySet{rec: rec, replayers: map[string]*acpReplayer{}}
	em, err := cli.ParseElicit(cmpOr(rec.Settings.Elicit, "both"))
	if err != nil {
		em = client.ElicitBoth
	}
	for i, ra := range rec.Settings.Agents {
		spec := specs[i]
		against := "the demo agent"
		if permits[i].guard {
			against = strings.Join(append([]string{spec.Command}, serverspec.MaskArgs(spec.Args)...), " ")
		}
		srv := replayServer{Name: ra.Name, Against: against}
		if !permits[i].guard && spec.Dir == "" {
			// The demo agent writes and runs its scenes in a folder of
			// its own, as in elicit demo: never where the replay runs.
			dir, err := os.MkdirTemp("", "elicit-demo-agent-")
			if err != nil {
				srv.Error = fmt.Sprintf("the demo agent's folder: %v", err)
				set.servers = append(set.servers, srv)
				set.order = append(set.order, ra.Name)
				set.replayers[ra.Name] = &acpReplayer{rec: rec, agent: ra, prompter: newReplayPrompter(wait)}
				continue
			}
			spec.Dir, set.dirs = dir, append(set.dirs, dir)
		}
		prompter := newReplayPrompter(wait)
		prompter.permit = permits[i]
		for _, a := range rec.Answers {
			if a.Call == 0 && a.Server == ra.Name {
				prompter.addOutside(a) // a sign-in method asked before any prompt
			}
		}
		name := ra.Name
		w := &app.AgentWiring{Name: name, Version: version, Command: spec.Command, Args: spec.Args, Env: spec.Env, Dir: spec.Dir,
			Secrets: serverspec.SecretsOf(stderr), SecretValues: spec.SecretValues(), Recorder: out, Elicit: em,
			Prompter: prompter, Journal: question.NewJournal(0),
			OnStderr: func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", name, untrusted.Line(line)) },
			OnResolved: func(e question.JournalEntry) {
				prompter.Event(client.PromptResolved{Key: e.Key, Entry: e, Sent: e.Sent})
			},
			AllowFS: ra.AllowFS, AllowTerminal: ra.AllowTerminal, QuestionTimeout: time.Duration(ra.QuestionTimeoutMS) * time.Millisecond,
			TurnIdle: cmp.Or(time.Duration(ra.IdleTimeoutMS)*time.Millisecond, agents.IdleTimeout)}
		if ra.Auth != "" {
			w.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) { return ra.Auth, nil }
		} else {
			// The TUI asked the person which method: asked again, and
			// answered as recorded.
			w.AskAuth = prompter
		}
		sctx, cancel := context.WithTimeout(ctx, agents.StartTimeout)
		c, err := w.Start(sctx)
		cancel()
		if err != nil {
			srv.Error, c = err.Error(), nil
		}
		set.servers = append(set.servers, srv)
		set.order = append(set.order, name)
		set.replayers[name] = &acpReplayer{rec: rec, agent: ra, c: c, w: w, prompter: prompter}
	}
	return set
}

// run replays the agents' calls, in the recorded order.
func (s *acpReplaySet) run(ctx context.Context) []callReport {
	var out []callReport
	for _, call := range s.rec.Calls {
		r := s.replayers[call.Server]
		if r == nil {
			continue
		}
		out = append(out, r.replay(ctx, call))
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

// close closes every agent (their open questions answered -32800).
func (s *acpReplaySet) close() {
	for _, name := range s.order {
		if c := s.replayers[name].c; c != nil {
			c.Close()
		}
	}
	for _, d := range s.dirs {
		_ = os.RemoveAll(d)
	}
}

// unattached reports the recorded answers of no prompt (a sign-in
// method's) that did not come again.
func (s *acpReplaySet) unattached() []Difference {
	var out []Difference
	for _, a := range s.rec.Answers {
		r := s.replayers[a.Server]
		if a.Call != 0 || r == nil {
			continue
		}
		if !r.prompter.cameOutside(a) {
			out = append(out, Difference{What: "question missing", Text: fmt.Sprintf("%s (asked outside any prompt) did not come again", describeQuestion(a.Question))})
		}
	}
	return out
}

// agentOfRecorded is where the recorded agent is replayed: the command
// given, else the recorded one (demo: this elicit's own). What the
// recording masked cannot be had from it.
func agentOfRecorded(ra record.Agent, command []string) (spec serverspec.Agent, demo bool, err error) {
	switch {
	case len(command) > 0:
		spec = serverspec.Agent{Name: ra.Name, Command: command[0], Args: command[1:]}
	case ra.Kind == "demo":
		spec, err = agents.Demo(ra.Name)
		demo = true
	case ra.Kind == "stdio":
		if slices.ContainsFunc(ra.Args, func(a string) bool { return strings.Contains(a, serverspec.Masked) }) {
			return spec, false, exit.Usagef("the recorded command of %s has a masked (secret) argument: give the agent with -- AGENT ARGS...", ra.Name)
		}
		spec = serverspec.Agent{Name: ra.Name, Command: ra.Command, Args: ra.Args}
		for _, name := range ra.EnvNames {
			if v, ok := os.LookupEnv(name); ok {
				spec.Env = append(spec.Env, name+"="+v)
			}
		}
	default:
		return spec, false, exit.Usagef("recorded agent %s is of kind %q, which this elicit cannot start: give it with -- AGENT ARGS", ra.Name, ra.Kind)
	}
	if len(command) == 0 && !demo {
		// An agent the person names runs here, as a server named does:
		// the recorded directory is the recorded agent's. The demo
		// agent's was a folder of the demo's own, gone with it: it gets
		// one again (startACPReplay).
		spec.Dir = ra.Dir
	}
	return spec, demo, err
}

// acpReplayer runs an ACP recording's prompts again, in one session.
type acpReplayer struct {
	rec      *record.Recording
	agent    record.Agent
	c        *acp.Client      // nil: the agent did not start
	w        *app.AgentWiring // c's: records the turns again
	prompter *replayPrompter
	session  string
}

func (r *acpReplayer) replay(ctx context.Context, call record.RecordedCall) callReport {
	var p app.PromptParams
	_ = decodeParams(call.Params, &p)
	rep := callReport{Call: call.Call.Call, Server: call.Server, Method: call.Method, Name: p.Prompt}
	if call.Method != app.PromptMethod {
		rep.Status, rep.Note = "skipped", "elicit does not replay "+call.Method+" of an agent"
		return rep
	}
	if r.c == nil {
		rep.add(Difference{What: "server", Text: "the agent did not start"})
		return rep.done()
	}
	expected := answersOf(r.rec, call)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.prompter.begin(expected, cancel)
	res, err := r.w.Turn(p, func() (acp.TurnResult, error) { return r.turn(cctx, p) })
	seen := r.prompter.end(ctx)
	rep.Differences = append(rep.Differences, compareQuestions(expected, seen)...)
	if call.Result != nil && call.Result.Error != nil && call.Result.Error.Closed {
		rep.Note = "the recorded session was closed before this turn ended: how it ends is not compared"
		return rep.done()
	}
	if call.Result == nil || call.Result.Error != nil || err != nil {
		rep.Differences = append(rep.Differences, compareResult(call.Result, nil, err, nil, nil)...)
		return rep.done()
	}
	recorded, derr := decodeTurnRecord(call.Result.Result)
	if derr != nil {
		rep.add(Difference{What: "result", Text: "the recorded turn cannot be read: " + derr.Error()})
		return rep.done()
	}
	var d []Difference
	diffJSON("", compareTurnOf(recorded), compareTurnOf(app.TurnRecordOf(res)), &d, "result")
	rep.Differences = append(rep.Differences, d...)
	return rep.done()
}

// turn runs one prompt: the session is made at the first (with the
// recorded cwd, loaded or resumed, its mode and config set, as
// recorded), bounded as elicit acp bounds it; the recorded files are
// attached again.
func (r *acpReplayer) turn(ctx context.Context, p app.PromptParams) (acp.TurnResult, error) {
	setup := agents.SetupOf(r.agent, cmpOr(p.Cwd, r.agent.Cwd, "."))
	if r.session == "" {
		sctx, cancel := context.WithTimeout(ctx, agents.StartTimeout)
		defer cancel()
		sess, err := setup.Open(sctx, r.c)
		if err != nil {
			return acp.TurnResult{}, err
		}
		r.session = sess.ID
	}
	blocks, err := setup.Blocks(r.c, p.Prompt)
	if err != nil {
		return acp.TurnResult{}, err
	}
	if ms := r.agent.CancelAfterMS; ms > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
		defer cancel()
	}
	return r.c.PromptBlocks(ctx, r.session, blocks)
}

// printACP is print with the ACP turn's "not compared".
func (r *Report) printACP(w io.Writer) {
	var b strings.Builder
	r.printCalls(&b)
	fmt.Fprint(w, b.String())
	fmt.Fprintf(w, "not compared, as they differ between runs by design: %s. Why each: --json, docs/record.md\n",
		"JSON-RPC ids; sessionId; toolCallIds (tool calls are compared by title, kind, status); tool call content; question keys, latencies and timestamps; the text of elicit's own errors")
}

// decodeParams reads a recorded call's params into v (none: v as is),
// by exact member name, as a person or jq reads the file: "Prompt" beside
// "prompt" is another member (encoding/json took the last of the two).
func decodeParams(raw []byte, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := wire.DecodeExact(raw, v); err != nil {
		return fmt.Errorf("the recorded params: %w", err)
	}
	return nil
}
