package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

const ACPUsage = `Usage: elicit acp --prompt TEXT [--answer POLICY] [--permission P]
                 [--cancel-after DURATION] [--cwd DIR] [--allow-fs]
                 [--allow-terminal] [--load ID | --resume ID] [--mode ID]
                 [--config ID=VALUE]... [--dir PATH]... [--attach FILE]...
                 [--auth METHOD] [--prompt-timeout D] [--start-timeout D]
                 [--idle-timeout D]
                 [--elicit off|form|url|both] [--record FILE]
                 [-- AGENT ARGS...]
       elicit acp --list-sessions | --delete ID [-- AGENT ARGS...]
       elicit acp [--cwd DIR] [--allow-fs] [--allow-terminal] [--record FILE]
                 [--theme NAME] [--fps N] [-- AGENT ARGS...]   (the TUI)

Runs one ACP prompt turn against AGENT (an Agent Client Protocol agent on
stdio; without one, the embedded demo agent, elicit demo --acp) and prints
JSON: the agent, the stopReason, the message text, the tool calls, and
every question the agent asked with its outcome and what was sent.
A plan (commands, mode, usage) replaces the one before: "updates" holds
the latest, "replaced" counting the others; what a turn keeps is bounded
(1 MiB of text, 64 KiB an update; "cut", "messageCut"… say what was not).
A request naming a session elicit did not open is refused -32602 whatever
the policies say, and journalled; an update for one is dropped.
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
--cancel-after, counted from the prompt, stops the turn (session/cancel);
an agent that gives no stopReason within 5s then gets $/cancel_request
for the prompt, and its -32800 is shown as cancelled ("requestCancelled").
--allow-fs lets the agent read and write text files within --cwd only
(fs/read_text_file, fs/write_text_file); every write is a permission
question first, answered by --permission, and its diff is printed under
"files". --auth METHOD authenticates with that method when the agent asks
for it (-32000 to session/new); with --auth elicit declares terminal
sign-in too (auth.terminal), and a terminal method named runs the agent's
own command with the method's args and env, on this terminal (its output
on stderr), exit 0 signing in. --prompt-timeout ends a question left
unanswered that long (answered -32800, as shutdown is). --start-timeout
(default 30s) bounds start-up, initialize, authenticate and session/new;
a slow request is abandoned with $/cancel_request. --idle-timeout
(default 10m) stops the turn (session/cancel, as --cancel-after does)
when the agent has sent nothing for it that long while none of its
questions was open ("idleStopped" in the JSON): no one is there to stop
an agent that went quiet.
--allow-terminal declares terminals and runs the agent's terminal/create
in a real PTY within --cwd (the request's env applied, its output cut
from the beginning to outputByteLimit), each asked first as a permission
answered by --permission; every terminal is killed when the turn ends.
--load ID (session/load: the history it replays is under "history") or
--resume ID (session/resume) opens the agent's session instead of a new
one; --dir PATH adds a directory of the session (additionalDirectories,
where fs and terminal requests may reach too); --mode ID
(session/set_mode) and --config ID=VALUE (session/set_config_option;
true/false for a boolean option) set it up before the prompt; --attach
FILE adds an image block (an image, to an agent that takes images) or a
resource link. After the turn the session is closed (session/close) when
the agent supports it. --list-sessions prints session/list (every
page), --delete ID runs session/delete, each alone or before a --prompt.
Each such request's ending is under "actions". A method the agent does
not declare is not sent: said as an error.
--elicit says which elicitation modes to declare (default both); one the
agent uses without it is refused -32602.
--record FILE writes a recording of the turn (JSONL: every ACP frame both
ways, every question with the answer given and how it ended, the
settings; environment values and secret arguments masked) for
elicit replay FILE, which runs the turn again and reports what differs
(docs/record.md).
Exit codes: 0 end_turn, 2 usage, 3 the agent could not be started or
initialized, or wants authentication and --auth names no method it lists,
4 refusal, another stopReason (cancelled too) or an error, 5 a question
ended other than accept or allow.
`

