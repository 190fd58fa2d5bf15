package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestTUIACPRecordReplay drives `elicit acp --record FILE` (the TUI on
// the demo agent) in tmux: a permission answered "Always allow" and a
// form answered with its defaults, by a person; then replays the file
// green against the demo agent and red against the altered one.
func TestTUIACPRecordReplay(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "acp-tui.jsonl")
	tm := newTmux(t, dir, "acp", "--record", f)
	tm.waitText("session sess_1")
	tm.typeText("permission")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	tm.waitText("May demo-agent run this tool call?")
	tm.read()
	tm.press("Down", "Enter")
	tm.waitText("allow_always: Always allow (sent selected always)")
	tm.press("M-a")
	tm.waitText("Edited config.json (always).")
	tm.waitText("■ end_turn")
	tm.typeText("question")
	tm.press("Enter")
	tm.waitText("1 open")
	tm.press("F4")
	tm.waitText("How should I approach this refactoring?")
	tm.read()
	tm.press("Enter", "Enter", "Enter")
	tm.press("M-a")
	tm.waitText(`Answer: {"files":5,"strategy":"safe","tests":true}`)
	tm.press("C-c")
	waitEnded(t, f)

	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Settings.Command != "tui" || len(rec.Settings.Agents) != 1 || rec.Settings.Agents[0].Kind != "demo" || len(rec.Calls) != 2 || len(rec.Answers) != 2 {
		t.Fatalf("settings %+v, calls %+v, answers %+v", rec.Settings, rec.Calls, rec.Answers)
	}
	if g := rec.Answers[0].Given; g == nil || g.Option != "always" || rec.Answers[0].Call != 1 {
		t.Errorf("the person's permission answer: %+v", rec.Answers[0])
	}
	code, out, errs := runBin(t, "replay", f)
	if code != exit.OK || !strings.Contains(out, "✓ call 1 demo-agent session/prompt permission") ||
		!strings.Contains(out, "✓ call 2 demo-agent session/prompt question") || !strings.Contains(out, "all matched") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = runBin(t, "replay", f, "--", "env", testServerEnv+"=acp-altered", exe)
	if code != exit.Differs || !strings.Contains(out, "✗ call 1 demo-agent session/prompt permission") ||
		!strings.Contains(out, "✓ call 2 demo-agent session/prompt question") {
		t.Fatalf("replay against the altered agent: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("red replay:\n%s", out)
}

// TestTUIDemoRecordsAgent: elicit demo --record covers the demo agent
// beside the demo server; the replay runs both.
func TestTUIDemoRecordsAgent(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "demo.jsonl")
	tm := newTmux(t, dir, "demo", "--protocol", "2025-11-25", "--record", f)
	tm.waitText("demo-2025-11-25 ready 2025-11-25")
	tm.press("M-a")
	tm.waitText("session sess_1")
	tm.typeText("permission")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	tm.waitText("May demo-agent run this tool call?")
	tm.read()
	tm.press("Enter") // Allow once
	tm.waitText("allow_once: Allow once (sent selected allow)")
	tm.press("M-a")
	tm.waitText("Edited config.json (allow).")
	tm.press("C-c")
	waitEnded(t, f)
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Settings.Command != "demo" || len(rec.Settings.Servers) != 1 || len(rec.Settings.Agents) != 1 {
		t.Fatalf("settings %+v", rec.Settings)
	}
	code, out, errs := runBin(t, "replay", f)
	agentOK := regexp.MustCompile(`✓ call \d+ demo-agent session/prompt permission`)
	if code != exit.OK || !agentOK.MatchString(out) || !strings.Contains(out, "all matched") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
}

// TestTUIACPRecordAuth: an agent that wants a sign-in first; the person
// picks the method in the TUI, and the recording has that question ended
// (not left "open"), so the replay asks it again and answers it at once.
func TestTUIACPRecordAuth(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "auth.jsonl")
	tm := newTmux(t, dir, "acp", "--record", f, "--", binPath, "demo", "--acp", "--acp-auth")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	tm.waitText("asks you to sign in first. Which way?")
	tm.read()
	tm.press("Enter")
	tm.press("M-a")
	tm.waitText("session sess_")
	tm.typeText("hello")
	tm.press("Enter")
	tm.waitText("■ end_turn")
	tm.press("C-c")
	waitEnded(t, f)
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Answers) != 1 || rec.Answers[0].Call != 0 || rec.Answers[0].Outcome != "accept" ||
		rec.Answers[0].Content["method"] != "demo-login" {
		t.Fatalf("the sign-in answer: %+v", rec.Answers)
	}
	// The agent was a command: the replay runs it when the person names it.
	code, out, errs := runBin(t, "replay", f, "--", binPath, "demo", "--acp", "--acp-auth")
	if code != exit.OK || !strings.Contains(out, "session/prompt hello") || !strings.Contains(out, "all matched") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
}
