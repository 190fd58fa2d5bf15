package ui

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestRunOnTerminalBounded: with no program to run it, a terminal
// sign-in waits only as long as its ctx; a program attached is sent the
// command, and its answer is what the command returned.
func TestRunOnTerminalBounded(t *testing.T) {
	b := NewBridge(BridgeOptions{})
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.RunOnTerminal(ctx, "bot: terminal sign-in", exec.Command("true")); err == nil || !strings.Contains(err.Error(), "not run") {
		t.Fatalf("not attached, ctx ended: %v", err)
	}
	got := make(chan tea.Msg, 1)
	b.Attach(func(m tea.Msg) { got <- m })
	done := make(chan error, 1)
	go func() { done <- b.RunOnTerminal(context.Background(), "bot: terminal sign-in", exec.Command("true")) }()
	msg, ok := (<-got).(runMsg)
	if !ok || msg.what != "bot: terminal sign-in" {
		t.Fatalf("the program was sent %#v", msg)
	}
	msg.done <- os.ErrPermission
	if err := <-done; err != os.ErrPermission {
		t.Fatalf("RunOnTerminal returned %v, not the command's error", err)
	}
}

// fdWriter wraps a descriptor as the governor's writer does.
type fdWriter struct {
	bytes.Buffer
	fd uintptr
}

func (w *fdWriter) Fd() uintptr { return w.fd }

// TestTTYCommandGetsTheTerminal: a child run on the terminal gets the
// process's own stdout when the program's writer wraps its descriptor
// (else it would get a pipe), and what it is given otherwise.
func TestTTYCommandGetsTheTerminal(t *testing.T) {
	c := &ttyCommand{cmd: exec.Command("true"), what: "bot: terminal sign-in"}
	c.SetStdout(&fdWriter{fd: os.Stdout.Fd()})
	if c.cmd.Stdout != os.Stdout {
		t.Errorf("stdout %T, not os.Stdout", c.cmd.Stdout)
	}
	var buf bytes.Buffer
	c.SetStdout(&buf)
	if c.cmd.Stdout != &buf {
		t.Errorf("stdout %T, not the writer given", c.cmd.Stdout)
	}
	if err := c.Run(); err != nil || !strings.Contains(buf.String(), "elicit: bot: terminal sign-in: ") {
		t.Errorf("run: %v, said %q", err, buf.String())
	}
}
