package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

const toolsUsage = `Usage: elicit tools [flags] [-- CMD ARGS...]

Lists the server's tools (all pages) as JSON on stdout.
`

const callUsage = `Usage: elicit call TOOL [--args JSON] [--answer POLICY] [flags] [-- CMD ARGS...]

Calls TOOL and prints {"result": …, "prompts": […], "sampling": […]} as
JSON on stdout. Prompts the server sends are answered by POLICY:
  accept-defaults   accept with the schema's defaults (default); URL-mode
                    questions are cancelled (nobody can open them)
  accept            as accept-defaults, and consent to URL-mode questions
                    (their URLs are printed on stderr)
  decline           decline every prompt (the explicit "no")
  cancel            cancel every prompt (dismissed without a decision)
  FILE.json         field values: {"field": value}, or per tool
                    {"tools": {"deploy": {…}}}, or per message text
                    {"messages": {"Priority": {…}}}; merged over defaults
Sampling requests are answered by --sample (decline, echo, FILE.json, or
off to declare no sampling). A -32042 (URL elicitation required) is
answered by POLICY too: once every URL is accepted, elicit waits up to
--url-wait for the server's completion notices and sends the call again,
once ("urlRetries" says what happened).
Exit codes: 0 ok, 2 usage, 3 connect failure, 4 tool error,
5 a prompt ended other than accept.
`

func runTools(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("tools", stderr, toolsUsage)
	c.register(fs)
	c.RegisterConfig(fs)
	c.registerLogLevel(fs)
	before, after := splitDashDash(args)
	c.Command = after
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return exit.Usagef("tools takes no arguments, got %q", pos[0])
	}
	c.recordAs = "tools"
	sess, cleanup, err := connectHeadless(ctx, &c, question.CancelAll, stderr)
	if err != nil {
		return err
	}
	defer cleanup()
	rc := c.rec.Begin(sess.Name(), wire.MethodToolsList, "", nil, nil)
	tools, err := sess.ListTools(ctx)
	rc.End(tools, err)
	why, err := skipped(err)
	if err != nil {
		return exit.Fail(exit.ToolError, "tools/list on %s: %w", sess.Name(), err)
	}
	return writeJSON(stdout, &toolsOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(),
		Roots: orEmpty(sess.Roots().Roots), Tools: orEmpty(tools), Skipped: why, Findings: findingsOf(c.findings), LogLevel: c.logLevelOut})
}

func runCall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	var argsJSON, answer string
	fs := newFlagSet("call", stderr, callUsage)
	c.register(fs)
	c.RegisterConfig(fs)
	c.registerLogLevel(fs)
	fs.StringVar(&argsJSON, "args", "{}", "tool arguments as a JSON object")
	fs.StringVar(&answer, "answer", "accept-defaults", "how to answer prompts: accept-defaults, accept, decline, cancel or FILE.json")
	before, after := splitDashDash(args)
	c.Command = after
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return exit.Usagef("call needs exactly one TOOL name (see elicit call -h)")
	}
	tool := pos[0]
	toolArgs, err := argsObject(argsJSON)
	if err != nil {
		return err
	}
	prompter, err := policy(answer)
	if err != nil {
		return err
	}
	var retries urlRetries
	c.observer = &retries
	c.recordAs, c.answer = "call", answer
	sess, cleanup, err := connectHeadless(ctx, &c, prompter, stderr)
	if err != nil {
		return err
	}
	defer cleanup()

	// The tool's outputSchema comes from tools/list, which the engine
	// judges the call's result against (a finding when it breaks it). It
	// is listed once the call has gone out (stdio: its line is on the
	// pipe; HTTP: its POST is written), while the call runs: after it, so
	// the call's ids, and so its prompts' keys, stay what they were, and
	// on a stream the call comes first; but not waiting for the result,
	// which cost the run a whole round trip more.
	var listing sync.WaitGroup
	var opts *client.CallOptions
	if sess.ServerCapabilities().Tools {
		opts = &client.CallOptions{OnSent: func() {
			listing.Go(func() { _, _ = sess.ListTools(ctx) })
		}}
	}
	start := time.Now()
	rc := c.rec.Begin(sess.Name(), wire.MethodToolsCall, tool, toolCallParams{Name: tool, Arguments: toolArgs}, nil)
	res, callErr := sess.CallTool(ctx, tool, toolArgs, opts)
	elapsed := time.Since(start)
	rc.End(callResult(res), callErr)
	listing.Wait()
	out := callOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Tool: tool,
		Roots: orEmpty(sess.Roots().Roots), ElapsedMS: elapsed.Milliseconds(), LogLevel: c.logLevelOut}
	// A prompt's answer reaches the server before its journal entry is
	// written; closing the session waits for every prompt to settle, so
	// the journal read below is complete.
	cleanup()
	out.Prompts = []promptOutput{} // arrays, also when nothing was asked
	out.Sampling = []samplingOutput{}
	for _, e := range sess.Journal().Entries() {
		if e.Sampling != nil { // a sampling question's entry holds its record
			out.Sampling = append(out.Sampling, samplingEntry(e))
			continue
		}
		out.Prompts = append(out.Prompts, promptOutput{Key: e.Key.String(), Outcome: e.Kind.String(),
			Sent: e.Sent, Content: e.Content, Reason: e.Reason, LatencyMS: e.Latency.Milliseconds()})
	}
	out.URLRetries = retries.list()
	out.Findings = findingsOf(c.findings)
	if callErr == nil {
		out.Result, out.IsError = res.Raw, res.IsError
	}
	err = callVerdict(tool, callErr, res, out.Prompts, out.Sampling, prompter, answer)
	if callErr != nil {
		out.Error = callErr.Error()
	}
	out.Failure = exit.FailureOf(err)
	if werr := writeJSON(stdout, &out); werr != nil {
		return werr
	}
	return err
}

