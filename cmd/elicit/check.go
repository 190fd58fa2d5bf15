package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

const checkUsage = `Usage: elicit check [--call TOOL [--args JSON] [--answer POLICY]] [--json] [flags] [-- CMD ARGS...]

Exercises a server as a person starts to: connects (initialize, or
server/discover in 2026-07-28), lists its tools, resources, resource
templates and prompts, reads every resource and gets every prompt that
needs no arguments, and, with --call, calls TOOL with --args, answering
its questions by --answer as elicit call does. Then it prints every spec
violation the server committed meanwhile (the rule catalogue is
docs/findings.md): a table, or JSON with --json.
Exit codes: 0 no error-level finding (warnings allowed), 2 usage,
3 connect failure, 6 at least one error-level finding.
`

// maxChecked bounds how many resources and prompts check reads: a server
// with thousands of resources is judged on its first ones.
const maxChecked = 50

// checkStep is one thing check did and how it went.
type checkStep struct {
	Step  string `json:"step"`
	OK    bool   `json:"ok"`
	Note  string `json:"note,omitempty"`
	Error string `json:"error,omitempty"`
}

// checkOutput is what check prints with --json.
type checkOutput struct {
	Server   string             `json:"server"`
	Protocol string             `json:"protocol"`
	Era      string             `json:"era"`
	Steps    []checkStep        `json:"steps"`
	Findings []findings.Finding `json:"findings"`
	Errors   int                `json:"errors"`
	Warnings int                `json:"warnings"`
	Failure  *failure           `json:"failure,omitempty"`
	Repaired string             `json:"repaired,omitempty"`
}

func (o *checkOutput) setRepaired(note string) { o.Repaired = note }

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	var tool, argsJSON, answer string
	var asJSON bool
	fs := newFlagSet("check", stderr, checkUsage)
	c.register(fs)
	c.registerConfig(fs)
	fs.StringVar(&tool, "call", "", "also call this tool")
	fs.StringVar(&argsJSON, "args", "{}", "--call's arguments as a JSON object")
	fs.StringVar(&answer, "answer", "accept-defaults", "how to answer --call's questions: accept-defaults, accept, decline, cancel or FILE.json")
	fs.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	before, after := splitDashDash(args)
	c.command = after
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("check takes no arguments, got %q (a tool to call goes in --call)", pos[0])
	}
	var toolArgs map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &toolArgs); err != nil || toolArgs == nil {
		return usageErr("--args must be a JSON object, e.g. --args '{\"title\":\"x\"}'")
	}
	prompter, err := policy(answer)
	if err != nil {
		return err
	}
	out := &checkOutput{Steps: []checkStep{}}
	c.recordAs, c.answer = "check", answer // --record: the call below is what a replay runs again
	sess, cleanup, err := connectHeadless(ctx, &c, prompter, stderr)
	if err != nil {
		// What the handshake showed of the server is still worth saying.
		out.Steps = append(out.Steps, checkStep{Step: "connect", Error: err.Error()})
		return printCheck(stdout, asJSON, out, c.findings, err)
	}
	defer cleanup()
	out.Server, out.Protocol, out.Era = sess.Name(), sess.Protocol(), sess.Era()
	out.Steps = append(out.Steps, checkStep{Step: "connect", OK: true, Note: sess.Era()})
	out.Steps = append(out.Steps, exerciseServer(ctx, sess, c.rec)...)
	if tool != "" {
		rc := c.rec.Begin(sess.Name(), wire.MethodToolsCall, tool, toolCallParams{Name: tool, Arguments: toolArgs}, nil)
		res, err := sess.CallTool(ctx, tool, toolArgs, nil)
		rc.End(callResult(res), err)
		st := checkStep{Step: "tools/call " + tool, OK: err == nil && !res.IsError}
		switch {
		case err != nil:
			st.Error = err.Error()
		case res.IsError:
			st.Note = "isError"
		default:
			st.Note = fmt.Sprintf("%d content blocks", len(res.Content))
			if len(res.StructuredContent) > 0 {
				st.Note += ", structuredContent"
			}
		}
		out.Steps = append(out.Steps, st)
	}
	// Closing lets every question settle and every late frame land, so
	// the findings read next are all there are.
	cleanup()
	return printCheck(stdout, asJSON, out, c.findings, nil)
}

