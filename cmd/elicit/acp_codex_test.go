package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
)

// codexACP is codex-acp's command (ELICIT_CODEX_ACP: .ci/run installs
// @zed-industries/codex-acp), or why it cannot run here.
func codexACP(t *testing.T) string {
	t.Helper()
	p := os.Getenv("ELICIT_CODEX_ACP")
	if p == "" {
		missingPeer(t, "ELICIT_CODEX_ACP not set (the @zed-industries/codex-acp command)")
	}
	return p
}

// TestACPCodex: the session methods against codex-acp 0.16.0, offline
// (a fake key: it signs in without the network; a turn cannot reach its
// model, so each is stopped by --cancel-after). It wants the sign-in
// for session/list too (signed in, then asked again); it keeps its
// sessions across runs, so list, load (the person's prompts replayed),
// resume, set_mode, set_config_option and close all run; it does not
// declare session/delete, which is not sent.
func TestACPCodex(t *testing.T) {
	codex := codexACP(t)
	home, work := t.TempDir(), t.TempDir()
	run := func(args ...string) (agents.ACPOutput, string) {
		t.Helper()
		cmd := exec.Command(binPath, append(append([]string{"acp", "--cwd", work}, args...), "--", codex)...)
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "OPENAI_API_KEY=sk-elicit-test-not-a-key")
		out, _ := cmd.Output()
		var got agents.ACPOutput
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("elicit acp %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		var acts []string
		for _, a := range got.Actions {
			ended, _, _ := strings.Cut(a.Ended, ":")
			acts = append(acts, a.Method+" "+ended)
		}
		return got, strings.Join(acts, ", ")
	}
	if _, acts := run("--auth", "openai-api-key", "--list-sessions"); acts != "session/list error -32000, session/list ok" {
		t.Fatalf("list before a sign-in: %s", acts)
	}
	got, acts := run("--mode", "auto", "--config", "mode=full-access", "--prompt", "first prompt", "--cancel-after", "2s")
	if acts != "session/set_mode ok, session/set_config_option ok, session/close ok" || got.SessionID == "" {
		t.Fatalf("a new session: %s (%+v)", acts, got)
	}
	sid := got.SessionID
	list, acts := run("--list-sessions")
	if acts != "session/list ok" || len(list.Sessions) != 1 || list.Sessions[0].SessionID != sid || list.Sessions[0].Title != "first prompt" {
		t.Fatalf("list: %s %+v", acts, list.Sessions)
	}
	if list.Sessions[0].Cwd != work && list.Sessions[0].Cwd != mustEval(t, work) {
		t.Errorf("the session's cwd %q, not %q", list.Sessions[0].Cwd, work)
	}
	got, acts = run("--load", sid, "--prompt", "second prompt", "--cancel-after", "2s")
	if acts != "session/load ok, session/close ok" || got.History == nil || got.History.User != "first prompt" {
		t.Fatalf("load: %s, history %+v", acts, got.History)
	}
	if _, acts = run("--resume", sid, "--prompt", "third", "--cancel-after", "2s"); acts != "session/resume ok, session/close ok" {
		t.Fatalf("resume: %s", acts)
	}
	if _, acts = run("--delete", sid); acts != "session/delete not sent" {
		t.Fatalf("delete: %s", acts)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