// callVerdict is how a finished call exits: the call's error, a tool
// error, a question that did not end in accept, or answer-file entries
// that filled nothing (a misspelt field name left its default in place).
func callVerdict(tool string, callErr error, res *wire.CallToolResult, prompts []promptOutput, sampling []samplingOutput, prompter question.Prompter, answer string) error {
	switch {
	case callErr != nil:
		return exit.Fail(exit.ToolError, "%w", callErr) // it names the call and the server already
	case res.IsError:
		return exit.Fail(exit.ToolError, "tool %q returned isError", tool)
	}
	for _, p := range prompts {
		if p.Outcome != question.Accept.String() {
			return exit.Fail(exit.NotAccepted, "prompt %s ended as %s", p.Key, p.Outcome)
		}
	}
	for _, p := range sampling {
		if p.Outcome != question.Accept.String() {
			return exit.Fail(exit.NotAccepted, "sampling request %s ended as %s", p.Key, p.Outcome)
		}
	}
	if a, ok := prompter.(*question.Answers); ok {
		if unused := a.Unused(); len(unused) > 0 {
			return exit.Fail(exit.NotAccepted, "--answer %s: %s filled no field of any question (a misspelt name?)", answer, strings.Join(unused, ", "))
		}
	}
	return nil
}

type callOutput struct {
	Server   string                 `json:"server"`
	Protocol string                 `json:"protocol"`
	Era      string                 `json:"era"`
	Roots    jsonList[client.Root]  `json:"roots"` // the roots served
	Tool     string                 `json:"tool"`
	Result   json.RawMessage        `json:"result,omitempty"`
	IsError  bool                   `json:"isError"`
	Error    string                 `json:"error,omitempty"`
	Prompts  jsonList[promptOutput] `json:"prompts"`
	// Sampling lists each sampling request: what was asked, what was sent.
	Sampling jsonList[samplingOutput] `json:"sampling"`
	// URLRetries says, for each -32042 the call got, how its URL
	// elicitations ended and whether it was sent again.
	URLRetries jsonList[urlRetryOutput] `json:"urlRetries,omitempty"`
	ElapsedMS  int64                    `json:"elapsedMs"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	// Failure is set whenever the command exits non-zero.
	Failure *exit.Failure `json:"failure,omitempty"`
	// Repaired says the output had to replace bytes the server sent.
	Repaired string `json:"repaired,omitempty"`
	// LogLevel is what became of --log-level (loglevel.go).
	LogLevel *logLevelOutput `json:"logLevel,omitempty"`
}

func (o *callOutput) setRepaired(note string) { o.Repaired = note }

// toolsOutput is what elicit tools prints.
type toolsOutput struct {
	Server   string                `json:"server"`
	Protocol string                `json:"protocol"`
	Era      string                `json:"era"`
	Roots    jsonList[client.Root] `json:"roots"` // the roots served
	Tools    []wire.Tool           `json:"tools"`
	// Skipped says why tools were not listed: the server did not declare
	// them (Tools is then empty).
	Skipped string `json:"skipped,omitempty"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	Repaired string                     `json:"repaired,omitempty"`
	LogLevel *logLevelOutput            `json:"logLevel,omitempty"`
}

