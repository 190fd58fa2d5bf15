package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// sessionSet is what the engine reads of its servers' sessions: the
// TUI's client.Manager, or one session a hub keeps (heldSession), which
// elicit attach's TUI shows.
type sessionSet interface {
	Add(ctx context.Context, name string, t transport.Transport, opts *client.Options) error
	Session(name string) *client.Session
	Status() []client.ServerStatus
	Details(name string) (client.ServerDetails, error)
	Reconnect(ctx context.Context, name string) error
	Roots(name string) (client.RootsInfo, error)
	SetRoots(ctx context.Context, name string, roots []client.Root) error
	Journal() *question.Journal
}

var (
	_ sessionSet = (*client.Manager)(nil)
	_ sessionSet = heldSession{}
)

// errKept: a kept session's server is the session's (elicit session
// start made it, elicit session stop ends it); a TUI attached to it does
// not add or replace one.
var errKept = errors.New("a kept session is started and stopped with elicit session start and stop, not from its TUI")

// heldSession is one session a hub keeps, as a sessionSet of one.
type heldSession struct{ s *client.Session }

func (k heldSession) Add(context.Context, string, transport.Transport, *client.Options) error {
	return errKept
}

func (k heldSession) Session(name string) *client.Session {
	if name != k.s.Name() || k.s.Err() != nil {
		return nil
	}
	return k.s
}

// Status is the session's, as the Manager says it of one it holds.
func (k heldSession) Status() []client.ServerStatus {
	st := client.ServerStatus{Name: k.s.Name(), State: client.StateReady, Protocol: k.s.Protocol(), Era: k.s.Era()}
	switch err := k.s.Err(); {
	case errors.Is(err, client.ErrClosed):
		st.State = client.StateClosed
	case err != nil:
		st.State, st.Err = client.StateDisconnected, err
	}
	return []client.ServerStatus{st}
}

func (k heldSession) Details(name string) (client.ServerDetails, error) {
	if name != k.s.Name() {
		return client.ServerDetails{}, fmt.Errorf("details of %s: %w", name, client.ErrUnknownServer)
	}
	d := client.ServerDetails{ServerStatus: k.Status()[0], Session: k.s.Details()}
	if e := d.Session.Err; e != nil && !errors.Is(e, client.ErrClosed) {
		d.LastErr, d.LastErrAt = e, d.Session.Ended
	}
	return d, nil
}

func (k heldSession) Reconnect(context.Context, string) error { return errKept }

func (k heldSession) Roots(name string) (client.RootsInfo, error) {
	if name != k.s.Name() {
		return client.RootsInfo{}, fmt.Errorf("roots of %s: %w", name, client.ErrUnknownServer)
	}
	return k.s.Roots(), nil
}

func (k heldSession) SetRoots(ctx context.Context, name string, roots []client.Root) error {
	if name != k.s.Name() {
		return fmt.Errorf("set roots on %s: %w", name, client.ErrUnknownServer)
	}
	if err := k.s.SetRoots(ctx, roots); err != nil {
		return fmt.Errorf("set roots on %s: %w", name, err)
	}
	return nil
}

func (k heldSession) Journal() *question.Journal { return k.s.Journal() }