// acpFlags are elicit acp's flags.
type acpFlags struct {
	prompt, answer, permission, cwd, auth    string
	record                                   string
	elicit                                   string
	cancelAfter, promptTimeout, startTimeout time.Duration
	idleTimeout                              time.Duration
	allowFS                                  bool
	session                                  sessionFlags
}

// Env is what elicit acp gets from the binary.
type Env struct {
	// Version is elicit's: the agent's clientInfo and the --record header.
	Version string
}

// RunACP is elicit acp --prompt: one turn, headless, JSON.
func (e Env) RunACP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f acpFlags
	fs := cli.NewFlagSet("acp", stderr, ACPUsage)
	fs.StringVar(&f.prompt, "prompt", "", "the prompt text (required)")
	fs.StringVar(&f.answer, "answer", "accept-defaults", "how to answer elicitations: accept-defaults, accept, decline, cancel or FILE.json")
	fs.StringVar(&f.permission, "permission", "reject", "how to answer permission requests: allow, reject, cancel, hold or an optionId")
	fs.DurationVar(&f.cancelAfter, "cancel-after", 0, "stop the turn this long after the prompt (0: never)")
	fs.StringVar(&f.cwd, "cwd", ".", "the session's working directory")
	fs.StringVar(&f.elicit, "elicit", "both", "elicitation modes to declare: off, form, url or both (a mode not declared is refused -32602)")
	fs.BoolVar(&f.allowFS, "allow-fs", false, "let the agent read and write text files within --cwd (writes are asked first)")
	fs.StringVar(&f.auth, "auth", "", "authenticate with this method when the agent requires it")
	fs.DurationVar(&f.promptTimeout, "prompt-timeout", 0, "end a question left unanswered this long (answered -32800; 0: never)")
	fs.DurationVar(&f.startTimeout, "start-timeout", 30*time.Second, "bound start-up, initialize, authenticate and session/new")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", IdleTimeout, "stop the turn when the agent sends nothing for this long (while no question of its is open)")
	fs.StringVar(&f.record, "record", "", recording.FlagUsage)
	f.session.register(fs)
	before, command := cli.SplitDashDash(args)
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return exit.Usagef("acp takes no arguments before --, got %q", pos[0])
	}
	alone, err := f.session.check(f.prompt)
	if err != nil {
		return err
	}
	if f.prompt == "" && !alone {
		return exit.Usagef("acp needs --prompt TEXT")
	}
	if f.cancelAfter < 0 || f.promptTimeout < 0 || f.startTimeout <= 0 || f.idleTimeout <= 0 {
		return exit.Usagef("--cancel-after and --prompt-timeout must not be negative, --start-timeout and --idle-timeout must be positive")
	}
	em, err := cli.ParseElicit(f.elicit)
	if err != nil {
		return err
	}
	var answer question.Prompter = holdPrompter{}
	if f.answer != "hold" {
		if answer, err = cli.Policy(f.answer); err != nil {
			return err
		}
	}
	name := DemoName
	demo := len(command) == 0
	if demo {
		exe, err := os.Executable()
		if err != nil {
			return exit.Fail(exit.Connect, "the demo agent: %w", err)
		}
		command = []string{exe, "demo", "--acp"}
	} else {
		name = filepath.Base(command[0])
	}
	spec := serverspec.Agent{Name: name, Command: command[0], Args: command[1:]}
	rec, err := recording.Open(f.record, e.Version, acpRecordSettings("acp", &f, spec, demo), serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	defer recording.Close(rec, f.record, stderr)
	var files acpFiles
	var early setupUpdates
	w := &app.AgentWiring{Name: name, Version: e.Version, Command: spec.Command, Args: spec.Args,
		Secrets: serverspec.SecretsOf(stderr), SecretValues: spec.SecretValues(), Recorder: rec, Elicit: em,
		Prompter: question.Route{question.KindElicitation: answer, question.KindPermission: permissionPolicy(f.permission)},
		OnStderr: func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", name, untrusted.Line(line)) },
		AllowFS:  f.allowFS, OnFile: files.add, QuestionTimeout: f.promptTimeout, TurnIdle: f.idleTimeout,
		AllowTerminal: f.session.allowTerminal, OnUpdate: early.add}
	var authed string
	if f.auth != "" {
		w.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) {
			authed = f.auth
			return f.auth, nil
		}
		// A terminal sign-in method runs the agent's command for the
		// person on this terminal; stdout is the JSON's, so its output
		// goes to stderr.
		w.TerminalAuth = func(ctx context.Context, cmd *exec.Cmd) error {
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stderr, stderr
			return cmd.Run()
		}
	}
	startCtx, cancel := context.WithTimeout(ctx, f.startTimeout)
	defer cancel()
	c, err := w.Start(startCtx)
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	defer c.Close()
	out := ACPOutput{Agent: agentOf(name, c.Info())}
	if err := f.session.before(startCtx, c, &out); err != nil || alone {
		c.Close()
		out.fill(acp.TurnResult{}, c.Journal())
		out.Files, out.Actions = []acp.FileAccess{}, c.Actions()
		if err != nil {
			err = exit.Fail(exit.ToolError, "%w", err)
		}
		return out.write(stdout, err)
	}
	setup := SessionSetup{Cwd: f.cwd, Load: f.session.load, Resume: f.session.resume, Mode: f.session.mode,
		Dirs: f.session.dirs, Config: f.session.config, Attach: f.session.attach}
	res, err := w.Turn(app.PromptParams{Prompt: f.prompt, Cwd: f.cwd}, func() (acp.TurnResult, error) {
		res, err := func() (acp.TurnResult, error) {
			blocks, err := setup.Blocks(c, f.prompt)
			if err != nil {
				return acp.TurnResult{}, err
			}
			sess, err := setup.Open(startCtx, c)
			out.SessionID, out.History = sess.ID, historyOf(sess.History)
			out.Modes, out.ConfigOptions = sess.Modes, sess.ConfigOptions
			if err != nil {
				return acp.TurnResult{}, err
			}
			pctx := ctx
			if f.cancelAfter > 0 {
				var pcancel context.CancelFunc
				pctx, pcancel = context.WithTimeout(ctx, f.cancelAfter)
				defer pcancel()
			}
			early.turn()
			res, err := c.PromptBlocks(pctx, sess.ID, blocks)
			cctx, ccancel := context.WithTimeout(ctx, f.startTimeout)
			out.Closed = closeAfter(cctx, c, sess.ID)
			ccancel()
			return res, err
		}()
		// Closing answers what is still held (-32800) and completes the
		// journal, before the turn's call ends in the recording.
		c.Close()
		return res, err
	})
	out.Actions, out.SetupUpdates = c.Actions(), early.all()
	out.fill(res, c.Journal())
	out.Files, out.FilesDropped = files.all(), files.droppedCount()
	out.Authenticated = authed
	if out.SessionID == "" && errors.Is(err, acp.ErrCancelled) {
		// Our slow request, abandoned with $/cancel_request, and the
		// agent said so: cancelled, not failed.
		out.Abandoned = true
	}
	err = acpVerdict(res, err, out.Questions)
	return out.write(stdout, err)
}

