package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTUIHangupStopsServer: closing the terminal (tmux kill-session sends
// SIGHUP) ends elicit as SIGTERM does, and the server's process group goes
// with it. The server here ignores its closed stdin, as many do; without
// the SIGHUP handling elicit died at once and left it running.
func TestTUIHangupStopsServer(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "server.pid")
	tm := newTmux(t, dir, "--", "sh", "-c", "echo $$ > "+pidFile+"; exec sleep 300")
	tm.waitText("F1 help")
	var pid int
	deadline := time.Now().Add(20 * time.Second)
	for pid == 0 {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if pid == 0 && time.Now().After(deadline) {
			t.Fatal("the server never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !alive(pid) {
		t.Fatalf("server %d is not running before the hangup", pid)
	}
	tm.run("kill-session")
	deadline = time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("server %d still runs 20 s after the terminal closed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie, dead but not yet reaped,
// does not count).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// TestTUIQuestionWithZWJIsWhole: a question whose message carries emoji
// ZWJ sequences (measured 2 columns, drawn 2 or 8 depending on the
// terminal) is shown whole, wrapped inside its pane: its last words are on
// screen and every row of the pane keeps its right border.
func TestTUIQuestionWithZWJIsWhole(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, t.TempDir(), "--protocol", "2025-11-25", "--name", "hostile", "--", "env", testServerEnv+"=zwj", self)
	tm.waitText("hostile ready")
	tm.press("F5")
	tm.waitText("zwj")
	tm.press("Enter")
	tm.waitText("1 open")
	tm.press("F4") // the questions view, whether or not the question took it
	scr := tm.waitFor("the question's pane", func(s string) bool {
		return strings.Contains(s, "Deploy to staging?") && strings.Contains(s, "esc cancel")
	})
	if !strings.Contains(scr, "ALSO-DELETES-PROD-DB") {
		t.Fatalf("the end of the message is not on screen:\n%s", scr)
	}
	for _, row := range strings.Split(scr, "\n") {
		if strings.HasPrefix(row, "┃") && !strings.HasSuffix(strings.TrimRight(row, " "), "┃") {
			t.Errorf("a pane row lost its right border: %q\n%s", row, scr)
		}
	}
}
