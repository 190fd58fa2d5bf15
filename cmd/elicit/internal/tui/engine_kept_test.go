package tui

import (
	"errors"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/ui"
)

// TestKeptSessionEngine: the TUI's engine over one kept session (what
// elicit attach shows) lists it ready with its capabilities, calls its
// tools, journals its questions, details it, refuses to replace it, and
// says closed once it is.
func TestKeptSessionEngine(t *testing.T) {
	spec := serverspec.Server{Name: "demo", Demo: true}
	tr, err := spec.Transport(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := client.Connect(t.Context(), tr, &client.Options{Name: "demo", Prompter: question.AcceptDefaults})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := &engine{ctx: t.Context(), m: heldSession{s}, specs: map[string]serverspec.Server{"demo": spec}, pending: map[string]error{}}
	st := e.Servers()
	if len(st) != 1 || st[0].Name != "demo" || st[0].State != client.StateReady || !st[0].Caps.Tools {
		t.Fatalf("Servers = %+v, want demo ready with its tools capability", st)
	}
	tools, err := e.Tools(t.Context(), "demo")
	if err != nil || len(tools) == 0 {
		t.Fatalf("Tools = %d tools, %v", len(tools), err)
	}
	if _, err := e.Call(t.Context(), "demo", "showcase", nil, ui.CallOptions{}); err != nil {
		t.Fatal(err)
	}
	if j := e.Journal(); len(j.Entries) == 0 {
		t.Fatal("the showcase's question is not in the journal the TUI reads")
	}
	d, err := e.Server("demo")
	if err != nil || d.State != client.StateReady || d.Session.Protocol == "" {
		t.Fatalf("Server = %+v, %v", d, err)
	}
	if err := e.Reconnect(t.Context(), "demo"); !errors.Is(err, errKept) {
		t.Fatalf("Reconnect = %v, want errKept", err)
	}
	if _, err := e.Tools(t.Context(), "other"); err == nil {
		t.Fatal("a server the session is not answered")
	}
	_ = s.Close()
	if st := e.Servers(); st[0].State != client.StateClosed {
		t.Fatalf("after close: %+v", st)
	}
}