// exerciseServer lists what the server declared and reads what needs no
// arguments: a person's first minute with it. Each step is a call of the
// recording (--record), so a replay of a check lists and reads again and
// says what changed.
func exerciseServer(ctx context.Context, s *client.Session, rec *record.Recorder) []checkStep {
	caps := s.ServerCapabilities()
	var steps []checkStep
	step := func(name string, n int, err error, what string) {
		st := checkStep{Step: name, OK: err == nil}
		if err != nil {
			st.Error = err.Error()
		} else {
			st.Note = fmt.Sprintf("%d %s", n, what)
		}
		steps = append(steps, st)
	}
	if caps.Tools {
		rc := rec.Begin(s.Name(), wire.MethodToolsList, "", nil, nil)
		tools, err := s.ListTools(ctx)
		rc.End(tools, err)
		step(wire.MethodToolsList, len(tools), err, "tools")
	}
	if caps.Resources {
		rc := rec.Begin(s.Name(), wire.MethodResourcesList, "", nil, nil)
		res, err := s.ListResources(ctx)
		rc.End(res, err)
		step(wire.MethodResourcesList, len(res), err, "resources")
		for i, r := range res {
			if i == maxChecked {
				break
			}
			rc := rec.Begin(s.Name(), wire.MethodResourcesRead, r.URI, uriParams{URI: r.URI}, nil)
			c, err := s.ReadResource(ctx, r.URI)
			rc.End(c, err)
			step(wire.MethodResourcesRead+" "+r.URI, len(c), err, "contents")
		}
		rc = rec.Begin(s.Name(), wire.MethodResourcesTemplatesList, "", nil, nil)
		tpl, err := s.ListResourceTemplates(ctx)
		rc.End(tpl, err)
		step(wire.MethodResourcesTemplatesList, len(tpl), err, "templates")
	}
	if caps.Prompts {
		rc := rec.Begin(s.Name(), wire.MethodPromptsList, "", nil, nil)
		prompts, err := s.ListPrompts(ctx)
		rc.End(prompts, err)
		step(wire.MethodPromptsList, len(prompts), err, "prompts")
		got := 0
		for _, p := range prompts {
			if needsArguments(p) || got == maxChecked {
				continue
			}
			got++
			rc := rec.Begin(s.Name(), wire.MethodPromptsGet, p.Name, promptGetParams{Name: p.Name, Arguments: map[string]string{}}, nil)
			res, err := s.GetPrompt(ctx, p.Name, map[string]string{})
			rc.End(res, err)
			n := 0
			if res != nil {
				n = len(res.Messages)
			}
			step(wire.MethodPromptsGet+" "+p.Name, n, err, "messages")
		}
	}
	return steps
}

// needsArguments reports whether a prompt has a required argument.
func needsArguments(p wire.Prompt) bool {
	for _, a := range p.Arguments {
		if a.Required {
			return true
		}
	}
	return false
}

// printCheck prints the findings and returns how check exits: err when
// the check could not run, 6 when any finding is an error.
func printCheck(w io.Writer, asJSON bool, out *checkOutput, rec *findings.Recorder, err error) error {
	out.Findings = findingsOf(rec)
	out.Errors, out.Warnings = findings.Counts(out.Findings)
	if err == nil && out.Errors > 0 {
		err = fail(exitFindings, "%d error-level finding(s) for %s", out.Errors, out.Server)
	}
	out.Failure = failureOf(err)
	if out.Failure != nil && out.Failure.Exit == exitFindings {
		out.Failure.Kind = "findings" // 6 is replay's "differs" too
	}
	if asJSON {
		if werr := writeJSON(w, out); werr != nil {
			return werr
		}
		return err
	}
	writeCheckTable(w, out)
	return err
}

// writeCheckTable is check's table: the steps, then one block per
// finding. Server text goes through untrusted.Line.
func writeCheckTable(w io.Writer, out *checkOutput) {
	fmt.Fprintf(w, "elicit check: %s (%s)\n\n", untrusted.Line(out.Server), untrusted.Line(out.Era))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, st := range out.Steps {
		mark, text := "ok", st.Note
		if !st.OK {
			mark = "FAIL"
			if st.Error != "" {
				text = st.Error
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, untrusted.Line(clipCell(st.Step, 60)), untrusted.Line(clipCell(text, 100)))
	}
	tw.Flush()
	fmt.Fprintln(w)
	if len(out.Findings) == 0 {
		fmt.Fprintln(w, "No findings: the server broke no rule elicit checks.")
		return
	}
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEVERITY\tRULE\tFRAME\tWHAT")
	for _, f := range out.Findings {
		what := f.Detail
		if f.Count > 1 {
			what += fmt.Sprintf(" (×%d)", f.Count)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Severity, f.Rule, untrusted.Line(frameLabel(f.Frame)), untrusted.Line(clipCell(what, 120)))
		fmt.Fprintf(tw, "\t\t\tfix: %s\n", f.Fix)
		fmt.Fprintf(tw, "\t\t\tspec: %s %s\n", f.Version, f.Section)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d error(s), %d warning(s)\n", out.Errors, out.Warnings)
}

// frameLabel names a finding's frame for the table: direction, id or
// method, and when.
func frameLabel(r findings.FrameRef) string {
	dir := "in"
	if !r.In {
		dir = "out"
	}
	parts := []string{dir}
	if r.ID != "" {
		parts = append(parts, "#"+r.ID)
	}
	if r.Method != "" {
		parts = append(parts, r.Method)
	}
	return strings.Join(parts, " ") + " " + r.Time.Format(time.TimeOnly+".000")
}

// clipCell cuts s to n runes for a table cell.
func clipCell(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
