package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/tui"
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
		return exit.Usagef("%s takes no arguments", hubCommand)
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
	err = hub.Spawned(ctx, hub.Config{Paths: p, Open: hubOpener(logf), OpenProxy: hubProxyOpener, Run: runOnSession, Code: exit.CodeOf, Log: logf})
	if errors.Is(err, hub.ErrBusy) {
		return nil // the other one serves
	}
	return err
}

// hubOpener opens a session of the hub from elicit session start's
// command line, as a one-shot command connects (headless.Env.OpenSession).
func hubOpener(log io.Writer) hub.Opener {
	return func(ctx context.Context, p hub.StartParams, h hub.Hooks) (*hub.Opened, error) {
		// What elicit attach's TUI shows of the session is kept from its
		// start (attach_serve.go): its questions, events, traffic, stderr
		// and findings.
		kept := tui.NewKept()
		toUI := kept.Observer()
		hooks := hub.Hooks{Prompter: h.Prompter,
			Observer: client.ObserverFunc(func(e client.Event) { h.Observer.Event(e); toUI.Event(e) })}
		// Attached for the session's life: the Bridge holds a question
		// while no TUI is attached and shows it to the next one
		// (ui/bridge_prompts.go). Detached before the Bridge closes, so
		// its last outcomes are never taken for answers.
		detach := func() {}
		if hp, ok := h.Prompter.(*hub.Prompter); ok {
			detach = hp.Attach(kept)
		}
		env := headless.Env{Version: version, Tap: kept.Tap()}
		opened, err := env.OpenSession(ctx, p, hooks, sessionUsage, log)
		if err != nil {
			detach()
			kept.Close()
			return nil, err
		}
		kept.Opened(opened.Client, opened.Findings, opened.Recorder)
		closeSession := opened.Close
		opened.Attach = kept.Attach
		opened.Close = func() { closeSession(); detach(); kept.Close() }
		return opened, nil
	}
}

// hubProxyOpener keeps what elicit attach shows of a proxied session
// (elicit proxy --session): its questions, the frames its proxy passes,
// the journal of what it settled. The proxy process holds the
// connections; the session has no client.Session.
func hubProxyOpener(p hub.ProxyParams, h hub.Hooks) (*hub.Opened, error) {
	journal := question.NewJournal(0)
	kept := tui.NewProxiedKept(p.Server, journal)
	detach := func() {}
	if hp, ok := h.Prompter.(*hub.Prompter); ok {
		detach = hp.Attach(kept)
	}
	toUI := kept.Observer()
	events := client.ObserverFunc(func(e client.Event) {
		if r, ok := e.(client.PromptResolved); ok {
			journal.Record(r.Entry)
		}
		toUI.Event(e)
	})
	return &hub.Opened{Events: events, OnFrame: kept.Frame,
		Attach: kept.Attach, Close: func() { detach(); kept.Close() }}, nil
}

// runOnSession runs a headless command in the hub, on s: as it runs
// alone, with s's secrets masked in what it prints.
func runOnSession(ctx context.Context, s *hub.Session, args []string, stdout, stderr io.Writer) int {
	return runSecrets(ctx, args, strings.NewReader(""), stdout, stderr, s.Secrets())
}
