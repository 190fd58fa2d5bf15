package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/replay"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/tui"
)

// runFunc runs a subcommand with the arguments after its name.
type runFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error

// command is one subcommand of elicit. commandTable is the one list that
// dispatch, the top help (topUsage), "elicit help COMMAND", flags before
// the command (hoistCommand), "did you mean" (nearestCommand) and
// printsOnly read, so help and dispatch cannot disagree
// (TestCommandsHelpAndDispatchAgree).
type command struct {
	name    string
	aliases []string // other words that run it ("--version")
	// synopsis are its forms in the top help, each with what it does.
	synopsis []synopsis
	// usage is what elicit NAME -h prints (the command's own text).
	usage string
	// headless commands print JSON on stdout; one that fails before
	// writing any prints a failure object there instead (headless.WithFailureJSON).
	headless bool
	// printsOnly commands print a text and start nothing a signal would
	// have to stop (printsOnly, main.go).
	printsOnly bool
	run        runFunc
}

// synopsis is one line of the top help: a form of the command (after
// "elicit ") and what it does (lines after the first are indented under
// it).
type synopsis struct{ form, does string }

// commandTable is every subcommand, in the order help shows them. A new
// command is one entry here (and its file): see AGENTS.md, "How to add…".
func commandTable() []command {
	hl := headless.Env{Version: version}
	return []command{
		{name: "demo", usage: demoUsage, run: runDemo, synopsis: []synopsis{
			{"demo", "the TUI against the embedded demo servers, one per\nprotocol era (demo-2025-11-25, demo-2026-07-28)"},
			{"demo --serve stdio|http [--addr ADDR]", "run the demo server for other clients"},
			{"demo --acp", "serve the demo ACP agent on stdio"},
		}},
		{name: "tools", headless: true, usage: headless.ToolsUsage, run: noStdin(hl.Tools), synopsis: []synopsis{
			{"tools [flags] [-- CMD ARGS...]", "list a server's tools as JSON"},
		}},
		{name: "app", usage: headless.AppUsage, run: noStdin(hl.App), synopsis: []synopsis{
			{"app TOOL [--args JSON] [--no-open] [flags] [-- CMD ARGS...]", "host the tool's MCP App on a local page ($BROWSER)"},
		}},
		{name: "call", headless: true, usage: headless.CallUsage, run: noStdin(hl.Call), synopsis: []synopsis{
			{"call TOOL [--args JSON] [--answer POLICY] [flags] [-- CMD ARGS...]", "call a tool headless; prints JSON"},
			{"call TOOL --session NAME [--no-wait]", "call it on a kept session; a person answers\n(elicit answer) unless --answer is given"},
		}},
		{name: "resources", headless: true, usage: headless.ResourcesUsage, run: noStdin(hl.Resources), synopsis: []synopsis{
			{"resources [flags] [-- CMD ARGS...]", "list a server's resources; JSON"},
		}},
		{name: "templates", headless: true, usage: headless.TemplatesUsage, run: noStdin(hl.Templates), synopsis: []synopsis{
			{"templates [flags] [-- CMD ARGS...]", "list its resource templates; JSON"},
		}},
		{name: "read", headless: true, usage: headless.ReadUsage, run: noStdin(hl.Read), synopsis: []synopsis{
			{"read URI [flags] [-- CMD ARGS...]", "read a resource; JSON"},
		}},
		{name: "prompts", headless: true, usage: headless.PromptsUsage, run: noStdin(hl.Prompts), synopsis: []synopsis{
			{"prompts [flags] [-- CMD ARGS...]", "list its MCP prompts; JSON"},
		}},
		{name: "get", headless: true, usage: headless.GetUsage, run: noStdin(hl.Get), synopsis: []synopsis{
			{"get NAME [--args JSON] [flags] [-- CMD ARGS...]", "get an MCP prompt; JSON"},
		}},
		{name: "skills", headless: true, usage: headless.SkillsUsage, run: noStdin(hl.Skills), synopsis: []synopsis{
			{"skills [flags] [-- CMD ARGS...]", "list its skills (SEP-2640), nothing read; JSON"},
		}},
		{name: "skill", headless: true, usage: headless.SkillUsage, run: noStdin(hl.Skill), synopsis: []synopsis{
			{"skill URI [--file PATH] [flags] [-- CMD ARGS...]", "get a skill, read and verify SKILL.md (or one\nfile); JSON; exit 6 if it is not as declared"},
		}},
		{name: "ping", headless: true, usage: headless.PingUsage, run: noStdin(hl.Ping), synopsis: []synopsis{
			{"ping [flags] [-- CMD ARGS...]", "connect, ping, print the round trip; JSON"},
		}},
		{name: "session", headless: true, usage: sessionUsage, run: noStdin(runSession), synopsis: []synopsis{
			{"session start NAME [flags] [-- CMD ARGS...]", "keep a session with a server in the session hub;\nJSON (docs/sessions.md)"},
			{"session list | session stop NAME", "the sessions kept; end one (its server stops)"},
		}},
		{name: "questions", headless: true, usage: questionsUsage, run: noStdin(runQuestions), synopsis: []synopsis{
			{"questions --session NAME", "a session's open questions; JSON"},
		}},
		{name: "answer", headless: true, usage: answerUsage, run: noStdin(runAnswer), synopsis: []synopsis{
			{"answer KEY --session NAME --accept JSON|--accept-defaults|--decline|--cancel", "answer one of them"},
		}},
		{name: "result", headless: true, usage: resultUsage, run: noStdin(runResult), synopsis: []synopsis{
			{"result ID --session NAME", "wait for a call --no-wait started; its JSON"},
		}},
		{name: "attach", usage: attachUsage, run: noStdin(runAttach), synopsis: []synopsis{
			{"attach NAME", "the TUI on a kept session: its questions, traffic and\njournal; quitting leaves the session running"},
		}},
		{name: "check", usage: headless.CheckUsage, run: noStdin(hl.Check), synopsis: []synopsis{
			{"check [--call TOOL [--args JSON] [--answer POLICY]] [--json] [flags] [-- CMD ARGS...]",
				"exercise a server and print its spec violations\n(docs/findings.md); exit 6 on an error-level one"},
		}},
		{name: "proxy", usage: proxyUsage, run: runProxy, synopsis: []synopsis{
			{"proxy [--answer POLICY] [--sample …] [flags] -- CMD ARGS...",
				"between a host and a server: pass every frame, fill in\nwhat the host does not declare (docs/proxy.md)"},
		}},
		{name: "auth", usage: headless.AuthUsage, run: noStdin(hl.Auth), synopsis: []synopsis{
			{"auth login|status|logout --url URL | --config FILE --server NAME",
				"OAuth ahead of time, what is kept, revoke and\nforget it (logout --no-revoke: forget only)"},
		}},
		// acp's -h is the headless usage (tui.ACPWantsTUI); its TUI prints
		// acpTUIUsage on a flag error.
		{name: "acp", usage: agents.ACPUsage, run: noStdin(runACPEither), synopsis: []synopsis{
			{"acp --prompt TEXT [--permission P] [--answer POLICY] [-- AGENT ARGS...]", "one prompt turn with an ACP agent, headless; JSON"},
			{"acp [-- AGENT ARGS...]", "the TUI on an ACP agent (the demo agent without one)"},
		}},
		{name: "replay", usage: replay.Usage, run: replay.Env{Version: version}.Run, synopsis: []synopsis{
			{"replay FILE [-- CMD ARGS... | --url URL]",
				"run a recording (--record FILE on the TUI or any\nheadless command) again; exit 6 when anything differs"},
		}},
		{name: "conformance", usage: headless.ConformanceUsage, run: noStdin(hl.Conformance), synopsis: []synopsis{
			{"conformance URL", "entry point for the MCP conformance suite"},
		}},
		{name: "version", aliases: []string{"--version"}, printsOnly: true, usage: versionUsage, run: runVersion, synopsis: []synopsis{
			{"version", "print elicit's version"},
		}},
		{name: "help", aliases: []string{"-h", "--help", "-help"}, printsOnly: true, usage: helpUsage, run: runHelp, synopsis: []synopsis{
			{"help [COMMAND]", "this text, or COMMAND's usage and flags"},
		}},
	}
}

