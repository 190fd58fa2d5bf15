package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTUIHangupStopsServer: closing the terminal (tmux kill-session sends
// SIGHUP) ends elicit as SIGTERM does, and the server's process group goes
// with it. The server here ignores its closed stdin, as many do; without
// the SIGHUP handling elicit died at once and left it running.
func TestTUIHangupStopsServer(t *testing.T) {
	dir := t.TempDir()
	// The server says its pid through a FIFO: reading it waits for the
	// server to have started.
	pidFile := filepath.Join(dir, "server.pid")
	if err := syscall.Mkfifo(pidFile, 0o600); err != nil {
		t.Fatal(err)
	}
	said := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(pidFile)
		said <- string(b)
	}()
	tm := newTmux(t, dir, "--", "sh", "-c", "echo $$ > "+pidFile+"; exec sleep 300")
	tm.waitText("F1 help")
	var pid int
	select {
	case s := <-said:
		pid, _ = strconv.Atoi(strings.TrimSpace(s))
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(pidFile, os.O_WRONLY, 0); err == nil {
			_ = f.Close() // the reader above ends
		}
		<-said
		t.Fatal("the server never started")
	}
	if pid == 0 || !alive(pid) {
		t.Fatalf("server %d is not running before the hangup", pid)
	}
	tm.run("kill-session")
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("server %d still runs 20 s after the terminal closed", pid)
		}
		time.Sleep(50 * time.Millisecond) // the interval of a poll of the process
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
