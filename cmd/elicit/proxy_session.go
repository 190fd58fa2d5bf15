package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/proxy"
)

// proxyPerson is elicit proxy --session's proxy.Person: the questions
// elicit fills in for the host and no policy answers wait in the hub's
// session until a person answers them (elicit answer, elicit attach).
// Once the session is stopped (or the hub is gone) it answers cancel.
type proxyPerson struct {
	link    *hub.Link
	notice  func(string)
	once    sync.Once
	closing atomic.Bool // our end: no stop to tell
}

// openProxySession opens the proxied session name in the hub, starting
// the hub as elicit session start does.
func openProxySession(ctx context.Context, name, server string, notice func(string)) (*proxyPerson, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, exit.Fail(exit.Internal, "proxy --session: %w", err)
	}
	p, err := hub.Locate()
	if err != nil {
		return nil, exit.Fail(exit.Connect, "%w", err)
	}
	params := hub.ProxyParams{Session: name, Server: server, Pid: os.Getpid()}
	var link *hub.Link
	// A hub that was ending as we reached it is replaced once.
	for try := 0; ; try++ {
		if err = hub.Ensure(ctx, p, []string{exe, hubCommand}); err != nil {
			return nil, exit.Fail(exit.Connect, "proxy --session: %w", err)
		}
		link, _, err = hub.OpenLink(ctx, p, params)
		if err == nil || try > 0 || !errors.Is(err, hub.ErrDisconnected) {
			break
		}
	}
	if err != nil {
		return nil, exit.Fail(hub.ExitOf(err), "proxy --session %s: %s", name, hub.Message(err))
	}
	pp := &proxyPerson{link: link, notice: notice}
	go func() {
		<-link.Stopped()
		pp.stopped()
	}()
	return pp, nil
}

func (pp *proxyPerson) stopped() {
	if pp.closing.Load() {
		return
	}
	pp.once.Do(func() {
		pp.notice("the session was stopped (or its hub went): the questions elicit fills in are answered cancel from now on")
	})
}

// Ask implements proxy.Person.
func (pp *proxyPerson) Ask(ctx context.Context, q *question.Question, req proxy.Request) question.Outcome {
	select {
	case <-pp.link.Stopped():
		return question.Outcome{Kind: question.Cancel, Reason: "elicit proxy: the session was stopped"}
	default:
	}
	out, err := pp.link.Ask(ctx, q, req.Method, req.Params, req.Modes, req.Sampling)
	if err != nil && ctx.Err() == nil {
		return question.Outcome{Kind: question.Cancel, Reason: fmt.Sprintf("elicit proxy: %s", hub.Message(err))}
	}
	return out
}

// Settled implements proxy.Person.
func (pp *proxyPerson) Settled(q *question.Question, out question.Outcome, sent string) {
	select {
	case <-pp.link.Stopped():
	default:
		pp.link.Settled(q, out, sent)
	}
}

// Close ends the link: for the hub, the proxy is gone.
func (pp *proxyPerson) Close() {
	pp.closing.Store(true)
	pp.link.Close()
}
