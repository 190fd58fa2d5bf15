package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// inputsTUIConfig writes a VS Code config whose one server (the test
// binary as the env-token scene) gets ${input:token} in its env.
func inputsTUIConfig(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, filepath.Join(".vscode", "mcp.json"), `{
  "inputs": [{"type": "promptString", "id": "token", "description": "Envy API token", "password": true}],
  "servers": {"envy": {"command": `+strconv.Quote(self)+`,
    "env": {"`+testServerEnv+`": "env-token", "ELICIT_TEST_TOKEN": "${input:token}"}}}}`)
}

// TestTUIConfigInputAsked: a config with ${input:token} in a server's env
// asks for it before the server starts; the password is not echoed, and
// the server starts with what was typed (it reports a digest of it).
func TestTUIConfigInputAsked(t *testing.T) {
	dir := t.TempDir()
	cfg := inputsTUIConfig(t, dir)
	const secret = "hunter2-correct-horse"
	tm := newTmuxSized(t, 80, 24, dir, "--config", cfg)
	s := tm.waitText("Envy API token")
	if !strings.Contains(s, "${input:token}") || !strings.Contains(s, "ELICIT_INPUT_TOKEN gives it without asking") {
		t.Errorf("the form does not say which input it asks for:\n%s", s)
	}
	tm.typeText(secret)
	s = tm.waitFor("the masked value", func(s string) bool { return strings.Count(s, "*") >= len(secret) })
	if strings.Contains(s, "hunter2") {
		t.Fatalf("the password is on screen:\n%s", s)
	}
	tm.press("Enter")
	tm.waitText("envy ready")
	tm.pickTool("envy", "env-token")
	tm.press("Enter")
	s = tm.waitText(tokenDigest(secret))
	if strings.Contains(s, "hunter2") {
		t.Errorf("the password is on screen:\n%s", s)
	}
	tm.press("F8") // the server's stderr and the logs: the value is in neither
	if s := tm.waitText("Logs"); strings.Contains(s, "hunter2") {
		t.Errorf("the password is in the logs:\n%s", s)
	}
	tm.press("C-c")
}

// TestTUIConfigInputAbort: Esc on the inputs form ends start-up with a
// message saying what was not given and how to give it; no server starts.
func TestTUIConfigInputAbort(t *testing.T) {
	dir := t.TempDir()
	cfg := inputsTUIConfig(t, dir)
	tm := newTmuxSized(t, 80, 24, dir, "--config", cfg)
	tm.run("set-option", "-w", "remain-on-exit", "on") // to read what elicit said as it left
	tm.waitText("Envy API token")
	tm.press("Escape")
	s := tm.waitText("start-up aborted")
	if !strings.Contains(s, "${input:token} was not given") || !strings.Contains(s, "ELICIT_INPUT_TOKEN") {
		t.Errorf("the abort does not say what was missing:\n%s", s)
	}
	if strings.Contains(s, "envy ready") || strings.Contains(s, "F1 help") {
		t.Errorf("the TUI started anyway:\n%s", s)
	}
}
