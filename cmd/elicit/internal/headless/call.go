package headless

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
)

// ToolsUsage is elicit tools -h.
const ToolsUsage = `Usage: elicit tools [flags] [-- CMD ARGS...]

Lists the server's tools (all pages) as JSON on stdout.
`

// CallUsage is elicit call -h.
const CallUsage = `Usage: elicit call TOOL [--args JSON] [--answer POLICY] [--check] [flags] [-- CMD ARGS...]

Calls TOOL and prints {"result": …, "prompts": […], "sampling": […]} as
JSON on stdout. --check also lists the tools (tools/list, beside the
call) so that the result is judged against the tool's outputSchema: a
result that breaks it is a finding in "findings" (elicit check --call
always does). Prompts the server sends are answered by POLICY:
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

// Tools is elicit tools.
func (e Env) Tools(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	r, err := e.parse("tools", ToolsUsage, args, stderr, withLogLevel, nil)
	if err != nil {
		return err
	}
	if err := r.noArgs(); err != nil {
		return err
	}
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	rc := r.rec.Begin(sess.Name(), wire.MethodToolsList, "", nil, nil)
	tools, err := sess.ListTools(ctx)
	rc.End(tools, err)
	why, err := Skipped(err)
	if err != nil {
		return exit.Fail(exit.ToolError, "tools/list on %s: %w", sess.Name(), err)
	}
	return WriteJSON(stdout, &ToolsOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(),
		Roots: orEmpty(sess.Roots().Roots), Tools: toolEntries(tools), Skipped: why, Findings: FindingsOf(r.findings), LogLevel: r.logLevelOut})
}

// Call is elicit call.
func (e Env) Call(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var argsJSON, answer string
	var check, noWait bool
	var flags *flag.FlagSet
	r, err := e.parse("call", CallUsage, args, stderr, withLogLevel, func(fs *flag.FlagSet) {
		flags = fs
		fs.StringVar(&argsJSON, "args", "{}", "tool arguments as a JSON object")
		fs.StringVar(&answer, "answer", "accept-defaults", "how to answer prompts: accept-defaults, accept, decline, cancel or FILE.json (with --session: a person answers unless this is given)")
		fs.BoolVar(&check, "check", false, "also list the tools, so the result is judged against the tool's outputSchema (findings)")
		fs.BoolVar(&noWait, "no-wait", false, "with --session: print {\"call\": ID, \"questions\": […]} at once; elicit result ID waits for the call")
	})
	if err != nil {
		return err
	}
	// On a session (the hub runs this), the call's questions wait for a
	// person unless --answer was given.
	hc := hub.CallFrom(ctx)
	if noWait && hc == nil {
		return exit.Usagef("--no-wait needs --session NAME")
	}
	if len(r.pos) != 1 {
		return exit.Usagef("call needs exactly one TOOL name (see elicit call -h)")
	}
	tool := r.pos[0]
	toolArgs, err := argsObject(argsJSON)
	if err != nil {
		return err
	}
	prompter, err := cli.Policy(answer)
	if err != nil {
		return err
	}
	if hc != nil && flagGiven(flags, "answer") {
		hc.SetPolicy(prompter)
	}
	var retries urlRetries
	r.prompter, r.answer, r.observer = prompter, answer, &retries
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess

	// The engine judges the call's result against the tool's outputSchema
	// from the session's last tools/list (a finding when it breaks it).
	// A session that has one judges with no request of ours (a kept one:
	// r.toolsKnown); a cold call lists only when --check asks: the list
	// cost every call a request (1.5–2 ms over HTTP, BENCHMARKS.md).
	// It is listed once the call has gone out (stdio: its line is on the
	// pipe; HTTP: its POST is written), while the call runs: after it, so
	// the call's ids, and so its prompts' keys, stay what they were, and
	// on a stream the call comes first; but not waiting for the result,
	// which cost the run a whole round trip more.
	var listing sync.WaitGroup
	var opts *client.CallOptions
	if check && !r.toolsKnown && sess.ServerCapabilities().Tools {
		opts = &client.CallOptions{OnSent: func() {
			listing.Go(func() { _, _ = sess.ListTools(ctx) })
		}}
	}
	if hc != nil { // the session's questions for this call are known as its
		if opts == nil {
			opts = &client.CallOptions{}
		}
		opts.OnID = hc.OnID
	}
	start := time.Now()
	rc := r.rec.Begin(sess.Name(), wire.MethodToolsCall, tool, recording.ToolCallParams{Name: tool, Arguments: toolArgs}, nil)
	res, callErr := sess.CallTool(ctx, tool, toolArgs, opts)
	elapsed := time.Since(start)
	rc.End(recording.CallResult(res), callErr)
	listing.Wait()
	out := CallOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Tool: tool,
		Roots: orEmpty(sess.Roots().Roots), ElapsedMS: elapsed.Milliseconds(), LogLevel: r.logLevelOut}
	// A prompt's answer reaches the server before its journal entry is
	// written; closing the session waits for every prompt to settle, so
	// the journal read below is complete.
	r.close()
	if hc != nil {
		hc.Settle(ctx) // a kept session stays open: wait for its questions' entries
	}
	out.Prompts = []PromptOutput{} // arrays, also when nothing was asked
	out.Sampling = []SamplingOutput{}
	for _, e := range sess.Journal().Entries() {
		if hc != nil && !hc.Owns(e.Origin) {
			continue // another call's, on the same session
		}
		if e.Sampling != nil { // a sampling question's entry holds its record
			out.Sampling = append(out.Sampling, samplingEntry(e))
			continue
		}
		out.Prompts = append(out.Prompts, PromptOutput{Key: e.Key.String(), Outcome: e.Kind.String(),
			Sent: e.Sent, Content: e.Content, Reason: e.Reason, LatencyMS: e.Latency.Milliseconds()})
	}
	out.URLRetries = retries.list()
	out.Findings = FindingsOf(r.findings)
	if callErr == nil {
		out.Result, out.IsError = res.Raw, res.IsError
	}
	err = callVerdict(tool, callErr, res, out.Prompts, out.Sampling, prompter, answer)
	if callErr != nil {
		out.Error = callErr.Error()
	}
	out.Failure = exit.FailureOf(err)
	if werr := WriteJSON(stdout, &out); werr != nil {
		return werr
	}
	return err
}

// callVerdict is how a finished call exits: the call's error, a tool
// error, a question that did not end in accept, or answer-file entries
// that filled nothing (a misspelt field name left its default in place).
func callVerdict(tool string, callErr error, res *wire.CallToolResult, prompts []PromptOutput, sampling []SamplingOutput, prompter question.Prompter, answer string) error {
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

// CallOutput is what elicit call prints.
type CallOutput struct {
	Server   string                 `json:"server"`
	Protocol string                 `json:"protocol"`
	Era      string                 `json:"era"`
	Roots    jsonList[client.Root]  `json:"roots"` // the roots served
	Tool     string                 `json:"tool"`
	Result   json.RawMessage        `json:"result,omitempty"`
	IsError  bool                   `json:"isError"`
	Error    string                 `json:"error,omitempty"`
	Prompts  jsonList[PromptOutput] `json:"prompts"`
	// Sampling lists each sampling request: what was asked, what was sent.
	Sampling jsonList[SamplingOutput] `json:"sampling"`
	// URLRetries says, for each -32042 the call got, how its URL
	// elicitations ended and whether it was sent again.
	URLRetries jsonList[URLRetryOutput] `json:"urlRetries,omitempty"`
	ElapsedMS  int64                    `json:"elapsedMs"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	// Failure is set whenever the command exits non-zero.
	Failure *exit.Failure `json:"failure,omitempty"`
	// Repaired says the output had to replace bytes the server sent.
	Repaired string `json:"repaired,omitempty"`
	// LogLevel is what became of --log-level (loglevel.go).
	LogLevel *LogLevelOutput `json:"logLevel,omitempty"`
}

