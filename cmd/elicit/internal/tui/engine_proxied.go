package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// errProxied: a proxied session's server is its host's (elicit proxy
// --session): the TUI attached to it shows and answers what elicit fills
// in, and its traffic, but sends the server nothing of its own.
var errProxied = errors.New("a proxied session's server is its host's: elicit attach shows its questions and traffic, and calls nothing itself")

// proxiedSet is a proxied session as the attached TUI's sessionSet: no
// client.Session (the proxy process holds the connections), its journal
// kept by the hub.
type proxiedSet struct {
	name    string
	journal *question.Journal
}

var _ sessionSet = proxiedSet{}

func (p proxiedSet) Add(context.Context, string, transport.Transport, *client.Options) error {
	return errProxied
}

func (p proxiedSet) Session(string) *client.Session { return nil }

func (p proxiedSet) Status() []client.ServerStatus {
	return []client.ServerStatus{{Name: p.name, State: client.StateReady, Protocol: "proxy"}}
}

func (p proxiedSet) Details(name string) (client.ServerDetails, error) {
	if name != p.name {
		return client.ServerDetails{}, fmt.Errorf("details of %s: %w", name, client.ErrUnknownServer)
	}
	return client.ServerDetails{ServerStatus: p.Status()[0]}, nil
}

func (p proxiedSet) Reconnect(context.Context, string) error { return errProxied }

func (p proxiedSet) Roots(string) (client.RootsInfo, error) { return client.RootsInfo{}, errProxied }

func (p proxiedSet) SetRoots(context.Context, string, []client.Root) error { return errProxied }

func (p proxiedSet) Journal() *question.Journal { return p.journal }
