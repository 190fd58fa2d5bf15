package agents

import (
	"cmp"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// --record FILE on elicit acp: the recording of one ACP turn, in
// client/record's format (docs/record.md). The settings line names the
// agent (Settings.Agents), the turn is one call app.PromptMethod whose
// result is app.TurnRecord (written by app.AgentWiring, with every frame
// both ways as a frame line and every question, permission or
// elicitation, as an answer line).

// RecordOf describes an agent as recording.Server does a stdio server:
// environment variable names only, secret arguments masked.
func RecordOf(spec serverspec.Agent, demo bool) record.Agent {
	spec = spec.Shown() // as its config wrote it
	a := record.Agent{Name: spec.Name, Kind: "stdio", Command: spec.Command, Args: serverspec.MaskArgs(spec.Args), Dir: spec.Dir}
	if demo {
		a = record.Agent{Name: spec.Name, Kind: "demo", Dir: spec.Dir}
	}
	for _, kv := range spec.Env {
		k, _, _ := strings.Cut(kv, "=")
		a.EnvNames = append(a.EnvNames, k)
	}
	slices.Sort(a.EnvNames)
	return a
}

// RecordsOf are the TUI's agents as its recording's settings name
// them (the embedded demo agent as kind "demo").
func RecordsOf(specs []serverspec.Agent) []record.Agent {
	var out []record.Agent
	for _, s := range specs {
		d, err := Demo(s.Name)
		demo := err == nil && s.Command == d.Command && slices.Equal(s.Args, d.Args)
		a := RecordOf(s, demo)
		a.Cwd = cmp.Or(s.Shown().Dir, ".")
		out = append(out, a)
	}
	return out
}
