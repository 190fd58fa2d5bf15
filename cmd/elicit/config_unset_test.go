package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/ui"
)

// unsetConfig writes a config of two servers: "locked", an HTTP server
// whose bearer token is ${ELICIT_TEST_UNSET_BEARER} (not set), at a
// server that counts the requests reaching it; and "demo", the demo on
// stdio. It returns the file and the count.
func unsetConfig(t *testing.T, dir string) (string, *atomic.Int64) {
	t.Helper()
	t.Setenv("ELICIT_TEST_UNSET_BEARER", "") // restored after the test
	if err := os.Unsetenv("ELICIT_TEST_UNSET_BEARER"); err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(hs.Close)
	cfg := writeFile(t, dir, "mcp.json", `{"mcpServers": {
		"locked": {"url": `+strconv.Quote(hs.URL+"/mcp")+`, "headers": {"Authorization": "Bearer ${ELICIT_TEST_UNSET_BEARER}"}},
		"demo": {"command": `+strconv.Quote(binPath)+`, "args": ["demo", "--serve", "stdio"]}}}`)
	return cfg, &hits
}

// TestConfigUnsetVariableHeadless: a server whose header names a variable
// that is not set is not started: a headless command naming it exits 3
// with the variable named, and no request reaches it (an empty bearer
// went out before); the other server of the file works.
func TestConfigUnsetVariableHeadless(t *testing.T) {
	cfg, hits := unsetConfig(t, t.TempDir())
	code, out, errs := runBin(t, "tools", "--config", cfg, "--server", "locked")
	if code != exit.Connect || !strings.Contains(errs, "ELICIT_TEST_UNSET_BEARER") || !strings.Contains(out, "ELICIT_TEST_UNSET_BEARER") {
		t.Errorf("--server locked: exit %d (want %d), stdout %s, stderr %q", code, exit.Connect, out, errs)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the server whose bearer is not set", n)
	}
	code, out, errs = runBin(t, "tools", "--config", cfg, "--server", "demo")
	if code != exit.OK || !strings.Contains(out, `"server": "demo"`) {
		t.Errorf("--server demo: exit %d, stderr %q, stdout %.200s", code, errs, out)
	}
}

// TestConfigUnsetVariableTUI: in the TUI the server whose variable is not
// set fails, naming it, and the other connects.
func TestConfigUnsetVariableTUI(t *testing.T) {
	dir := t.TempDir()
	cfg, hits := unsetConfig(t, dir)
	tm := newTmux(t, dir, "--config", cfg)
	tm.waitText("ELICIT_TEST_UNSET_BEARER")
	tm.waitText("● demo") // connected
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the server whose bearer is not set", n)
	}
}

// TestConfigVariablesEverywhere: ${VAR} is expanded in a server's
// command, args, cwd and url as in its env and headers, and one that is
// not set stops that server alone, named; a bare $ in an argument is left
// as written.
// TestConfigUnsetVariableAgent: an ACP agent entry naming a variable that
// is not set is not started either, naming it, and the file's servers and
// other agents load; the hub shows it failed with that error and never
// runs its command.
func TestConfigUnsetVariableAgent(t *testing.T) {
	t.Setenv("ELICIT_TEST_UNSET_Z", "")
	if err := os.Unsetenv("ELICIT_TEST_UNSET_Z"); err != nil {
		t.Fatal(err)
	}
	never := t.TempDir() + "/never-run"
	p := writeFile(t, t.TempDir(), "mcp.json", `{"mcpServers": {
		"srv": {"command": "x"},
		"locked": {"type": "acp", "command": "touch", "args": [`+strconv.Quote(never)+`], "env": {"KEY": "${ELICIT_TEST_UNSET_Z}"}},
		"argy": {"type": "acp", "command": "touch", "args": [`+strconv.Quote(never)+`, "${ELICIT_TEST_UNSET_Z}"]}}}`)
	cfg, err := serverspec.Load(p)
	if err != nil {
		t.Fatalf("one agent's variable failed the whole file: %v", err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Broken != nil || len(cfg.Agents) != 2 {
		t.Fatalf("servers %+v, agents %+v", cfg.Servers, cfg.Agents)
	}
	br := ui.NewBridge(ui.BridgeOptions{})
	br.Attach(func(tea.Msg) {})
	defer br.Close()
	h, err := agents.NewHub(br, question.NewJournal(0), cfg.Agents, agents.HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	h.Close() // waits for the connects: a broken agent's ends at once
	for _, a := range h.Agents() {
		if a.State != client.StateFailed || a.Err == nil || !strings.Contains(a.Err.Error(), "${ELICIT_TEST_UNSET_Z} is not set") {
			t.Errorf("agent %s: %v %v, want failed naming the variable", a.Name, a.State, a.Err)
		}
	}
	if _, err := os.Stat(never); err == nil {
		t.Error("the broken agent's command ran")
	}
}