func (o *toolsOutput) setRepaired(note string) { o.Repaired = note }

type promptOutput struct {
	Key     string `json:"key"`
	Outcome string `json:"outcome"`
	// Sent is what went on the wire ("" for nothing), and Content what an
	// accept carried.
	Sent      string         `json:"sent"`
	Content   map[string]any `json:"content,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	LatencyMS int64          `json:"latencyMs"`
}

// policy picks the headless Prompter named by --answer.
func policy(answer string) (question.Prompter, error) {
	switch answer {
	case "accept-defaults", "":
		return question.AcceptDefaults, nil
	case "accept":
		return question.AcceptAll, nil
	case "decline":
		return question.DeclineAll, nil
	case "cancel":
		return question.CancelAll, nil
	}
	p, err := question.AnswerFile(answer)
	if err != nil {
		return nil, exit.Usagef("--answer %s: %v", answer, err)
	}
	return p, nil
}

// connectHeadless starts the server named by the flags and connects.
// Server stderr is passed through to ours, so a failing server explains
// itself.
func connectHeadless(ctx context.Context, c *common, prompter question.Prompter, stderr io.Writer) (*client.Session, func(), error) {
	spec, err := c.spec(true)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range spec.Warnings {
		fmt.Fprintf(stderr, "elicit: warning: %s\n", untrusted.Line(w))
	}
	spec.Auth = serverspec.HeadlessAuth(stderr, c.AuthTimeout)
	c.findings = findings.NewRecorder(nil)
	rec, err := openRecord(c.record, recordSettings(c.recordAs, c, []serverspec.Server{spec}, c.urlWait, c.answer), serverspec.SecretsOf(stderr))
	if err != nil {
		return nil, nil, err
	}
	c.rec = rec
	var once sync.Once
	closeRec := func() { once.Do(func() { closeRecord(rec, c.record, stderr) }) }
	modes, _ := parseElicit(c.elicit)
	sampling, sampler, err := parseSample(c.sample)
	if err != nil {
		closeRec()
		return nil, nil, err
	}
	var obs client.Observer = headlessObserver{name: spec.Name, stderr: stderr, next: c.observer}
	if c.logLevel != "" {
		obs = logPrinter{name: spec.Name, stderr: stderr, next: obs} // loglevel.go
	}
	w := &app.Wiring{
		Name:           spec.Name,
		Version:        version,
		Protocol:       c.protocol,
		Elicit:         modes,
		Roots:          spec.Roots, // declared only when some were given
		Sampling:       sampling,
		Prompter:       question.Route{question.KindElicitation: prompter, question.KindSampling: sampler},
		Observer:       obs,
		Recorder:       rec,
		Findings:       c.findings,
		URLWait:        c.urlWait,
		PromptTimeout:  c.promptTimeout,
		ConnectTimeout: c.connectTimeout,
		RequestTimeout: c.requestTimeout,
		OnStderr:       func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", spec.Name, untrusted.Line(line)) },
	}
	t, err := spec.Transport(w.TransportObserver(), serverspec.SecretsOf(stderr))
	if err != nil {
		closeRec()
		return nil, nil, err
	}
	sess, err := w.Connect(ctx, t)
	if err != nil {
		closeRec()
		return nil, nil, exit.Fail(exit.Connect, "%w", err) // "connect to NAME: …", naming the command or URL where it failed
	}
	c.logLevelOut = applyLogLevel(ctx, c, sess, stderr)
	// The recording is closed after the session: closing it settles the
	// open questions, whose answers are recorded.
	return sess, func() { sess.Close(); closeRec() }, nil
}

// findingsOf is what rec holds, as an array also when empty (a script
// reads "findings": [] as "none").
func findingsOf(rec *findings.Recorder) []findings.Finding {
	if all := rec.All(); all != nil {
		return all
	}
	return []findings.Finding{}
}
