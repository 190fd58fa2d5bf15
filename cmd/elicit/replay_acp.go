package main

import (
	"context"
	"encoding/json"
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
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
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
	file    string
	command []string // -- AGENT ARGS (none: the recorded agent)
	record  string   // --record of the replay
	asJSON  bool
	wait    time.Duration
}

func runReplayACP(ctx context.Context, rec *record.Recording, o acpReplayOptions, stdout, stderr io.Writer) error {
	if len(rec.Settings.Agents) != 1 {
		return usageErr("the recording has %d agents: elicit replays one", len(rec.Settings.Agents))
	}
	ra := rec.Settings.Agents[0]
	spec, demo, err := agentOfRecorded(ra, o.command)
	if err != nil {
		return err
	}
	against := "the demo agent"
	if !demo {
		against = strings.Join(append([]string{spec.Command}, maskArgs(spec.Args)...), " ")
	}
	rep := &replayReport{File: o.file, Ignored: acpVolatileRules(), Truncated: rec.End == nil,
		Servers: []replayServer{{Name: ra.Name, Against: against}}}
	settings := record.Settings{Command: "replay", Elicit: rec.Settings.Elicit, Sampling: "off", Agents: []record.Agent{recordAgent(spec, demo)}}
	settings.Agents[0].Cwd, settings.Agents[0].AllowFS, settings.Agents[0].Auth = ra.Cwd, ra.AllowFS, ra.Auth
	out, err := openRecord(o.record, settings)
	if err != nil {
		return err
	}
	defer closeRecord(out, o.record, stderr)

	em, err := parseElicit(cmpOr(rec.Settings.Elicit, "both"))
	if err != nil {
		em = client.ElicitBoth
	}
	modes := question.Modes{Form: em == client.ElicitBoth || em == client.ElicitForm, URL: em == client.ElicitBoth || em == client.ElicitURL}
	prompter := newReplayPrompter(o.wait)
	opts := acp.Options{Name: ra.Name, Command: spec.Command, Args: spec.Args, Env: spec.Env, Dir: spec.Dir, ClientVersion: version,
		Prompter: out.Prompter(prompter),
		OnStderr: func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", ra.Name, untrusted.Line(line)) },
		OnResolved: func(e question.JournalEntry) {
			out.Resolved(e)
			prompter.Event(client.PromptResolved{Key: e.Key, Entry: e, Sent: e.Sent})
		},
		AllowFS: ra.AllowFS, QuestionTimeout: time.Duration(ra.QuestionTimeoutMS) * time.Millisecond, Modes: &modes}
	if out != nil {
		opts.OnFrame = func(fr transport.Frame) { out.Frame(ra.Name, fr) }
	}
	if ra.Auth != "" {
		opts.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) { return ra.Auth, nil }
	}
	startCtx, cancel := context.WithTimeout(ctx, agentStartTimeout)
	defer cancel()
	c, err := acp.Start(startCtx, opts)
	if err != nil {
		rep.Servers[0].Error = err.Error()
	}
	r := &acpReplayer{rec: rec, agent: ra, c: c, prompter: prompter, out: out, wait: o.wait}
	for _, call := range rec.Calls {
		if call.Server != ra.Name {
			continue
		}
		rep.Calls = append(rep.Calls, r.replay(ctx, call))
		if ctx.Err() != nil {
			break
		}
	}
	if c != nil {
		c.Close()
	}
	rep.finish()
	if o.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		rep.printACP(stdout)
	}
	if ctx.Err() != nil {
		return fail(exitInternal, "replay interrupted")
	}
	if rep.Servers[0].Error != "" {
		return fail(exitConnect, "replay of %s: %s: %s", o.file, ra.Name, rep.Servers[0].Error)
	}
	if !rep.Match {
		return fail(exitDiffers, "replay of %s: %d difference(s)", o.file, rep.Differences)
	}
	return nil
}

