package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// The three agents of the ACP terminal-path matrix
// (docs/terminal-paths-acp.md): elicit's demo agent (raw JSON lines),
// coder/acp-go-sdk's example agent (built from the module proxy; it
// asks one permission per prompt and never elicits), and an agent on the
// official TypeScript SDK (testdata/acp-ts-agent.mjs on
// @agentclientprotocol/sdk; ELICIT_ACP_TS_SDK names the SDK's folder,
// which .ci/run installs).
const (
	agentDemo  = "demo"
	agentCoder = "coder"
	agentTS    = "ts"
)

// matrixRow is one cell of the matrix, played against each agent it
// names. Per-agent fields override the case's for that agent.
type matrixRow struct {
	acpCase
	agents []string
	// prompt picks the scene (the coder agent plays its one scene for
	// any prompt).
	prompt string
	// message and orStop per agent, where they differ.
	messages map[string]string
	orStops  map[string]string
	// agentArgs are extra arguments of the demo agent (after demo --acp).
	agentArgs []string
	// argsFor replace the case's args for one agent.
	argsFor map[string][]string
}

var (
	allAgents    = []string{agentDemo, agentCoder, agentTS}
	askingAgents = []string{agentDemo, agentTS} // the ones that elicit, withdraw and use fs
)

// matrixRows are the cells; the doc names each as TestACPMatrix/ROW.
func matrixRows() []matrixRow {
	perm := func(name, permission string, code int, stop, outcome, sent, bucket string, msgs map[string]string, agents []string) matrixRow {
		return matrixRow{acpCase: acpCase{name: name, args: []string{"--permission", permission}, code: code, stop: stop,
			outcome: outcome, sent: sent, bucket: bucket}, agents: agents, prompt: "permission", messages: msgs}
	}
	edited := func(id string) map[string]string {
		return map[string]string{agentDemo: "Edited config.json (" + id + ").", agentTS: "Edited config.json (" + id + ").", agentCoder: "successfully updated"}
	}
	left := func(id string) map[string]string {
		return map[string]string{agentDemo: "Left config.json alone (" + id + ").", agentTS: "Left config.json alone (" + id + ").", agentCoder: "skip the configuration update"}
	}
	rows := []matrixRow{
		// Permission.
		perm("permission allow_once", "allow", exit.OK, "end_turn", "accept", "selected allow", "allow_once", edited("allow"), allAgents),
		perm("permission allow_always", "always", exit.OK, "end_turn", "accept", "selected always", "allow_always", edited("always"), askingAgents),
		perm("permission reject_always by id", "never", exit.NotAccepted, "end_turn", "accept", "selected never", "reject_always", left("never"), askingAgents),
		perm("permission decline picks reject_once", "reject", exit.NotAccepted, "end_turn", "decline", "selected reject", "reject_once", left("reject"), allAgents),
		{acpCase: acpCase{name: "permission esc stops the turn", args: []string{"--permission", "cancel"}, code: exit.NotAccepted,
			stop: "cancelled", stopped: true, outcome: "cancel", sent: "cancelled", bucket: "cancelled"},
			agents: allAgents, prompt: "permission", orStops: map[string]string{agentCoder: "end_turn"}},
		{acpCase: acpCase{name: "permission option not offered", args: []string{"--permission", "nope"}, code: exit.NotAccepted,
			stop: "cancelled", stopped: true, outcome: "cancel", sent: "cancelled", bucket: "cancelled"},
			agents: allAgents, prompt: "permission", orStops: map[string]string{agentCoder: "end_turn"}},
		// Its Cancel handler runs beside its turn, so an answer
		// "cancelled" that reaches the turn first ends it end_turn: the
		// stopReason is the agent's to say, and elicit shows what it said.
		{acpCase: acpCase{name: "permission held, turn stopped", args: []string{"--permission", "hold", "--cancel-after", "700ms"}, code: exit.NotAccepted,
			stop: "cancelled", stopped: true, outcome: "abandoned", sent: "cancelled", bucket: "cancelled"},
			agents: allAgents, prompt: "permission", orStops: map[string]string{agentCoder: "end_turn"},
			// It streams for a while before it asks.
			argsFor: map[string][]string{agentCoder: {"--permission", "hold", "--cancel-after", "6s"}}},
		{acpCase: acpCase{name: "permission withdrawn", args: []string{"--permission", "hold"}, code: exit.NotAccepted,
			stop: "end_turn", message: "the client answered error -32800", outcome: "withdrawn", sent: "error -32800", bucket: "withdrawn", toolCall: "call_w"},
			agents: askingAgents, prompt: "withdrawperm"},
		{acpCase: acpCase{name: "permission timeout", args: []string{"--permission", "hold", "--prompt-timeout", "300ms"}, code: exit.NotAccepted,
			stop: "end_turn", message: "The permission request failed: error -32800.", outcome: "timeout", sent: "error -32800", bucket: "timeout"},
			agents: askingAgents, prompt: "permission"},
		{acpCase: acpCase{name: "permission agent dies", args: []string{"--permission", "hold"}, code: exit.ToolError,
			outcome: "disconnected", bucket: "disconnected", toolCall: "call_c"}, agents: []string{agentDemo}, prompt: "crash"},

		// Elicitation.
		{acpCase: acpCase{name: "elicitation accept", stop: "end_turn", message: `Answer: {"files":5,"strategy":"safe"`, outcome: "accept", sent: "accept", bucket: "accept"},
			agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation url accepted", args: []string{"--answer", "accept"}, stop: "end_turn", message: "Answer: null", outcome: "accept", sent: "accept", bucket: "accept"},
			agents: askingAgents, prompt: "url"},
		{acpCase: acpCase{name: "elicitation content failing the schema", args: []string{"--answer", `$FILE={"strategy":"nope"}`}, code: exit.NotAccepted, stop: "end_turn",
			message: "The question was refused: error -32602.", outcome: "invalid", sent: "error -32602", bucket: "invalid"}, agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation url not declared", args: []string{"--answer", "accept", "--elicit", "form"}, code: exit.NotAccepted, stop: "end_turn",
			message: "The question was refused: error -32602.", outcome: "invalid", sent: "error -32602", bucket: "invalid"}, agents: askingAgents, prompt: "url"},
		{acpCase: acpCase{name: "elicitation decline", args: []string{"--answer", "decline"}, code: exit.NotAccepted, stop: "end_turn",
			message: "No answer (decline).", outcome: "decline", sent: "decline", bucket: "decline"}, agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation cancel", args: []string{"--answer", "cancel"}, code: exit.NotAccepted, stop: "end_turn",
			message: "No answer (cancel).", outcome: "cancel", sent: "cancel", bucket: "cancel"}, agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation held, turn stopped", args: []string{"--answer", "hold", "--cancel-after", "700ms"}, code: exit.NotAccepted,
			stop: "cancelled", stopped: true, outcome: "abandoned", sent: "cancel", bucket: "cancelled"}, agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation withdrawn", args: []string{"--answer", "hold"}, code: exit.NotAccepted, stop: "end_turn",
			message: "the client answered error -32800", outcome: "withdrawn", sent: "error -32800", bucket: "withdrawn"}, agents: askingAgents, prompt: "withdraw"},
		{acpCase: acpCase{name: "elicitation timeout", args: []string{"--answer", "hold", "--prompt-timeout", "300ms"}, code: exit.NotAccepted, stop: "end_turn",
			message: "The question was refused: error -32800.", outcome: "timeout", sent: "error -32800", bucket: "timeout"}, agents: askingAgents, prompt: "question"},
		{acpCase: acpCase{name: "elicitation during a tool call", stop: "end_turn", message: "Answer:", outcome: "accept", sent: "accept", bucket: "accept", toolCall: "call_q"},
			agents: []string{agentDemo}, prompt: "toolq"},

		// fs (--allow-fs): a write is a permission question first.
		{acpCase: acpCase{name: "fs write allowed", args: []string{"--allow-fs", "--cwd", "$TMP", "--permission", "allow"}, stop: "end_turn",
			message: "Wrote notes.txt; read back: hello from the", outcome: "accept", sent: "written", bucket: "allow_once"}, agents: askingAgents, prompt: "write"},
		{acpCase: acpCase{name: "fs write refused", args: []string{"--allow-fs", "--cwd", "$TMP"}, code: exit.NotAccepted, stop: "end_turn",
			message: "fs/write_text_file: error -32603", outcome: "decline", sent: "error -32603", bucket: "reject_once"}, agents: askingAgents, prompt: "write"},
		{acpCase: acpCase{name: "fs write held, turn stopped", args: []string{"--allow-fs", "--cwd", "$TMP", "--permission", "hold", "--cancel-after", "700ms"},
			code: exit.NotAccepted, stop: "cancelled", stopped: true, outcome: "abandoned", sent: "error -32800", bucket: "cancelled"}, agents: askingAgents, prompt: "write"},
		{acpCase: acpCase{name: "fs not declared", args: []string{"--cwd", "$TMP"}, stop: "end_turn"}, agents: askingAgents, prompt: "write",
			messages: map[string]string{agentDemo: "fs/write_text_file: error -32601", agentTS: "fs/write_text_file: not offered by the client."}},
		{acpCase: acpCase{name: "fs read outside the cwd", args: []string{"--allow-fs", "--cwd", "$TMP"}, stop: "end_turn", message: "fs/read_text_file: error -32602"},
			agents: []string{agentDemo}, prompt: "fs"},

		// The turn and our own requests.
		{acpCase: acpCase{name: "turn end_turn", stop: "end_turn", message: "You said: hello"}, agents: askingAgents, prompt: "hello"},
		{acpCase: acpCase{name: "turn long, stopped", args: []string{"--cancel-after", "500ms"}, code: exit.ToolError, stop: "cancelled", stopped: true,
			message: "…stopped."}, agents: askingAgents, prompt: "long"},
		{acpCase: acpCase{name: "turn deaf to session/cancel, abandoned", args: []string{"--cancel-after", "300ms"}, code: exit.ToolError,
			stopped: true, cancelled: true, message: "not listening"}, agents: askingAgents, prompt: "deaf"},
		{acpCase: acpCase{name: "turn refusal", code: exit.ToolError, stop: "refusal", message: "I will not do that."}, agents: []string{agentDemo}, prompt: "refuse"},
		{acpCase: acpCase{name: "turn prompt answered -32800", args: []string{"--cancel-after", "300ms"}, code: exit.ToolError, stopped: true, cancelled: true},
			agents: []string{agentDemo}, prompt: "err32800"},
		{acpCase: acpCase{name: "auth with --auth", args: []string{"--auth", "demo-login"}, stop: "end_turn", message: "You said: hello", authenticated: "demo-login"},
			agents: []string{agentDemo}, prompt: "hello", agentArgs: []string{"--acp-auth"}},
		{acpCase: acpCase{name: "auth required", code: exit.Connect}, agents: []string{agentDemo}, prompt: "hello", agentArgs: []string{"--acp-auth"}},
		{acpCase: acpCase{name: "session/new abandoned", args: []string{"--start-timeout", "500ms"}, code: exit.ToolError, abandoned: true},
			agents: []string{agentDemo}, prompt: "hello", agentArgs: []string{"--acp-slow"}},
	}
	return rows
}

