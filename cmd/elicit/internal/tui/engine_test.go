package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/ui"
)

// TestEngineCallWithoutArguments: the TUI calls argument-less tools with a
// nil map; the wire must carry "arguments":{} (servers refuse null).
func TestEngineCallWithoutArguments(t *testing.T) {
	var mu sync.Mutex
	var out []string
	obs := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		if f.Dir == transport.Out {
			mu.Lock()
			out = append(out, string(f.Raw))
			mu.Unlock()
		}
	}}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	spec := serverspec.Server{Name: "demo", Demo: true}
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverspec.Server{"demo": spec}, pending: map[string]error{},
		sessionOpts: func(string) *client.Options {
			return &client.Options{Prompter: question.AcceptDefaults, Protocol: "2025-11-25"}
		},
		transports: func(s serverspec.Server) (transport.Transport, error) { return s.Transport(obs, nil) },
	}
	e.connectAll(t.Context(), []string{"demo"})
	if _, err := e.Call(t.Context(), "demo", "showcase", nil, ui.CallOptions{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, f := range out {
		if strings.Contains(f, `"method":"tools/call"`) {
			if !strings.Contains(f, `"arguments":{}`) {
				t.Errorf("tools/call without arguments went out as %s", f)
			}
			return
		}
	}
	t.Fatal("no tools/call frame seen")
}