// write prints the output with err's failure, and returns err.
func (o *ACPOutput) write(stdout io.Writer, err error) error {
	if err != nil {
		o.Error = err.Error()
	}
	o.Failure = exit.FailureOf(err)
	if werr := headless.WriteJSON(stdout, o); werr != nil {
		return werr
	}
	return err
}

// acpVerdict is how a finished turn exits.
func acpVerdict(res acp.TurnResult, err error, qs []acpQuestion) error {
	var ae *acp.AuthRequiredError
	switch {
	case errors.As(err, &ae):
		return exit.Fail(exit.Connect, "%w (name one with --auth)", err)
	case errors.Is(err, acp.ErrCancelled):
		return exit.Fail(exit.ToolError, "cancelled: %w", err)
	case res.IdleStopped && err != nil:
		return exit.Fail(exit.ToolError, "the agent sent nothing for --idle-timeout; the turn was stopped: %w", err)
	case err != nil:
		return exit.Fail(exit.ToolError, "%w", err)
	case res.IdleStopped:
		return exit.Fail(exit.ToolError, "the agent sent nothing for --idle-timeout: the turn was stopped (stopReason %q)", res.StopReason)
	}
	for _, q := range qs {
		// An option accepted (a permission's) is accepted only if it allows.
		if q.Outcome != question.Accept.String() || q.Option != "" &&
			q.Bucket != question.OptionAllowOnce && q.Bucket != question.OptionAllowAlways {
			return exit.Fail(exit.NotAccepted, "question %s ended %s (sent %q)", q.Key, orBucket(q), q.Sent)
		}
	}
	if res.RequestCancelled {
		return exit.Fail(exit.ToolError, "the turn was cancelled (the agent answered -32800)")
	}
	if res.StopReason != acp.StopEndTurn {
		return exit.Fail(exit.ToolError, "the turn ended with stopReason %q", res.StopReason)
	}
	return nil
}

