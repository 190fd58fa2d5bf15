package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// acpRun runs the built binary's elicit acp (a real process, whose agent
// is another: the demo agent, or the command after --).
func acpRun(t *testing.T, args ...string) (int, agents.ACPOutput, string) {
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
	var got agents.ACPOutput
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
	// abandoned: our session/new was abandoned and the agent said -32800;
	// authenticated: the --auth method used.
	abandoned     bool
	authenticated string
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
	if got.Abandoned != tc.abandoned || got.Authenticated != tc.authenticated {
		t.Errorf("abandoned %v authenticated %q, want %v %q", got.Abandoned, got.Authenticated, tc.abandoned, tc.authenticated)
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

func TestACPToolCallsAndUpdates(t *testing.T) {
	code, got, _ := acpRun(t, "--prompt", "permission", "--permission", "allow")
	if code != exit.OK {
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
	if code != exit.Connect || got.Failure == nil || !strings.Contains(got.Failure.Message, "demo-login (Demo login)") {
		t.Errorf("exit %d, failure %+v", code, got.Failure)
	}
}

func TestACPUsage(t *testing.T) {
	// Without --prompt, elicit acp opens the TUI: its headless flags there
	// are a usage error (internal/tui/acp.go).
	for _, args := range [][]string{{"--permission", "allow"}, {"stray"}, {"--prompt", "x", "stray"}, {"--prompt", "x", "--cancel-after", "-1s"}, {"--prompt", "x", "--answer", "/no/such.json"},
		{"--prompt", "x", "--start-timeout", "0s"}, {"--prompt", "x", "--prompt-timeout", "-1s"}} {
		code, _, _ := runCLI(t, append([]string{"acp"}, args...)...)
		if code != exit.Usage {
			t.Errorf("%q: exit %d, want %d", args, code, exit.Usage)
		}
	}
}
