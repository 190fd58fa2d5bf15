package main

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// --record FILE on elicit acp: the recording of one ACP turn, in
// client/record's format (docs/record.md). The settings line names the
// agent (Settings.Agents), the turn is one call app.PromptMethod whose
// result is app.TurnRecord (written by app.AgentWiring, with every frame
// both ways as a frame line and every question, permission or
// elicitation, as an answer line).

// recordAgent describes an agent as recordServer does a stdio server:
// environment variable names only, secret arguments masked.
func recordAgent(spec serverspec.Agent, demo bool) record.Agent {
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

// recordAgents are the TUI's agents as its recording's settings name
// them (the embedded demo agent as kind "demo").
func recordAgents(specs []serverspec.Agent) []record.Agent {
	var out []record.Agent
	for _, s := range specs {
		d, err := demoAgentSpec(s.Name)
		demo := err == nil && s.Command == d.Command && slices.Equal(s.Args, d.Args)
		a := recordAgent(s, demo)
		a.Cwd = cmpOr(s.Shown().Dir, ".")
		out = append(out, a)
	}
	return out
}

// acpRecordSettings are the settings line of elicit acp --prompt.
func acpRecordSettings(command string, f *acpFlags, spec serverspec.Agent, demo bool) record.Settings {
	a := recordAgent(spec, demo)
	a.Cwd, a.Permission, a.AllowFS, a.Auth = f.cwd, f.permission, f.allowFS, f.auth
	a.CancelAfterMS, a.QuestionTimeoutMS = f.cancelAfter.Milliseconds(), f.promptTimeout.Milliseconds()
	a.IdleTimeoutMS = f.idleTimeout.Milliseconds()
	s := record.Settings{Command: command, Elicit: f.elicit, Sampling: "off", Answer: answerName(f.answer), Agents: []record.Agent{a}}
	if s.Elicit == "" {
		s.Elicit = "both"
	}
	return s
}

// answerName is --answer as a recording keeps it: a file's name only.
func answerName(answer string) string {
	if strings.HasSuffix(answer, ".json") {
		return answer[strings.LastIndexAny(answer, `/\`)+1:]
	}
	return answer
}

// acpTurnCompared is the part of a turn a replay compares: the stop
// reason, the message text and each tool call's title, kind and status
// (its id differs between runs; its content is the agent's to vary).
type acpTurnCompared struct {
	StopReason       string            `json:"stopReason"`
	RequestCancelled bool              `json:"requestCancelled"`
	Message          string            `json:"message"`
	ToolCalls        []acpToolCompared `json:"toolCalls"`
}

type acpToolCompared struct {
	Title  string `json:"title"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

func compareTurnOf(t app.TurnRecord) any {
	c := acpTurnCompared{StopReason: t.StopReason, RequestCancelled: t.RequestCancelled, Message: t.Message, ToolCalls: []acpToolCompared{}}
	for _, tc := range t.ToolCalls {
		c.ToolCalls = append(c.ToolCalls, acpToolCompared{Title: tc.Title, Kind: tc.Kind, Status: tc.Status})
	}
	return jsonValue(c)
}

// decodeTurnRecord reads a recorded result line of an ACP turn.
func decodeTurnRecord(raw json.RawMessage) (app.TurnRecord, error) {
	var t app.TurnRecord
	err := wire.DecodeExact(raw, &t) // by exact name, as a reader of the file reads it
	return t, err
}