// agentOfRecorded is where the recorded agent is replayed: the command
// given, else the recorded one (demo: this elicit's own). What the
// recording masked cannot be had from it.
func agentOfRecorded(ra record.Agent, command []string) (spec agentSpec, demo bool, err error) {
	switch {
	case len(command) > 0:
		spec = agentSpec{Name: ra.Name, Command: command[0], Args: command[1:]}
	case ra.Kind == "demo":
		spec, err = demoAgentSpec(ra.Name)
		demo = true
	case ra.Kind == "stdio":
		if slices.ContainsFunc(ra.Args, func(a string) bool { return strings.Contains(a, masked) }) {
			return spec, false, usageErr("the recorded command of %s has a masked (secret) argument: give the agent with -- AGENT ARGS...", ra.Name)
		}
		spec = agentSpec{Name: ra.Name, Command: ra.Command, Args: ra.Args}
		for _, name := range ra.EnvNames {
			if v, ok := os.LookupEnv(name); ok {
				spec.Env = append(spec.Env, name+"="+v)
			}
		}
	default:
		return spec, false, usageErr("recorded agent %s is of kind %q, which this elicit cannot start: give it with -- AGENT ARGS", ra.Name, ra.Kind)
	}
	spec.Dir = ra.Dir
	return spec, demo, err
}

// acpReplayer runs an ACP recording's prompts again, in one session.
type acpReplayer struct {
	rec      *record.Recording
	agent    record.Agent
	c        *acp.Client // nil: the agent did not start
	prompter *replayPrompter
	out      *record.Recorder
	wait     time.Duration
	session  string
}

func (r *acpReplayer) replay(ctx context.Context, call record.RecordedCall) callReport {
	var p acpPromptParams
	_ = decodeParams(call.Params, &p)
	rep := callReport{Call: call.Call.Call, Server: call.Server, Method: call.Method, Name: p.Prompt}
	if call.Method != methodACPPrompt {
		rep.Status, rep.Note = "skipped", "elicit does not replay "+call.Method+" of an agent"
		return rep
	}
	if r.c == nil {
		rep.add(difference{What: "server", Text: "the agent did not start"})
		return rep.done()
	}
	var expected []record.Answer
	for _, a := range r.rec.Answers {
		if a.Call == call.Call.Call && a.Server == call.Server {
			expected = append(expected, a)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.prompter.begin(expected, cancel)
	rc := r.out.Begin(call.Server, call.Method, "", p, nil)
	res, err := r.turn(cctx, p)
	if err != nil {
		rc.End(nil, err)
	} else {
		rc.End(turnRecordOf(res), nil)
	}
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
		rep.add(difference{What: "result", Text: "the recorded turn cannot be read: " + derr.Error()})
		return rep.done()
	}
	var d []difference
	diffJSON("", compareTurnOf(recorded), compareTurnOf(turnRecordOf(res)), &d, "result")
	rep.Differences = append(rep.Differences, d...)
	return rep.done()
}

// turn runs one prompt: the session is made at the first (with the
// recorded cwd), bounded as elicit acp bounds it.
func (r *acpReplayer) turn(ctx context.Context, p acpPromptParams) (acp.TurnResult, error) {
	if r.session == "" {
		sctx, cancel := context.WithTimeout(ctx, agentStartTimeout)
		defer cancel()
		sid, err := r.c.NewSession(sctx, cmpOr(p.Cwd, r.agent.Cwd, "."))
		if err != nil {
			return acp.TurnResult{}, err
		}
		r.session = sid
	}
	if ms := r.agent.CancelAfterMS; ms > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
		defer cancel()
	}
	return r.c.Prompt(ctx, r.session, p.Prompt)
}

// printACP is print with the ACP turn's "not compared".
func (r *replayReport) printACP(w io.Writer) {
	var b strings.Builder
	r.printCalls(&b)
	fmt.Fprint(w, b.String())
	fmt.Fprintf(w, "not compared, as they differ between runs by design: %s. Why each: --json, docs/record.md\n",
		"JSON-RPC ids; sessionId; toolCallIds (tool calls are compared by title, kind, status); tool call content; question keys, latencies and timestamps; the text of elicit's own errors")
}

// decodeParams reads a recorded call's params into v (none: v as is).
func decodeParams(raw []byte, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("the recorded params: %w", err)
	}
	return nil
}
