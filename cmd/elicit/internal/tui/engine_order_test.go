package tui

import (
	"slices"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/ui"
)

// TestEngineServersInOrderFromTheStart (issue 26): the servers are listed
// in the order given from before any has connected (as connecting), so
// the UI's first list, and the view it starts on, never depend on which
// server connects first.
func TestEngineServersInOrderFromTheStart(t *testing.T) {
	mgr := client.NewManager(nil)
	defer mgr.Close()
	order := []string{"zeta", "alpha", "mid"}
	specs := map[string]serverspec.Server{}
	for _, n := range order {
		specs[n] = serverspec.Server{Name: n, Demo: true}
	}
	e := &engine{ctx: t.Context(), m: mgr, specs: specs, pending: map[string]error{}, order: order,
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: question.DeclineAll} },
		transports:  func(s serverspec.Server) (transport.Transport, error) { return s.Transport(nil, nil) },
	}
	names := func(st []ui.ServerStatus) []string {
		var out []string
		for _, s := range st {
			out = append(out, s.Name)
		}
		return out
	}
	before := e.Servers()
	if got := names(before); !slices.Equal(got, order) {
		t.Fatalf("before connecting: servers %v, want %v", got, order)
	}
	for _, s := range before {
		if s.State != client.StateConnecting {
			t.Errorf("%s before connecting: state %v, want connecting", s.Name, s.State)
		}
	}
	e.connectAll(t.Context(), order)
	after := e.Servers()
	if got := names(after); !slices.Equal(got, order) {
		t.Fatalf("after connecting: servers %v, want %v", got, order)
	}
	for _, s := range after {
		if s.State != client.StateReady {
			t.Errorf("%s: state %v, want ready", s.Name, s.State)
		}
	}
}

// TestEngineServerDetailWhileConnecting: the server view of a server not
// yet handed to the Manager says connecting, not "unknown server".
func TestEngineServerDetailWhileConnecting(t *testing.T) {
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverspec.Server{"one": {Name: "one", Demo: true}}, pending: map[string]error{},
		order: []string{"one"}}
	d, err := e.Server("one")
	if err != nil || d.State != client.StateConnecting || d.Name != "one" {
		t.Fatalf("Server(one) before connecting: %+v, %v", d.ServerStatus, err)
	}
}
