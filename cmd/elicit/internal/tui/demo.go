package tui

import (
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// demoEras are the protocol versions `elicit demo` runs a server of, one
// each: the newest of each era, so that every scene plays on one of them.
func demoEras() []string { return []string{demo.ProtocolLegacy, demo.ProtocolStateless} }

// demoSpecs are the TUI's demo servers, from base (the flags' demo spec):
// one per era, named by it, or the one --protocol pins. Each serves only
// its era and its session is pinned to it, so the tools each lists are the
// ones that work there.
func demoSpecs(base serverspec.Server, protocol, name string) ([]serverspec.Server, error) {
	if protocol != "" {
		if err := demo.CheckProtocol(protocol); err != nil {
			return nil, exit.Usagef("--protocol: %v", err)
		}
		base.Protocol = protocol
		base.Name = "demo-" + protocol
		if name != "" {
			base.Name = name
		}
		return []serverspec.Server{base}, nil
	}
	if name != "" {
		return nil, exit.Usagef("--name names one server, and the demo runs one per era; pin one with --protocol to name it")
	}
	var out []serverspec.Server
	for _, era := range demoEras() {
		s := base
		s.Name, s.Protocol = "demo-"+era, era
		out = append(out, s)
	}
	return out, nil
}
