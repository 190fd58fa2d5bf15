package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/attach"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/themes"
)

const attachUsage = `Usage: elicit attach [--theme NAME] NAME

The TUI on session NAME (elicit session start): its open questions as
panes, answerable there, its traffic, logs and journal from the session's
start, its tools, resources and prompts. The TUI runs in the session hub;
this command forwards the terminal to it.

ctrl+c (or the terminal closing, SIGTERM, SIGHUP) detaches: the session
keeps running, its open questions stay open, and elicit attach NAME comes
back to them. One TUI at a time per session.

Exit codes: 0 detached, 2 no terminal or the session has a TUI attached
already, 3 no such session (no hub runs), or the hub went away
("disconnected").
`

func runAttach(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := cli.NewFlagSet("attach", stderr, attachUsage)
	theme := flags.String("theme", "", "colour theme: "+strings.Join(themes.Names(), ", ")+" (default charm; NO_COLOR is honoured)")
	pos, err := cli.ParseInterleaved(flags, args)
	if err != nil {
		return err
	}
	if *theme != "" {
		if _, err := themes.Lookup(*theme); err != nil {
			return exit.Usagef("--theme: %v", err)
		}
	}
	if len(pos) != 1 {
		return exit.Usagef("attach takes one session NAME (elicit session list shows them)")
	}
	name := pos[0]
	term, stop, err := attach.OSTerminal()
	if err != nil {
		return exit.Usagef("%v", err)
	}
	defer stop()
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", p.Socket)
	if errors.Is(err, fs.ErrNotExist) {
		// As every command on a session says it (hubFailure).
		return hubFailure(name, fmt.Errorf("%w (%s)", hub.ErrNoHub, p.Socket))
	}
	if err != nil {
		return exit.Fail(exit.Connect, "session %s: disconnected: no hub answers at %s: %v", name, p.Socket, err)
	}
	hello := attach.NewHello(name, term, os.Stdout, os.Environ())
	hello.Theme = *theme
	if err := attach.Request(conn, hello); err != nil {
		conn.Close()
		return exit.Fail(exit.Connect, "session %s: disconnected: %w", name, err)
	}
	r, err := attach.ReadReply(conn)
	if err != nil {
		conn.Close()
		var refused *attach.RefusedError
		if errors.As(err, &refused) {
			return exit.Fail(hub.ExitOf(err), "%s", refused.Error())
		}
		return exit.Fail(exit.Connect, "session %s: disconnected: %w", name, err)
	}
	line, err := attach.Run(ctx, conn, r, term)
	if errors.Is(err, attach.ErrDisconnected) {
		return exit.Fail(exit.Connect, "session %s: %w", name, err)
	}
	if err != nil {
		return err
	}
	if line != "" {
		fmt.Fprintln(stderr, line)
	}
	return nil
}