func orBucket(q acpQuestion) string {
	if q.Bucket != "" {
		return q.Bucket
	}
	return q.Outcome
}

// permissionPolicy answers an agent's permission questions headless, as
// --permission says (allow, reject, cancel, hold, or an optionId);
// elicitations are --answer's (the Route in RunACP).
type permissionPolicy string

func (p permissionPolicy) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	switch p {
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
	return question.Outcome{Kind: question.Accept, Option: string(p)}
}

// holdPrompter never answers: the question stays open until the agent
// withdraws it, the turn is stopped or elicit shuts down.
type holdPrompter struct{}

func (holdPrompter) Prompt(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Cancel}
}

// ACPOutput is what elicit acp prints.
type ACPOutput struct {
	Agent      acpAgent `json:"agent"`
	SessionID  string   `json:"sessionId,omitempty"`
	StopReason string   `json:"stopReason"`
	Stopped    bool     `json:"stopped"`
	// IdleStopped is set when --idle-timeout stopped the turn.
	IdleStopped bool `json:"idleStopped,omitempty"`
	// Cancelled is set when the agent answered the prompt -32800
	// (cancelled, not a failure) instead of a stopReason.
	Cancelled bool           `json:"requestCancelled,omitempty"`
	Message   string         `json:"message"`
	Thought   string         `json:"thought,omitempty"`
	ToolCalls []acp.ToolCall `json:"toolCalls"`
	Updates   []acpUpdate    `json:"updates"`
	// What was not kept of the turn (client/acp's keep.go bounds): the
	// bytes of the message and thought past the first MiB, the updates
	// past the first 256 of kinds that add, the updates of tool calls
	// past the first 256.
	MessageCut         int            `json:"messageCut,omitempty"`
	ThoughtCut         int            `json:"thoughtCut,omitempty"`
	UpdatesDropped     int            `json:"updatesDropped,omitempty"`
	ToolUpdatesDropped int            `json:"toolUpdatesDropped,omitempty"`
	Questions          []acpQuestion  `json:"questions"`
	Permission         map[string]int `json:"permissionCounts"`
	// Elicitation counts the agent's elicitations by bucket.
	Elicitation map[string]int `json:"elicitationCounts"`
	// Files are the agent's fs requests (--allow-fs), writes with their
	// diff.
	Files []acp.FileAccess `json:"files"`
	// FilesDropped counts the fs requests past the first maxFilesKept.
	FilesDropped int `json:"filesDropped,omitempty"`
	// Authenticated is the --auth method used, if the agent asked.
	Authenticated string `json:"authenticated,omitempty"`
	// Abandoned is set when a request of ours before the prompt
	// (session/new, authenticate) ran past --start-timeout and the agent
	// answered our $/cancel_request -32800: cancelled, not failed.
	Abandoned bool `json:"abandoned,omitempty"`
	// Sessions is --list-sessions' session/list, every page; History
	// what --load's session/load replayed; Modes and ConfigOptions the
	// session's as opened (and set); Closed is set when the session was
	// closed after the turn; Actions are the requests beyond the turn
	// (and the terminals) as they ended.
	Sessions      []acp.SessionInfo  `json:"sessions,omitempty"`
	History       *acpHistory        `json:"history,omitempty"`
	Modes         *acp.ModeState     `json:"modes,omitempty"`
	ConfigOptions []acp.ConfigOption `json:"configOptions,omitempty"`
	Closed        bool               `json:"closed,omitempty"`
	// SetupUpdates are the updates that came while the session was set
	// up (its history apart): --mode's current_mode_update, --config's
	// config_option_update.
	SetupUpdates []acpUpdate   `json:"setupUpdates,omitempty"`
	Actions      []acp.Action  `json:"actions"`
	Error        string        `json:"error,omitempty"`
	Failure      *exit.Failure `json:"failure,omitempty"`
	Repaired     string        `json:"repaired,omitempty"`
}

