package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// acpRun runs the built binary's elicit acp (a real process, whose agent
// is another: the demo agent, or the command after --).
func acpRun(t *testing.T, args ...string) (int, acpOutput, string) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"acp"}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	var got acpOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\nstderr %s", err, out.Bytes(), errb.Bytes())
	}
	return code, got, errb.String()
}

// acpCase is one path through elicit acp and what it must print.
type acpCase struct {
	name     string
	args     []string
	code     int
	stop     string
	stopped  bool
	message  string // a substring of the message
	outcome  string // of the only question; "" for none
	sent     string
	bucket   string
	toolCall string // the question's toolCallId
	// cancelled: the agent answered the prompt -32800.
	cancelled bool
	// orStop is another stopReason the agent may give (a race of its own).
	orStop string
}

func (tc acpCase) check(t *testing.T) {
	t.Helper()
	code, got, errs := acpRun(t, tc.args...)
	if code != tc.code {
		t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errs)
	}
	if tc.orStop != "" && got.StopReason == tc.orStop {
		tc.stop = tc.orStop
	}
	if got.StopReason != tc.stop || got.Stopped != tc.stopped || !strings.Contains(got.Message, tc.message) {
		t.Errorf("stopReason %q stopped %v message %q; want %q %v %q", got.StopReason, got.Stopped, got.Message, tc.stop, tc.stopped, tc.message)
	}
	if got.Cancelled != tc.cancelled {
		t.Errorf("requestCancelled %v, want %v", got.Cancelled, tc.cancelled)
	}
	if got.Agent.ProtocolVersion != 1 {
		t.Errorf("agent %+v", got.Agent)
	}
	if tc.outcome == "" {
		if len(got.Questions) != 0 {
			t.Errorf("questions %+v, want none", got.Questions)
		}
		return
	}
	if len(got.Questions) != 1 {
		t.Fatalf("questions %+v, want one", got.Questions)
	}
	q := got.Questions[0]
	if q.Outcome != tc.outcome || q.Sent != tc.sent || q.Bucket != tc.bucket || q.ToolCallID != tc.toolCall {
		t.Errorf("question %+v; want outcome %q sent %q bucket %q toolCallId %q", q, tc.outcome, tc.sent, tc.bucket, tc.toolCall)
	}
}

