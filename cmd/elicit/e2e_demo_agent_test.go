package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTUIDemoAgentWritesInItsOwnFolder: elicit demo teaches the demo
// agent's fs scenes too (issue 29: the demo shows each), so it serves
// them; the agent's files go to a folder of the demo's own, never where
// elicit demo was started, and that folder is gone with the TUI.
func TestTUIDemoAgentWritesInItsOwnFolder(t *testing.T) {
	t.Parallel()
	cwd, tmp := t.TempDir(), t.TempDir()
	tm := newTmuxCommand(t, 120, 40, cwd, "env", "TERM=xterm-256color", "TMPDIR="+tmp, "XDG_STATE_HOME="+filepath.Join(tmp, "state"), binPath, "demo")
	tm.waitText("demo-2026-07-28")
	tm.press("M-a")
	tm.waitText("alt+h its sessions")
	tm.typeText("write")
	tm.press("Enter")
	tm.waitText("1 question for you (F4)")
	tm.press("F4")
	tm.waitText("Create notes.txt")
	tm.read() // a pane just arrived takes its answering keys after a moment
	tm.press("Enter")
	tm.waitText("(sent written)")
	tm.press("M-a")
	tm.waitText("read back: hello from the demo agent")
	if _, err := os.Stat(filepath.Join(cwd, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("the demo agent wrote where elicit demo was started (%v)", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, "elicit-demo-agent-*", "notes.txt"))
	if len(dirs) != 1 {
		t.Fatalf("notes.txt in the demo agent's folder: %v, want one", dirs)
	}
	tm.press("C-c")
	// Polled: the folder's removal is the observable end (the TUI and its
	// tmux session are gone by then, so there is no screen to wait on).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left, _ := filepath.Glob(filepath.Join(tmp, "elicit-demo-agent-*"))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo agent's folder outlived the TUI: %v", left)
		}
	}
}
