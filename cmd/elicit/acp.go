package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

const acpUsage = `Usage: elicit acp --prompt TEXT [--answer POLICY] [--permission P]
                 [--cancel-after DURATION] [--cwd DIR] [-- AGENT ARGS...]
       elicit acp [--cwd DIR] [-- AGENT ARGS...]   (no --prompt: the TUI)

Runs one ACP prompt turn against AGENT (an Agent Client Protocol agent on
stdio; without one, the embedded demo agent, elicit demo --acp) and prints
JSON: the agent, the stopReason, the message text, the tool calls, and
every question the agent asked with its outcome and what was sent.
The agent's elicitation/create questions are answered by --answer (as for
elicit call: accept-defaults, accept, decline, cancel, FILE.json; or hold,
which leaves them open as --permission hold does); its
session/request_permission requests by --permission:
  reject      pick the reject_once option (default; "cancelled" if none)
  allow       pick the allow_once option (else allow_always)
  cancel      stop the turn (session/cancel), as Esc does
  hold        leave it open until the agent withdraws it, --cancel-after
              fires, or the turn ends
  OPTION_ID   pick that option
--cancel-after, counted from the prompt, stops the turn (session/cancel).
Exit codes: 0 end_turn, 2 usage, 3 the agent could not be started or
initialized, 4 refusal, another stopReason or an error, 5 a question ended
other than accept or allow.
`

// acpFlags are elicit acp's flags.
type acpFlags struct {
	prompt, answer, permission, cwd string
	cancelAfter                     time.Duration
}

func runACP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f acpFlags
	fs := newFlagSet("acp", stderr, acpUsage)
	fs.StringVar(&f.prompt, "prompt", "", "the prompt text (required)")
	fs.StringVar(&f.answer, "answer", "accept-defaults", "how to answer elicitations: accept-defaults, accept, decline, cancel or FILE.json")
	fs.StringVar(&f.permission, "permission", "reject", "how to answer permission requests: allow, reject, cancel, hold or an optionId")
	fs.DurationVar(&f.cancelAfter, "cancel-after", 0, "stop the turn this long after the prompt (0: never)")
	fs.StringVar(&f.cwd, "cwd", ".", "the session's working directory")
	before, command := splitDashDash(args)
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("acp takes no arguments before --, got %q", pos[0])
	}
	if f.prompt == "" {
		return usageErr("acp needs --prompt TEXT")
	}
	if f.cancelAfter < 0 {
		return usageErr("--cancel-after must not be negative")
	}
	var answer question.Prompter = holdPrompter{}
	if f.answer != "hold" {
		if answer, err = policy(f.answer); err != nil {
			return err
		}
	}
	name := demoAgentName
	if len(command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return fail(exitConnect, "the demo agent: %w", err)
		}
		command = []string{exe, "demo", "--acp"}
	} else {
		name = filepath.Base(command[0])
	}
	opts := acp.Options{Name: name, Command: command[0], Args: command[1:], ClientVersion: version,
		Prompter: &acpPrompter{answer: answer, permission: f.permission},
		OnStderr: func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", name, untrusted.Line(line)) }}
	startCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := acp.Start(startCtx, opts)
	if err != nil {
		return fail(exitConnect, "%w", err)
	}
	defer c.Close()
	out := acpOutput{Agent: agentOf(name, c.Info())}
	sid, err := c.NewSession(startCtx, f.cwd)
	var res acp.TurnResult
	if err == nil {
		out.SessionID = sid
		pctx := ctx
		if f.cancelAfter > 0 {
			var pcancel context.CancelFunc
			pctx, pcancel = context.WithTimeout(ctx, f.cancelAfter)
			defer pcancel()
		}
		res, err = c.Prompt(pctx, sid, f.prompt)
	}
	// Closing answers what is still held (-32800) and completes the
	// journal.
	c.Close()
	out.fill(res, c.Journal())
	err = acpVerdict(res, err, out.Questions)
	if err != nil {
		out.Error = err.Error()
	}
	out.Failure = failureOf(err)
	if werr := writeJSON(stdout, &out); werr != nil {
		return werr
	}
	return err
}

// acpVerdict is how a finished turn exits.
func acpVerdict(res acp.TurnResult, err error, qs []acpQuestion) error {
	var ae *acp.AuthRequiredError
	switch {
	case errors.As(err, &ae):
		return fail(exitConnect, "%w", err)
	case err != nil:
		return fail(exitToolError, "%w", err)
	}
	for _, q := range qs {
		if q.Outcome != question.Accept.String() || q.Kind == question.KindPermission.String() &&
			q.Bucket != question.OptionAllowOnce && q.Bucket != question.OptionAllowAlways {
			return fail(exitNotAccepted, "question %s ended %s (sent %q)", q.Key, orBucket(q), q.Sent)
		}
	}
	if res.RequestCancelled {
		return fail(exitToolError, "the turn was cancelled (the agent answered -32800)")
	}
	if res.StopReason != acp.StopEndTurn {
		return fail(exitToolError, "the turn ended with stopReason %q", res.StopReason)
	}
	return nil
}

