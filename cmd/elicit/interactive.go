package main

import (
	"context"
	"io"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// runTUI starts the terminal UI with servers from flags or a config file.
func runTUI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f tuiFlags
	fs := cli.NewFlagSet("elicit", stderr, topUsage())
	f.register(fs)
	before, after := cli.SplitDashDash(args)
	f.Command = after
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	f.visited(fs)
	if len(pos) > 0 {
		// Most likely a headless command mistyped, whose caller reads
		// stdout: the failure is its JSON there too.
		return withFailureJSON(stdout, func(io.Writer) error {
			if near := nearestCommand(pos[0]); near != "" {
				return exit.Usagef("unknown command %q: did you mean %q? (see elicit help)", pos[0], near)
			}
			return exit.Usagef("unknown command %q (see elicit help)", pos[0])
		})
	}
	return tuiEnv{Version: version, Stdin: stdin, Ask: terminalAsker(stdout)}.run(ctx, &f, stdout, stderr)
}
