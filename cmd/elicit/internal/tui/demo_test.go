package tui

import (
	"slices"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport"
)

// TestDemoSpecs: `elicit demo` runs one demo server per era, named by it;
// --protocol pins one (and --name then names it); --name alone is refused,
// since it would name two servers.
func TestDemoSpecs(t *testing.T) {
	specsOf := func(args ...string) ([]serverspec.Server, error) {
		var f Flags
		fs := cli.NewFlagSet("demo", nil, "")
		f.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		f.Demo = true
		specs, _, err := f.servers(t.Context())
		return specs, err
	}
	specs, err := specsOf()
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]string
	for _, s := range specs {
		if !s.Demo {
			t.Errorf("%s is not a demo spec", s.Name)
		}
		got = append(got, [2]string{s.Name, s.Protocol})
	}
	if want := [][2]string{{"demo-2025-11-25", "2025-11-25"}, {"demo-2026-07-28", "2026-07-28"}}; !slices.Equal(got, want) {
		t.Errorf("elicit demo runs %v, want %v", got, want)
	}
	if specs, err := specsOf("--protocol", "2025-06-18"); err != nil || len(specs) != 1 ||
		specs[0].Name != "demo-2025-06-18" || specs[0].Protocol != "2025-06-18" {
		t.Errorf("--protocol 2025-06-18: %+v, %v", specs, err)
	}
	if specs, err := specsOf("--protocol", "2026-07-28", "--name", "mine"); err != nil || len(specs) != 1 || specs[0].Name != "mine" {
		t.Errorf("--protocol and --name: %+v, %v", specs, err)
	}
	if _, err := specsOf("--name", "mine"); exit.CodeOf(err) != exit.Usage {
		t.Errorf("--name without --protocol: %v, want a usage error", err)
	}
}

// TestDemoServersEachInTheirEra connects both demo servers as the TUI does
// (the same transports, one session each, pinned by the spec): each speaks
// its era, lists the tools that work there, and Servers keeps the order
// they were given in, however they finish connecting.
func TestDemoServersEachInTheirEra(t *testing.T) {
	var f Flags
	f.Register(cli.NewFlagSet("demo", nil, ""))
	f.Demo = true
	specs, _, err := f.servers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverspec.Server{}, pending: map[string]error{},
		transports: func(s serverspec.Server) (transport.Transport, error) {
			return s.Transport(transport.ObserverFuncs{}, nil)
		},
	}
	for _, s := range specs {
		e.specs[s.Name] = s
		e.order = append(e.order, s.Name)
	}
	e.sessionOpts = func(name string) *client.Options {
		return &client.Options{Prompter: question.AcceptDefaults, Protocol: e.specs[name].Protocol, Elicit: client.ElicitBoth}
	}
	// The last one first, to its end: the Manager's order is then the
	// reverse of the one to show.
	for _, name := range slices.Backward(e.order) {
		e.connectAll(t.Context(), []string{name})
	}
	var names []string
	for _, st := range e.Servers() {
		names = append(names, st.Name)
		if st.State != client.StateReady || "demo-"+st.Protocol != st.Name {
			t.Errorf("%s: %v, protocol %q", st.Name, st.State, st.Protocol)
		}
	}
	if !slices.Equal(names, e.order) {
		t.Errorf("Servers() in the order %v, want %v", names, e.order)
	}
	for name, want := range map[string]bool{"demo-2025-11-25": true, "demo-2026-07-28": false} {
		tools, err := e.Tools(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		if has := slices.ContainsFunc(tools, func(tl wire.Tool) bool { return tl.Name == "withdrawn" }); has != want {
			t.Errorf("%s lists withdrawn: %v, want %v", name, has, want)
		}
	}
}