// TestACPMatrix plays every cell of docs/terminal-paths-acp.md against
// each agent its row names, through the built elicit acp binary.
func TestACPMatrix(t *testing.T) {
	agents := map[string][]string{agentDemo: {binPath, "demo", "--acp"}}
	// An agent left out: by -short (a skip), or because the machine
	// lacks what it needs (testenv.Missing: a failure under CI).
	short, missing := map[string]string{}, map[string]string{}
	if testing.Short() {
		short[agentCoder] = "-short: builds a module from the proxy"
	} else if bin, why := buildCoderAgent(t); why != "" {
		missing[agentCoder] = why
	} else {
		agents[agentCoder] = []string{bin}
	}
	if sdk := os.Getenv("ELICIT_ACP_TS_SDK"); sdk == "" {
		missing[agentTS] = "ELICIT_ACP_TS_SDK not set (the @agentclientprotocol/sdk folder); .ci/run sets it"
	} else if why := testenv.Lacks("node"); why != "" {
		missing[agentTS] = why
	} else {
		script, err := filepath.Abs(filepath.Join("testdata", "acp-ts-agent.mjs"))
		if err != nil {
			t.Fatal(err)
		}
		agents[agentTS] = []string{"node", script, sdk}
	}
	for _, row := range matrixRows() {
		for _, agent := range row.agents {
			t.Run(row.name+"/"+agent, func(t *testing.T) {
				if why := short[agent]; why != "" {
					t.Skip(why)
				}
				if why := missing[agent]; why != "" {
					testenv.Missing(t, "%s", why)
				}
				t.Parallel()
				tc := row.acpCase
				if a, ok := row.argsFor[agent]; ok {
					tc.args = a
				}
				tc.args = append([]string{"--prompt", row.prompt}, tc.args...)
				for i, a := range tc.args {
					switch {
					case a == "$TMP":
						tc.args[i] = t.TempDir()
					case strings.HasPrefix(a, "$FILE="):
						// An answer file holding what follows the =.
						tc.args[i] = filepath.Join(t.TempDir(), "answers.json")
						if err := os.WriteFile(tc.args[i], []byte(strings.TrimPrefix(a, "$FILE=")), 0o600); err != nil {
							t.Fatal(err)
						}
					}
				}
				tc.args = append(append(tc.args, "--"), agents[agent]...)
				if agent == agentDemo {
					tc.args = append(tc.args, row.agentArgs...)
				}
				if m, ok := row.messages[agent]; ok {
					tc.message = m
				}
				tc.orStop = row.orStops[agent]
				if agent == agentCoder && tc.outcome != "" && tc.toolCall == "" {
					tc.toolCall = "call_2"
				} else if tc.outcome != "" && tc.toolCall == "" && row.prompt == "permission" {
					tc.toolCall = "call_1"
				}
				tc.check(t)
			})
		}
	}
}

// buildCoderAgent builds coder/acp-go-sdk's example agent in a scratch
// module; why says why it could not be.
func buildCoderAgent(t *testing.T) (bin, why string) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "fake-agent")
	for _, step := range [][]string{{"mod", "init", "x"}, {"get", "github.com/coder/acp-go-sdk@v0.13.0"},
		{"build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent"}} {
		cmd := exec.Command("go", step...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "coder/acp-go-sdk's example agent could not be built (go " + strings.Join(step, " ") + "): " + err.Error() + "\n" + string(out)
		}
	}
	return bin, ""
}
