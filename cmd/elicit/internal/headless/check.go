package headless

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// CheckUsage is elicit check -h.
const CheckUsage = `Usage: elicit check [--call TOOL [--args JSON] [--answer POLICY]] [--json] [flags] [-- CMD ARGS...]

Exercises a server as a person starts to: connects (initialize, or
server/discover in 2026-07-28), lists its tools, resources, resource
templates and prompts, reads every resource and gets every prompt that
needs no arguments, and, with --call, calls TOOL with --args, answering
its questions by --answer as elicit call does. Then it prints every spec
violation the server committed meanwhile (the rule catalogue is
docs/findings.md): a table, or JSON with --json.
It reads the first 50 resources and gets the first 50 prompts, 8 at a
time. --budget bounds the whole run after connecting (default 3 times
--request-timeout): what it could not check is reported, not waited for,
each step saying why ("notChecked": "timeout" when the server did not
answer within --request-timeout, "budget" when the budget ran out before
or while it was asked).
Exit codes: 0 no error-level finding (warnings allowed; steps not
checked too), 2 usage, 3 connect failure, 6 at least one error-level
finding.
`

// CheckStep is one thing check did and how it went.
type CheckStep struct {
	Step  string `json:"step"`
	OK    bool   `json:"ok"`
	Note  string `json:"note,omitempty"`
	Error string `json:"error,omitempty"`
	// NotChecked says why the step did not check what it names:
	// NotCheckedTimeout or NotCheckedBudget.
	NotChecked string `json:"notChecked,omitempty"`
}

// CheckOutput is what check prints with --json.
type CheckOutput struct {
	Server   string      `json:"server"`
	Protocol string      `json:"protocol"`
	Era      string      `json:"era"`
	Steps    []CheckStep `json:"steps"`
	// Budget is the run's --budget; NotChecked counts the steps that
	// did not check what they name (timed out, or the budget ran out).
	Budget     string             `json:"budget"`
	NotChecked int                `json:"notChecked"`
	Findings   []findings.Finding `json:"findings"`
	Errors     int                `json:"errors"`
	Warnings   int                `json:"warnings"`
	Failure    *exit.Failure      `json:"failure,omitempty"`
	Repaired   string             `json:"repaired,omitempty"`
	// LogLevel is what became of --log-level (loglevel.go).
	LogLevel *LogLevelOutput `json:"logLevel,omitempty"`
}

func (o *CheckOutput) SetRepaired(note string) { o.Repaired = note }

// Check is elicit check.
func (e Env) Check(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var tool, argsJSON, answer string
	var asJSON bool
	var budget time.Duration
	r, err := e.parse("check", CheckUsage, args, stderr, withLogLevel, func(fs *flag.FlagSet) {
		fs.StringVar(&tool, "call", "", "also call this tool")
		fs.StringVar(&argsJSON, "args", "{}", "--call's arguments as a JSON object")
		fs.StringVar(&answer, "answer", "accept-defaults", "how to answer --call's questions: accept-defaults, accept, decline, cancel or FILE.json")
		fs.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
		fs.DurationVar(&budget, "budget", 0, fmt.Sprintf("bound the whole run after connecting (0: %d times --request-timeout)", checkBudgetTimeouts))
	})
	if err != nil {
		return err
	}
	if len(r.pos) > 0 {
		return exit.Usagef("check takes no arguments, got %q (a tool to call goes in --call)", r.pos[0])
	}
	if budget < 0 {
		return exit.Usagef("--budget must not be negative, got %v", budget)
	}
	if budget == 0 {
		budget = checkBudgetTimeouts * r.flags.RequestTimeout
	}
	toolArgs, err := argsObject(argsJSON)
	if err != nil {
		return err
	}
	prompter, err := cli.Policy(answer)
	if err != nil {
		return err
	}
	out := &CheckOutput{Steps: []CheckStep{}, Budget: budget.String()}
	r.prompter, r.answer = prompter, answer // --record: the call below is what a replay runs again
	if err := r.connect(ctx); err != nil {
		// What the handshake showed of the server is still worth saying.
		out.Steps = append(out.Steps, CheckStep{Step: "connect", Error: err.Error()})
		return printCheck(stdout, asJSON, out, r.findings, err)
	}
	defer r.close()
	sess := r.sess
	out.Server, out.Protocol, out.Era = sess.Name(), sess.Protocol(), sess.Era()
	out.LogLevel = r.logLevelOut
	out.Steps = append(out.Steps, CheckStep{Step: "connect", OK: true, Note: sess.Era()})
	bctx, cancel := context.WithTimeoutCause(ctx, budget, errBudgetSpent)
	defer cancel()
	ex := &exercise{ctx: bctx, s: sess, rec: r.rec, budget: budget}
	out.Steps = append(out.Steps, ex.run()...)
	if tool != "" {
		out.Steps = append(out.Steps, ex.call(tool, toolArgs))
	}
	// Closing lets every question settle and every late frame land, so
	// the findings read next are all there are.
	r.close()
	return printCheck(stdout, asJSON, out, r.findings, nil)
}

// printCheck prints the findings and returns how check exits: err when
// the check could not run, 6 when any finding is an error.
func printCheck(w io.Writer, asJSON bool, out *CheckOutput, rec *findings.Recorder, err error) error {
	for _, st := range out.Steps {
		if st.NotChecked != "" {
			out.NotChecked++
		}
	}
	out.Findings = FindingsOf(rec)
	out.Errors, out.Warnings = findings.Counts(out.Findings)
	if err == nil && out.Errors > 0 {
		err = exit.Fail(exit.Findings, "%d error-level finding(s) for %s", out.Errors, out.Server)
	}
	out.Failure = exit.FailureOf(err)
	if out.Failure != nil && out.Failure.Exit == exit.Findings {
		out.Failure.Kind = "findings" // 6 is replay's "differs" too
	}
	if asJSON {
		if werr := WriteJSON(w, out); werr != nil {
			return werr
		}
		return err
	}
	writeCheckTable(w, out)
	return err
}

// writeCheckTable is check's table: the steps, then one block per
// finding. Server text goes through untrusted.Line.
func writeCheckTable(w io.Writer, out *CheckOutput) {
	fmt.Fprintf(w, "elicit check: %s (%s)\n\n", untrusted.Line(out.Server), untrusted.Line(out.Era))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, st := range out.Steps {
		mark, text := "ok", st.Note
		switch {
		case st.NotChecked != "":
			mark, text = "SKIP", st.Error
		case !st.OK:
			mark = "FAIL"
			if st.Error != "" {
				text = st.Error
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, untrusted.Line(clipCell(st.Step, 60)), untrusted.Line(clipCell(text, 100)))
	}
	tw.Flush()
	if out.NotChecked > 0 {
		fmt.Fprintf(w, "\n%d step(s) not checked (SKIP: timed out, or the budget of %s ran out)\n", out.NotChecked, out.Budget)
	}
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