func orBucket(q acpQuestion) string {
	if q.Bucket != "" {
		return q.Bucket
	}
	return q.Outcome
}

// acpPrompter answers an agent's questions headless: permissions by
// --permission, elicitations by --answer.
type acpPrompter struct {
	answer     question.Prompter
	permission string
}

func (p *acpPrompter) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	if q.Kind != question.KindPermission {
		return p.answer.Prompt(ctx, q)
	}
	switch p.permission {
	case "reject":
		return question.Outcome{Kind: question.Decline}
	case "cancel":
		return question.Outcome{Kind: question.Cancel, Reason: "--permission cancel"}
	case "hold":
		return holdPrompter{}.Prompt(ctx, q)
	case "allow":
		for _, k := range []string{question.OptionAllowOnce, question.OptionAllowAlways} {
			if o, ok := q.Permission.OfKind(k); ok {
				return question.Outcome{Kind: question.Accept, Option: o.ID}
			}
		}
		return question.Outcome{Kind: question.Cancel, Reason: "--permission allow: the request offers no allow option"}
	}
	return question.Outcome{Kind: question.Accept, Option: p.permission}
}

// holdPrompter never answers: the question stays open until the agent
// withdraws it, the turn is stopped or elicit shuts down.
type holdPrompter struct{}

func (holdPrompter) Prompt(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Cancel}
}

// acpOutput is what elicit acp prints.
type acpOutput struct {
	Agent      acpAgent `json:"agent"`
	SessionID  string   `json:"sessionId,omitempty"`
	StopReason string   `json:"stopReason"`
	Stopped    bool     `json:"stopped"`
	// Cancelled is set when the agent answered the prompt -32800
	// (cancelled, not a failure) instead of a stopReason.
	Cancelled  bool           `json:"requestCancelled,omitempty"`
	Message    string         `json:"message"`
	Thought    string         `json:"thought,omitempty"`
	ToolCalls  []acp.ToolCall `json:"toolCalls"`
	Updates    []acpUpdate    `json:"updates"`
	Questions  []acpQuestion  `json:"questions"`
	Permission map[string]int `json:"permissionCounts"`
	Error      string         `json:"error,omitempty"`
	Failure    *failure       `json:"failure,omitempty"`
	Repaired   string         `json:"repaired,omitempty"`
}

func (o *acpOutput) setRepaired(note string) { o.Repaired = note }

type acpAgent struct {
	Name            string   `json:"name"`
	AgentName       string   `json:"agentName,omitempty"`
	Title           string   `json:"title,omitempty"`
	Version         string   `json:"version,omitempty"`
	ProtocolVersion int      `json:"protocolVersion"`
	AuthMethods     []string `json:"authMethods,omitempty"`
}

func agentOf(name string, info acp.InitializeResult) acpAgent {
	a := acpAgent{Name: name, ProtocolVersion: info.ProtocolVersion}
	if info.AgentInfo != nil {
		a.AgentName, a.Title, a.Version = info.AgentInfo.Name, info.AgentInfo.Title, info.AgentInfo.Version
	}
	for _, m := range info.AuthMethods {
		a.AuthMethods = append(a.AuthMethods, m.ID)
	}
	return a
}

// acpUpdate is an update shown plainly: its kind and the update as sent.
type acpUpdate struct {
	Kind string          `json:"kind"`
	Raw  json.RawMessage `json:"update"`
}

type acpQuestion struct {
	Key        string         `json:"key"`
	Kind       string         `json:"kind"`
	ToolCallID string         `json:"toolCallId,omitempty"`
	Outcome    string         `json:"outcome"`
	Bucket     string         `json:"bucket,omitempty"`
	Option     string         `json:"optionId,omitempty"`
	Sent       string         `json:"sent"`
	Content    map[string]any `json:"content,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	LatencyMS  int64          `json:"latencyMs"`
}

func (o *acpOutput) fill(res acp.TurnResult, j *question.Journal) {
	o.StopReason, o.Stopped, o.Message, o.Thought = res.StopReason, res.Stopped, res.Message, res.Thought
	o.Cancelled = res.RequestCancelled
	o.ToolCalls = append([]acp.ToolCall{}, res.ToolCalls...)
	o.Updates = []acpUpdate{}
	for _, u := range res.Other {
		o.Updates = append(o.Updates, acpUpdate{Kind: u.Kind, Raw: u.Raw})
	}
	o.Questions = []acpQuestion{}
	for _, e := range j.Entries() {
		q := acpQuestion{Key: e.Key.String(), Kind: e.Asked.String(), ToolCallID: e.Origin.ToolCallID,
			Outcome: e.Kind.String(), Bucket: e.Bucket, Sent: e.Sent, Content: e.Content, Reason: e.Reason,
			LatencyMS: e.Latency.Milliseconds()}
		if e.Option != nil {
			q.Option = e.Option.ID
		}
		o.Questions = append(o.Questions, q)
	}
	o.Permission = j.PermissionCounts()
}
