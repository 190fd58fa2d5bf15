package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// TestAppOnKeptSession: elicit app TOOL --session NAME hosts the app of
// a session started with --apps: the page is this command's, the tool
// call, the app's resources/read and its button's tools/call go to the
// kept session. Proven on the server's own state (the count the click
// raised is what the next call on the session sees), and in the
// session's recording (its handshake declared MCP Apps; its increment
// call went out on it). A session started without --apps is refused,
// saying to start it with --apps; elicit session list tells them apart.
func TestAppOnKeptSession(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	server := append([]string{"--"}, appsServer(t)...)
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	h.startOn("withapps", server, "--apps", "--record", rec)
	h.startOn("plain", server)

	code, out, errs := h.run("session", "list")
	var list []hub.SessionInfo
	if code != 0 || json.Unmarshal(out, &list) != nil {
		t.Fatalf("session list: exit %d\n%s\n%s", code, out, errs)
	}
	apps := map[string]bool{}
	for _, s := range list {
		apps[s.Session] = s.Apps
	}
	if !apps["withapps"] || apps["plain"] || len(apps) != 2 {
		t.Errorf("session list apps: %v, want withapps true, plain false\n%s", apps, out)
	}
	if !strings.Contains(string(out), `"apps": true`) && !strings.Contains(string(out), `"apps":true`) {
		t.Errorf("session list prints no \"apps\": true:\n%s", out)
	}

	code, out, errs = h.run("app", "counter", "--session", "plain", "--no-open")
	if code != 2 || len(out) != 0 || !strings.Contains(string(errs), "--apps") {
		t.Errorf("app --session on a session without --apps: exit %d, stdout %q, stderr %q; want 2 and a message naming --apps", code, out, errs)
	}

	cmd := exec.Command(binPath, "app", "counter", "--session", "withapps", "--no-open")
	cmd.Env = append(slices.Clone(h.env), "BROWSER=")
	u, stop := serveApp(t, cmd)
	driveCounterApp(t, u)
	stop()

	// The click's increment ran on the kept session's server.
	code, out, errs = h.run("call", "counter", "--session", "withapps")
	if code != 0 || !strings.Contains(string(out), "counter at 2") {
		t.Errorf("call counter on the session after the click: exit %d\n%s\n%s; want \"counter at 2\"", code, out, errs)
	}
	if code, out, errs = h.run("session", "stop", "withapps"); code != 0 {
		t.Fatalf("session stop: exit %d\n%s\n%s", code, out, errs)
	}
	checkSessionAppFrames(t, rec)
}

// checkSessionAppFrames: the session's recording has its initialize
// declaring MCP Apps, and the app's increment call going out on it.
func checkSessionAppFrames(t *testing.T, rec string) {
	t.Helper()
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	declared, called := false, false
	for _, line := range strings.Split(string(b), "\n") {
		var f struct {
			Type, Dir string
			Message   struct {
				Method string
				Params struct {
					Name         string
					Capabilities struct {
						Extensions map[string]json.RawMessage
					}
				}
			}
		}
		if json.Unmarshal([]byte(line), &f) != nil || f.Type != "frame" || f.Dir != "out" {
			continue
		}
		switch f.Message.Method {
		case "initialize":
			_, declared = f.Message.Params.Capabilities.Extensions["io.modelcontextprotocol/ui"]
		case "tools/call":
			called = called || f.Message.Params.Name == "increment"
		}
	}
	if !declared || !called {
		t.Errorf("the session's recording: MCP Apps declared %v, increment called %v; want both:\n%.3000s", declared, called, b)
	}
}
