package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/transport/redact"
)

// hubCommand is the hidden command the session hub runs as: elicit
// session start re-executes the binary with it (hub.Ensure), detached.
const hubCommand = "__hub"

// runHub is the session hub's process: it serves until its last session
// stops. Its log (0600, beside the socket) gets what its sessions' servers
// say on stderr, masked with each session's secrets.
func runHub(ctx context.Context, args []string, stderr io.Writer) error {
	if len(args) > 0 {
		return usageErr("%s takes no arguments", hubCommand)
	}
	// Not the first starter's folder: the hub must not keep it busy, and
	// what a session reads is made absolute by its callers.
	_ = os.Chdir("/")
	p, err := hub.Locate()
	if err != nil {
		return err
	}
	if err := p.Ensure(); err != nil {
		return err
	}
	logf, err := redact.CreatePrivate(p.Log)
	if err != nil {
		return fmt.Errorf("hub log: %w", err)
	}
	defer logf.Close()
	// The hub's stderr is /dev/null (it is detached): what the runtime
	// would print there (a panic) goes to the log instead.
	_ = unix.Dup2(int(logf.Fd()), 2)
	err = hub.Spawned(ctx, hub.Config{Paths: p, Open: hubOpener(logf), Run: runOnSession, Code: codeOf, Log: logf})
	if errors.Is(err, hub.ErrBusy) {
		return nil // the other one serves
	}
	return err
}

// hubOpener opens a session of the hub from elicit session start's
// command line, as a one-shot command connects (connectSpec), where the
// caller stands: a stdio server runs in the caller's folder with the
// caller's environment.
func hubOpener(log io.Writer) hub.Opener {
	return func(ctx context.Context, p hub.StartParams, h hub.Hooks) (*hub.Opened, error) {
		sec := redact.NewSecrets()
		errw := sec.Writer(log)
		var c common
		fs := newFlagSet("session start", errw, sessionStartUsage)
		c.register(fs)
		c.registerConfig(fs)
		c.registerLogLevel(fs)
		before, after := splitDashDash(p.Args)
		c.command = after
		pos, err := parseInterleaved(fs, before)
		if err != nil {
			return nil, err
		}
		if len(pos) > 0 {
			return nil, usageErr("session start takes one NAME, then flags; got %q too", pos[0])
		}
		spec, err := c.spec(true)
		if err != nil {
			return nil, err
		}
		for _, w := range spec.warnings {
			fmt.Fprintf(errw, "elicit: warning: %s\n", w)
		}
		if spec.Command != "" {
			if spec.Dir == "" {
				spec.Dir = p.Cwd
			}
			spec.Env = append(slices.Clone(p.Env), spec.Env...)
		}
		// What elicit attach's TUI shows of the session is kept from its
		// start: its questions (the hub's prompter hands each to it too),
		// events, traffic, stderr and findings (attach_serve.go).
		kept := newKeptUI(spec, sec)
		// Attached for the session's life: the Bridge holds a question
		// while no TUI is attached and shows it to the next one
		// (ui/bridge_prompts.go). Detached before the Bridge closes, so
		// its last outcomes are never taken for answers.
		detach := func() {}
		if hp, ok := h.Prompter.(*hub.Prompter); ok {
			detach = hp.Attach(kept.Prompter())
		}
		toUI := kept.Observer()
		c.recordAs, c.dieWithParent = "session", true
		c.onFrame, c.onStderr, c.findingsChanged = kept.Frame, kept.Stderr, kept.FindingsChanged
		c.observer = client.ObserverFunc(func(e client.Event) { h.Observer.Event(e); toUI.Event(e) })
		sess, cleanup, err := connectSpec(ctx, &c, spec, h.Prompter, errw)
		if err != nil {
			detach()
			kept.Close()
			errw.Flush()
			return nil, err
		}
		kept.session, kept.found, kept.rec = sess, c.findings, c.rec
		return &hub.Opened{Client: sess, Findings: c.findings, Recorder: c.rec, Pid: sess.Details().Conn.Pid, Secrets: sec,
			Attach: kept.Attach,
			Close:  func() { cleanup(); detach(); kept.Close(); errw.Flush() }}, nil
	}
}

// runOnSession runs a headless command in the hub, on s: as it runs
// alone, with s's secrets masked in what it prints.
func runOnSession(ctx context.Context, s *hub.Session, args []string, stdout, stderr io.Writer) int {
	return runSecrets(ctx, args, strings.NewReader(""), stdout, stderr, s.Secrets())
}