func (o *CallOutput) SetRepaired(note string) { o.Repaired = note }

// ToolsOutput is what elicit tools prints.
type ToolsOutput struct {
	Server   string                `json:"server"`
	Protocol string                `json:"protocol"`
	Era      string                `json:"era"`
	Roots    jsonList[client.Root] `json:"roots"` // the roots served
	Tools    []ToolEntry           `json:"tools"`
	// Skipped says why tools were not listed: the server did not declare
	// them (Tools is then empty).
	Skipped string `json:"skipped,omitempty"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	Repaired string                     `json:"repaired,omitempty"`
	LogLevel *LogLevelOutput            `json:"logLevel,omitempty"`
}

func (o *ToolsOutput) SetRepaired(note string) { o.Repaired = note }

// ToolEntry is one tool as the server sent it, and "app": what its _meta
// says of its MCP App (the ui:// resource, who may call it, whether only
// the app may), for a script not to dig it out of _meta.
type ToolEntry struct {
	wire.Tool
	App *wire.ToolApp `json:"app,omitempty"`
}

func toolEntries(tools []wire.Tool) []ToolEntry {
	out := make([]ToolEntry, len(tools))
	for i, t := range tools {
		out[i].Tool = t
		if app, ok := t.App(); ok {
			out[i].App = &app
		}
	}
	return out
}

// PromptOutput is one question the call's server asked and how it ended.
type PromptOutput struct {
	Key     string `json:"key"`
	Outcome string `json:"outcome"`
	// Sent is what went on the wire ("" for nothing), and Content what an
	// accept carried.
	Sent      string         `json:"sent"`
	Content   map[string]any `json:"content,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	LatencyMS int64          `json:"latencyMs"`
}

// FindingsOf is what rec holds, as an array also when empty (a script
// reads "findings": [] as "none").
func FindingsOf(rec *findings.Recorder) []findings.Finding {
	if all := rec.All(); all != nil {
		return all
	}
	return []findings.Finding{}
}