// TestACPDemoAgent runs every path of elicit acp against the demo agent
// (elicit demo --acp) as a real subprocess.
func TestACPDemoAgent(t *testing.T) {
	for _, tc := range []acpCase{
		{name: "echo", args: []string{"--prompt", "hello"}, stop: "end_turn", message: "You said: hello"},
		{name: "permission allow", args: []string{"--prompt", "permission", "--permission", "allow"},
			stop: "end_turn", message: "Edited config.json (allow).", outcome: "accept", sent: "selected allow", bucket: "allow_once", toolCall: "call_1"},
		{name: "permission option id", args: []string{"--prompt", "permission", "--permission", "always"},
			stop: "end_turn", message: "(always)", outcome: "accept", sent: "selected always", bucket: "allow_always", toolCall: "call_1"},
		{name: "permission reject always", args: []string{"--prompt", "permission", "--permission", "never"}, code: exitNotAccepted,
			stop: "end_turn", message: "Left config.json alone (never).", outcome: "accept", sent: "selected never", bucket: "reject_always", toolCall: "call_1"},
		{name: "permission reject (default)", args: []string{"--prompt", "permission"}, code: exitNotAccepted,
			stop: "end_turn", message: "Left config.json alone (reject).", outcome: "decline", sent: "selected reject", bucket: "reject_once", toolCall: "call_1"},
		{name: "permission cancel stops the turn", args: []string{"--prompt", "permission", "--permission", "cancel"}, code: exitNotAccepted,
			stop: "cancelled", stopped: true, outcome: "cancel", sent: "cancelled", bucket: "cancelled", toolCall: "call_1"},
		{name: "permission hold until cancel-after", args: []string{"--prompt", "permission", "--permission", "hold", "--cancel-after", "700ms"}, code: exitNotAccepted,
			stop: "cancelled", stopped: true, message: "Stopped.", outcome: "abandoned", sent: "cancelled", bucket: "cancelled", toolCall: "call_1"},
		{name: "permission withdrawn", args: []string{"--prompt", "withdrawperm", "--permission", "hold"}, code: exitNotAccepted,
			stop: "end_turn", message: "the client answered error -32800", outcome: "withdrawn", sent: "error -32800", bucket: "withdrawn", toolCall: "call_w"},
		{name: "question accept-defaults", args: []string{"--prompt", "question"},
			stop: "end_turn", message: `Answer: {"files":5,"strategy":"safe","tests":true}`, outcome: "accept", sent: "accept"},
		{name: "question decline", args: []string{"--prompt", "question", "--answer", "decline"}, code: exitNotAccepted,
			stop: "end_turn", message: "No answer (decline).", outcome: "decline", sent: "decline"},
		{name: "question cancel", args: []string{"--prompt", "question", "--answer", "cancel"}, code: exitNotAccepted,
			stop: "end_turn", message: "No answer (cancel).", outcome: "cancel", sent: "cancel"},
		{name: "question held, turn cancelled", args: []string{"--prompt", "question", "--answer", "hold", "--cancel-after", "700ms"}, code: exitNotAccepted,
			stop: "cancelled", stopped: true, message: "Stopped.", outcome: "abandoned", sent: "cancel"},
		{name: "question withdrawn", args: []string{"--prompt", "withdraw", "--answer", "hold"}, code: exitNotAccepted,
			stop: "end_turn", message: "the client answered error -32800", outcome: "withdrawn", sent: "error -32800"},
		{name: "question during a tool call", args: []string{"--prompt", "toolq"},
			stop: "end_turn", message: "Answer:", outcome: "accept", sent: "accept", toolCall: "call_q"},
		{name: "url question accepted", args: []string{"--prompt", "url", "--answer", "accept"},
			stop: "end_turn", message: "Answer: null", outcome: "accept", sent: "accept"},
		{name: "long turn cancelled", args: []string{"--prompt", "long", "--cancel-after", "500ms"}, code: exitToolError,
			stop: "cancelled", stopped: true, message: "…stopped."},
		{name: "refusal", args: []string{"--prompt", "refuse"}, code: exitToolError, stop: "refusal", message: "I will not do that."},
		{name: "agent deaf to session/cancel", args: []string{"--prompt", "deaf", "--cancel-after", "300ms"}, code: exitToolError,
			stopped: true, message: "not listening"},
		{name: "agent dies with a question open", args: []string{"--prompt", "crash", "--permission", "hold"}, code: exitToolError,
			outcome: "disconnected", bucket: "disconnected", toolCall: "call_c"},
		{name: "prompt answered -32800", args: []string{"--prompt", "err32800", "--cancel-after", "300ms"}, code: exitToolError,
			stopped: true, cancelled: true},
		{name: "fs answered -32601", args: []string{"--prompt", "fs"}, stop: "end_turn", message: "error -32601"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}

func TestACPToolCallsAndUpdates(t *testing.T) {
	code, got, _ := acpRun(t, "--prompt", "permission", "--permission", "allow")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Status != "completed" || got.ToolCalls[0].Kind != "edit" {
		t.Errorf("tool calls %+v", got.ToolCalls)
	}
	if len(got.Updates) != 1 || got.Updates[0].Kind != "plan" {
		t.Errorf("updates %+v, want the plan shown plainly", got.Updates)
	}
	if got.Permission["allow_once"] != 1 {
		t.Errorf("permission counts %v", got.Permission)
	}
}

func TestACPAuthRequired(t *testing.T) {
	code, got, _ := acpRun(t, "--prompt", "hello", "--", binPath, "demo", "--acp", "--acp-auth")
	if code != exitConnect || got.Failure == nil || !strings.Contains(got.Failure.Message, "demo-login (Demo login)") {
		t.Errorf("exit %d, failure %+v", code, got.Failure)
	}
}

func TestACPUsage(t *testing.T) {
	// Without --prompt, elicit acp opens the TUI: its headless flags there
	// are a usage error (acp_tui.go).
	for _, args := range [][]string{{"--permission", "allow"}, {"stray"}, {"--prompt", "x", "stray"}, {"--prompt", "x", "--cancel-after", "-1s"}, {"--prompt", "x", "--answer", "/no/such.json"}} {
		code, _, _ := runCLI(t, append([]string{"acp"}, args...)...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestACPCoderExampleAgent runs elicit acp against coder/acp-go-sdk's
// example agent, an independent peer: it asks one permission
// (allow/reject) and, when the turn is cancelled, answers cancelled.
func TestACPCoderExampleAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module from the proxy")
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "fake-agent")
	for _, step := range [][]string{{"mod", "init", "x"}, {"get", "github.com/coder/acp-go-sdk@v0.13.0"},
		{"build", "-o", agent, "github.com/coder/acp-go-sdk/example/agent"}} {
		cmd := exec.Command("go", step...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("coder/acp-go-sdk's example agent could not be built (go %s): %v\n%s", strings.Join(step, " "), err, out)
		}
	}
	for _, tc := range []acpCase{
		{name: "allow", args: []string{"--prompt", "hi", "--permission", "allow", "--", agent},
			stop: "end_turn", message: "successfully updated", outcome: "accept", sent: "selected allow", bucket: "allow_once", toolCall: "call_2"},
		{name: "reject", args: []string{"--prompt", "hi", "--permission", "reject", "--", agent}, code: exitNotAccepted,
			stop: "end_turn", message: "skip the configuration update", outcome: "decline", sent: "selected reject", bucket: "reject_once", toolCall: "call_2"},
		// Its Cancel handler runs beside its turn, so an answer
		// "cancelled" that reaches the turn first ends it end_turn: the
		// stopReason is the agent's to say, and elicit shows what it said.
		{name: "hold then cancel", args: []string{"--prompt", "hi", "--permission", "hold", "--cancel-after", "6s", "--", agent}, code: exitNotAccepted,
			stop: "cancelled", orStop: "end_turn", stopped: true, outcome: "abandoned", sent: "cancelled", bucket: "cancelled", toolCall: "call_2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}