// lookupCommand is the command named (or aliased) word.
func lookupCommand(word string) (command, bool) {
	for _, c := range commandTable() {
		if c.name == word || slices.Contains(c.aliases, word) {
			return c, true
		}
	}
	return command{}, false
}

// noStdin adapts a command that reads no stdin to a runFunc.
func noStdin(run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) runFunc {
	return func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
		return run(ctx, args, stdout, stderr)
	}
}

// runACPEither runs elicit acp: the TUI, or one headless turn with
// --prompt (which prints JSON, a failure object when it fails early).
func runACPEither(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if tui.ACPWantsTUI(args) {
		return tui.Env{Version: version}.RunACP(ctx, args, stdout, stderr)
	}
	return headless.WithFailureJSON(stdout, func(w io.Writer) error { return agents.Env{Version: version}.RunACP(ctx, args, w, stderr) })
}

const versionUsage = `Usage: elicit version

Prints "elicit VERSION" on stdout.
`

// runVersion prints the version. The TUI's flags are parsed and ignored:
// "elicit --theme x version" comes here as "version --theme x".
func runVersion(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("version", stderr, versionUsage)
	fs.Usage = func() { fmt.Fprint(stderr, versionUsage) }
	(&tui.Flags{}).Register(fs)
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return exit.Usagef("version takes no arguments, got %q", pos[0])
	}
	fmt.Fprintf(stdout, "elicit %s\n", version)
	return nil
}

