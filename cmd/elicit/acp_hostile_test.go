package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// missingPeer skips a test whose peer is not installed, and fails it
// under CI=true, where every peer must be.
func missingPeer(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and %s", why)
	}
	t.Skip(why)
}

// tsAgent is the command of the ACP TypeScript SDK agent
// (testdata/acp-ts-agent.mjs), or why it cannot run here.
func tsAgent(t *testing.T) []string {
	t.Helper()
	sdk := os.Getenv("ELICIT_ACP_TS_SDK")
	if sdk == "" {
		missingPeer(t, "ELICIT_ACP_TS_SDK not set (the @agentclientprotocol/sdk folder)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missingPeer(t, "node is not installed")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "acp-ts-agent.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{"node", script, sdk}
}

// TestACPForeignSession: an agent that names a session elicit never
// opened, in an update and in every request that carries a sessionId
// (permission, elicitation, fs read, fs write), gets each request refused
// -32602, journalled as refused, under --permission allow and --allow-fs:
// nothing is auto-allowed, no file is read or written, and the update is
// not shown.
func TestACPForeignSession(t *testing.T) {
	agents := map[string]func(t *testing.T) []string{
		agentDemo: func(*testing.T) []string { return []string{binPath, "demo", "--acp"} },
		agentTS:   tsAgent,
	}
	for name, agent := range agents {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := agent(t)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("SECRET-NOTES\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"--prompt", "foreign", "--permission", "allow", "--allow-fs", "--cwd", dir, "--"}, cmd...)
			code, got, errs := acpRun(t, args...)
			if code != exit.NotAccepted {
				t.Errorf("exit %d, want %d (questions refused); stderr %s", code, exit.NotAccepted, errs)
			}
			want := "permission: error -32602; question: error -32602; read: error -32602; write: error -32602."
			if got.StopReason != "end_turn" || got.Message != want {
				t.Errorf("stopReason %q, message %q; want the agent to say %q", got.StopReason, got.Message, want)
			}
			if len(got.Questions) != 3 {
				t.Fatalf("questions %+v, want the permission, the question and the write journalled", got.Questions)
			}
			for _, q := range got.Questions {
				if q.Outcome != "invalid" || q.Sent != "error -32602" || !strings.Contains(q.Reason, "no session of ours") || q.Option != "" {
					t.Errorf("question %+v: want refused -32602 (invalid, no session of ours), no option picked", q)
				}
			}
			if got.Permission["allow_once"] != 0 || got.Permission["allow_always"] != 0 {
				t.Errorf("permission counts %v: a foreign session's request was allowed", got.Permission)
			}
			if len(got.Files) != 2 {
				t.Fatalf("files %+v, want the read and the write, refused", got.Files)
			}
			for _, f := range got.Files {
				if f.Sent != "error -32602" {
					t.Errorf("file access %+v, want refused -32602", f)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "foreign.txt")); !os.IsNotExist(err) {
				t.Errorf("foreign.txt was written for a foreign session (stat: %v)", err)
			}
			for _, u := range got.Updates {
				if strings.Contains(string(u.Raw), "FOREIGN-UPDATE") {
					t.Errorf("a foreign session's update is shown: %s", u.Raw)
				}
			}
			if strings.Contains(got.Message, "SECRET-NOTES") || strings.Contains(got.Message, "FOREIGN-UPDATE") {
				t.Errorf("message %q holds what a foreign session read or said", got.Message)
			}
		})
	}
}

// TestACPPlansReplaced: 20 plans, each longer than the last (up to
// 100,000 entries, about 6 MB), leave one plan in the output, the
// latest, saying how many it replaced and how much of it was not kept:
// a plan replaces the one before it (ACP), and one kept is bounded.
func TestACPPlansReplaced(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binPath, "acp", "--prompt", "plans")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("elicit acp: %v", err)
	}
	var got agents.ACPOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output: %v", err)
	}
	if got.StopReason != "end_turn" || got.Message != "planned" {
		t.Fatalf("stopReason %q message %q", got.StopReason, got.Message)
	}
	if len(got.Updates) != 1 || got.Updates[0].Kind != "plan" {
		t.Fatalf("%d updates kept, want the latest plan alone", len(got.Updates))
	}
	u := got.Updates[0]
	if u.Replaced != 19 {
		t.Errorf("replaced %d, want 19", u.Replaced)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, u.Raw); err != nil || compact.Len() > acp.MaxKeptUpdateBytes {
		t.Errorf("the plan kept is %d bytes, over the bound %d (%v)", compact.Len(), acp.MaxKeptUpdateBytes, err)
	}
	var plan struct {
		Entries []acp.PlanEntry `json:"entries"`
	}
	if err := json.Unmarshal(u.Raw, &plan); err != nil || len(plan.Entries) == 0 || plan.Entries[0].Content != "plan 20 step 1" {
		t.Fatalf("the plan kept is not the latest's first entries: %.200s (%v)", u.Raw, err)
	}
	want := fmt.Sprintf("%d of 100000 entries kept", len(plan.Entries))
	if !strings.Contains(u.Cut, want) {
		t.Errorf("cut %q, want it to say %q", u.Cut, want)
	}
	if len(out) > 1<<20 {
		t.Errorf("the output is %d bytes", len(out))
	}
}

// TestACPIdleTimeout: an agent that says nothing and never answers the
// prompt is stopped after --idle-timeout (before, elicit acp waited for
// it for ever); the JSON says why, and the exit is 4.
func TestACPIdleTimeout(t *testing.T) {
	t.Parallel()
	code, got, errs := acpRun(t, "--prompt", "silent", "--idle-timeout", "300ms")
	if code != exit.ToolError || !got.IdleStopped || !got.Stopped || got.StopReason != "cancelled" || !strings.Contains(got.Error, "--idle-timeout") {
		t.Errorf("exit %d, idleStopped %v stopped %v stopReason %q error %q; stderr %s", code, got.IdleStopped, got.Stopped, got.StopReason, got.Error, errs)
	}
	if code, _, _ := runCLI(t, "acp", "--prompt", "x", "--idle-timeout", "0s"); code != exit.Usage {
		t.Errorf("--idle-timeout 0s: exit %d, want %d (a bound always exists)", code, exit.Usage)
	}
}

// TestACPFilesBounded: 301 writes, the first of 1 MiB, leave an account
// of the first 256 in "files", the 1 MiB diff cut and marked, and the
// count of the rest.
func TestACPFilesBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, got, errs := acpRun(t, "--prompt", "manywrites", "--allow-fs", "--cwd", dir, "--permission", "allow")
	if code != exit.OK || got.Message != "wrote 301 files" {
		t.Fatalf("exit %d, message %q; stderr %s", code, got.Message, errs)
	}
	if len(got.Files) != agents.MaxFilesKept || got.FilesDropped != 301-agents.MaxFilesKept {
		t.Errorf("%d files kept, %d dropped; want %d and %d", len(got.Files), got.FilesDropped, agents.MaxFilesKept, 301-agents.MaxFilesKept)
	}
	if d := got.Files[0].Diff; len(d) > agents.MaxDiffKept+200 || !strings.Contains(d, "bytes of the diff not kept") {
		t.Errorf("the 1 MiB write's diff is kept as %d bytes, ending %q", len(d), d[max(len(d)-100, 0):])
	}
}