func (o *ACPOutput) SetRepaired(note string) { o.Repaired = note }

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
	// Replaced counts the earlier updates of this kind this one replaced
	// (plan, available_commands_update…: the latest stands).
	Replaced int `json:"replaced,omitempty"`
	// Cut says what of the update was not kept (acp.MaxKeptUpdateBytes).
	Cut string `json:"cut,omitempty"`
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

func (o *ACPOutput) fill(res acp.TurnResult, j *question.Journal) {
	o.StopReason, o.Stopped, o.Message, o.Thought = res.StopReason, res.Stopped, res.Message, res.Thought
	o.Cancelled, o.IdleStopped = res.RequestCancelled, res.IdleStopped
	o.ToolCalls = append([]acp.ToolCall{}, res.ToolCalls...)
	o.Updates = []acpUpdate{}
	for _, u := range res.Other {
		o.Updates = append(o.Updates, acpUpdate{Kind: u.Kind, Raw: u.Raw, Replaced: u.Replaced, Cut: u.Cut})
	}
	o.MessageCut, o.ThoughtCut = res.MessageCut, res.ThoughtCut
	o.UpdatesDropped, o.ToolUpdatesDropped = res.UpdatesDropped, res.ToolUpdatesDropped
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
	o.Elicitation = j.AgentElicitationCounts()
}

// What elicit acp keeps of the agent's fs requests: the first
// maxFilesKept, each diff at most maxDiffKept bytes (an agent may write
// 8 MiB files without end).
const (
	MaxFilesKept = 256
	MaxDiffKept  = 64 << 10
)

// acpFiles gathers the agent's fs requests as they end.
type acpFiles struct {
	mu      sync.Mutex
	got     []acp.FileAccess
	dropped int
}

func (f *acpFiles) add(fa acp.FileAccess) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.got) >= MaxFilesKept {
		f.dropped++
		return
	}
	if len(fa.Diff) > MaxDiffKept {
		n := MaxDiffKept
		for n > 0 && !utf8.RuneStart(fa.Diff[n]) {
			n--
		}
		fa.Diff = fa.Diff[:n] + fmt.Sprintf("\n… %d bytes of the diff not kept (more than %d)\n", len(fa.Diff)-n, MaxDiffKept)
	}
	f.got = append(f.got, fa)
}

func (f *acpFiles) droppedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

func (f *acpFiles) all() []acp.FileAccess {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]acp.FileAccess{}, f.got...)
}

// acpRecordSettings are the settings line of elicit acp --prompt.
func acpRecordSettings(command string, f *acpFlags, spec serverspec.Agent, demo bool) record.Settings {
	a := RecordOf(spec, demo)
	a.Cwd, a.Permission, a.AllowFS, a.Auth = f.cwd, f.permission, f.allowFS, f.auth
	a.CancelAfterMS, a.QuestionTimeoutMS = f.cancelAfter.Milliseconds(), f.promptTimeout.Milliseconds()
	a.IdleTimeoutMS = f.idleTimeout.Milliseconds()
	f.session.record(&a)
	s := record.Settings{Command: command, Elicit: f.elicit, Sampling: "off", Answer: answerName(f.answer), Agents: []record.Agent{a}}
	if s.Elicit == "" {
		s.Elicit = "both"
	}
	return s
}

// answerName is --answer as a recording keeps it: a file's name only.
func answerName(answer string) string {
	if strings.HasSuffix(answer, ".json") {
		return answer[strings.LastIndexAny(answer, `/\`)+1:]
	}
	return answer
}
