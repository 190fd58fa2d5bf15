package main

import (
	"context"
	"io"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/tui"
)

// runTUI starts the terminal UI with servers from flags or a config file.
func runTUI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f tui.Flags
	fs := cli.NewFlagSet("elicit", stderr, topUsage())
	f.Register(fs)
	before, after := cli.SplitDashDash(args)
	f.Command = after
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	f.Visited(fs)
	if len(pos) > 0 {
		// Most likely a headless command mistyped, whose caller reads
		// stdout: the failure is its JSON there too.
		return headless.WithFailureJSON(stdout, func(io.Writer) error {
			if near := nearestCommand(pos[0]); near != "" {
				return exit.Usagef("unknown command %q: did you mean %q? (see elicit help)", pos[0], near)
			}
			return exit.Usagef("unknown command %q (see elicit help)", pos[0])
		})
	}
	return tui.Env{Version: version, Stdin: stdin, Ask: terminalAsker(stdout)}.Run(ctx, &f, stdout, stderr)
}
