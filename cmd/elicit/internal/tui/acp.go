package tui

import (
	"context"
	"flag"
	"io"
	"path/filepath"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

const acpTUIUsage = `Usage: elicit acp [--cwd DIR] [--theme NAME] [--fps N] [--record FILE]
                  [-- AGENT ARGS...]

Without --prompt, elicit acp opens the TUI on AGENT (an Agent Client
Protocol agent on stdio; without one, the embedded demo agent): its view
(alt+a) has a prompt box, the turn streaming in, its tool calls, plan,
mode and usage; esc stops a turn (session/cancel). Its questions open as
panes in the questions view (F4): a permission request with one choice
per option, an elicitation as a form. With --prompt it runs one turn
headless instead (elicit acp --prompt TEXT -h).
--record FILE writes a recording of the session (every ACP frame both
ways, every prompt as a call with how its turn ended, every question with
the person's answer, the settings; secrets masked) for elicit replay FILE
(docs/record.md).
`

// ACPWantsTUI reports whether elicit acp's arguments ask for the TUI: no
// --prompt before the agent's command. The headless flags alone are a
// usage error there, not a silent TUI.
func ACPWantsTUI(args []string) bool {
	before, _ := cli.SplitDashDash(args)
	for _, a := range before {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "prompt" || name == "h" || name == "help") {
			return false
		}
	}
	return true
}

// RunACP opens the TUI on one agent, with no MCP server.
func (e Env) RunACP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f Flags
	// The TUI's other flags keep their defaults (timeouts, modes, fps).
	f.Register(flag.NewFlagSet("defaults", flag.ContinueOnError))
	var cwd string
	fs := cli.NewFlagSet("acp", stderr, acpTUIUsage)
	fs.StringVar(&cwd, "cwd", "", "the agent's working directory, and its session's (default: here)")
	fs.StringVar(&f.theme, "theme", "", "colour theme")
	fs.IntVar(&f.fps, "fps", renderFPS, "most redraws a second, 1-120 (as elicit's)")
	fs.StringVar(&f.Record, "record", "", recording.FlagUsage)
	// The headless flags are known here only to say where they belong.
	var headless string
	for _, name := range []string{"answer", "permission", "cancel-after"} {
		fs.Func(name, "headless only: goes with --prompt", func(string) error {
			if headless == "" {
				headless = name
			}
			return nil
		})
	}
	before, command := cli.SplitDashDash(args)
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if headless != "" {
		return exit.Usagef("--%s goes with --prompt TEXT (one turn, headless); without --prompt elicit acp opens the TUI", headless)
	}
	if len(pos) > 0 {
		return exit.Usagef("acp takes no arguments before --, got %q (the headless flags go with --prompt)", pos[0])
	}
	var spec serverspec.Agent
	if len(command) == 0 {
		if spec, err = agents.Demo(agents.DemoName); err != nil {
			return exit.Fail(exit.Connect, "%w", err)
		}
	} else {
		spec = serverspec.Agent{Name: filepath.Base(command[0]), Command: command[0], Args: command[1:]}
	}
	spec.Dir = cwd
	f.acpOnly, f.agents = true, []serverspec.Agent{spec}
	return e.Run(ctx, &f, stdout, stderr)
}
