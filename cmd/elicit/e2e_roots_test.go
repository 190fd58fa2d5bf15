package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testenv"
)

// filesystemServer is the command that starts
// @modelcontextprotocol/server-filesystem over stdio:
// ELICIT_SERVER_FILESYSTEM is the path to its dist/index.js; else npx,
// whose download is done here first (a first fetch takes longer than a
// screen wait). Without node or npx, or when npm cannot fetch it, the
// test is skipped.
func filesystemServer(t *testing.T) []string {
	t.Helper()
	if p := os.Getenv("ELICIT_SERVER_FILESYSTEM"); p != "" {
		testenv.LookPath(t, "node")
		return []string{"node", p}
	}
	testenv.LookPath(t, "npx")
	cmd := []string{"npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31"}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	// With a directory that is not there it says so and exits: by then
	// the package is in npx's cache.
	out, _ := exec.CommandContext(ctx, cmd[0], append(cmd[1:], filepath.Join(t.TempDir(), "none"))...).CombinedOutput()
	if !strings.Contains(string(out), "directories") {
		testenv.Missing(t, "npx could not run server-filesystem (set ELICIT_SERVER_FILESYSTEM):\n%s", out)
	}
	return cmd
}

// TestTUIRootsEditor drives the roots view (alt+r) in tmux against
// server-filesystem, which replaces its allowed directories with our
// roots and re-lists them on every notifications/roots/list_changed: a
// root added (a relative path, made absolute), renamed and another
// removed; a path that does not exist refused; the server allows exactly
// what the view shows; the wire carries one list_changed per change.
func TestTUIRootsEditor(t *testing.T) {
	server := filesystemServer(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"alpha", "beta", "cli"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	alpha, beta := filepath.Join(dir, "alpha"), filepath.Join(dir, "beta")
	args := append([]string{"--root", "alpha", "--name", "fs", "--"}, server...)
	tm := newTmux(t, dir, append(args, filepath.Join(dir, "cli"))...)
	tm.waitText("fs ready 2025-11-25")

	tm.press("M-r")
	tm.waitText("Roots of fs")
	tm.waitText("› alpha  file://" + alpha)
	tm.waitText("listChanged: changes are sent")
	tm.waitText("asked 1×") // the server listed them once connected

	// Add beta, typed relative to elicit's directory.
	tm.press("a")
	tm.waitText("add a root to fs: ▏")
	tm.typeText("beta")
	tm.press("Enter")
	tm.waitText("  beta   file://" + beta)
	tm.waitText("added " + beta + ": fs told")
	tm.waitText("asked 2×") // it re-listed on list_changed

	// Rename it, then remove alpha.
	tm.press("Down", "e")
	tm.waitText("name: beta▏")
	tm.press("C-u")
	tm.typeText("Beta docs")
	tm.press("Enter")
	tm.waitText("› Beta docs  file://" + beta)
	tm.press("Up")
	tm.waitText("› alpha")
	tm.press("d")
	tm.waitFor("alpha to go", func(s string) bool {
		return !strings.Contains(s, "file://"+alpha) && strings.Contains(s, "removed "+alpha+": fs told")
	})

	// A path that does not exist is refused, and the line stays open.
	tm.press("a")
	tm.typeText("nope")
	tm.press("Enter")
	tm.waitText(filepath.Join(dir, "nope") + " does not exist")
	tm.press("Escape")
	tm.waitFor("the line to close", func(s string) bool { return !strings.Contains(s, "add a root to fs") })

	// The server now allows beta alone.
	tm.callTool("list_allowed_directories")
	s := tm.waitText("Allowed directories:")
	if !strings.Contains(s, beta) || strings.Contains(s, alpha+"\n") || strings.Contains(s, filepath.Join(dir, "cli")) {
		t.Errorf("the server allows other than beta:\n%s", s)
	}

	// On the wire: one list_changed per change, and the last roots/list
	// answered with beta alone, under its new name.
	tm.press("F6")
	tm.waitText("Traffic:")
	tm.press("e")
	tm.waitText("elicit-traffic-")
	changed, lastRoots := 0, ""
	asked := map[string]bool{}
	for _, f := range readExport(t, dir) {
		var m wireMsg
		if err := json.Unmarshal(f.Raw, &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case f.Dir == "out" && m.Method == "notifications/roots/list_changed":
			changed++
		case f.Dir == "in" && m.Method == "roots/list":
			asked[string(m.ID)] = true
		case f.Dir == "out" && m.Method == "" && asked[string(m.ID)]:
			lastRoots = string(m.Result)
		}
	}
	if changed != 3 {
		t.Errorf("%d notifications/roots/list_changed, want 3 (add, rename, remove)", changed)
	}
	if want := `{"roots":[{"uri":"file://` + filepath.ToSlash(beta) + `","name":"Beta docs"}]}`; lastRoots != want {
		t.Errorf("last roots/list answer %s, want %s", lastRoots, want)
	}
	tm.press("C-c")
}
