package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// runMsg asks the program to run a command on its terminal, the TUI
// suspended meanwhile (Bridge.RunOnTerminal).
type runMsg struct {
	what string
	cmd  *exec.Cmd
	done chan error // buffered, capacity 1
}

// ranMsg says how a command run on the terminal ended.
type ranMsg struct {
	what string
	err  error
}

// RunOnTerminal suspends the TUI, runs cmd on its terminal (the person
// answers it there: an agent's terminal sign-in) and resumes it; what
// names it for the person. It returns cmd's error, or ctx's when ctx ends
// first (cmd, made with exec.CommandContext, is then killed by its own
// ctx). With no program attached it waits for one, as a prompt does.
func (b *Bridge) RunOnTerminal(ctx context.Context, what string, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	if !b.deliver(ctx, runMsg{what: what, cmd: cmd, done: done}) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: not run: %w", what, err)
		}
		return fmt.Errorf("%s: not run: the TUI is closed", what)
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", what, ctx.Err())
	}
}

// handleRun suspends the program for the command (tea.Exec: the
// terminal released, the command run, the terminal restored).
func (m *Model) handleRun(msg runMsg) tea.Cmd {
	c := &ttyCommand{cmd: msg.cmd, what: msg.what}
	return tea.Exec(c, func(err error) tea.Msg {
		if c.err != nil {
			err = c.err
		}
		msg.done <- err
		return ranMsg{what: msg.what, err: err}
	})
}

func (m *Model) handleRan(msg ranMsg) tea.Cmd {
	what := untrusted.Line(msg.what)
	if msg.err != nil {
		return notice(what + ": " + errText(msg.err))
	}
	return notice(what + ": done (exit 0)")
}

// ttyCommand is a command run on the program's terminal. bubbletea hands
// it the program's input and output, which elicit wraps (cancelreader,
// the frame governor): a child given those gets pipes, not the terminal,
// so when they are the process's own stdin and stdout the child gets
// those files themselves.
type ttyCommand struct {
	cmd  *exec.Cmd
	what string
	// err is the command's own error: bubbletea reports only the
	// terminal's restore when the command succeeded, and that error
	// when it did not.
	err error
}

// fder is what a terminal file has.
type fder interface{ Fd() uintptr }

// sameFile is f when v is (or wraps) f's descriptor.
func sameFile(v any, f *os.File) (*os.File, bool) {
	if d, ok := v.(fder); ok && d.Fd() == f.Fd() {
		return f, true
	}
	return nil, false
}

func (c *ttyCommand) SetStdin(r io.Reader) {
	if f, ok := sameFile(r, os.Stdin); ok {
		c.cmd.Stdin = f
		return
	}
	c.cmd.Stdin = r
}

func (c *ttyCommand) SetStdout(w io.Writer) {
	if f, ok := sameFile(w, os.Stdout); ok {
		c.cmd.Stdout = f
		return
	}
	c.cmd.Stdout = w
}

func (c *ttyCommand) SetStderr(w io.Writer) { c.cmd.Stderr = w }

// Run says what runs, then runs it; the TUI comes back when it exits.
func (c *ttyCommand) Run() error {
	if c.cmd.Stdout != nil {
		fmt.Fprintf(c.cmd.Stdout, "\r\nelicit: %s: %s (the TUI comes back when it exits)\r\n", untrusted.Line(c.what), untrusted.Line(c.cmd.String()))
	}
	c.err = c.cmd.Run()
	if c.err != nil && errors.Is(c.err, exec.ErrNotFound) {
		c.err = fmt.Errorf("the command is not found: %w", c.err)
	}
	return c.err
}
