package main

import (
	"context"
	"io"
)

// runTUI starts the terminal UI with servers from flags or a config file.
func runTUI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("elicit", stderr, topUsage)
	c.register(fs)
	before, after := splitDashDash(args)
	c.command = after
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unknown command %q (see elicit help)", pos[0])
	}
	return runTUIWith(ctx, &c, stdout, stderr)
}

func runTUIWith(ctx context.Context, c *common, stdout, stderr io.Writer) error {
	return fail(exitUsage, "the TUI is not wired yet; use elicit tools / elicit call")
}
