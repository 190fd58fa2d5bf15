package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

const sessionUsage = `Usage: elicit session start NAME [server flags] [-- CMD ARGS...]
       elicit session list
       elicit session stop NAME

A session outlives the command that started it: the session hub (one per
user, started by the first session start, gone after the last session
stop) keeps its server, its protocol state and its open questions, and
every headless command given --session NAME runs on it (no start, no
handshake). docs/sessions.md has the recipe.

start  connects (server flags as for every headless command: -- CMD
       ARGS..., --url URL, --demo, --config FILE --server NAME; and
       --protocol, --root, --sample, --record FILE for the whole
       session; --apps declares MCP Apps, for elicit app TOOL --session
       NAME) and prints {"session", "server", "protocol", "era", "pid",
       "hubPid"} once ready. A stdio server runs here (this folder, this
       environment).
list   prints one object per session: session, server, protocol,
       questions (open), calls (in flight), since, state, and apps: true
       for one started with --apps; [] for none.
stop   ends it: its server and all it started stop; questions still open
       end abandoned.
Exit codes: 0 ok, 2 usage (a NAME taken or unknown flags), 3 the server
could not be started, no such session, or the hub is gone
("disconnected").
`

// runSession runs elicit session start|list|stop.
func runSession(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return exit.Usagef("session needs start, list or stop (see elicit session -h)")
	}
	switch args[0] {
	case "-h", "-help", "--help":
		io.WriteString(stderr, sessionUsage)
		return exit.ErrHelp
	case "start":
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return exit.Usagef("session start needs a NAME first (see elicit session -h)")
		}
		if err := hub.CheckName(args[1]); err != nil {
			return exit.Usagef("%v", err) // before a hub is started for it
		}
		return sessionStart(ctx, args[1], args[2:], stdout, stderr)
	case "list":
		if len(args) > 1 {
			return exit.Usagef("session list takes no arguments, got %q", args[1])
		}
		return sessionList(ctx, stdout)
	case "stop":
		if len(args) != 2 {
			return exit.Usagef("session stop takes one NAME (see elicit session list)")
		}
		p, err := hub.Locate()
		if err != nil {
			return exit.Fail(exit.Connect, "%w", err)
		}
		var r hub.StopResult
		if err := hub.Request(ctx, p, hub.MethodStop, hub.NameParams{Session: args[1]}, &r); err != nil {
			return hubFailure(args[1], err)
		}
		return headless.WriteJSON(stdout, &r)
	}
	return exit.Usagef("session %q: want start, list or stop", args[0])
}

// sessionStart checks the flags here (a usage error needs no hub), makes
// what they name absolute from here, and has the hub open the session.
func sessionStart(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	if err := (headless.Env{Version: version}).CheckStart(args, sessionUsage, stderr); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return exit.Fail(exit.Internal, "session start: %w", err)
	}
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	params := hub.StartParams{Session: name, Args: startArgs(args), Cwd: cwd(), Env: os.Environ()}
	var r hub.StartResult
	// A hub that was ending as we reached it (its last session had just
	// stopped) is replaced once.
	for try := 0; ; try++ {
		if err := hub.Ensure(ctx, p, []string{exe, hubCommand}); err != nil {
			return exit.Fail(exit.Connect, "session start: %w", err)
		}
		err = hub.Request(ctx, p, hub.MethodStart, params, &r)
		if err == nil || try > 0 || !errors.Is(err, hub.ErrDisconnected) {
			break
		}
	}
	if err != nil {
		return hubFailure(name, err)
	}
	return headless.WriteJSON(stdout, &r)
}

// startArgs are session start's flags with the files they name made
// absolute from here, and a server command found on our PATH: the hub
// reads them from elsewhere.
func startArgs(args []string) []string {
	out := slices.Clone(args)
	word := func(words ...string) func(string) bool {
		return func(v string) bool { return slices.Contains(words, v) || strings.Contains(v, "://") }
	}
	paths := map[string]func(string) bool{
		"config": word(), "root": word(), "record": word(), "sample": word("off", "decline", "echo"),
	}
	before, after := cli.SplitDashDash(out)
	for i := 0; i < len(before); i++ {
		a := strings.TrimLeft(before[i], "-")
		if k := strings.Index(a, "="); k > 0 && strings.HasPrefix(before[i], "-") {
			if keep, ok := paths[a[:k]]; ok {
				out[i] = before[i][:strings.Index(before[i], "=")+1] + absPath(a[k+1:], keep)
			}
			continue
		}
		if keep, ok := paths[a]; ok && strings.HasPrefix(before[i], "-") && i+1 < len(before) {
			out[i+1] = absPath(before[i+1], keep)
			i++
		}
	}
	if len(after) > 0 && !strings.ContainsRune(after[0], os.PathSeparator) {
		if abs, err := exec.LookPath(after[0]); err == nil {
			out[len(before)+1] = absPath(abs, word())
		}
	}
	return out
}

// sessionList prints the hub's sessions; none when no hub runs.
func sessionList(ctx context.Context, stdout io.Writer) error {
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	list := []hub.SessionInfo{}
	// No hub, or a dead one: no session.
	if err := hub.Request(ctx, p, hub.MethodList, nil, &list); err != nil && !errors.Is(err, hub.ErrDisconnected) && !errors.Is(err, hub.ErrNoHub) {
		return hubFailure("", err)
	}
	return headless.WriteJSON(stdout, list)
}