const helpUsage = `Usage: elicit help [COMMAND]

Without COMMAND, prints what elicit does and the TUI's flags; with one,
that command's usage and flags (as elicit COMMAND -h does).
`

// runHelp prints the top usage and the TUI's flags, or a command's own
// usage. The TUI's flags are parsed and ignored: "elicit --theme x help"
// comes here as "help --theme x".
func runHelp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("help", stderr, helpUsage)
	fs.Usage = func() { fmt.Fprint(stderr, helpUsage) }
	(&tui.Flags{}).Register(fs)
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return exit.Usagef("help takes at most one COMMAND, got %q", pos)
	}
	if len(pos) == 1 && pos[0] != "help" {
		c, ok := lookupCommand(pos[0])
		if !ok {
			if near := nearestCommand(pos[0]); near != "" {
				return exit.Usagef("help: unknown command %q: did you mean %q?", pos[0], near)
			}
			return exit.Usagef("help: unknown command %q (see elicit help)", pos[0])
		}
		return c.run(ctx, []string{"-h"}, stdin, stdout, stderr)
	}
	fmt.Fprint(stdout, topUsage())
	fmt.Fprintln(stdout, "\nFlags of the TUI (and demo); each command's own with elicit COMMAND -h:")
	tfs := flag.NewFlagSet("elicit", flag.ContinueOnError)
	tfs.SetOutput(stdout)
	(&tui.Flags{}).Register(tfs)
	tfs.PrintDefaults()
	return exit.ErrHelp
}

const (
	topIntro = `elicit — a terminal client for MCP servers that gets their questions right.

Usage:
`
	// topTUI are the forms without a command: the TUI.
	topTUI = `  elicit [flags] -- CMD ARGS...            the TUI against a stdio server
  elicit [flags] --url URL                 the TUI against a Streamable HTTP server
  elicit [flags] [--config FILE]           the TUI against every server of a servers file
                                           (without --config, the first of the usual places)
`
	topOutro = `
Headless commands take the server as -- CMD ARGS..., --url URL, --demo,
or --config FILE --server NAME; without one, the embedded demo server.
Run "elicit help COMMAND" or "elicit COMMAND -h" for a command's flags.
`
	// synopsisColumn is where what a form does starts.
	synopsisColumn = 43
)

// topUsage is the top help: the TUI's forms, then every command's, from
// commandTable.
func topUsage() string {
	var b strings.Builder
	b.WriteString(topIntro)
	b.WriteString(topTUI)
	for _, c := range commandTable() {
		for _, s := range c.synopsis {
			writeSynopsis(&b, s)
		}
	}
	b.WriteString(topOutro)
	return b.String()
}

// writeSynopsis writes "  elicit FORM" and what it does in the column
// (on the next line when the form reaches it).
func writeSynopsis(b *strings.Builder, s synopsis) {
	form := "  elicit " + s.form
	b.WriteString(form)
	pad := synopsisColumn - len(form)
	if pad < 2 {
		b.WriteString("\n")
		pad = synopsisColumn
	}
	for i, line := range strings.Split(s.does, "\n") {
		if i > 0 {
			pad = synopsisColumn
		}
		b.WriteString(strings.Repeat(" ", pad) + line + "\n")
	}
}
